# tests/docs.sh — the documentation stays true: every option of --help is
# in the man page and the README, the man pages render without warnings,
# make install puts binaries and man pages where PREFIX and DESTDIR say,
# and the scripts are shellcheck-clean.
. tests/lib.sh

opts=$("$FB" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u)
missing_man="" missing_readme=""
for o in $opts; do
	grep -qF -- "$(echo "$o" | sed 's/-/\\-/g')" flashbench.1 || missing_man="$missing_man $o"
	grep -qF -- "$o" README || missing_readme="$missing_readme $o"
done
[ -z "$missing_man" ] && pass "man page covers every option of --help" ||
	fail "man page covers every option of --help" "missing:$missing_man"
[ -z "$missing_readme" ] && pass "README covers every option of --help" ||
	fail "README covers every option of --help" "missing:$missing_readme"

if command -v groff > /dev/null; then
	for m in flashbench.1 erase.1; do
		if LC_ALL=C.UTF-8 groff -ww -man -Tutf8 "$m" > "$TMP/man.txt" 2> "$TMP/groff.err" && [ ! -s "$TMP/groff.err" ] &&
			[ "$(wc -l < "$TMP/man.txt")" -gt 20 ]; then
			pass "man page $m renders without warnings"
		else
			fail "man page $m renders without warnings" "$(head -3 "$TMP/groff.err")"
		fi
	done
else
	skip "man page flashbench.1 renders without warnings" "groff is not installed"
	skip "man page erase.1 renders without warnings" "groff is not installed"
fi

if make -s install PREFIX=/usr DESTDIR="$TMP/root" > "$TMP/inst" 2>&1 &&
	[ -x "$TMP/root/usr/bin/flashbench" ] && [ -x "$TMP/root/usr/bin/flashbench-erase" ] &&
	[ -f "$TMP/root/usr/share/man/man1/flashbench.1" ] && [ -f "$TMP/root/usr/share/man/man1/flashbench-erase.1" ]; then
	pass "make install honours PREFIX and DESTDIR"
else
	fail "make install honours PREFIX and DESTDIR" "$(tail -3 "$TMP/inst")"
fi
grep -qx 'lib=/usr/share/flashbench/lib.sh' "$TMP/root/usr/bin/flashbench-report" &&
	grep -qx 'lib=/usr/share/flashbench/lib.sh' "$TMP/root/usr/bin/flashbench-open-au-sweep" &&
	cmp -s scripts/lib.sh "$TMP/root/usr/share/flashbench/lib.sh" &&
	pass "make install: the scripts find their library in /usr/share/flashbench" ||
	fail "make install: the scripts find their library in /usr/share/flashbench" \
		"$(grep -h '^lib=' "$TMP/root/usr/bin/flashbench-"* | tr '\n' ' ')"
missing=$(named_paths "$TMP/root")
[ -z "$missing" ] && pass "make install: every path the commands and manual pages name is installed" ||
	fail "make install: every path the commands and manual pages name is installed" "$(echo "$missing" | tr '\n' ' ')"
zcat "$TMP/root/usr/share/doc/flashbench/README.gz" 2> /dev/null | cmp -s - README &&
	pass "make install: the README in share/doc/flashbench" || fail "make install: the README in share/doc/flashbench" "missing or different"
# installed under a PREFIX (no DESTDIR), the scripts run and say their names
if make -s install PREFIX="$TMP/prefix" > "$TMP/inst" 2>&1 &&
	"$TMP/prefix/bin/flashbench-report" --help 2>&1 | grep -q '^Usage: flashbench-report ' &&
	"$TMP/prefix/bin/flashbench-open-au-sweep" --help 2>&1 | grep -q '^Usage: flashbench-open-au-sweep ' &&
	[ "$("$TMP/prefix/bin/flashbench-report" --version)" = "flashbench-report (flashbench) $("$FB" --version | sed 's/^flashbench //')" ] &&
	grep -q "$TMP/prefix/share/flashbench/programs/" "$TMP/prefix/share/man/man1/flashbench.1" &&
	grep -q "$TMP/prefix/share/doc/flashbench/README.gz" "$TMP/prefix/share/man/man1/flashbench.1"; then
	pass "installed under a PREFIX: the scripts run, name themselves and their version; the man page names PREFIX's paths"
else
	fail "installed under a PREFIX: the scripts run, name themselves and their version; the man page names PREFIX's paths" \
		"$(tail -3 "$TMP/inst") $("$TMP/prefix/bin/flashbench-report" --help 2>&1 | head -2)"
fi

if command -v shellcheck > /dev/null; then
	if shellcheck -s bash scripts/*.sh > "$TMP/sc" 2>&1; then
		pass "scripts are shellcheck-clean"
	else
		fail "scripts are shellcheck-clean" "$(head -5 "$TMP/sc" | tr '\n' ' ')"
	fi
else
	skip "scripts are shellcheck-clean" "shellcheck is not installed"
fi

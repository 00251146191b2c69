# tests/docs.sh — the documentation stays true: every option of --help is
# in the man page and the README, the man pages render without warnings,
# make install puts binaries and man pages where PREFIX and DESTDIR say,
# and the scripts are shellcheck-clean.
. tests/lib.sh

opts=$("$FB" --help -v | grep -oE -- '--[a-z][a-z-]+' | sort -u)
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

# the man page's simulated-device keys are the ones the tool takes (its
# own refusal lists them)
keys=$("$FB" -a sim:sd-4m,nosuchkey=1 2>&1 | sed -n 's/.*(keys: \(.*\))$/\1/p')
man_keys=$(sed -n '/^\.SH SIMULATED DEVICES/,/^\.SH /p' flashbench.1 | sed -n '/^Keys/,/the list/p' | tr -c 'a-z\n' ' ')
missing=""
for k in $keys; do
	case " $(echo $man_keys) " in *" $k "*) ;; *) missing="$missing $k" ;; esac
done
[ -n "$keys" ] && [ -z "$missing" ] && pass "man page: SIMULATED DEVICES lists every key the tool takes" ||
	fail "man page: SIMULATED DEVICES lists every key the tool takes" "missing:$missing (keys: $keys)"
# a tab in an example renders as \t, not as nothing
if command -v groff > /dev/null; then
	LC_ALL=C.UTF-8 groff -man -Tutf8 flashbench.1 2> /dev/null | col -b 2> /dev/null | grep -qF '("4MiB\t29.6M/s"' &&
		pass "man page: -R's example shows its tab as \\t" || fail "man page: -R's example shows its tab as \\t" "rendered without it"
else
	skip "man page: -R's example shows its tab as \\t" "groff is not installed"
fi

# the README is installed (/usr/share/doc/flashbench/README.gz): the
# source-tree paths it names exist in the tree, and it says that they are
# the source tree's, not the installation's
missing=""
for p in $(grep -oE '(^|[ `(])((tests|bench|scripts|debian|lib|dev|prog|guard|auto|saved|report)/[A-Za-z0-9_./-]*[A-Za-z0-9_])' README |
	sed 's/^[ `(]//' | sort -u); do
	case $p in *NAME* | *PART*) continue ;; esac
	[ -e "$p" ] || compgen -G "$p*" > /dev/null || missing="$missing $p"
done
if [ -z "$missing" ] && grep -q '^A path without a leading `/` in this README' README; then
	pass "README: the source-tree paths it names exist, and it says they are the source tree's"
else
	fail "README: the source-tree paths it names exist, and it says they are the source tree's" "missing:$missing"
fi

# README's --capacity cost figures name the sim each was measured on, so
# that they can be reproduced: the rates and sizes, and for each fake the
# keys, which make the card the figure speaks of (its verdict's kind)
para=$(awk '/^\*\*What it costs\*\*/ { on = 1 } on && /^$/ { exit } on' README | tr '\n' ' ')
bad=""
for base in size=2G,wrate=10M,rrate=20M size=64G,wrate=10M,rrate=20M; do
	grep -qF "\`$base\`" <<< "$para" || bad="$bad no $base;"
done
n=0
while read -r part keys; do
	base=size=2G,wrate=10M,rrate=20M
	[ "$part" = 2 ] && base=size=64G,wrate=10M,rrate=20M
	want=${keys#*fake=}
	want=${want%%,*}
	got=$("$FB" -C --summary "sim:$base,$keys" 2> /dev/null | awk -F ' \\|\\| ' '{ print $3 }')
	[ "$got" = "$want" ] || bad="$bad sim:$base,$keys gave '$got', not $want;"
	n=$((n + 1))
done < <(sed 's/ On 64 GiB / \n2 /' <<< "1 $para" | while read -r part rest; do
	# shellcheck disable=SC2016 # README's backquotes, not expansions
	grep -oE '`(real|fake)=[^`]*`' <<< "$rest" | tr -d '`' | sed "s/^/$part /"
done)
if [ -z "$bad" ] && [ "$n" -ge 8 ]; then
	pass "README: each --capacity cost figure names its sim spec, and the spec makes that card"
else
	fail "README: each --capacity cost figure names its sim spec, and the spec makes that card" "$n specs;$bad"
fi

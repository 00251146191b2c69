# tests/deb.sh — the Debian package: debian/changelog has the version of
# version.h and the scripts' man pages render; then (once per suite, with
# the plain build, when dpkg-buildpackage, debhelper and lintian are
# installed) make deb builds it without leaving anything in the tree, it
# installs (dpkg -x) every file it should, the installed flashbench runs on
# sim:sd-4m, and lintian reports no error.
. tests/lib.sh

version=$(sed -n 's/^#define FLASHBENCH_VERSION "\(.*\)"/\1/p' lib/version.h)
deb_version=$(sed -n '1s/^flashbench (\([^)]*\)).*/\1/p' debian/changelog)
[ -n "$version" ] && [ "$deb_version" = "$version" ] && pass "deb: debian/changelog has the version of version.h" ||
	fail "deb: debian/changelog has the version of version.h" "changelog '$deb_version', version.h '$version'"
if command -v groff > /dev/null; then
	for m in flashbench-report.1 flashbench-open-au-sweep.1; do
		if LC_ALL=C.UTF-8 groff -ww -man -Tutf8 "$m" > "$TMP/man.txt" 2> "$TMP/groff.err" && [ ! -s "$TMP/groff.err" ] &&
			grep -q "flashbench $version" "$m" && [ "$(wc -l < "$TMP/man.txt")" -gt 20 ]; then
			pass "man page $m renders without warnings, names version $version"
		else
			fail "man page $m renders without warnings, names version $version" "$(head -3 "$TMP/groff.err")"
		fi
	done
else
	skip "man pages of the scripts render without warnings" "groff is not installed"
fi

ALL="deb: make deb builds a package and leaves the tree clean|deb: the package holds every file|deb: the installed flashbench runs on sim:sd-4m|deb: lintian reports no error"
[ -n "${FLASHBENCH_NESTED:-}" ] && skip_all "inside a nested test run"
[ "$(cd "$(dirname "$FB")" && pwd -P)" = "$(pwd -P)" ] || skip_all "runs once, with the plain build"
for tool in dpkg-buildpackage dh lintian dpkg git; do
	command -v $tool > /dev/null || skip_all "$tool is not installed (.ci/run installs debhelper and lintian)"
done
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || skip_all "not a git checkout (make deb packs the files git tracks)"
unset MAKEFLAGS MFLAGS MAKELEVEL

mkdir -p "$TMP/deb" "$TMP/root"
before=$(git status --porcelain --ignored)
make -s deb DEBDIR="$TMP/deb" > "$TMP/deb.out" 2> "$TMP/deb.err"
rc=$?
deb=$(ls "$TMP"/deb/flashbench_"$version"_*.deb 2> /dev/null)
after=$(git status --porcelain --ignored)
if [ $rc = 0 ] && [ -f "$deb" ] && [ "$before" = "$after" ]; then
	pass "deb: make deb builds a package and leaves the tree clean"
else
	fail "deb: make deb builds a package and leaves the tree clean" \
		"status $rc, $(tail -3 "$TMP/deb.err" | tr '\n' ' ') $(diff <(echo "$before") <(echo "$after") | head -3 | tr '\n' ' ')"
	exit 0
fi

dpkg -x "$deb" "$TMP/root"
missing=""
for f in usr/bin/flashbench usr/bin/flashbench-erase usr/bin/flashbench-report usr/bin/flashbench-open-au-sweep \
	usr/share/man/man1/flashbench.1.gz usr/share/man/man1/flashbench-erase.1.gz \
	usr/share/man/man1/flashbench-report.1.gz usr/share/man/man1/flashbench-open-au-sweep.1.gz \
	usr/share/bash-completion/completions/flashbench usr/share/bash-completion/completions/flashbench-erase \
	usr/share/flashbench/lib.sh usr/share/doc/flashbench/copyright; do
	[ -e "$TMP/root/$f" ] || missing="$missing $f"
done
for p in scripts/programs/*.fbp; do
	cmp -s "$p" "$TMP/root/usr/share/flashbench/programs/${p##*/}" || missing="$missing programs/${p##*/}"
done
[ -z "$missing" ] && pass "deb: the package holds every file" || fail "deb: the package holds every file" "missing:$missing"

if "$TMP/root/usr/bin/flashbench" -a sim:sd-4m > "$TMP/align" 2> "$TMP/err" && cmp -s "$TMP/align" tests/golden/align-sd-4m.out &&
	[ "$("$TMP/root/usr/bin/flashbench" --version)" = "$("$FB" --version)" ]; then
	pass "deb: the installed flashbench runs on sim:sd-4m"
else
	fail "deb: the installed flashbench runs on sim:sd-4m" "$(head -3 "$TMP/err") $(diff tests/golden/align-sd-4m.out "$TMP/align" | head -3)"
fi

lintian "$deb" > "$TMP/lintian" 2>&1
errors=$(grep -E '^E: ' "$TMP/lintian")
if [ -z "$errors" ] && ! grep -qiE '^(internal error|.*could not)' "$TMP/lintian"; then
	pass "deb: lintian reports no error"
else
	fail "deb: lintian reports no error" "$(echo "$errors" | head -5 | tr '\n' ' ')$(head -3 "$TMP/lintian")"
fi

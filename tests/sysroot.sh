#!/usr/bin/env bash
# tests/sysroot.sh — the test root of lib/sysroot.h cannot weaken the tool,
# and the refusals over dumped trees (tests/unit/sysroot.c over
# tests/sysroot/NAME.tree) need no root:
#   - the tool's binaries carry no test hook: only the unit-test program has
#     sysroot_test_root (tests/unit/sysroot_hook.c), and lib/sysroot.o reads
#     no environment, so nothing can point the tool at a fake tree;
#   - the unit tests pass as nobody, the same tests as for root (as root
#     this runs them again under setpriv; as another user, tests/run has
#     just run them as that user).
set -u
cd "$(dirname "$0")/.." || exit 2
. tests/lib.sh
BUILD=$(dirname "$FB")
UNITS=$BUILD/tests/unit/units

# the hook is where it belongs and nowhere else
name="sysroot: the tool's binaries have no test root (the unit-test program has)"
if ! grep -qa sysroot_test_root "$UNITS"; then
	skip "$name" "the unit-test program has no symbols to look for (stripped?)"
else
	bad=
	for b in "$FB" "$ERASE"; do grep -qa sysroot_test_root "$b" && bad="$bad $b"; done
	if [ -n "$bad" ]; then fail "$name" "sysroot_test_root is in$bad"; else pass "$name"; fi
fi
name="sysroot: lib/sysroot.o reads no environment variable"
if ! command -v nm > /dev/null || [ ! -f "$BUILD/lib/sysroot.o" ]; then
	skip "$name" "no nm, or no $BUILD/lib/sysroot.o"
elif ! calls=$(nm -u "$BUILD/lib/sysroot.o" | tr '\n' ' ') || [[ $calls != *realpath* ]]; then
	fail "$name" "nm shows none of the calls it makes: $calls"
elif [[ $calls =~ getenv|environ ]]; then
	fail "$name" "it calls: $calls"
else
	pass "$name"
fi

# the unit tests as nobody
name="sysroot: the unit tests, every refusal over a dumped tree among them, pass as nobody"
if [ "$(id -u)" -ne 0 ]; then
	skip "$name" "not root: tests/run ran them as uid $(id -u) already"
	exit 0
fi
if ! command -v setpriv > /dev/null || ! id nobody > /dev/null 2>&1; then
	skip "$name" "no setpriv, or no user nobody"
	exit 0
fi
as_nobody() {
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		env -u FLASHBENCH_STATE_DIR HOME="$TMP/nobody" TMPDIR="$TMP/nobody" "$@"
}
mkdir -p "$TMP/nobody" && chown nobody "$TMP/nobody"
if ! as_nobody test -r tests/sysroot/base.tree -a -x "$UNITS"; then
	skip "$name" "nobody cannot read the source tree or run $UNITS"
	exit 0
fi
"$UNITS" > "$TMP/root.out" 2>&1
as_nobody "$UNITS" > "$TMP/nobody.out" 2>&1
rc=$?
refused=$(grep -c '^PASS sysroot: .* is refused$' "$TMP/nobody.out")
if [ $rc -ne 0 ] || grep -q '^FAIL' "$TMP/nobody.out"; then
	fail "$name" "exit $rc: $(grep -m3 '^FAIL' "$TMP/nobody.out" | tr '\n' ' ')"
elif ! diff <(grep '^PASS' "$TMP/root.out") <(grep '^PASS' "$TMP/nobody.out") > "$TMP/diff"; then
	fail "$name" "not the tests that pass as root: $(head -c 300 "$TMP/diff")"
elif [ "$refused" -lt 20 ]; then
	fail "$name" "only $refused refusals passed"
else
	pass "$name"
	echo "($(grep -c '^PASS' "$TMP/nobody.out") unit tests as nobody, $refused of them refusals" \
		"over dumped trees)"
fi

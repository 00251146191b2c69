# tests/dist.sh — make dist: the same bytes twice, exactly the tracked files,
# SOURCE_DATE_EPOCH honoured, and the unpacked tarball builds and passes
# `make check-quick`.  The nested run is a subset (TESTS="$DIST_TESTS",
# default "cli docs": quick, and they need every source file and the
# README/man page) and skips this script, so the suite never recurses.
# Runs once per suite, with the plain build (it builds its own copy anyway).
. tests/lib.sh
ALL="dist: same bytes twice|dist: exactly the files git tracks|dist: SOURCE_DATE_EPOCH sets every date, owner root|dist: the unpacked tarball builds and passes make check-quick"

[ -n "${FLASHBENCH_NESTED:-}" ] && skip_all "inside the test run of an unpacked tarball"
plain_build_only
command -v git > /dev/null && git rev-parse --is-inside-work-tree > /dev/null 2>&1 ||
	skip_all "not a git checkout (make dist packs the files git tracks)"
for tool in tar gzip make; do
	command -v $tool > /dev/null || skip_all "$tool is not installed"
done
export -n MAKEFLAGS MFLAGS MAKELEVEL 2> /dev/null
unset MAKEFLAGS MFLAGS MAKELEVEL

version=$(sed -n 's/^#define FLASHBENCH_VERSION "\(.*\)"/\1/p' lib/version.h)
tarball=flashbench-$version.tar.gz
mkdir -p "$TMP/a" "$TMP/b" "$TMP/c" "$TMP/u"
if ! make -s dist DISTDIR="$TMP/a" > /dev/null 2> "$TMP/err" || ! make -s dist DISTDIR="$TMP/b" > /dev/null 2>> "$TMP/err"; then
	IFS='|'
	for t in $ALL; do fail "$t" "make dist failed: $(head -3 "$TMP/err" | tr '\n' ' ')"; done
	exit 0
fi
if cmp -s "$TMP/a/$tarball" "$TMP/b/$tarball"; then
	pass "dist: same bytes twice"
else
	fail "dist: same bytes twice" "$TMP/a/$tarball and $TMP/b/$tarball differ"
fi

tar tzf "$TMP/a/$tarball" | grep -v '/$' | sed "s,^flashbench-$version/,," > "$TMP/listed"
git ls-files | LC_ALL=C sort > "$TMP/tracked"
if cmp -s "$TMP/listed" "$TMP/tracked" && [ "$(tar tzf "$TMP/a/$tarball" | grep -vc "^flashbench-$version/")" = 0 ]; then
	pass "dist: exactly the files git tracks"
else
	fail "dist: exactly the files git tracks" "$(diff "$TMP/tracked" "$TMP/listed" | head -5 | tr '\n' '|')"
fi

SOURCE_DATE_EPOCH=1000000000 make -s dist DISTDIR="$TMP/c" > /dev/null 2>&1
others=$(TZ=UTC tar tvzf "$TMP/c/$tarball" | grep -v ' 0/0 .* 2001-09-09 01:46 ')
if [ -s "$TMP/c/$tarball" ] && [ -z "$others" ] && ! cmp -s "$TMP/a/$tarball" "$TMP/c/$tarball"; then
	pass "dist: SOURCE_DATE_EPOCH sets every date, owner root"
else
	fail "dist: SOURCE_DATE_EPOCH sets every date, owner root" "$(echo "$others" | head -3 | tr '\n' '|')"
fi

name="dist: the unpacked tarball builds and passes make check-quick"
tar xzf "$TMP/a/$tarball" -C "$TMP/u"
FLASHBENCH_NESTED=1 TESTS="${DIST_TESTS:-cli docs}" make -s -C "$TMP/u/flashbench-$version" check-quick > "$TMP/nested" 2>&1
rc=$?
last=$(tail -1 "$TMP/nested")
if [ $rc = 0 ] && echo "$last" | grep -Eq '^[1-9][0-9]* passed, 0 failed'; then
	pass "$name"
	echo "nested run (TESTS=\"${DIST_TESTS:-cli docs}\"): $last"
else
	fail "$name" "status $rc: $(grep -E '^FAIL|rror' "$TMP/nested" | head -3 | tr '\n' '|') $last"
fi

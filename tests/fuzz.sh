# tests/fuzz.sh — each fuzz harness (tests/fuzz/NAME.c) over its checked-in
# corpus plus a fixed, seeded set of mutations: no crash, no hang, no leak
# (under the ASan build: no sanitizer report).  `make fuzz` runs them for
# minutes.
. tests/lib.sh
dir=${FB%/flashbench}/tests/fuzz
RUNS=${FUZZ_RUNS:-3000}
for src in tests/fuzz/*.c; do
	h=$(basename "$src" .c)
	[ "$h" = driver ] && continue
	if [ ! -x "$dir/$h" ]; then
		fail "fuzz $h" "$dir/$h is missing (make check builds it)"
		continue
	fi
	if "$dir/$h" -n "$RUNS" -s 1 -T 20 -o "$TMP" "tests/fuzz/corpus/$h" > "$TMP/fuzz.out" 2> "$TMP/fuzz.err" &&
		[ ! -s "$TMP/fuzz.err" ] && grep -q "executions" "$TMP/fuzz.out"; then
		pass "fuzz $h: $(sed 's/.*: //; s/ (.*//' "$TMP/fuzz.out"), no finding"
	else
		mkdir -p tests/tmp && cp "$TMP/$h-crash" tests/tmp/ 2> /dev/null
		fail "fuzz $h" "$(head -c 600 "$TMP/fuzz.err" | tr '\n' ' ') (input kept in tests/tmp/$h-crash)"
	fi
done

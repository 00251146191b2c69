# tests/program.sh — program files: the examples in scripts/programs/ give
# the built-in tests' results exactly; parse errors name file, line, column
# and what was expected; writing needs --write; programs that run past the
# end or do not end are refused before any I/O.
. tests/lib.sh
P=scripts/programs

same() { # same NAME "PROGRAM ARGS" "BUILTIN ARGS"
	local name=$1
	# shellcheck disable=SC2086
	"$FB" $2 > "$TMP/p.out" 2> "$TMP/p.err"
	# shellcheck disable=SC2086
	"$FB" $3 > "$TMP/b.out" 2> "$TMP/b.err"
	# the announcement names the option: --program instead of --open-au
	sed -i 's/^flashbench: --[a-z-]* overwrites/flashbench: TEST overwrites/' "$TMP/p.err" "$TMP/b.err"
	if [ -s "$TMP/b.out" ] && cmp -s "$TMP/p.out" "$TMP/b.out" && cmp -s "$TMP/p.err" "$TMP/b.err"; then
		pass "$name"
	else
		fail "$name" "$(diff "$TMP/b.out" "$TMP/p.out" | head -3 | tr '\n' '|') $(cat "$TMP/p.err")"
	fi
}
same "program align.fbp = -a" "--program $P/align.fbp -b 4k -c 3 sim:usb-12m,noise=0.05" "-a -b 4k -c 3 sim:usb-12m,noise=0.05"
same "program interval.fbp = -i" "--program $P/interval.fbp --interval-order=3 --offset=1M sim:sd-4m" \
	"-i --interval-order=3 --offset=1M sim:sd-4m"
same "program scatter.fbp = -s" "--program $P/scatter.fbp --scatter-order=5 --scatter-span=2 sim:cf-16m,noise=0.1" \
	"-s --scatter-order=5 --scatter-span=2 sim:cf-16m,noise=0.1"
same "program open-au.fbp = -O" "--program $P/open-au.fbp --write -e 12M -b 96k --open-au-nr=4 sim:usb-12m" \
	"-O -e 12M -b 96k --open-au-nr=4 sim:usb-12m"
same "program open-au-random.fbp = -O -r" "--program $P/open-au-random.fbp --write -e 4M -b 64k sim:sd-4m" \
	"-O -r -e 4M -b 64k sim:sd-4m"
same "program find-fat.fbp = -f" "--program $P/find-fat.fbp --write -e 2M -b 256k --fat-nr=5 sim:sd-4m" \
	"-f -e 2M -b 256k --fat-nr=5 sim:sd-4m"
same "program --json = --json" "--program $P/align.fbp --json sim:sd-4m" "-a --json sim:sd-4m"

# the generic tree format
cat > "$TMP/tree.fbp" <<'PROG'
# two reads of 4 KiB, ten times each, the best kept
off-linear 1M 2 keep label=where
  len 4k
    repeat 10 min
      read
PROG
golden "program tree format golden" program-tree.out "$FB" --program "$TMP/tree.fbp" sim:sd-4m
JP=${FB%/flashbench}/tests/jsonpath
"$FB" --program "$TMP/tree.fbp" --json sim:sd-4m > "$TMP/tree.json"
got=$("$JP" test results.0.op results.0.label results.0.requests "results.0.children#" \
	results.0.children.1.offset results.0.children.1.length results.0.children.1.min_ns < "$TMP/tree.json" | tr '\n' ' ')
if [ "$got" = "tree off-linear where 20 2 1048576 4096 807656 " ]; then
	pass "program tree format as nested JSON"
else
	fail "program tree format as nested JSON" "$got"
fi

# ------------------------------------------------------------ errors
bad() { # bad NAME PATTERN TEXT
	printf '%s\n' "$3" > "$TMP/bad.fbp"
	expect_error "$1" 2 "$2" "$FB" --program "$TMP/bad.fbp" sim:sd-4m
}
bad "program error: unknown operation" "bad.fbp:2:3: expected an operation .* got 'raed'" $'len 4k\n  raed'
bad "program error: missing argument" "bad.fbp:1:4: expected an argument" "len"
bad "program error: bad size" "bad.fbp:1:5: expected a number or size .* got '4q'" "len 4q"
bad "program error: unknown variable" "bad.fbp:1:5: unknown variable '\\\$blocksise'" 'len $blocksise'
bad "program error: unknown flag" "bad.fbp:1:8: expected sum, min, avg, max, keep or label=NAME, got 'fast'" "len 4k fast"
bad "program error: two outermost operations" "bad.fbp:2:1: a program has one outermost operation" $'len 4k\nread'
bad "program error: indented first line" "bad.fbp:2:3: the first operation must not be indented" $'# x\n  read'
bad "program error: format after an operation" "bad.fbp:2:1: 'format' must come before" $'read\nformat align'
bad "program error: unknown format" "bad.fbp:1:8: expected a format" "format pretty"
bad "program error: trailing operator" "bad.fbp:1:8: expected a number after '\\*'" "len 4k*"
bad "program error: past the end" "reaches byte .* but the device has only 8589934592 bytes" $'off 8G\n  len 4k\n    read'
bad "program error: does not end" "would make more than 100000000 requests" \
	$'repeat 100000\n  repeat 100000\n    len 4k\n      read'
bad "program error: empty" "no operation in the program" "# nothing"
expect_error "program error: missing file" 2 "nonexistent.fbp: cannot read the program" \
	"$FB" --program "$TMP/nonexistent.fbp" sim:sd-4m
expect_error "program that writes needs --write" 2 "open-au.fbp writes to the device: add --write" \
	"$FB" --program "$P/open-au.fbp" sim:sd-4m

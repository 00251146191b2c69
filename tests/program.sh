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
bad "program error: format after an operation" "bad.fbp:2:1: 'format' must come before" $'len 4k\nformat align'
bad "program error: unknown format" "bad.fbp:1:8: expected a format" "format pretty"
bad "program error: trailing operator" "bad.fbp:1:8: expected a number after '\\*'" "len 4k*"
bad "program error: past the end" "reaches byte .* but the device has only 8589934592 bytes" $'off 8G\n  len 4k\n    read'
bad "program error: does not end" "would make 10000000000 requests, more than 100000000; refusing" \
	$'repeat 100000\n  repeat 100000\n    len 4k\n      read'
bad "program error: empty" "no operation in the program" "# nothing"
expect_error "program error: missing file" 2 "nonexistent.fbp: cannot read the program" \
	"$FB" --program "$TMP/nonexistent.fbp" sim:sd-4m
expect_error "program that writes needs --write" 2 "open-au.fbp writes to the device: add --write" \
	"$FB" --program "$P/open-au.fbp" sim:sd-4m

# issue 10: what the parser used to accept silently, or reject wrongly
bad "program error: body under read" "bad.fbp:3:5: read takes no body" $'len 4k\n  read\n    read'
bad "program error: tabs and spaces on one line" "bad.fbp:2:1: the indentation mixes tabs and spaces" \
	$'len 4k\n \tread'
bad "program error: tabs after spaces" "bad.fbp:3:1: indented with tabs, but line 2 is indented with spaces" \
	$'len 4k\n  read\n\tread'
bad "program error: pattern beyond a byte" "bad.fbp:1:9: a byte is 0 to 255 .* got 511" \
	$'pattern 0x1ff\n  len 4k\n    write'
bad "program error: product overflows" "bad.fbp:1:11: the product overflows 64 bits" \
	$'len $size*$size*$size\n  read'
bad "program error: read without len" "bad.fbp:2:3: read has no length: add a len line above it" \
	$'off 1M\n  read'
bad "program error: lone minus" "bad.fbp:1:6: expected a number after '-'" $'off -\n  len 4k\n    read'
bad "program error: negative size" "bad.fbp:1:5: a size must not be negative" $'len -4k\n  read'
# off-list: offsets in the order given, relative to the offset above it
printf 'off 1M keep\n  len 4k keep\n    off-list 8k,0,-4k,$offsets keep\n      read\n' > "$TMP/list.fbp"
got=$("$FB" --program "$TMP/list.fbp" sim:sd-4m | sed -n 's/^ *read .*off=\([0-9]*\) .*/\1/p' | tr '\n' ' ')
[ "$got" = "1056768 1048576 1044480 1048576 " ] && pass "program off-list reads at each offset in order" ||
	fail "program off-list reads at each offset in order" "got '$got'"
bad "program error: empty off-list element" "bad.fbp:2:14: expected a number or list variable before ','" \
	$'len 4k\n  off-list 0,,1M\n    read'
bad "program error: list variable as a number" "bad.fbp:1:5: \\\$offsets is a list" $'len $offsets\n  read'
bad "program error: off-list before the start" "would start before the beginning" $'len 4k\n  off-list 0,-4k\n    read'
printf 'off-linear 1M 2 keep label=where\r\n  len 4k\r\n    repeat 10 min\r\n      read\r\n' > "$TMP/crlf.fbp"
golden "program with CRLF line ends is accepted" program-tree.out "$FB" --program "$TMP/crlf.fbp" sim:sd-4m

# memory must not grow without bound with the number of requests
expect_error "scatter keeping 16M results is refused" 2 "would keep more than 2097152 results in memory.*--scatter-order" \
	"$FB" -s --scatter-order 24 -b 512 -c 1 sim:sd-4m
printf 'len 512 keep\n  repeat 3000000 keep\n    read\n' > "$TMP/many.fbp"
expect_error "a program keeping too many results is refused" 2 "would keep more than 2097152 results" \
	"$FB" --program "$TMP/many.fbp" sim:sd-4m

# a format that does not match the tree: --plot ends (it looped forever in svg.c)
printf 'format align\nlen 4k\n  read\n' > "$TMP/mismatch.fbp"
timeout 60 "$FB" --program "$TMP/mismatch.fbp" sim:sd-4m --plot "$TMP/m.svg" > /dev/null 2>&1
rc=$?
case $rc in
0 | 2) pass "program --plot with a mismatched format ends (status $rc)" ;;
*) fail "program --plot with a mismatched format ends" "status $rc (124: still running after 60 s)" ;;
esac

# 4096-byte sectors: every built-in program runs; the align test's middle
# read starts half a block before the boundary in whole sectors, at least
# one sector (-b 1.5k on 512-byte sectors: 512 bytes before)
for p in "$P"/*.fbp; do
	if "$FB" --program "$p" --write sim:sd-4m,sector=4096 > "$TMP/s.out" 2> "$TMP/s.err" && [ -s "$TMP/s.out" ]; then
		pass "program $(basename "$p") on 4096-byte sectors"
	else
		fail "program $(basename "$p") on 4096-byte sectors" "$(tail -1 "$TMP/s.err")"
	fi
done
half() { # half SECTOR BLOCKSIZE: the offset of the align test's middle read, 1 MiB boundary
	printf 'off 1M keep\n  len $blocksize keep\n    off -$half_block keep\n      read\n' > "$TMP/half.fbp"
	"$FB" --program "$TMP/half.fbp" -b "$2" "sim:sd-4m,sector=$1" | sed -n 's/^ *read .*off=\([0-9]*\) .*/\1/p'
}
for c in "512 1536 1048064" "512 16384 1040384" "4096 4096 1044480" "4096 16384 1040384" "4096 12288 1044480"; do
	set -- $c
	got=$(half "$1" "$2")
	[ "$got" = "$3" ] && pass "align middle read: sector $1, block $2 starts at $3" ||
		fail "align middle read: sector $1, block $2 starts at $3" "got '$got'"
done
if "$FB" -a -b 1.5k sim:sd-4m > "$TMP/a.out" 2> "$TMP/a.err" && grep -q '^align 4096' "$TMP/a.out"; then
	pass "align test with -b 1.5k on 512-byte sectors"
else
	fail "align test with -b 1.5k on 512-byte sectors" "$(cat "$TMP/a.err")"
fi

# rewrite: a write that changes nothing.  On a file of random bytes under
# --preserve: the bytes stay, the journal saves them as they are read (and
# has nothing to put back), the run still counts what it wrote; one request
# is at most 1 MiB
head -c $((16 << 20)) /dev/urandom > "$TMP/rw.img"
before=$(sha256sum < "$TMP/rw.img")
printf 'len 1M\n  off-linear 1M 8\n    rewrite\n' > "$TMP/rw.fbp"
if "$FB" --program "$TMP/rw.fbp" --write --preserve="$TMP/rw.journal" "$TMP/rw.img" > "$TMP/rw.out" 2> "$TMP/rw.err" &&
	[ "$(sha256sum < "$TMP/rw.img")" = "$before" ] &&
	unwrap < "$TMP/rw.err" | grep -q -- '--preserve: put back 0 bytes\|--preserve: the run wrote to none of the 8388608 bytes (8MiB) it saved' &&
	unwrap < "$TMP/rw.err" | grep -q '8MiB in all' &&
	[ ! -e "$TMP/rw.journal" ]; then
	pass "program rewrite: the bytes stay, saved as read, nothing put back, 8MiB counted as written"
else
	fail "program rewrite: the bytes stay, saved as read, nothing put back, 8MiB counted as written" "$(tr '\n' ' ' < "$TMP/rw.err")"
fi
printf 'len 2M\n  rewrite\n' > "$TMP/rw2.fbp"
expect_error "program rewrite of 2MiB is refused" 2 \
	"^flashbench: a rewrite of 2097152 bytes at offset 0: data requests are at most 1048576 bytes \(write more with off-linear\)$" \
	"$FB" --program "$TMP/rw2.fbp" --write "$TMP/rw.img"

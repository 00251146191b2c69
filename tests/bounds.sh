# tests/bounds.sh — numbers and inputs are bounded before any work, and an
# output never replaces an input (no root needed): loop steps counted from
# the program's tree, offsets that would wrap around 2^64, sizes in JSON
# results that no device has, inputs larger than 256 MiB (a file and a pipe),
# -o naming standard input or the file piped into it, and the state
# directory on tmpfs (like the journal's rule).  The sim: spec bounds are
# tests/cases (sim-time-*, sim-noise-*, sim-size-*).
. tests/lib.sh

cd "$TMP" || exit 1

# ------------------------------------------------------------ the VM
printf '%s\n' 'repeat 100000000' '  repeat 100000000' '    seq' > steps.fbp
expect_error "bounds: loop steps counted before the walk" 2 \
	"^flashbench: the test would run 20000000100000000 loop steps, more than 1000000000 \(a loop that would not end\?\); refusing$" \
	"$FB" --program steps.fbp sim:sd-4m
printf '%s\n' 'off 9223372036854775807' '  off 9223372036854775807' '    len 512' '      read' > wrap.fbp
expect_error "bounds: an offset near 2^64 is named, not wrapped" 2 \
	"^flashbench: the test reaches byte 18446744073709551614 but the device has only 8589934592 bytes" \
	"$FB" --program wrap.fbp sim:sd-4m
printf '%s\n' 'off 9223372036854775807' '  off 9223372036854775807' '    off 9223372036854775807' '      len 512' \
	'        read' > past.fbp
expect_error "bounds: an offset past 2^64 is refused" 2 \
	"^flashbench: the test moves past byte 18446744073709551615, beyond any device \(offset 18446744073709551614 plus 9223372036854775807 x 1\)" \
	"$FB" --program past.fbp sim:sd-4m

# ------------------------------------------------------------ saved results
"$FB" -A --json sim:sd-4m > auto.json 2> /dev/null
for bad in -4096 1e400 12.5; do
	sed "0,/\"size\": [0-9]*/s//\"size\": $bad/" auto.json > "size$bad.json"
done
expect_error "bounds: --analyze refuses a negative size" 2 \
	"^flashbench: size-4096.json:[0-9]+:[0-9]+: field device.size is -4096, not a whole number of bytes or blocks" \
	"$FB" --analyze size-4096.json
expect_error "bounds: --analyze refuses a size too large for a number" 2 \
	"^flashbench: size1e400.json:[0-9]+:[0-9]+: field device.size is 1e400, too large" "$FB" --analyze size1e400.json
expect_error "bounds: --analyze refuses a size in fractions of a byte" 2 \
	"field device.size is 12.5, not a whole number" "$FB" --analyze size12.5.json
expect_error "bounds: --compare refuses a negative size" 2 \
	"^flashbench: size-4096.json:[0-9]+:[0-9]+: field device.size is -4096, not a whole number of bytes" \
	"$FB" --compare auto.json size-4096.json
truncate -s 257M huge.txt
expect_error "bounds: --analyze reads no file over 256 MiB" 2 \
	"^flashbench: huge.txt is larger than 256 MiB, far more than any saved flashbench result" "$FB" --analyze huge.txt
expect_error "bounds: --compare reads no file over 256 MiB" 2 "^flashbench: huge.txt is larger than 256 MiB" \
	"$FB" --compare auto.json huge.txt
head -c 257M /dev/zero | "$FB" --analyze - > out 2> err
if [ $? = 2 ] && grep -q "^flashbench: standard input is larger than 256 MiB" err && [ ! -s out ]; then
	pass "bounds: --analyze reads at most 256 MiB from a pipe"
else
	fail "bounds: --analyze reads at most 256 MiB from a pipe" "$(cat err)"
fi

# ------------------------------------------------------------ standard input
"$FB" -a -c 1 sim:sd-4m > res.txt 2> /dev/null
cp res.txt res.orig
# shellcheck disable=SC2094 # reading and naming the same file is the case
expect_error "bounds: -o naming standard input is refused" 2 \
	"^flashbench: --out=res.txt is standard input, which the run reads: the output would overwrite it" \
	"$FB" --analyze - -o res.txt < res.txt
cmp -s res.txt res.orig || fail "bounds: -o naming standard input is refused" "res.txt changed"
"$FB" -A --json sim:usb-12m > a2.json 2> /dev/null
cp auto.json a1.json
# shellcheck disable=SC2002 # the pipe is the case
cat a1.json | "$FB" --compare - a2.json -o a1.json > out 2> err
rc=$?
set -- .a1.json.*
if [ $rc = 2 ] && grep -q "^flashbench: --out=.*a1.json holds exactly what the run read from standard input" err &&
	cmp -s a1.json auto.json && [ ! -e "$1" ]; then
	pass "bounds: -o never replaces the file piped in"
else
	fail "bounds: -o never replaces the file piped in" "rc $rc: $(cat err)"
fi
# shellcheck disable=SC2002 # the pipe is the case
if cat a1.json | "$FB" --compare - a2.json -o new.txt > out 2> err && [ -s new.txt ]; then
	pass "bounds: -o beside a piped input works"
else
	fail "bounds: -o beside a piped input works" "$(cat err)"
fi

# ------------------------------------------------------------ the state directory
shm=$(stat -f -c %T /dev/shm 2> /dev/null)
head -c 32M /dev/zero > card.img
if [ "$shm" = tmpfs ] && [ -w /dev/shm ]; then
	state=/dev/shm/flashbench-state.$$
	FLASHBENCH_STATE_DIR=$state expect_error "bounds: a state directory on tmpfs is refused like a journal there" 2 \
		"^flashbench: --preserve: the index of unfinished journals \($state\) is on tmpfs, which a power cut empties.* add --preserve-volatile to accept that" \
		"$FB" -O -e 1M -b 256k --preserve="$TMP/j" card.img
	if FLASHBENCH_STATE_DIR=$state "$FB" -O -e 1M -b 256k --preserve="$TMP/j" --preserve-volatile card.img > out 2> err; then
		pass "bounds: --preserve-volatile accepts a state directory on tmpfs"
	else
		fail "bounds: --preserve-volatile accepts a state directory on tmpfs" "$(cat err)"
	fi
	rm -rf "$state"
else
	skip "bounds: a state directory on tmpfs is refused like a journal there" "/dev/shm is no writable tmpfs here"
	skip "bounds: --preserve-volatile accepts a state directory on tmpfs" "/dev/shm is no writable tmpfs here"
fi

# ------------------------------------------------------------ the program file
# a writing program whose own file is named as the device (4 KiB of text)
python3 -c "
s = 'format tree\nlen 512\n  write\n'
s += '#' * (4095 - len(s)) + '\n'
open('self.fbp', 'w').write(s)" 2> /dev/null || skip "bounds: a program never writes over its own file" "no python3"
if [ -s self.fbp ]; then
	cp self.fbp self.orig
	expect_error "bounds: a program never writes over its own file" 2 \
		"^flashbench: self.fbp is the --program file the run reads \(self.fbp\): a test would overwrite it" \
		"$FB" --program self.fbp --write self.fbp
	cmp -s self.fbp self.orig || fail "bounds: a program never writes over its own file" "self.fbp changed"
fi

# ------------------------------------------------------------ saved data
# a killed --preserve run's journal, and the index beside it, are never an output
printf '%s\n' seq '  off 8M' '    len 1M' '      pattern 0x5a' '        off-linear 1M 8' '          write' \
	'  len 16M' '    repeat 1000000' '      read' > hold.fbp
head -c 24M /dev/urandom > k.img
"$FB" --program hold.fbp --write --preserve=kj k.img > /dev/null 2> kj.err &
pid=$!
if wait_for "the journal to be saved" 120 grep -q "saved 8388608 bytes" kj.err; then
	kill -KILL "$pid" 2> /dev/null
	wait "$pid" 2> /dev/null
	cp kj kj.orig
	expect_error "bounds: -o never replaces a journal" 2 \
		"^flashbench: --out=kj is a flashbench journal \(data saved from k.img\): the output would destroy what it saved" \
		"$FB" -a -c 1 sim:sd-4m -o kj
	cmp -s kj kj.orig || fail "bounds: -o never replaces a journal" "the journal changed"
	# standard output is an output too: `1<>` and `>>` reach the tool with
	# the journal intact, and so does an index entry of the state directory
	"$FB" -a -c 1 sim:sd-4m 1<> kj 2> kj1.err
	rc1=$?
	"$FB" -a -c 1 sim:sd-4m >> kj 2> kj2.err
	rc2=$?
	if ! cmp -s kj kj.orig; then
		fail "bounds: standard output never writes into a journal" "the journal changed (exit $rc1, $rc2)"
	elif [ $rc1 != 2 ] || [ $rc2 != 2 ] || ! grep -q "^flashbench: standard output is a flashbench journal: the output would destroy the data it saved; redirect it" kj1.err; then
		fail "bounds: standard output never writes into a journal" "exit $rc1, $rc2: $(cat kj1.err)"
	else
		pass "bounds: standard output never writes into a journal"
	fi
	entry=$(ls "$FLASHBENCH_STATE_DIR"/*.entry 2> /dev/null | head -1)
	if [ -n "$entry" ]; then
		cp "$entry" entry.orig
		"$FB" -a -c 1 sim:sd-4m 1<> "$entry" 2> entry.err
		if [ $? = 2 ] && cmp -s "$entry" entry.orig && grep -q "^flashbench: standard output is a file in flashbench's state directory" entry.err; then
			pass "bounds: standard output never writes into the state directory"
		else
			fail "bounds: standard output never writes into the state directory" "$(cat entry.err); entry changed: $(cmp "$entry" entry.orig)"
		fi
	else
		fail "bounds: standard output never writes into the state directory" "no index entry in $FLASHBENCH_STATE_DIR"
	fi
	"$FB" --restore kj k.img > /dev/null 2>&1 || echo "note: could not restore k.img"
else
	kill -KILL "$pid" 2> /dev/null
	fail "bounds: -o never replaces a journal" "no journal: $(cat kj.err)"
fi
# standard output onto an input file, with a redirection that does not
# truncate: refused before anything is read or written
"$FB" -a -c 1 sim:sd-4m > res.txt
cp res.txt res.orig
# in_place_refused NAME FILE ORIG PATTERN CMD...: CMD, its standard output
# opened onto FILE without truncating, exits 2 with PATTERN and FILE stays ORIG
in_place_refused() {
	local name=$1 file=$2 orig=$3 pat=$4 rc
	shift 4
	"$@" 1<> "$file" 2> "$TMP/err"
	rc=$?
	if ! cmp -s "$file" "$orig"; then
		fail "$name" "$file changed (exit $rc)"
	elif [ $rc != 2 ] || [ "$(wc -l < "$TMP/err")" != 1 ] || ! grep -Eq -- "$pat" "$TMP/err"; then
		fail "$name" "exit $rc: $(cat "$TMP/err")"
	else
		pass "$name"
	fi
}
in_place_refused "bounds: standard output never writes into the --analyze input" res.txt res.orig \
	"^flashbench: standard output is the --analyze file the run reads \(res.txt\): the output would overwrite it" \
	"$FB" --analyze=res.txt
"$FB" -a -c 1 --json sim:sd-4m > c1.json
"$FB" -a -c 1 --json sim:usb-12m > c2.json
cp c1.json c1.orig
in_place_refused "bounds: standard output never writes into a --compare input" c1.json c1.orig \
	"^flashbench: standard output is the --compare file the run reads \(c1.json\)" \
	"$FB" --compare c1.json c2.json
expect_error "bounds: -o never goes into the state directory" 2 \
	"^flashbench: --out=$FLASHBENCH_STATE_DIR/x.txt is in flashbench's state directory" \
	"$FB" -a -c 1 sim:sd-4m -o "$FLASHBENCH_STATE_DIR/x.txt"

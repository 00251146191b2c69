# tests/preserve.sh — --preserve on real loop devices (needs root): every
# write test leaves every byte as it was; SIGKILL at random moments followed
# by --restore, and SIGINT alone, always give the device back intact; a torn
# last journal record is skipped; the journal refuses to go where it would
# do harm.
. tests/lib.sh

ALL="preserve: open-au|preserve: open-au random|preserve: find-fat|preserve: auto --write"
ALL="$ALL|preserve: SIGKILL then --restore|preserve: SIGINT restores by itself|preserve: torn last record"
ALL="$ALL|preserve: refuses an unfinished journal|preserve: refuses a journal without room"
ALL="$ALL|preserve: refuses a journal on the device under test|preserve: refuses a simulated device"
is_root || skip_all "needs root for loop devices"
command -v losetup > /dev/null || skip_all "losetup is not installed (util-linux)"


# random but repeatable contents
fill() { # fill FILE MIB SEED
	if command -v python3 > /dev/null; then
		python3 -c "
import random, sys
random.seed($3)
for i in range($2):
    sys.stdout.buffer.write(random.randbytes(1 << 20))" > "$1"
	else
		head -c $(($2 << 20)) /dev/urandom > "$1"
	fi
}
digest() { sha256sum < "$1" | cut -c1-16; }

cd "$TMP" || exit 1
fill small.img 64 1
attach small.img || skip_all "cannot attach a loop device here"
L=$DEV
ORIG=$(digest "$L")

# ------------------------------------------------------------ every test
kept() { # kept NAME ARGS...: a preserving run leaves the device unchanged
	local name=$1
	shift
	if ! "$FB" "$@" --preserve "$L" > out 2> err; then
		fail "$name" "$(tr '\n' ' ' < err)"
	elif [ "$(digest "$L")" != "$ORIG" ]; then
		fail "$name" "the device changed"
	elif ! grep -q "put back .* and verified" err || ls ./*.journal > /dev/null 2>&1; then
		fail "$name" "no restore reported, or a journal left: $(tr '\n' ' ' < err)"
	else
		pass "$name"
	fi
}
kept "preserve: open-au" -O -e 4M -b 256k --open-au-nr=3
kept "preserve: open-au random" -O -r -e 2M -b 128k
kept "preserve: find-fat" -f -e 1M -b 256k --fat-nr=4

fill big.img 320 2
attach big.img
LB=$DEV
BIG=$(digest "$LB")
if "$FB" -A --write --preserve="$TMP/auto.journal" "$LB" > out 2> err && [ "$(digest "$LB")" = "$BIG" ] &&
	grep -q "put back" err && [ ! -e auto.journal ] && grep -q '^written: ' out; then
	pass "preserve: auto --write"
else
	fail "preserve: auto --write" "$(tail -3 err | tr '\n' ' ')"
fi

# ------------------------------------------------------------ fault injection
run_args=(-O -e 2M -b 2k --open-au-nr=2)
start=$(date +%s%N)
"$FB" "${run_args[@]}" --preserve "$L" > /dev/null 2>&1
dur=$(( ($(date +%s%N) - start) / 1000000 ))   # ms, including save and restore
RANDOM=42
trials=0 failures=0 restored=0
for i in $(seq 1 20); do
	at=$(( RANDOM % (dur + 1) ))
	"$FB" "${run_args[@]}" --preserve "$L" > /dev/null 2>&1 &
	pid=$!
	sleep "$(awk -v ms="$at" 'BEGIN { printf "%.3f", ms / 1000 }')"
	kill -KILL "$pid" 2> /dev/null
	wait "$pid" 2> /dev/null
	j=flashbench-$(basename "$L").journal
	if [ -e "$j" ]; then
		"$FB" --restore "$j" "$L" > restore.out 2>&1 || echo "restore failed: $(cat restore.out)"
		restored=$((restored + 1))
	fi
	trials=$((trials + 1))
	[ "$(digest "$L")" = "$ORIG" ] || { failures=$((failures + 1)); echo "SIGKILL trial $i at ${at}ms: device differs"; }
done
echo "SIGKILL fault injection: $trials trials over ${dur}ms runs, $restored needed --restore, $failures failures"
[ $failures = 0 ] && pass "preserve: SIGKILL then --restore" || fail "preserve: SIGKILL then --restore" "$failures of $trials"

trials=0 failures=0
for i in $(seq 1 10); do
	at=$(( RANDOM % (dur + 1) ))
	"$FB" "${run_args[@]}" --preserve "$L" > /dev/null 2> int.err &
	pid=$!
	sleep "$(awk -v ms="$at" 'BEGIN { printf "%.3f", ms / 1000 }')"
	kill -INT "$pid" 2> /dev/null
	wait "$pid"
	rc=$?
	trials=$((trials + 1))
	if [ "$(digest "$L")" != "$ORIG" ] || ls ./*.journal > /dev/null 2>&1; then
		failures=$((failures + 1))
		echo "SIGINT trial $i at ${at}ms: rc $rc, $(tr '\n' ' ' < int.err)"
		rm -f ./*.journal
	elif [ $rc != 0 ] && ! grep -q "stopped by a signal; the saved data were put back and verified" int.err; then
		failures=$((failures + 1))
		echo "SIGINT trial $i: rc $rc without the message: $(tr '\n' ' ' < int.err)"
	fi
done
echo "SIGINT fault injection: $trials trials, $failures failures"
[ $failures = 0 ] && pass "preserve: SIGINT restores by itself" || fail "preserve: SIGINT restores by itself" "$failures of $trials"

# ------------------------------------------------------------ torn record
# A run killed after saving (saving ends before the first write) leaves a
# complete journal; cut its last record short: --restore puts back every
# complete record, skips the torn one and says so.
"$FB" -f -e 1M -b 1k --fat-nr=3 --preserve=torn.journal "$L" > /dev/null 2>&1 &
pid=$!
while [ ! -s torn.journal ] || [ "$(stat -c %s torn.journal)" -lt $((3 * (1 << 20) + 512 + 3 * 32)) ]; do sleep 0.01; done
sleep 0.2
kill -KILL $pid 2> /dev/null
wait $pid 2> /dev/null
cp torn.journal full.journal
truncate -s $(( $(stat -c %s torn.journal) - 1000 )) torn.journal
if "$FB" --restore torn.journal "$L" > torn.out 2>&1 && grep -q "in 2 ranges" torn.out &&
	grep -q "last record was incomplete" torn.out &&
	"$FB" --restore full.journal "$L" > /dev/null 2>&1 && [ "$(digest "$L")" = "$ORIG" ]; then
	pass "preserve: torn last record"
else
	fail "preserve: torn last record" "$(cat torn.out)"
fi

# ------------------------------------------------------------ refusals
touch "flashbench-$(basename "$L").journal"
expect_error "preserve: refuses an unfinished journal" 1 \
	"unfinished run on $L; put it back first with: flashbench --restore flashbench-$(basename "$L").journal $L" \
	"$FB" -O "$L"
rm -f "flashbench-$(basename "$L").journal"

mkdir -p tiny
if mount -t tmpfs -o size=1m tmpfs tiny 2> /dev/null; then
	MNTS+=("$TMP/tiny")
	expect_error "preserve: refuses a journal without room" 2 "tiny has room for .* but the journal needs up to" \
		"$FB" -O -e 4M --preserve="$TMP/tiny/j" "$L"
else
	skip "preserve: refuses a journal without room" "cannot mount a small tmpfs here"
fi

# a disk with two partitions: the journal on the mounted first, the test on
# the second, is on the device under test
truncate -s 64M disk.img
printf '\x00\x00\x00\x00\x83\x00\x00\x00\x00\x08\x00\x00\x00\x78\x00\x00' |
	dd of=disk.img bs=1 seek=446 conv=notrunc status=none
printf '\x00\x00\x00\x00\x83\x00\x00\x00\x00\x80\x00\x00\x00\x80\x00\x00' |
	dd of=disk.img bs=1 seek=462 conv=notrunc status=none
printf '\x55\xaa' | dd of=disk.img bs=1 seek=510 conv=notrunc status=none
attach -P disk.img
sleep 0.2
if [ ! -b "${DEV}p1" ]; then
	skip "preserve: refuses a journal on the device under test" "the kernel here does not scan partitions on loop devices"
elif mkfs.ext4 -q -F "${DEV}p1" > /dev/null 2>&1 && mkdir -p p1 &&
	mount "${DEV}p1" p1; then
	MNTS+=("$TMP/p1")
	expect_error "preserve: refuses a journal on the device under test" 2 "would be on the device under test" \
		"$FB" -O -e 1M -b 256k --preserve="$TMP/p1/j" "${DEV}p2"
else
	skip "preserve: refuses a journal on the device under test" "cannot partition and mount a loop device here"
fi
expect_error "preserve: refuses a simulated device" 2 "needs a real device" "$FB" -O --preserve sim:sd-4m

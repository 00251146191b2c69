# tests/capacity_loop.sh — --capacity on real loop devices (needs root): a
# genuine device is called genuine and holds every byte it held before;
# runs killed with SIGKILL at moments drawn at random along the run's
# journal (by how much it had saved, never by time) and then --restore give
# every byte back; and, where the kernel has device-mapper, a fake made of
# one loop device mapped twice (it wraps around at half its size) is found,
# its period right, and put back intact however it is killed (the run saves
# both aliases of the same flash: the journal must put back the original).
. tests/lib.sh
JP=${FB%/flashbench}/tests/jsonpath

ALL="capacity loop: genuine, every byte as before|capacity loop: SIGKILL then --restore"
ALL="$ALL|capacity loop: a wrap-around fake made with device-mapper|capacity loop: the fake, SIGKILL then --restore"
is_root || skip_all "needs root for loop devices"
command -v losetup > /dev/null || skip_all "losetup is not installed (util-linux)"
cd "$TMP" || exit 1

digest() { sha256sum < "$1" | cut -c1-16; }
# random but repeatable contents
head -c $((96 << 20)) /dev/urandom > card.img
attach card.img || skip_all "cannot attach a loop device here"
L=$DEV
ORIG=$(digest "$L")

if "$FB" -C --json "$L" > genuine.json 2> genuine.err && [ "$(digest "$L")" = "$ORIG" ] &&
	grep -q '"kind": "genuine"' genuine.json && ! ls ./*.journal > /dev/null 2>&1; then
	pass "capacity loop: genuine, every byte as before"
else
	fail "capacity loop: genuine, every byte as before" "$(tail -2 genuine.err | tr '\n' ' ')"
fi

# kill_trials NAME DEVICE LOOP ORIG TRIALS ARGS...: each trial starts a run
# and kills it once its journal holds a number of bytes drawn at random up
# to what a whole run saves; --restore must then give LOOP back as ORIG.
RANDOM=23
kill_trials() {
	local name=$1 dev=$2 loop=$3 orig=$4 trials=$5 j pid full i want failures=0 restored=0
	shift 5
	j=flashbench-$(basename "$dev").journal
	# how much a whole run saves: the journal grows to about that
	full=$("$FB" -C --json "$@" "$dev" 2> /dev/null | "$JP" data.saved 2> /dev/null)
	[ "${full:-0}" -gt 0 ] || full=$((4 << 20))
	for ((i = 0; i < trials; i++)); do
		want=$((512 + (RANDOM * 32768 + RANDOM) % full))
		"$FB" -C "$@" "$dev" > /dev/null 2> trial.err &
		pid=$!
		wait_for "the journal to hold $want bytes (trial $i)" 120 \
			bash -c "! kill -0 $pid 2> /dev/null || { [ -e $j ] && [ \$(stat -c %s $j 2> /dev/null || echo 0) -ge $want ]; }"
		kill -KILL "$pid" 2> /dev/null
		wait "$pid" 2> /dev/null
		if [ -e "$j" ]; then
			"$FB" --restore "$j" "$dev" > restore.out 2>&1 || echo "restore failed: $(cat restore.out)"
			restored=$((restored + 1))
		fi
		[ "$(digest "$loop")" = "$orig" ] || { failures=$((failures + 1)); echo "trial $i (killed at $want bytes): device differs"; }
	done
	echo "$name: $trials trials, $restored needed --restore, $failures failures"
	[ $failures = 0 ] && pass "$name" || fail "$name" "$failures of $trials"
}
kill_trials "capacity loop: SIGKILL then --restore" "$L" "$L" "$ORIG" 12 --max-cache=32M

# A fake: the first half of one loop device, mapped twice.
if ! grep -qw device-mapper /proc/devices || ! command -v dmsetup > /dev/null; then
	why="this kernel has no device-mapper (none in /proc/devices) or dmsetup is missing, so no fake can be made of loop devices"
	skip "capacity loop: a wrap-around fake made with device-mapper" "$why"
	skip "capacity loop: the fake, SIGKILL then --restore" "$why"
	exit 0
fi
name=fbfake$$
half=$((64 << 20))
printf '0 %d linear %s 0\n%d %d linear %s 0\n' $((half / 512)) "$L" $((half / 512)) $((half / 512)) "$L" |
	dmsetup create "$name" || { skip "capacity loop: a wrap-around fake made with device-mapper" "dmsetup create failed"; exit 0; }
trap 'dmsetup remove "$name" 2> /dev/null; cleanup' EXIT
F=/dev/mapper/$name
if "$FB" -C --json "$F" > fake.json 2> fake.err && grep -q '"kind": "wrap"' fake.json &&
	grep -q "\"period\": $half" fake.json && [ "$(digest "$L")" = "$ORIG" ]; then
	pass "capacity loop: a wrap-around fake made with device-mapper"
else
	fail "capacity loop: a wrap-around fake made with device-mapper" "$(tail -2 fake.err | tr '\n' ' ') $(grep -m1 kind fake.json)"
fi
kill_trials "capacity loop: the fake, SIGKILL then --restore" "$F" "$L" "$ORIG" 12 --max-cache=32M

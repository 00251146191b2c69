# tests/capacity_loop.sh — --capacity on real loop devices (needs root): a
# genuine device is called genuine and holds every byte it held before;
# runs killed with SIGKILL at moments drawn at random along the run's
# journal (by how much it had saved, never by time) and then --restore give
# every byte back; and, where the kernel has device-mapper, a fake made of
# one loop device mapped twice (it wraps around at half its size) is found,
# its period right, and put back intact however it is killed (the run saves
# both aliases of the same flash: the journal must put back the original).
. tests/lib.sh

ALL="capacity loop: genuine, every byte as before|capacity loop: SIGKILL then --restore"
ALL="$ALL|capacity loop: a wrap-around fake made with device-mapper|capacity loop: the fake, SIGKILL then --restore"
is_root || skip_all "needs root for loop devices"
command -v losetup > /dev/null || skip_all "losetup is not installed (util-linux)"
cd "$TMP" || exit 1

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

RANDOM=23
kill_trials "capacity loop: SIGKILL then --restore" "$L" "$L" "$ORIG" 12 --max-cache=32M

# A fake: the first half of one loop device, mapped twice.
if ! grep -qw device-mapper /proc/devices || ! command -v dmsetup > /dev/null; then
	why="this kernel has no device-mapper (none in /proc/devices) or dmsetup is missing, so no fake can be made of loop devices (tests/capacity_fuse.sh makes one with FUSE)"
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

# tests/capacity_loop.sh — --capacity on real loop devices (needs root): a
# genuine device is called genuine and holds every byte it held before;
# runs killed with SIGKILL at moments drawn at random along the run's
# journal (by how much it had saved, never by time) and then --restore give
# every byte back.  A fake made of the loop device with device-mapper is
# tests/vm/fakes.sh's (the lab's kernel has device-mapper).
. tests/lib.sh

ALL="capacity loop: genuine, every byte as before|capacity loop: SIGKILL then --restore"
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
# (a fake made of this loop device with device-mapper: tests/vm/fakes.sh,
# in the lab, whose kernel has device-mapper)

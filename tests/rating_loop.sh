# tests/rating_loop.sh — flashbench --rating on a real loop device (needs
# root): its journal keeps every byte as it was after a run (the AUs freed
# with BLKDISCARD first and written whole, the FAT cycles, the random
# writes one at a time and queued, the recording); runs killed with
# SIGKILL at moments drawn along the journal (by how much it had saved,
# never by time) and then --restore give every byte back (the plain build
# only).  A 64 MiB device keeps it short: a run takes about 17 s on an idle
# machine, most of it the journal's saving and putting back; two trials.
. tests/lib.sh

ALL="rating loop: a run, every byte as before|rating loop: SIGKILL then --restore"
is_root || skip_all "needs root for loop devices"
command -v losetup > /dev/null || skip_all "losetup is not installed (util-linux)"
cd "$TMP" || exit 1

head -c $((64 << 20)) /dev/urandom > card.img
attach card.img || skip_all "cannot attach a loop device here"
L=$DEV
ORIG=$(digest "$L")

if "$FB" --rating --json "$L" > run.json 2> run.err && [ "$(digest "$L")" = "$ORIG" ] &&
	! ls ./*.journal > /dev/null 2>&1 && [ "$("$JP" measured.discarded < run.json)" = true ] &&
	[ "$("$JP" data.put_back < run.json)" -gt 0 ] && [ "$("$JP" measured.write_iops_queued < run.json)" != null ] &&
	[ "$("$JP" 'marks#' < run.json)" -gt 0 ]; then
	pass "rating loop: a run, every byte as before"
else
	fail "rating loop: a run, every byte as before" "$(tail -2 run.err | tr '\n' ' ')"
fi

# the kills look for what the journal does, not for memory errors: once,
# with the plain build (each trial is a run cut short and a --restore)
case $FB in */build/*) skip "rating loop: SIGKILL then --restore" "runs once, with the plain build"; exit 0 ;; esac
RANDOM=29
KILL_MODE=--rating KILL_FULL=$("$JP" data.saved < run.json 2> /dev/null) kill_trials "rating loop: SIGKILL then --restore" "$L" "$L" "$ORIG" 2

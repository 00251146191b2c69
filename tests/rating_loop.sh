# tests/rating_loop.sh — --rating's check (through tests/ratingrun until
# the mode has its CLI row) on a real loop device (needs root): with the
# --preserve journal every byte is as before after a run (the AUs freed
# with BLKDISCARD first, written whole, the FAT cycles, the random writes,
# the recording); runs killed with SIGKILL at moments drawn along the
# journal (by how much it had saved, never by time) and then
# `flashbench --restore` give every byte back.  A 64 MiB device keeps it
# short (about 20 s in all, most of it the IOPS runs' time bounds).
. tests/lib.sh
RR=${FB%/flashbench}/tests/ratingrun

ALL="rating loop: a run, every byte as before|rating loop: SIGKILL then --restore"
is_root || skip_all "needs root for loop devices"
command -v losetup > /dev/null || skip_all "losetup is not installed (util-linux)"
[ -x "$RR" ] || { fail "rating loop" "$RR missing (make tests/ratingrun)"; exit 0; }
cd "$TMP" || exit 1

head -c $((64 << 20)) /dev/urandom > card.img
attach card.img || skip_all "cannot attach a loop device here"
L=$DEV
ORIG=$(digest "$L")
J=$TMP/rating.journal

if "$RR" --json --journal="$J" "$L" > run.json 2> run.err && [ "$(digest "$L")" = "$ORIG" ] && [ ! -e "$J" ] &&
	[ "$("$JP" measured.discarded < run.json)" = true ] && [ "$("$JP" data.put_back < run.json)" -gt 0 ] &&
	[ "$("$JP" 'marks#' < run.json)" -gt 0 ]; then
	pass "rating loop: a run, every byte as before"
else
	fail "rating loop: a run, every byte as before" "$(tail -2 run.err | tr '\n' ' ')"
fi

# SIGKILL at a point drawn along what a whole run saves, then --restore
full=$("$JP" data.saved < run.json 2> /dev/null)
[ "${full:-0}" -gt 4096 ] || full=$((8 << 20))
RANDOM=29
failures=0 restored=0 trials=3
for ((i = 0; i < trials; i++)); do
	want=$((512 + (RANDOM * 32768 + RANDOM) % full))
	killed_at "$J" "$want" 120 "$RR" --journal="$J" "$L" > /dev/null 2> trial.err ||
		{ failures=$((failures + 1)); echo "trial $i: $(tail -1 trial.err)"; }
	if [ -e "$J" ]; then
		"$FB" --restore "$J" "$L" > restore.out 2>&1 || echo "restore failed: $(cat restore.out)"
		restored=$((restored + 1))
	fi
	[ "$(digest "$L")" = "$ORIG" ] || { failures=$((failures + 1)); echo "trial $i (killed at $want bytes): device differs"; }
done
echo "rating loop: $trials trials, $restored needed --restore, $failures failures"
[ $failures = 0 ] && pass "rating loop: SIGKILL then --restore" || fail "rating loop: SIGKILL then --restore" "$failures of $trials"

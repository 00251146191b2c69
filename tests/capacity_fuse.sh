# tests/capacity_fuse.sh — --capacity on a fake card that is a real block
# device, made without device-mapper: tests/fakecard.py (FUSE) shows one file
# of 256 MiB backed by 64 MiB that wraps around or drops what lies past it,
# and a loop device over that file is the card (needs root, /dev/fuse and
# python3-fusepy).  Each fake is found, its usable size right to the byte,
# and the backing file holds every byte it held before; runs on the fake
# that wraps, killed with SIGKILL at moments drawn at random along the
# journal and then --restore'd, give every byte back too (two addresses
# reach the same flash: neither may put back the other's stale copy).
. tests/lib.sh
SRC=$PWD

ALL="capacity fuse: a fake that wraps around at 64MiB|capacity fuse: a fake that drops writes past 64MiB"
ALL="$ALL|capacity fuse: the wrap fake, SIGKILL then --restore"
ALL="$ALL|capacity fuse: the wrap fake, SIGKILL once aliases are saved, then --restore"
is_root || skip_all "needs root for loop devices and FUSE mounts"
command -v losetup > /dev/null || skip_all "losetup is not installed (util-linux)"
if [ ! -c /dev/fuse ] || ! grep -qw fuse /proc/filesystems; then
	skip_all "no FUSE here (/dev/fuse is missing or fuse is not in /proc/filesystems)"
fi
PY=
for py in python3 /usr/bin/python3; do
	"$py" "$SRC/tests/fakecard.py" --can > /dev/null 2>&1 && { PY=$py; break; }
done
[ -n "$PY" ] || skip_all "python3-fusepy is not installed (no python3 here imports fusepy with libfuse2)"
cd "$TMP" || exit 1

REAL=$((64 << 20)) CLAIMED=$((256 << 20))
FPID='' MNT=$TMP/mnt
# card_up MODE: a new backing file of REAL random bytes (its digest in
# ORIG), the fake card over it mounted at MNT, and a loop device over the
# card in DEV (taking the loop-device lock).  Returns 1, with why in
# card.err, when the mount or the loop device cannot be made.
card_up() {
	head -c "$REAL" /dev/urandom > backing.img
	ORIG=$(digest backing.img)
	mkdir -p "$MNT"
	"$PY" "$SRC/tests/fakecard.py" "$1" "$CLAIMED" backing.img "$MNT" > fuse.out 2> card.err &
	FPID=$!
	# shellcheck disable=SC2016 # the script's own variables
	wait_for "the FUSE fake to be mounted" 30 \
		bash -c 'grep -qx ready fuse.out || ! kill -0 "$1" 2> /dev/null' _ "$FPID" 2>> card.err
	grep -qx ready fuse.out && [ -e "$MNT/card" ] || return 1
	attach "$MNT/card" 2>> card.err
}
# card_down: the loop device detached, the FUSE file system unmounted, its
# daemon gone (killed if it outlives the unmount).
card_down() {
	local l
	for l in "${LOOPS[@]}"; do detach "${l%% *}" 2> /dev/null; done
	LOOPS=()
	if mountpoint -q "$MNT"; then
		wait_for "$MNT to be unmounted" 30 umount "$MNT" 2> /dev/null || umount -l "$MNT"
	fi
	if [ -n "$FPID" ]; then
		# shellcheck disable=SC2016 # the script's own variables
		wait_for "the FUSE daemon to end" 30 bash -c '! kill -0 "$1" 2> /dev/null' _ "$FPID" ||
			kill -KILL "$FPID" 2> /dev/null
		wait "$FPID" 2> /dev/null
		FPID=
	fi
}
trap 'card_down; cleanup' EXIT

# one_fake NAME MODE KIND: the verdict on the fake card in MODE is KIND, its
# usable size REAL, and the backing file is as it was
one_fake() {
	local name=$1 kind usable
	if ! card_up "$2"; then
		card_down
		fail "$name" "cannot make the fake: $(tail -2 card.err | tr '\n' ' ')"
		return 1
	fi
	"$FB" -C --json --max-cache=16M --preserve="$TMP/$2.journal" "$DEV" > "$2.json" 2> "$2.err"
	kind=$("$JP" verdict.kind < "$2.json" 2> /dev/null)
	usable=$("$JP" usable.value < "$2.json" 2> /dev/null)
	card_down
	if [ "$kind" != "$3" ] || [ "$usable" != "$REAL" ]; then
		fail "$name" "verdict $kind, usable $usable; want $3, $REAL ($(tail -2 "$2.err" | tr '\n' ' '))"
	elif [ "$(digest backing.img)" != "$ORIG" ]; then
		fail "$name" "the backing file changed ($(tail -1 "$2.err"))"
	elif [ -e "$TMP/$2.journal" ]; then
		fail "$name" "the journal was left behind"
	else
		pass "$name"
	fi
}

# The first mount tells whether FUSE mounts work here at all.
if ! card_up wrap; then
	why=$(tail -2 card.err | tr '\n' ' ')
	card_down
	skip_all "cannot mount the FUSE fake or attach a loop device over it: $why"
fi
card_down
one_fake "capacity fuse: a fake that wraps around at 64MiB" wrap wrap
one_fake "capacity fuse: a fake that drops writes past 64MiB" drop drop

# Killed at a size of the journal drawn at random, over all of it and then
# past its first record (the 1 MiB reference at the start of a 256 MiB
# card, most of its bytes): from there on the journal holds the probes past
# 64MiB, whose saved bytes are the flash below that the run had already
# written, and --restore must put back the original over them.
RANDOM=42
if card_up wrap; then
	kill_trials "capacity fuse: the wrap fake, SIGKILL then --restore" "$DEV" backing.img "$ORIG" 6 \
		--max-cache=16M --preserve="$TMP/kill.journal"
	KILL_FROM=$((512 + 32 + (1 << 20))) kill_trials "capacity fuse: the wrap fake, SIGKILL once aliases are saved, then --restore" \
		"$DEV" backing.img "$ORIG" 6 --max-cache=16M --preserve="$TMP/kill.journal"
else
	why="cannot make the fake: $(tail -2 card.err | tr '\n' ' ')"
	fail "capacity fuse: the wrap fake, SIGKILL then --restore" "$why"
	fail "capacity fuse: the wrap fake, SIGKILL once aliases are saved, then --restore" "$why"
fi
card_down

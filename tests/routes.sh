# tests/routes.sh — the routes to lost data an outside pass found (issue
# 28), each closed by a mechanism and checked on the bytes (needs root for
# loop devices and mounts):
#  1. a regular file whose size is no whole number of sectors: its device
#     is its whole sectors, so a journal of it is one --restore reads;
#  2. a journal made through a loop device at an offset goes back to those
#     bytes of the file, whatever window the device it is restored through
#     shows, or nowhere (--device-changed never accepts another window);
#  3. a loop device attached over the image during the run: over a file the
#     run holds a lease, so the attach waits until the data are back; over
#     a loop device, the new alias is seen before the next step and held,
#     and one that was mounted meanwhile is not written over;
#  4. a journal on tmpfs behind an overlay or a loop device is refused;
#  5. the messages: a journal of another format version, a journal full in
#     the middle of a rewrite, what --auto --write's capacity check wrote.
# Every wait is for an event (a line, a lease being broken, a file's
# size), bounded; the images are small (40-64 MiB).
. tests/lib.sh

ALL="routes: a file with a tail, --preserve|routes: a file with a tail, --capacity"
ALL="$ALL|routes: a file with a tail, --restore|routes: a journal that recorded the tail"
ALL="$ALL|routes: another window is refused|routes: --device-changed does not take another window"
ALL="$ALL|routes: a wider window maps the journal|routes: --restore through the file itself"
ALL="$ALL|routes: a loop attached over the file waits for the data|routes: a loop over the loop's file stops the run"
ALL="$ALL|routes: a mount that came during the run is not written over"
ALL="$ALL|routes: a journal on an overlay over tmpfs|routes: a journal on ext4 over a loop over tmpfs"
ALL="$ALL|routes: the index on ext4 over tmpfs|routes: --preserve-volatile takes it there"
ALL="$ALL|routes: a journal of a newer format|routes: --restore of a journal of a newer format"
ALL="$ALL|routes: a full journal in a rewrite|routes: what the capacity check wrote is said"
is_root || skip_all "needs root for loop devices and mounts"
command -v losetup > /dev/null || skip_all "losetup is not installed (util-linux)"
command -v python3 > /dev/null || skip_all "needs python3 (to send a signal at a journal's size, to make journals)"

W=$(mktemp -d) || exit 1
trap 'cleanup; rm -rf "$W"' EXIT
cd "$W" || exit 1
pids=()
alive() { kill -0 "$1" 2> /dev/null; }
has() { grep -qs -- "$1" "$2"; }
# expect_run NAME STATUS PATTERN: the run's status ($rc) and its last line
# on stderr (err) match
expect_run() {
	if [ "$rc" != "$2" ]; then fail "$1" "exit $rc, want $2: $(tail -2 err | tr '\n' ' ')"
	elif ! unwrap < err | tail -1 | grep -Eq -- "$3"; then fail "$1" "message '$(unwrap < err | tail -1)' does not match '$3'"
	else return 0; fi
	return 1
}
no_journal() { ! ls ./*.journal "$FLASHBENCH_STATE_DIR"/*.entry > /dev/null 2>&1; }
# each part begins with no journal (what one that failed left is not the next one's business)
forget_all() { rm -f ./*.journal "$FLASHBENCH_STATE_DIR"/*.entry; }
hold_program
head -c 8M /dev/zero | tr '\0' '\132' > z8
written() { cmp -s -n 8388608 z8 <(dd if="$1" bs=1M skip=8 count=8 status=none 2> /dev/null); }
# a journal's header with field FIELD (dev_size, version) set to VALUE,
# its checksum made again
patch_header() { # patch_header JOURNAL FIELD VALUE
	python3 - "$@" << 'EOF'
import struct, sys
path, field, value = sys.argv[1], sys.argv[2], int(sys.argv[3])
def crc32c(b):
    c = 0xFFFFFFFF
    for x in b:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ (0x82F63B78 & -(c & 1))
    return c ^ 0xFFFFFFFF
with open(path, "r+b") as f:
    h = bytearray(f.read(512))
    if field == "dev_size":
        h[16:24] = struct.pack("<Q", value)
    else:
        h[8:12] = struct.pack("<I", value)
    h[508:512] = struct.pack("<I", crc32c(bytes(h[:508])))
    f.seek(0)
    f.write(h)
EOF
}

# ------------------------------------------------------------ 1. a file with a tail
head -c $(((64 << 20) + 100)) /dev/urandom > tail.img
T0=$(digest tail.img)
"$FB" -O -e 1M -b 128k --open-au-nr=2 --preserve tail.img > out 2> err
rc=$?
expect_run "routes: a file with a tail, --preserve" 0 "^flashbench: --preserve: put back 2097152 bytes \(2MiB\) and verified them$" &&
	{ [ "$(digest tail.img)" = "$T0" ] && no_journal && pass "routes: a file with a tail, --preserve" ||
		fail "routes: a file with a tail, --preserve" "the file differs, or a journal is left"; }
"$FB" -C tail.img > out 2> err
rc=$?
expect_run "routes: a file with a tail, --capacity" 0 "^flashbench: --capacity: put back [0-9]+ bytes .* and verified them" &&
	{ [ "$(digest tail.img)" = "$T0" ] && no_journal && grep -q "^flashbench --capacity: tail.img, 64MiB (67108864 bytes), 512-byte sectors$" out &&
		pass "routes: a file with a tail, --capacity" ||
		fail "routes: a file with a tail, --capacity" "the file differs, a journal is left, or: $(grep -m1 size out)"; }
if held "$W/tail.journal" tail.img; then
	cp tail.journal old.journal
	cp "$FLASHBENCH_STATE_DIR"/*.entry old.entry 2> /dev/null
	"$FB" --restore tail.journal tail.img > out 2> err
	rc=$?
	[ $rc = 0 ] && [ "$(digest tail.img)" = "$T0" ] && [ ! -e tail.journal ] &&
		pass "routes: a file with a tail, --restore" ||
		fail "routes: a file with a tail, --restore" "exit $rc: $(cat err)"
	# what a flashbench before this one wrote: the tail in the device size
	held "$W/tail.journal" tail.img > /dev/null
	patch_header tail.journal dev_size $(((64 << 20) + 100))
	"$FB" --restore tail.journal tail.img > out 2> err
	rc=$?
	[ $rc = 0 ] && [ "$(digest tail.img)" = "$T0" ] && grep -q '^restored 8388608 bytes (8MiB) in 8 ranges' out &&
		pass "routes: a journal that recorded the tail" ||
		fail "routes: a journal that recorded the tail" "exit $rc: $(cat err)"
else
	fail "routes: a file with a tail, --restore" "no journal: $(cat held.err)"
	skip "routes: a journal that recorded the tail" "no journal to patch"
fi
rm -f tail.img

# ------------------------------------------------------------ 2. another window
forget_all
head -c 40M /dev/urandom > win.img
W0=$(digest win.img)
attach -o 8M --sizelimit 32M win.img || skip_all "cannot attach a loop device here"
LA=$DEV
if held "$W/win.journal" "$LA"; then
	W1=$(digest win.img)
	detach "$LA"
	# the same name, now at offset 0 (another free one if it was taken)
	if losetup --sizelimit 32M "$LA" win.img 2> /dev/null; then LB=$LA; record_loop "$LB"; else attach --sizelimit 32M win.img; LB=$DEV; fi
	pat="^flashbench: win.journal holds bytes 8388608 to 41943039 of its medium \(saved through $LA at offset 8388608\), and $LB shows bytes 0 to 33554431 of it; nothing was done \(a restore writes the bytes it saved and no others, --device-changed or not\): put them back through $W/win.img, which shows them all \(flashbench --restore win.journal $W/win.img\)"
	"$FB" --restore win.journal "$LB" > out 2> err
	rc=$?
	expect_run "routes: another window is refused" 2 "$pat" && [ "$(digest win.img)" = "$W1" ] &&
		pass "routes: another window is refused"
	"$FB" --restore win.journal "$LB" --device-changed > out 2> err
	rc=$?
	expect_run "routes: --device-changed does not take another window" 2 "$pat" &&
		{ [ "$(digest win.img)" = "$W1" ] && [ -s win.journal ] &&
			pass "routes: --device-changed does not take another window" ||
			fail "routes: --device-changed does not take another window" "the file changed or the journal is gone"; }
	detach "$LB"
	# offset 0, the whole file: the journal's window lies inside it
	attach win.img
	"$FB" --restore win.journal "$DEV" > out 2> err
	rc=$?
	[ $rc = 0 ] && [ "$(digest win.img)" = "$W0" ] && [ ! -e win.journal ] &&
		grep -q "^restored 8388608 bytes (8MiB) in 8 ranges from win.journal to $DEV" out &&
		pass "routes: a wider window maps the journal" ||
		fail "routes: a wider window maps the journal" "exit $rc: $(cat err)"
	detach "$DEV"
	# and the file itself, as the refusal says
	attach -o 8M --sizelimit 32M win.img
	if held "$W/win.journal" "$DEV"; then
		detach "$DEV"
		"$FB" --restore win.journal "$W/win.img" > out 2> err
		rc=$?
		[ $rc = 0 ] && [ "$(digest win.img)" = "$W0" ] && pass "routes: --restore through the file itself" ||
			fail "routes: --restore through the file itself" "exit $rc: $(cat err)"
	else
		fail "routes: --restore through the file itself" "no journal: $(cat held.err)"
	fi
else
	for t in "another window is refused" "--device-changed does not take another window" \
		"a wider window maps the journal" "--restore through the file itself"; do
		fail "routes: $t" "no journal: $(cat held.err)"
	done
fi
rm -f win.img

# ------------------------------------------------------------ 3. an alias during the run
forget_all
head -c 64M /dev/urandom > race.img
R0=$(digest race.img)
# over the file: stopped once it has announced its writes, the attach is
# made (it waits: the run holds a lease, which the attach breaks), then it
# goes on: it stops, puts its data back, and only then the attach is made
breaking() { grep -Eq "LEASE +BREAKING +[A-Z]+ +$1 " /proc/locks; }
"$FB" -C race.img > out 2> err &
pid=$!
if wait_for "the announcement" 120 event_or_end "$pid" has "capacity writes" err && alive "$pid"; then
	kill -STOP "$pid"
	losetup -f --show race.img > attached 2> attach.err &
	lpid=$!
	wait_for "the lease to break" 30 breaking "$pid"
	kill -CONT "$pid"
	wait "$pid"
	rc=$?
	wait_for "the attach" 30 event_or_end "$lpid" false
	wait "$lpid"
	[ -s attached ] && LOOPS+=("$(cat attached)")
	expect_run "routes: a loop attached over the file waits for the data" 1 \
		"^flashbench: another process opened race.img during the run \(a loop device attached over it, a program reading or writing it\): the run stopped, and the kernel held that open until the saved data were back; (the saved data were put back and verified|nothing needed putting back)$" &&
		{ [ "$(digest race.img)" = "$R0" ] && no_journal && [ -s attached ] &&
			pass "routes: a loop attached over the file waits for the data" ||
			fail "routes: a loop attached over the file waits for the data" "the file differs, a journal is left or the attach failed ($(cat attach.err))"; }
	[ -s attached ] && detach "$(cat attached)"
else
	wait "$pid"
	fail "routes: a loop attached over the file waits for the data" "no announcement: $(cat err)"
fi
# over a loop device: another loop over its file, attached while the run
# is stopped after its announcement, is seen before the run's next step
# (which step that is depends on the machine: seen before the first save,
# the stop line has nothing to say of putting back)
attach race.img
LA=$DEV
"$FB" -C "$LA" > out 2> err &
pid=$!
if wait_for "the announcement" 120 event_or_end "$pid" has "capacity writes" err && alive "$pid"; then
	kill -STOP "$pid"
	LB=
	attach race.img && LB=$DEV
	kill -CONT "$pid"
	wait "$pid"
	rc=$?
	[ -n "$LB" ] || fail "routes: a loop over the loop's file stops the run" "cannot attach a second loop device"
	[ -n "$LB" ] && expect_run "routes: a loop over the loop's file stops the run" 1 \
		"^flashbench: $LB, a loop device over $W/race.img, appeared during the run, another name for the bytes under test \(it is held until the run ends, so that nothing mounts it meanwhile\); the run stopped writing(; the saved data were put back and verified|; nothing needed putting back)?$" &&
		{ [ "$(digest race.img)" = "$R0" ] && no_journal && pass "routes: a loop over the loop's file stops the run" ||
			fail "routes: a loop over the loop's file stops the run" "the file differs, or a journal is left"; }
	[ -z "$LB" ] || detach "$LB"
else
	wait "$pid"
	fail "routes: a loop over the loop's file stops the run" "no announcement: $(cat err)"
fi
# one that came and was mounted while the run wrote (and a file written
# there): at its end the run does not write the saved data over it
mkfs.ext4 -q -F race.img
range8() { dd if="$1" bs=1M skip=8 count=8 status=none | sha256sum; } # what the program writes
Q0=$(range8 race.img)
"$FB" --program hold.fbp --write --preserve="$W/race.journal" "$LA" > out 2> err &
pid=$!
mnt=$W/mnt
mkdir -p "$mnt"
if wait_for "the program's writes" 120 event_or_end "$pid" written "$LA" && alive "$pid" && attach race.img; then
	LB=$DEV
	mount "$LB" "$mnt" 2> mount.err && MNTS+=("$mnt") && echo "written meanwhile" > "$mnt/new.txt" && sync ||
		echo "cannot mount $LB: $(cat mount.err)" >&2
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	expect_run "routes: a mount that came during the run is not written over" 130 \
		"^flashbench: during the run, $LA is in use: $LB, a loop device over $W/race.img, is mounted on $mnt; .*; so the saved data were not put back over what it may have written: they stay in $W/race.journal \(once nothing uses the medium, flashbench --restore $W/race.journal $LA puts them back; or delete it to keep the medium as it is\)" &&
		# (the file system may have written there too since: its journal)
		if [ "$(range8 race.img)" = "$Q0" ] || [ ! -s race.journal ]; then
			fail "routes: a mount that came during the run is not written over" "the saved data were put back"
		elif ! umount "$mnt" 2> mount.err || ! detach "$LB" 2>> mount.err; then
			fail "routes: a mount that came during the run is not written over" "cannot unmount: $(cat mount.err)"
		elif ! "$FB" --restore race.journal "$LA" > out 2> err || [ "$(range8 race.img)" != "$Q0" ]; then
			fail "routes: a mount that came during the run is not written over" "--restore after: $(cat err)"
		else
			pass "routes: a mount that came during the run is not written over"
		fi
	umount "$mnt" 2> /dev/null
else
	kill -KILL "$pid" 2> /dev/null
	wait "$pid" 2> /dev/null
	fail "routes: a mount that came during the run is not written over" "no writes: $(cat err)"
fi
detach "$LA"
rm -f race.img race.journal

# ------------------------------------------------------------ 4. volatile under it
forget_all
head -c 32M /dev/urandom > dev.img
D0=$(digest dev.img)
V=$W/v
mkdir -p "$V/t" "$V/low" "$V/m" "$V/e"
if mount -t tmpfs -o size=64M tmpfs "$V/t" 2> /dev/null; then
	MNTS=("$V/t" "${MNTS[@]}")
	mkdir "$V/t/u" "$V/t/w"
	if mount -t overlay overlay -o "lowerdir=$V/low,upperdir=$V/t/u,workdir=$V/t/w" "$V/m" 2> /dev/null; then
		MNTS=("$V/m" "${MNTS[@]}")
		expect_error "routes: a journal on an overlay over tmpfs" 2 \
			"^flashbench: --preserve: the journal $V/m/j.journal would be on tmpfs \($V/m is an overlay that writes to $V/t/u\), which loses it in the power cut it is there for; put it on a disk \(--preserve=/path/on/disk/FILE\), or add --preserve-volatile to accept that$" \
			"$FB" -O -e 1M -b 128k --open-au-nr=2 --preserve="$V/m/j.journal" dev.img
		umount "$V/m"
	else
		skip "routes: a journal on an overlay over tmpfs" "cannot mount an overlay here"
	fi
	truncate -s 24M "$V/t/e.img"
	if mkfs.ext4 -q -F "$V/t/e.img" && attach "$V/t/e.img" && mount "$DEV" "$V/e"; then
		MNTS=("$V/e" "${MNTS[@]}")
		EL=$DEV
		expect_error "routes: a journal on ext4 over a loop over tmpfs" 2 \
			"^flashbench: --preserve: the journal $V/e/j.journal would be on tmpfs \($V/e is on $EL, a loop device over $V/t/e.img\), which loses it" \
			"$FB" -O -e 1M -b 128k --open-au-nr=2 --preserve="$V/e/j.journal" dev.img
		FLASHBENCH_STATE_DIR=$V/e/state expect_error "routes: the index on ext4 over tmpfs" 2 \
			"^flashbench: --preserve: the index of unfinished journals \($V/e/state\) is on tmpfs \($V/e is on $EL, a loop device over $V/t/e.img\), which a power cut empties" \
			"$FB" -O -e 1M -b 128k --open-au-nr=2 --preserve="$W/j.journal" dev.img
		if "$FB" -O -e 1M -b 128k --open-au-nr=2 --preserve="$V/e/j.journal" --preserve-volatile dev.img > out 2> err &&
			[ "$(digest dev.img)" = "$D0" ] && [ ! -e "$V/e/j.journal" ]; then
			pass "routes: --preserve-volatile takes it there"
		else
			fail "routes: --preserve-volatile takes it there" "$(cat err)"
		fi
		[ "$(digest dev.img)" = "$D0" ] || fail "routes: volatile journals" "dev.img changed"
		umount "$V/e"
		detach "$EL" # before the tmpfs its file is on goes
	else
		for t in "a journal on ext4 over a loop over tmpfs" "the index on ext4 over tmpfs" "--preserve-volatile takes it there"; do
			skip "routes: $t" "cannot make ext4 on a loop device over tmpfs here"
		done
	fi
	umount "$V/t"
else
	for t in "a journal on an overlay over tmpfs" "a journal on ext4 over a loop over tmpfs" \
		"the index on ext4 over tmpfs" "--preserve-volatile takes it there"; do
		skip "routes: $t" "cannot mount tmpfs here"
	done
fi

# ------------------------------------------------------------ 5. messages
forget_all
# a journal of a format this flashbench does not read: named as what it is
if held "$W/new.journal" dev.img; then
	N1=$(digest dev.img)
	patch_header new.journal version 2
	cp new.journal flashbench-dev.img.journal
	why="it is a flashbench journal of format version 2, written by a newer flashbench; this flashbench \([^)]*\) reads version 1: put it back with the flashbench that wrote it"
	expect_error "routes: a journal of a newer format" 2 \
		"^flashbench: --preserve=flashbench-dev.img.journal is a flashbench journal this flashbench cannot read \($why\); it may hold saved data: name another path$" \
		"$FB" -O -e 1M -b 128k --open-au-nr=2 --preserve dev.img
	expect_error "routes: --restore of a journal of a newer format" 2 \
		"^flashbench: new.journal cannot be read by this flashbench: $why; nothing was done and it is kept$" \
		"$FB" --restore new.journal dev.img
	[ "$(digest dev.img)" = "$N1" ] || fail "routes: a journal of a newer format" "dev.img changed"
	rm -f new.journal flashbench-dev.img.journal "$FLASHBENCH_STATE_DIR"/*.entry
else
	fail "routes: a journal of a newer format" "no journal: $(cat held.err)"
fi

# the journal's file system fills up (the device under test, a sparse file
# on it, takes its room as it is written) before a rewrite is saved: the
# run says that, not that the device failed the rewrite
printf '%s\n' seq '  len 1M' '    pattern 0x5a' '      off-linear 1M 2' '        write' \
	'  len 1M' '    off 8M' '      off-linear 1M 3' '        rewrite' > fill.fbp
truncate -s 32M fs.img
if command -v mkfs.ext2 > /dev/null && mkfs.ext2 -q -F -m 0 -b 4096 fs.img && attach fs.img &&
	mkdir -p "$W/small" && mount "$DEV" "$W/small"; then
	MNTS=("$W/small" "${MNTS[@]}")
	truncate -s 16M "$W/small/sparse.img" # the rewrites' 3MiB are data, the writes' 2MiB holes
	dd if=/dev/urandom of="$W/small/sparse.img" bs=1M seek=8 count=3 conv=notrunc status=none
	S0=$(digest "$W/small/sparse.img")
	free=$(($(stat -f -c '%a*%S' "$W/small")))
	dd if=/dev/zero of="$W/small/filler" bs=4096 count=$(((free - (6 << 20)) / 4096)) status=none
	free=$(($(stat -f -c '%a*%S' "$W/small")))
	"$FB" --program fill.fbp --write --preserve="$W/small/j.journal" "$W/small/sparse.img" > out 2> err
	rc=$?
	if [ "$free" -lt $((5 << 20)) ] || [ "$free" -gt $((7 << 20)) ]; then
		skip "routes: a full journal in a rewrite" "the file system keeps $free bytes free, not about 6MiB"
	else
		expect_run "routes: a full journal in a rewrite" 1 \
			"^flashbench: --preserve: (cannot write $W/small/j.journal: No space left on device|the file system of $W/small/j.journal has room for [0-9]+ more bytes but the journal needs up to [0-9]+ more \(for a range it rewrites\); free some space or put it elsewhere \(--preserve=FILE\)); so the 1048576 bytes at [0-9]+ a rewrite read were not written back; the saved data were put back and verified$" &&
			{ [ "$(digest "$W/small/sparse.img")" = "$S0" ] && [ ! -e "$W/small/j.journal" ] &&
				pass "routes: a full journal in a rewrite" ||
				fail "routes: a full journal in a rewrite" "the device is not as before, or the journal is left"; }
	fi
	umount "$W/small"
	detach "$DEV"
else
	skip "routes: a full journal in a rewrite" "cannot make an ext2 file system on a loop device here"
fi

# --auto --write stopped in its capacity check, after its first writes:
# what the check wrote (and put back) is said, not "nothing was written"
truncate -s 1G big.img
python3 - "$FB" "$W/big.j" << 'EOF' > big.rc
import os, signal, subprocess, sys, time
fb, j = sys.argv[1], sys.argv[2]
p = subprocess.Popen([fb, "-A", "--write", "--preserve=" + j, "big.img"], stdout=subprocess.DEVNULL,
                     stderr=open("err", "w"))
# the check's 2MiB at the start saved (two records): its next save means they were written
end = time.monotonic() + 120
while p.poll() is None and time.monotonic() < end:
    try:
        if os.stat(j).st_size > 512 + 2 * (1048576 + 32):
            p.send_signal(signal.SIGINT)
            break
    except FileNotFoundError:
        pass
    time.sleep(0.0002)
print(p.wait())
EOF
if grep -q 'during its capacity check part' err; then
	rc=$(($(cat big.rc) < 0 ? 128 - $(cat big.rc) : $(cat big.rc)))
	expect_run "routes: what the capacity check wrote is said" 130 \
		"^flashbench: stopped by a signal \(SIGINT\) during its capacity check part: findings it had not finished say \"interrupted\"; [0-9.]+[KM]iB \([0-9]+ bytes\) written within bytes 0 to [0-9]+ of big.img; the saved data were put back and verified$" &&
		pass "routes: what the capacity check wrote is said"
else
	skip "routes: what the capacity check wrote is said" "the signal came after the capacity check: $(tail -1 err)"
fi
rm -f big.img

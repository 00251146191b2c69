# tests/medium.sh — one medium under every name (needs root): a write, an
# output, a journal or a restore that reaches the medium under test through
# another name is refused, and one that does not is not.  Each case of
# issue 19's list is here: another loop device over the same file (mounted,
# swap), the file behind a loop device that is busy (mounted in another
# mount namespace, held O_EXCL, a device of a mounted btrfs, reached through
# an unlinked name or a hard link), --restore onto another file with the same
# inode number and onto a loop re-attached to another file, two --preserve
# runs at once, outputs into block devices, the journal's room, a loop over
# an active swap file.  A device-mapper holder and a partition of a loop
# over the file need a kernel that has them: tests/vm/disks.sh (the lab).
. tests/lib.sh

ALL="medium: -O through another loop over a mounted file|medium: erase through another loop over a mounted file"
ALL="$ALL|medium: --auto --write through another loop over a mounted file|medium: the file under a mounted loop"
ALL="$ALL|medium: a journal on the medium's own file system|medium: another loop over an active swap area"
ALL="$ALL|medium: a loop over an active swap file|medium: the file under a loop mounted in another namespace"
ALL="$ALL|medium: a loop mounted in another namespace|medium: the file under a loop held O_EXCL"
ALL="$ALL|medium: the file under a device of a mounted btrfs|medium: an unlinked name and a hard link"
ALL="$ALL|medium: restore onto another file with the same inode|medium: restore onto the right file"
ALL="$ALL|medium: restore onto a loop re-attached to another file|medium: two preserving runs at once"
ALL="$ALL|medium: two runs through a loop and its file|medium: the first run ends well"
ALL="$ALL|medium: -o into a block device|medium: -o into another loop over the file under test"
ALL="$ALL|medium: --plot into a loop over the loop under test|medium: block devices written by no output"
ALL="$ALL|medium: a journal beside the window under test|medium: a write beside a mounted window"
ALL="$ALL|medium: a room refusal says the room there is"
ALL="$ALL|medium: the room counts each range once|medium: --auto --write says its most and refuses before writing"
ALL="$ALL|medium: a journal is no device to test|medium: a journal never restores onto itself"
is_root || skip_all "needs root for loop devices, mounts and swap"
for tool in losetup mkfs.ext4 unshare python3; do
	command -v $tool > /dev/null || skip_all "$tool is not installed"
done

cd "$TMP" || exit 1
digest() { sha256sum < "$1" | cut -c1-16; }
mounted() { mkdir -p "$2" && mount "$1" "$2" 2> /dev/null && MNTS+=("$TMP/$2"); }
unmount() { umount "$TMP/$1" && MNTS=("${MNTS[@]/$TMP\/$1/}"); }
ext4_loop() { truncate -s 64M "$1" && mkfs.ext4 -q -F "$1" && attach "$1"; } # DEV: a loop over a new ext4 image

# ------------------------------------------------------------ another loop over the same file
ext4_loop a.img || skip_all "cannot attach a loop device here"
locked_at=$SECONDS # the loop-device lock is ours from here: what follows is the test's own time
L1=$DEV
attach a.img
L2=$DEV
if mounted "$L1" mnt; then
	head -c 8M /dev/urandom > mnt/data
	sync
	expect_error "medium: -O through another loop over a mounted file" 1 \
		"^flashbench: $L2 is in use: $L1, a loop device over $TMP/a.img, is mounted on $TMP/mnt; unmount it" \
		"$FB" -O -e 1M -b 256k "$L2"
	expect_error "medium: erase through another loop over a mounted file" 1 \
		"^erase: $L2 is in use: $L1, a loop device over $TMP/a.img, is mounted on $TMP/mnt" "$ERASE" "$L2" 16M 8M
	expect_error "medium: --auto --write through another loop over a mounted file" 1 \
		"^flashbench: $L2 is in use: $L1, a loop device over $TMP/a.img, is mounted on $TMP/mnt" \
		"$FB" -A --write "$L2"
	expect_error "medium: the file under a mounted loop" 1 \
		"^flashbench: $TMP/a.img is in use: $L1, a loop device over $TMP/a.img, is mounted on $TMP/mnt" \
		"$FB" -f -e 1M -b 256k "$TMP/a.img"
	if "$FB" -O -e 1M -b 256k --preserve=mnt/j "$L2" > out 2> err; then
		fail "medium: a journal on the medium's own file system" "it ran: $(cat err)"
	elif [ -e mnt/j ] || ! grep -q "is in use: $L1" err; then
		fail "medium: a journal on the medium's own file system" "$(cat err); journal: $(ls mnt)"
	else
		pass "medium: a journal on the medium's own file system"
	fi
	unmount mnt
else
	for t in "-O through another loop over a mounted file" "erase through another loop over a mounted file" \
		"--auto --write through another loop over a mounted file" "the file under a mounted loop" \
		"a journal on the medium's own file system"; do
		skip "medium: $t" "cannot mount ext4 from a loop device here"
	done
fi

# ------------------------------------------------------------ swap
dd if=/dev/zero of=s.img bs=1M count=32 status=none
chmod 600 s.img
attach s.img
LA=$DEV
attach s.img
LB=$DEV
if command -v mkswap > /dev/null && mkswap "$LA" > /dev/null 2>&1 && swapon "$LA" 2> /dev/null; then
	expect_error "medium: another loop over an active swap area" 1 \
		"^flashbench: $LB is in use: $LA, a loop device over $TMP/s.img, is an active swap area; run swapoff $LA first" \
		"$FB" -O -e 1M -b 256k "$LB"
	swapoff "$LA"
else
	skip "medium: another loop over an active swap area" "swapon is not permitted here"
fi
detach "$LA" "$LB"
if mkswap s.img > /dev/null 2>&1 && swapon s.img 2> /dev/null; then
	attach -r s.img
	expect_error "medium: a loop over an active swap file" 1 \
		"^flashbench: $DEV is in use: $TMP/s.img, the file behind it, is an active swap area; run swapoff $TMP/s.img first" \
		"$FB" -O -e 1M -b 256k "$DEV"
	swapoff s.img
	detach "$DEV"
else
	skip "medium: a loop over an active swap file" "swapon of a file in $TMP is not permitted here"
fi

# ------------------------------------------------------------ the file behind a busy loop
ext4_loop b.img
LN=$DEV
mkdir -p ns
unshare -m --propagation private sh -c "mount $LN $TMP/ns && echo mounted > $TMP/ns.ready && exec sleep 600" \
	2> ns.err &
nspid=$!
if wait_for "a mount in another namespace" 60 event_or_end "$nspid" test -s ns.ready 2> /dev/null &&
	kill -0 "$nspid" 2> /dev/null; then
	expect_error "medium: the file under a loop mounted in another namespace" 1 \
		"^flashbench: $TMP/b.img is in use: $LN, a loop device over $TMP/b.img, is mounted on $TMP/ns in the mount namespace of process [0-9]+ \(sleep\)" \
		"$FB" -O -e 1M -b 256k "$TMP/b.img"
	expect_error "medium: a loop mounted in another namespace" 1 \
		"^erase: $LN is in use: $LN is mounted on $TMP/ns in the mount namespace of process [0-9]+ \(sleep\)" \
		"$ERASE" "$LN" 0 1M
else
	skip "medium: the file under a loop mounted in another namespace" "unshare -m cannot mount here: $(cat ns.err)"
	skip "medium: a loop mounted in another namespace" "unshare -m cannot mount here"
fi
kill "$nspid" 2> /dev/null
wait "$nspid" 2> /dev/null

python3 -c "import os, sys, signal; fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
open(sys.argv[2], 'w').write('held')
signal.pause()" "$LN" held &
holder=$!
if wait_for "python3 to hold $LN" 60 event_or_end "$holder" grep -q held held 2> /dev/null &&
	kill -0 "$holder" 2> /dev/null; then
	expect_error "medium: the file under a loop held O_EXCL" 1 \
		"^flashbench: $TMP/b.img is in use: $LN, a loop device over $TMP/b.img, is held open exclusively by process $holder \(python3\), which has $LN open; stop it first" \
		"$FB" -O -e 1M -b 256k "$TMP/b.img"
else
	fail "medium: the file under a loop held O_EXCL" "python3 could not hold $LN"
fi
kill "$holder" 2> /dev/null
wait "$holder" 2> /dev/null

if command -v mkfs.btrfs > /dev/null; then
	truncate -s 128M c1.img c2.img
	attach c1.img
	C1=$DEV
	attach c2.img
	C2=$DEV
	if mkfs.btrfs -q -f -d single -m single "$C1" "$C2" > /dev/null 2>&1 && mounted "$C1" mb; then
		# the file system names one device in mountinfo: test the file behind the other
		other=c2.img
		grep -q " $C2 " /proc/self/mountinfo && other=c1.img
		expect_error "medium: the file under a device of a mounted btrfs" 1 \
			"^flashbench: $TMP/$other is in use: /dev/loop[0-9]+, a loop device over $TMP/$other, is a device of the btrfs file system [0-9a-f-]+, mounted on $TMP/mb; unmount it" \
			"$FB" -O -e 1M -b 256k "$TMP/$other"
		unmount mb
	else
		skip "medium: the file under a device of a mounted btrfs" "cannot make or mount a btrfs of two loop devices here"
	fi
	detach "$C1" "$C2"
else
	skip "medium: the file under a device of a mounted btrfs" "mkfs.btrfs is not installed (btrfs-progs)"
fi

# a loop set up through a name that was unlinked since (sysfs says
# "d.img (deleted)"), the file still reachable through a hard link
ext4_loop d.img
LD=$DEV
ln d.img d2.img
rm d.img
if mounted "$LD" mntd; then
	expect_error "medium: an unlinked name and a hard link" 1 \
		"^flashbench: $TMP/d2.img is in use: $LD, a loop device over $TMP/d.img \(deleted\), is mounted on $TMP/mntd" \
		"$FB" -O -e 1M -b 256k "$TMP/d2.img"
	unmount mntd
else
	skip "medium: an unlinked name and a hard link" "cannot mount ext4 from a loop device here"
fi

# ------------------------------------------------------------ restore
# A run killed while it reads for ever after writing leaves a journal of
# MiB 8..15, all of them overwritten with 0x5a.
hold_program
Z=$(head -c 1M /dev/zero | tr '\0' '\132' | sha256sum)
written() { [ "$(dd if="$1" bs=1M skip=15 count=1 status=none | sha256sum)" = "$Z" ]; }
forget() { # forget JOURNAL: the journal and its index entry go
	grep -l "^journal .*/$1\$" "$FLASHBENCH_STATE_DIR"/*.entry 2> /dev/null | xargs -r rm -f
	rm -f "$1"
}
truncate -s 40M fs1.img fs2.img
mkfs.ext4 -q -F fs1.img
mkfs.ext4 -q -F fs2.img
attach fs1.img
F1=$DEV
attach fs2.img
F2=$DEV
if mounted "$F1" m1 && mounted "$F2" m2; then
	head -c 24M /dev/urandom > m1/card.img
	head -c 24M /dev/urandom > m2/other.img
	card=$(digest m1/card.img) other=$(digest m2/other.img)
	if [ "$(stat -c %i m1/card.img)" != "$(stat -c %i m2/other.img)" ]; then
		echo "note: the two files have different inodes; the case still runs"
	fi
	if held j3 m1/card.img; then
		expect_error "medium: restore onto another file with the same inode" 2 \
			"^flashbench: j3 was written for m1/card.img \(medium=file:[0-9]+:[0-9]+;offset=0\), and m2/other.img is not recognised as the same medium" \
			"$FB" --restore j3 m2/other.img
		if [ "$(digest m2/other.img)" != "$other" ] || [ ! -s j3 ]; then
			fail "medium: restore onto another file with the same inode" "other.img changed or the journal is gone"
		fi
		if "$FB" --restore j3 m1/card.img > out 2> err && [ "$(digest m1/card.img)" = "$card" ] && [ ! -e j3 ]; then
			pass "medium: restore onto the right file"
		else
			fail "medium: restore onto the right file" "$(cat err)"
		fi
	else
		fail "medium: restore onto another file with the same inode" "no journal: $(cat held.err)"
		skip "medium: restore onto the right file" "no journal"
		forget j3
	fi
	unmount m1
	unmount m2
else
	skip "medium: restore onto another file with the same inode" "cannot mount ext4 from a loop device here"
	skip "medium: restore onto the right file" "cannot mount ext4 from a loop device here"
fi

# a loop device set up through a name that is unlinked before the run,
# then re-attached to another file: the same device number, another medium
head -c 24M /dev/urandom > x.img
head -c 24M /dev/urandom > y.img
attach x.img
LX=$DEV
rm x.img
if held j4 "$LX"; then
	detach "$LX"
	losetup "$LX" y.img && record_loop "$LX"
	yorig=$(digest y.img)
	expect_error "medium: restore onto a loop re-attached to another file" 2 \
		"^flashbench: j4 was written for $LX \(medium=file:[0-9:]+;offset=0\), and $LX is not recognised as the same medium" \
		"$FB" --restore j4 "$LX"
	[ "$(digest y.img)" = "$yorig" ] || fail "medium: restore onto a loop re-attached to another file" "y.img changed"
else
	fail "medium: restore onto a loop re-attached to another file" "no journal: $(cat held.err)"
fi
forget j4

# ------------------------------------------------------------ one claim
head -c 24M /dev/urandom > e.img
orig=$(digest e.img)
"$FB" --program hold.fbp --write --preserve=jA "$TMP/e.img" > /dev/null 2> runA.err &
runA=$!
if wait_for "the first run's writes" 120 event_or_end "$runA" written e.img && kill -0 "$runA" 2> /dev/null; then
	expect_error "medium: two preserving runs at once" 1 \
		"^flashbench: $TMP/e.img is in use: another flashbench run \(process $runA\) is writing to this medium" \
		"$FB" -O -e 1M -b 256k --preserve=jB "$TMP/e.img"
	attach e.img
	expect_error "medium: two runs through a loop and its file" 1 \
		"^flashbench: $DEV is in use: another flashbench run \(process $runA\) is writing to this medium" \
		"$FB" --restore jA "$DEV"
	detach "$DEV"
	kill -INT "$runA"
	wait "$runA"
	if [ "$(digest e.img)" = "$orig" ] && [ ! -e jA ] && [ ! -e jB ]; then
		pass "medium: the first run ends well"
	else
		fail "medium: the first run ends well" "$(cat runA.err)"
	fi
else
	fail "medium: two preserving runs at once" "the first run did not write: $(cat runA.err)"
	kill -KILL "$runA" 2> /dev/null
	wait "$runA" 2> /dev/null
	forget jA
fi

# ------------------------------------------------------------ outputs
head -c 32M /dev/urandom > o.img
attach o.img
OA=$DEV
attach o.img
OB=$DEV
attach "$OA"
OC=$DEV
before=$(digest o.img)
expect_error "medium: -o into a block device" 2 "^flashbench: --out=$L1 is a block device: an output never goes to one" \
	"$FB" -a -c 1 --json sim:sd-4m -o "$L1"
expect_error "medium: -o into another loop over the file under test" 2 "^flashbench: --out=$OB is a block device" \
	"$FB" -a -c 1 "$OA" -o "$OB"
expect_error "medium: --plot into a loop over the loop under test" 2 "^flashbench: --plot=$OC is a block device" \
	"$FB" -a -c 1 "$OA" --plot "$OC"
if [ "$(digest o.img)" = "$before" ]; then
	pass "medium: block devices written by no output"
else
	fail "medium: block devices written by no output" "o.img changed"
fi

# ------------------------------------------------------------ windows of one file
# Two loop devices over the halves of one file, as two partitions: the
# first mounted with the journal on it; the second tested.
truncate -s 64M w.img
attach --sizelimit 32M w.img
W1=$DEV
attach --offset 32M --sizelimit 32M w.img
W2=$DEV
if mkfs.ext4 -q -F "$W1" > /dev/null 2>&1 && mounted "$W1" mw; then
	expect_error "medium: a journal beside the window under test" 2 \
		"^flashbench: --preserve: the journal mw/j would be on the device under test: its file system is on a loop device over $TMP/w.img; put it on another disk" \
		"$FB" -O -e 1M -b 256k --preserve=mw/j "$W2"
	if "$FB" -O -e 1M -b 256k "$W2" > out 2> err; then
		unmount mw
		if e2fsck -fn "$W1" > fsck.out 2>&1; then
			pass "medium: a write beside a mounted window"
		else
			fail "medium: a write beside a mounted window" "the first half's file system is damaged: $(tail -3 fsck.out)"
		fi
	else
		fail "medium: a write beside a mounted window" "refused: $(cat err)"
		unmount mw
	fi
else
	skip "medium: a journal beside the window under test" "cannot mount a loop device with an offset here"
	skip "medium: a write beside a mounted window" "cannot mount a loop device with an offset here"
fi

# ------------------------------------------------------------ room
# The journal's file system has room for the 32 MiB -O saves (and a little
# more), not for twice that: each range is counted once.
truncate -s 48M room.img
mkfs.ext4 -q -F -m 0 room.img
head -c 96M /dev/urandom > t.img
torig=$(digest t.img)
attach room.img
if mounted "$DEV" mr; then
	free=$(( $(stat -f -c '%a * %S' mr) ))
	# leave 38 MB free
	[ "$free" -gt 38000000 ] && fallocate -l $((free - 38000000)) mr/fill
	if "$FB" -O -e 4M -b 1M --open-au-nr=8 --preserve=mr/j "$TMP/t.img" > out 2> err &&
		grep -qx "flashbench: journal: mr/j (room for 32MiB)" err &&
		grep -q "put back 33554432 bytes" err && [ "$(digest t.img)" = "$torig" ]; then
		pass "medium: the room counts each range once"
	else
		fail "medium: the room counts each range once" "$(tr '\n' ' ' < err)"
	fi
	# a refusal says the room there is (h19b S8: "room for 0 more bytes"
	# with 38 MB free, measured after the failed fallocate took it)
	free=$(( $(stat -f -c '%a * %S' mr) ))
	"$FB" -f -e 4M -c 1 --fat-nr=10 --preserve=mr/c.journal "$TMP/t.img" > out 2> err
	rc=$?
	room=$(sed -n 's/.*has room for \([0-9]*\) more bytes but the journal needs up to 41944320 more.*/\1/p' err)
	if [ $rc = 2 ] && [ -n "$room" ] && [ "$room" -le "$free" ] && [ "$room" -ge $((free - 1048576)) ] &&
		[ ! -e mr/c.journal ] && [ "$(digest t.img)" = "$torig" ]; then
		pass "medium: a room refusal says the room there is"
	else
		fail "medium: a room refusal says the room there is" "rc $rc, $free bytes free: $(tr '\n' ' ' < err)"
	fi
	# --auto --write on 96 MiB may save what it writes, at most 48 MiB (half
	# the medium): more than 38 MB
	attach t.img
	"$FB" -A --write --preserve=mr/ja "$DEV" > out 2> err
	rc=$?
	if grep -q "too small for --auto --write" err; then
		skip "medium: --auto --write says its most and refuses before writing" \
			"the read phase took this loop device's noise for an erase block too large (nothing written)"
	elif [ $rc = 2 ] && grep -q "^flashbench: --preserve: the file system of mr/ja has room for [0-9]* more bytes but the journal needs up to [0-9]* more (this run saves at most [0-9]* bytes" err &&
		[ "$(wc -l < err)" = 1 ] && grep -q 'this run saves at most 50331648 bytes (48MiB)' err &&
		[ "$(digest t.img)" = "$torig" ] && [ ! -e mr/ja ]; then
		pass "medium: --auto --write says its most and refuses before writing"
	else
		fail "medium: --auto --write says its most and refuses before writing" "rc $rc: $(tr '\n' ' ' < err)"
	fi
	unmount mr
else
	skip "medium: the room counts each range once" "cannot mount ext4 from a loop device here"
	skip "medium: a room refusal says the room there is" "cannot mount ext4 from a loop device here"
	skip "medium: --auto --write says its most and refuses before writing" "cannot mount ext4 from a loop device here"
fi

# ------------------------------------------------------------ journals
head -c 24M /dev/urandom > g.img
if held jg "$TMP/g.img"; then
	expect_error "medium: a journal is no device to test" 2 \
		"^flashbench: jg is a flashbench journal \(data saved from $TMP/g.img\): writing to it would destroy what it saved" \
		"$FB" -O -e 1M -b 256k jg
	expect_error "medium: a journal never restores onto itself" 2 \
		"^flashbench: jg is a flashbench journal \(data saved from $TMP/g.img\): writing to it would destroy what it saved" \
		"$FB" --restore jg --device-changed jg
	"$FB" --restore jg "$TMP/g.img" > /dev/null 2>&1 || echo "note: could not restore g.img"
else
	fail "medium: a journal is no device to test" "no journal: $(cat held.err)"
	fail "medium: a journal never restores onto itself" "no journal"
	forget jg
fi

echo "tests/medium.sh took $((SECONDS - locked_at)) s once it held the loop-device lock"

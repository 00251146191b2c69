# tests/vm/disks.sh — in the lab's guest (tests/lab.sh): every write mode
# (-O, -f, --auto --write, -C, -G, --program --write, --preserve, erase)
# refuses a real disk that is in use, and the kernel writes nothing to it: a
# partition of it mounted, a partition mounted only in another mount
# namespace, a device-mapper holder, an md RAID-1 member (and -O, -C and
# erase with the holder, the array, mounted).  Then the tests this host's kernel cannot build: a
# device-mapper holder of a loop over the file under test, a partition of a
# loop over the file, -o/--plot naming a partition or its disk, a journal on
# a partition of the device under test.
# Disks from the host (virtio, by serial): part, dm, md1, md2 (64 MiB each).
. tests/lib.sh
. tests/vm/guest.sh

ALL="$(refusal_names "partition mounted")|$(refusal_names "partition mounted in another namespace")"
ALL="$ALL|$(refusal_names "dm holder")|$(refusal_names "dm holder mounted" -O -C)"
ALL="$ALL|$(refusal_names "md member")|$(refusal_names "md array mounted" -O -C)"
ALL="$ALL|medium: a device-mapper holder|medium: a partition of a loop over the file"
ALL="$ALL|--plot naming a partition of the device|-o naming the disk of the partition"
ALL="$ALL|preserve: refuses a journal on the device under test"
lab_begin

P=$(disk part) && DMD=$(disk dm) && M1=$(disk md1) && M2=$(disk md2) || skip_all "the host gave no disks part, dm, md1, md2"
MDADM=${LAB_MDADM:-mdadm}

# ------------------------------------------------------------ a partition of a virtio disk
# one partition from 1 MiB to the end: it covers every range the modes write
printf 'label: dos\nstart=2048, type=83\n' | sfdisk -q "$P"
mkdir -p p
if wait_for "${P}1" 10 test -b "${P}1" && mkext4 "${P}1" && mount "${P}1" p; then
	MNTS+=("$TMP/p")
	refusals "partition mounted" "$P" "${P}1, a partition of $P, is mounted on $TMP/p; unmount it"
	umount p
	unshare -m --propagation private sh -c "mount ${P}1 $TMP/p && echo mounted > $TMP/ns.ready && exec tail -f /dev/null" \
		2> ns.err &
	nspid=$!
	if wait_for "a mount in another namespace" 60 test -s ns.ready && kill -0 "$nspid" 2> /dev/null &&
		! grep -q " $TMP/p " /proc/self/mounts; then
		refusals "partition mounted in another namespace" "$P" \
			"${P}1, a partition of $P, is mounted on $TMP/p in the mount namespace of process [0-9]+ \(tail\); unmount it"
	else
		refusals_fail "partition mounted in another namespace" "could not mount ${P}1 in another namespace: $(cat ns.err)"
	fi
	kill "$nspid" 2> /dev/null
	wait "$nspid" 2> /dev/null
else
	refusals_fail "partition mounted" "could not partition, format and mount $P"
	refusals_fail "partition mounted in another namespace" "could not partition, format and mount $P"
fi

# ------------------------------------------------------------ a device-mapper holder
sectors=$(blockdev --getsz "$DMD")
if dmsetup create lab-h --table "0 $sectors linear $DMD 0"; then
	refusals "dm holder" "$DMD" "/dev/dm-[0-9]+ \(lab-h\) is a holder \(device-mapper, md or similar\) of $DMD; stop it first"
	mkdir -p h
	if mkext4 /dev/mapper/lab-h && mount /dev/mapper/lab-h h; then
		refusals "dm holder mounted" "$DMD" \
			"/dev/dm-[0-9]+, a holder \(device-mapper, md or similar\) of $DMD, is mounted on $TMP/h; unmount it" -O -C
		umount h
	else
		refusals_fail "dm holder mounted" "could not make or mount ext4 on the holder" -O -C
	fi
	dmsetup remove lab-h
else
	refusals_fail "dm holder" "dmsetup create failed"
	refusals_fail "dm holder mounted" "dmsetup create failed" -O -C
fi

# ------------------------------------------------------------ an md RAID-1 member
if MDADM_NO_UDEV=1 "$MDADM" --create /dev/md0 --run --quiet --level=1 --raid-devices=2 --metadata=1.2 \
	--assume-clean "$M1" "$M2" 2> md.err && echo 0 > /sys/block/md0/md/safe_mode_delay; then
	# (safe mode off: md would otherwise mark the array clean in the members'
	# superblocks a moment after the last write, while the counting runs)
	refusals "md member" "$M1" "/dev/md0 \(raid1\) is a holder \(device-mapper, md or similar\) of $M1; stop it first"
	mkdir -p md
	if mkext4 /dev/md0 && mount /dev/md0 md && sync; then
		refusals "md array mounted" "$M2" "/dev/md0, a holder \(device-mapper, md or similar\) of $M2, is mounted on $TMP/md; unmount it" \
			-O -C
		umount md
	else
		refusals_fail "md array mounted" "could not make or mount ext4 on /dev/md0" -O -C
	fi
	"$MDADM" --stop /dev/md0 > /dev/null 2>&1
else
	refusals_fail "md member" "mdadm --create failed: $(cat md.err)"
	refusals_fail "md array mounted" "mdadm --create failed" -O -C
fi

# ------------------------------------------------------------ loop devices: a holder, partitions
# (were in medium.sh, loop.sh, preserve.sh, which skip them on a kernel
# without device-mapper or partition scanning of loop devices)
# The holder's device is larger than where -O starts (16 MiB), so the
# holder, not the device's size, is what refuses.
truncate -s 64M h.img
attach h.img
if dmsetup create fbtest19 --table "0 $((64 << 11)) linear $DEV 0"; then
	expect_error "medium: a device-mapper holder" 1 \
		"^flashbench: $TMP/h.img is in use: (/dev/)?dm-[0-9]+ \(fbtest19\) is a holder \(device-mapper, md or similar\) of $DEV" \
		"$FB" -O -e 1M -b 256k "$TMP/h.img"
	dmsetup remove fbtest19
else
	fail "medium: a device-mapper holder" "dmsetup create failed"
fi
# partition 1 runs from 1 MiB to the end, over the bytes -O writes (from
# 16 MiB on): the mount is what refuses
truncate -s 64M p.img
printf 'label: dos\nstart=2048, type=83\n' | sfdisk -q p.img
attach -P p.img
mkdir -p mp
if wait_for "the partitions of $DEV" 10 test -b "${DEV}p1" && mkext4 "${DEV}p1" && mount "${DEV}p1" mp; then
	MNTS+=("$TMP/mp")
	expect_error "medium: a partition of a loop over the file" 1 \
		"^flashbench: $TMP/p.img is in use: ${DEV}p1, a partition of $DEV, which is a loop device over $TMP/p.img, is mounted on $TMP/mp" \
		"$FB" -O -e 1M -b 256k "$TMP/p.img"
	umount mp
else
	fail "medium: a partition of a loop over the file" "no partition ${DEV}p1 to mount"
fi
# an output naming a partition of the device, or the disk of a partition
truncate -s 16M parted.img
printf 'label: dos\nstart=2048, size=8192, type=83\n' | sfdisk -q parted.img
attach -P parted.img
if wait_for "partition node ${DEV}p1" 10 test -b "${DEV}p1"; then
	expect_error "--plot naming a partition of the device" 2 "--plot=${DEV}p1 is a block device" \
		"$FB" -a -c 1 "$DEV" --plot "${DEV}p1"
	expect_error "-o naming the disk of the partition" 2 "--out=$DEV is a block device" \
		"$FB" -a -c 1 -b 4k "${DEV}p1" -o "$DEV"
else
	fail "--plot naming a partition of the device" "no partition ${DEV}p1"
	fail "-o naming the disk of the partition" "no partition ${DEV}p1"
fi
# a disk with two partitions: the journal on the mounted first, the test on
# the second, is on the device under test
truncate -s 64M disk.img
printf 'label: dos\nstart=2048, size=30720, type=83\nstart=32768, type=83\n' | sfdisk -q disk.img
attach -P disk.img
mkdir -p p1
if wait_for "the partitions of $DEV" 10 test -b "${DEV}p2" && mkext4 "${DEV}p1" && mount "${DEV}p1" p1; then
	MNTS+=("$TMP/p1")
	expect_error "preserve: refuses a journal on the device under test" 2 "would be on the device under test" \
		"$FB" -O -e 1M -b 256k --preserve="$TMP/p1/j" "${DEV}p2"
else
	fail "preserve: refuses a journal on the device under test" "could not partition and mount $DEV"
fi
lap "the loop devices"

# tests/safety.sh — what write tests and erase refuse beyond the plain
# cases of loop.sh: loop devices stacked over block devices (used both ways),
# files whose file system refuses O_DIRECT, and erase's messages on bad sizes.
. tests/lib.sh

ALL="erase: a LENGTH that is not a number|erase: a LENGTH with a bad unit|erase: a zero LENGTH"
ALL="$ALL|safety: a block device under a mounted loop is in use|safety: erase under a mounted loop is refused"
ALL="$ALL|safety: a loop over a mounted block device is in use|safety: a stack of loops is followed"
ALL="$ALL|safety: no O_DIRECT is refused, not measured"

# ------------------------------------------------------------ erase messages
expect_error "erase: a LENGTH that is not a number" 2 "^erase: LENGTH abc: not a number" "$ERASE" sim:sd-4m 0 abc
expect_error "erase: a LENGTH with a bad unit" 2 "^erase: LENGTH 4X: unknown unit" "$ERASE" f 0 4X
expect_error "erase: a zero LENGTH" 2 "^erase: LENGTH 0: must not be zero" "$ERASE" sim:sd-4m 0 0

is_root || { ALL=${ALL#*zero LENGTH|}; skip_all "needs root for loop devices and mounts"; }
command -v losetup > /dev/null || { ALL=${ALL#*zero LENGTH|}; skip_all "losetup is not installed (util-linux)"; }
command -v mkfs.ext4 > /dev/null || { ALL=${ALL#*zero LENGTH|}; skip_all "mkfs.ext4 is not installed (e2fsprogs)"; }

cd "$TMP" || exit 1
head -c $((64 << 20)) /dev/urandom > a.img
attach a.img || { ALL=${ALL#*zero LENGTH|}; skip_all "cannot attach a loop device here"; }
A=$DEV

# ------------------------------------------------------------ loop over block
# B is a loop over the block device A (as over /dev/sdb1); with B mounted,
# writing to A would pull the file system from under it.
attach "$A"
B=$DEV
mkdir -p mnt
if mkfs.ext4 -q -F "$B" > /dev/null 2>&1 && mount "$B" mnt; then
	MNTS+=("$TMP/mnt")
	expect_error "safety: a block device under a mounted loop is in use" 1 \
		"^flashbench: $A is in use: $B, a loop device over $A, which is a loop device over $TMP/a.img, is mounted on $TMP/mnt; unmount it" \
		"$FB" -O -e 1M -b 256k "$A"
	expect_error "safety: erase under a mounted loop is refused" 1 \
		"^erase: $A is in use: $B, a loop device over $A, .* is mounted on $TMP/mnt" "$ERASE" "$A" 0 1M
	# C over B over A: A is still in use, two levels down
	attach "$B"
	C=$DEV
	umount mnt && MNTS=()
	if mount "$C" mnt; then
		MNTS+=("$TMP/mnt")
		expect_error "safety: a stack of loops is followed" 1 \
			"^flashbench: $A is in use: $C, a loop device over $B, which is a loop device over $A, .* is mounted" \
			"$FB" -f -e 1M -b 256k "$A"
		umount mnt && MNTS=()
	else
		skip "safety: a stack of loops is followed" "cannot mount a loop over a loop here"
	fi
	detach "$C"
else
	skip "safety: a block device under a mounted loop is in use" "cannot make or mount a file system on a loop over a loop"
	skip "safety: erase under a mounted loop is refused" "cannot make or mount a file system on a loop over a loop"
	skip "safety: a stack of loops is followed" "cannot make or mount a file system on a loop over a loop"
fi

# the other way: B mounted, D a loop over it; writing to D writes to B
if mount "$B" mnt 2> /dev/null; then
	MNTS+=("$TMP/mnt")
	attach "$B"
	D=$DEV
	expect_error "safety: a loop over a mounted block device is in use" 1 \
		"^flashbench: $D is in use: $B, a loop device over $A, .* is mounted on $TMP/mnt" \
		"$FB" -O -e 1M -b 256k "$D"
	umount mnt && MNTS=()
else
	skip "safety: a loop over a mounted block device is in use" "cannot mount a loop device here"
fi

# ------------------------------------------------------------ no O_DIRECT
# ramfs has no O_DIRECT: a file there would time the page cache
mkdir -p ram
if mount -t ramfs ramfs ram 2> /dev/null; then
	MNTS+=("$TMP/ram")
	head -c $((8 << 20)) /dev/zero > ram/card.img
	expect_error "safety: no O_DIRECT is refused, not measured" 1 \
		"^flashbench: ram/card.img: its file system refuses direct I/O \(O_DIRECT; .*\), so the times would be the page cache's, not the device's" \
		"$FB" -a ram/card.img
else
	skip "safety: no O_DIRECT is refused, not measured" "cannot mount ramfs here"
fi

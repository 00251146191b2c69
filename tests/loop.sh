# tests/loop.sh — real block devices: loop devices over files (needs root).
# Read tests leave every byte alone and work on a read-only device; write
# tests write exactly the range they announce, and refuse a device that is
# mounted (also through a symlink alias) or used as swap; erase discards.
. tests/lib.sh

ALL="align on a loop device|align leaves the bytes alone|align on a read-only loop device|align into a pipe"
ALL="$ALL|auto read-only on a read-only loop device|progress on a terminal|--progress into a file|no progress when stderr is not a terminal"
ALL="$ALL|open-au writes only its announced range|find-fat writes only its announced range"
ALL="$ALL|write refused while mounted|write refused through a symlink alias|erase refused while mounted"
ALL="$ALL|write refused on active swap|write refused while another program holds the device|erase discards a range|erase refuses a range past the end"
ALL="$ALL|erase refuses an unaligned range|align leaves a mounted device alone"
ALL="$ALL|-o naming the loop device under test|-o naming another node of the device|-o naming the image behind the loop device"
ALL="$ALL|-o naming the loop device over the image under test"

is_root || skip_all "needs root for loop devices"
command -v losetup > /dev/null || skip_all "losetup is not installed (util-linux)"

MNT=$TMP/mnt
MNTS+=("$MNT")

img=$TMP/card.img
head -c $((96 << 20)) /dev/urandom > "$img"
attach "$img" || skip_all "cannot attach a loop device here"
L=$DEV
sum() { dd if="$1" bs=1M iflag=skip_bytes,count_bytes skip="$2" count="$3" status=none | sha256sum | cut -c1-64; }
SIZE=$(blockdev --getsize64 "$L")

# ------------------------------------------------------------ read tests
before=$(sum "$L" 0 "$SIZE")
if "$FB" -a "$L" > "$TMP/align" 2> "$TMP/err"; then
	# 96 MiB: positions 8 MiB apart, so alignments 8 MiB .. 32 KiB: 9 lines
	n=$(grep -cE $'^align [0-9]+\tpre [0-9.]+(ns|µs|ms|s)\ton [0-9.]+(ns|µs|ms|s)\tpost [0-9.]+(ns|µs|ms|s)\tdiff -?[0-9.]+(ns|µs|ms|s)$' "$TMP/align")
	first=$(head -1 "$TMP/align" | cut -f1)
	if [ "$n" = 9 ] && [ "$(wc -l < "$TMP/align")" = 9 ] && [ "$first" = "align 8388608" ]; then
		pass "align on a loop device"
	else
		fail "align on a loop device" "$n well-formed lines, first '$first': $(head -3 "$TMP/align")"
	fi
else
	fail "align on a loop device" "$(cat "$TMP/err")"
fi
"$FB" -a -b 4k -c 2 "$L" > /dev/null 2>&1
"$FB" -s --scatter-order=6 "$L" > /dev/null 2>&1
"$FB" -i --interval-order=3 "$L" > /dev/null 2>&1
"$FB" -R -c 1 -e 1M "$L" > /dev/null 2>&1
after=$(sum "$L" 0 "$SIZE")
[ "$before" = "$after" ] && pass "align leaves the bytes alone" || fail "align leaves the bytes alone" "checksum changed"

LR=
attach -r "$img" && LR=$DEV
if [ -n "$LR" ] && "$FB" -a -c 2 "$LR" > "$TMP/ro" 2> "$TMP/err" && [ "$(wc -l < "$TMP/ro")" = 9 ]; then
	pass "align on a read-only loop device"
else
	fail "align on a read-only loop device" "$(cat "$TMP/err")"
fi
if [ -n "$LR" ] && "$FB" -A "$LR" > "$TMP/auto" 2> "$TMP/err" && grep -q '^written: nothing' "$TMP/auto" &&
	grep -q '^erase block size' "$TMP/auto" && [ "$(sum "$L" 0 "$SIZE")" = "$before" ]; then
	pass "auto read-only on a read-only loop device"
else
	fail "auto read-only on a read-only loop device" "$(cat "$TMP/err") $(head -5 "$TMP/auto")"
fi
"$FB" -a -c 2 "$L" 2> "$TMP/err" | tee "$TMP/tee" > /dev/null
if [ "${PIPESTATUS[0]}" = 0 ] && [ "$(wc -l < "$TMP/tee")" = 9 ]; then
	pass "align into a pipe"
else
	fail "align into a pipe" "$(cat "$TMP/err")"
fi

# ------------------------------------------------------------ outputs
# an output naming the device under test (the node, another node with the
# same number, the file behind it, a partition of it) is refused before
# anything runs, and leaves the device alone
expect_error "-o naming the loop device under test" 2 "--out=$L is a block device: an output never goes to one" \
	"$FB" -a -c 1 "$L" -o "$L"
mknod "$TMP/node" b "$(stat -c '%t' "$L" | xargs printf '%d')" "$(stat -c '%T' "$L" | xargs printf '%d')"
expect_error "-o naming another node of the device" 2 "--out=$TMP/node is a block device: an output never goes to one" \
	"$FB" -O -e 1M -b 512k "$L" -o "$TMP/node"
expect_error "-o naming the image behind the loop device" 2 "--out=$img is the device under test" \
	"$FB" -a -c 1 "$L" -o "$img"
expect_error "-o naming the loop device over the image under test" 2 "--out=$L is a block device" \
	"$FB" -a -c 1 "$img" -o "$L"
[ "$(sum "$L" 0 "$SIZE")" = "$before" ] || fail "-o naming the loop device under test" "the device changed"
# (an output naming a partition of the device, or the disk of a partition:
# tests/vm/disks.sh, in the lab, where the kernel scans loop partitions)

# ------------------------------------------------------------ write tests
# written_ok NAME CMD...: run a write test, read the range it announces, and
# check that the bytes outside are as in orig.img and the bytes inside are 0x5a
written_ok() {
	local name=$1 lo hi inside outside_lo outside_hi want_inside
	shift
	# (-v: the announcement's bytes)
	if ! "$1" -v "${@:2}" > "$TMP/w.out" 2> "$TMP/w.err"; then
		fail "$name" "$(cat "$TMP/w.err")"
		return
	fi
	read -r lo hi < <(sed -n 's/^flashbench:   bytes \([0-9]*\) to \([0-9]*\) of.*/\1 \2/p' "$TMP/w.err")
	if [ -z "$lo" ]; then
		fail "$name" "no range announced: $(cat "$TMP/w.err")"
		return
	fi
	inside=$(sum "$L" "$lo" $((hi - lo + 1)))
	want_inside=$(head -c $((hi - lo + 1)) /dev/zero | tr '\0' '\132' | sha256sum | cut -c1-64)
	outside_lo=$(sum "$L" 0 "$lo")
	outside_hi=$(sum "$L" $((hi + 1)) $((SIZE - hi - 1)))
	if [ "$inside" != "$want_inside" ]; then
		fail "$name" "the announced range $lo..$hi does not hold the written pattern"
	elif [ "$outside_lo" != "$(sum "$TMP/orig.img" 0 "$lo")" ] ||
		[ "$outside_hi" != "$(sum "$TMP/orig.img" $((hi + 1)) $((SIZE - hi - 1)))" ]; then
		fail "$name" "bytes outside $lo..$hi changed"
	else
		pass "$name"
	fi
}
cp "$img" "$TMP/orig.img"
written_ok "open-au writes only its announced range" "$FB" -O -e 4M -b 512k --open-au-nr=2 "$L"
cp "$img" "$TMP/orig.img"
written_ok "find-fat writes only its announced range" "$FB" -f -e 1M -b 256k --fat-nr=3 "$L"

# ------------------------------------------------------------ refusals
small=$TMP/small.img
truncate -s 64M "$small"
attach "$small" || skip_all "cannot attach a second loop device"
LM=$DEV
mkdir -p "$MNT"
if command -v mkfs.ext4 > /dev/null && mkfs.ext4 -q -F "$LM" > /dev/null 2>&1 && mount "$LM" "$MNT" 2> /dev/null; then
	expect_error "write refused while mounted" 1 "$LM is in use: $LM is mounted on $MNT; unmount it" "$FB" -O "$LM"
	ln -s "$LM" "$TMP/alias"
	expect_error "write refused through a symlink alias" 1 "$TMP/alias is in use: .* is mounted on $MNT" \
		"$FB" -f "$TMP/alias"
	expect_error "erase refused while mounted" 1 "is mounted on $MNT" "$ERASE" "$LM" 0 1M
	if "$FB" -a -c 1 "$LM" > /dev/null 2>&1; then
		pass "align leaves a mounted device alone"
	else
		fail "align leaves a mounted device alone" "read-only test refused on a mounted device"
	fi
	umount "$MNT"
else
	for t in "write refused while mounted" "write refused through a symlink alias" "erase refused while mounted" \
		"align leaves a mounted device alone"; do
		skip "$t" "cannot mkfs.ext4 and mount a loop device here"
	done
fi
if command -v mkswap > /dev/null && mkswap "$LM" > /dev/null 2>&1 && swapon "$LM" 2> /dev/null; then
	expect_error "write refused on active swap" 1 "$LM is in use: $LM is an active swap area; run swapoff" "$FB" -O "$LM"
	swapoff "$LM"
else
	skip "write refused on active swap" "swapon is not permitted here"
fi

# another program holding the device exclusively (O_EXCL): the kernel says
# EBUSY and the write test says the device is in use
if command -v python3 > /dev/null; then
	python3 -c "import os, sys, signal; fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
open(sys.argv[2], 'w').write('held')
signal.pause()" "$LM" "$TMP/held" &
	holder=$!
	if wait_for "python3 to hold $LM" 60 grep -q held "$TMP/held" 2> "$TMP/werr"; then
		expect_error "write refused while another program holds the device" 1 \
			"$LM is in use: $LM is held open exclusively by process $holder \(python3\), which has $LM open; stop it first" \
			"$FB" -O "$LM"
	else
		fail "write refused while another program holds the device" "$(cat "$TMP/werr")"
	fi
	kill "$holder" 2> /dev/null
	wait "$holder" 2> /dev/null
else
	skip "write refused while another program holds the device" "needs python3 to hold the device"
fi

# ------------------------------------------------------------ erase
if "$ERASE" "$L" 1M 2M > "$TMP/e.out" 2> "$TMP/e.err"; then
	zeros=$(head -c $((2 << 20)) /dev/zero | sha256sum | cut -c1-64)
	if [ "$(sum "$L" $((1 << 20)) $((2 << 20)))" = "$zeros" ]; then
		pass "erase discards a range"
	else
		fail "erase discards a range" "the range does not read back as zeros"
	fi
elif grep -q "does not support discard" "$TMP/e.err"; then
	skip "erase discards a range" "this kernel's loop device does not discard"
else
	fail "erase discards a range" "$(cat "$TMP/e.err")"
fi
expect_error "erase refuses a range past the end" 2 "ends past the end of $L" "$ERASE" "$L" 95M 2M
expect_error "erase refuses an unaligned range" 2 "multiples of the 512-byte sector" "$ERASE" "$L" 1000 1M

# ------------------------------------------------------------ progress
# --progress shows the line from the first request, however short the run:
# redrawn in place on a terminal, one plain line per update into a file;
# without it, nothing but the announcement when stderr is not a terminal
if command -v script > /dev/null; then
	script -qfc "$FB -O -e 4M -b 512k --progress $L > /dev/null" "$TMP/typescript" > /dev/null 2>&1
	if tr '\r' '\n' < "$TMP/typescript" | grep -qE '^flashbench: --open-au: [0-9]+% \([0-9]+ of 30 requests\), [0-9.]+[KMG]?i?B written, (about [0-9hms]+ left|[0-9hms]+ so far)'; then
		pass "progress on a terminal"
	else
		fail "progress on a terminal" "$(tr '\r' '\n' < "$TMP/typescript" | tail -3)"
	fi
else
	skip "progress on a terminal" "script (util-linux) is not installed"
fi
"$FB" -O -e 4M -b 512k --progress "$L" > /dev/null 2> "$TMP/forced"
if sed -n 2p "$TMP/forced" | grep -qE '^flashbench: --open-au: [0-9]+% \(1 of 30 requests\), 4MiB written, (about [0-9hms]+ left|[0-9hms]+ so far)$' &&
	! grep -q $'[\r\033]' "$TMP/forced"; then
	pass "--progress into a file"
else
	fail "--progress into a file" "$(head -c 300 "$TMP/forced" | od -c | head -5)"
fi
"$FB" -O -e 4M -b 2k "$L" > /dev/null 2> "$TMP/quiet"
if [ "$(wc -l < "$TMP/quiet")" = 1 ] && grep -q "overwrites " "$TMP/quiet"; then
	pass "no progress when stderr is not a terminal"
else
	fail "no progress when stderr is not a terminal" "$(head -c 300 "$TMP/quiet")"
fi

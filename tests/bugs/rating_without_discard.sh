# tests/bugs/rating_without_discard.sh — A KNOWN TOOL BUG, found by the lab
# (issue 28), not yet fixed; run by hand from the tree (it boots the lab,
# tests/vm/lab, about 30 s): bash tests/bugs/rating_without_discard.sh
# (tests/run does not run tests/bugs/; once the bug is fixed, the guest half
# moves into tests/vm/cards.sh, on the stick u1).
# flashbench --rating on a block device whose queue takes no discard (a USB
# stick through usb-storage: queue/discard_max_bytes is 0) writes, puts
# back, and exits 1 with "erase of 16777216 bytes at offset N failed:
# Operation not supported": dev/dev_block.c gives every block device
# DEV_CAP_DISCARD, so auto/rating.c's discard() runs rating-discard.fbp
# there.  Most USB card readers and sticks take no discard.  Want: --rating
# runs, with its AUs "not freed (no discard: they held data)", as on a file.
. tests/lib.sh
if [ -z "${FLASHBENCH_LAB:-}" ]; then
	truncate -s 64M "$TMP/u1.img"
	tests/vm/lab run --mod xhci-pci,usb-storage,sd_mod --timeout 300 -device qemu-xhci,id=xhci \
		-drive "id=u1,if=none,format=raw,file=$TMP/u1.img" -device usb-storage,bus=xhci.0,drive=u1,serial=u1 \
		-- env FB="$FB" bash tests/bugs/rating_without_discard.sh
	exit
fi
# in the lab's guest
cd "$TMP" || exit 1
wait_for "the USB stick" 60 test -b /dev/sda || { fail "rating: a stick without discard" "no /dev/sda"; exit 0; }
read -r max < /sys/block/sda/queue/discard_max_bytes
"$FB" -G --json /dev/sda > r.json 2> r.err
rc=$? got=$("$JP" measured.discarded < r.json 2>&1)
if [ $rc = 0 ] && [ "$got" = false ]; then
	pass "rating: a stick without discard (discard_max_bytes $max) is rated, its AUs not freed"
else
	fail "rating: a stick without discard (discard_max_bytes $max) is rated, its AUs not freed" \
		"exit $rc, discarded '$got': $(tail -1 r.err)"
fi

# tests/vm/simcard.sh — in the lab's guest (tests/lab.sh): a flash-like card
# behind a real driver.  The host serves the tree's simulator (tests/nbdsim,
# sim:usb-12m: 12 MiB erase blocks, 16 KiB read unit) over NBD to QEMU,
# which gives it to the guest as a virtio disk; every request takes the
# model's time, times a scale, in real time.  --auto through the guest's
# block layer must find the geometry the model has.
#   sim2 (scale 2), sim6 (scale 6): the card; sim0: the same card served
#   with no time at all (the control: without the model's timing, no
#   12 MiB is found, so the answer cannot come from anything but timing)
# Timing under TCG is noisy and the host is shared: when --auto misses the
# geometry, the noise is measured on -a's rows below 4 MiB, whose modelled
# costs are all the same (pre and post differ only by noise).  Clean timing
# and a wrong answer FAIL; served time that does not reach the guest FAILs;
# noise of a third of the step or more at both scales SKIPs, with figures.
. tests/lib.sh
. tests/vm/guest.sh

ALL="simcard: --auto through virtio finds the model's erase block and page"
ALL="$ALL|simcard: without the model's timing the 12MiB erase block is not found"
lab_begin

STEP=300000 READ=1100000 # the model's erase-boundary cost and its 16 KiB read, ns (sim:usb-12m)
# found DEV: --auto on DEV; "ERASE CONF PAGE" it found in found.out
found() {
	timeout 300 "$FB" -A --json "$1" > auto.json 2> auto.err || { echo "--auto failed: $(tail -1 auto.err)"; return 1; }
	echo "$("$JP" findings.erase_block.value findings.erase_block.confidence findings.page.value < auto.json | tr '\n' ' ')"
}
# noise DEV SCALE: from -a on DEV: "NOISE MEDIAN-PRE" in ns, over the rows
# below 4 MiB (the second largest |pre - post|, so that one hiccup of the
# host does not count)
noise() {
	"$FB" -a --json "$1" 2> /dev/null | python3 -c '
import json, sys
rows = [r for r in json.load(sys.stdin)["results"] if r["align"] < 4 << 20]
d = sorted(abs(r["pre"]["ns"] - r["post"]["ns"]) for r in rows)
p = sorted(r["pre"]["ns"] for r in rows)
print(int(d[-2]), int(p[len(p) // 2]))'
}

verdict='' notes=''
for k in 2 6; do
	D=$(disk "sim$k") || { fail "simcard: --auto through virtio finds the model's erase block and page" "no disk sim$k"; break; }
	read -r erase conf page < <(found "$D")
	lap "--auto at scale $k"
	if [ "$erase" = $((12 << 20)) ] && [ "$page" = 16384 ] && [[ $conf == high || $conf == medium ]]; then
		verdict=pass notes="$notes; scale $k: 12MiB ($conf), page 16KiB"
		break
	fi
	read -r nz pre < <(noise "$D")
	notes="$notes; scale $k: found erase ${erase:-?} ($conf) page ${page:-?}, noise ${nz}ns against a step of $((k * STEP))ns, a read took ${pre}ns (model $((k * READ))ns)"
	if [ -z "$pre" ] || [ "$pre" -lt $((k * READ * 8 / 10)) ]; then
		verdict=fail notes="$notes: the served time does not reach the guest"
		break
	elif [ "$nz" -lt $((k * STEP / 3)) ]; then
		verdict=fail notes="$notes: clean timing, wrong answer"
		break
	fi
	verdict=skip
done
echo "simcard:${notes#;}"
case $verdict in
pass) pass "simcard: --auto through virtio finds the model's erase block and page" ;;
skip) skip "simcard: --auto through virtio finds the model's erase block and page" "timing too noisy here:${notes#;}" ;;
*) fail "simcard: --auto through virtio finds the model's erase block and page" "${notes#; }" ;;
esac

if D=$(disk sim0); then
	read -r erase conf page < <(found "$D")
	if [ "$erase" != $((12 << 20)) ] && [ -s auto.json ]; then
		pass "simcard: without the model's timing the 12MiB erase block is not found"
	else
		fail "simcard: without the model's timing the 12MiB erase block is not found" "found ${erase:-?} ($conf): $(tail -1 auto.err)"
	fi
else
	fail "simcard: without the model's timing the 12MiB erase block is not found" "no disk sim0"
fi
lap "the control"

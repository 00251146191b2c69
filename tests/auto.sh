# tests/auto.sh — --auto on the presets: the report a person reads (golden,
# with the wall time masked), read-only by default, the good SSD where
# alignment does not matter, and JSON for every test kind.
. tests/lib.sh
JP=${FB%/flashbench}/tests/jsonpath

mask() { sed -E 's/, took [^ ]+$/, took X/'; }

"$FB" -A --write sim:usb-12m 2> "$TMP/usb.err" | mask > "$TMP/usb"
golden "auto --write usb-12m report golden" auto-usb-12m.out cat "$TMP/usb"
if grep -qE '^erase block size +12MiB +high' "$TMP/usb" && grep -qE '^open erase blocks, linear +3 +high' "$TMP/usb" &&
	grep -q 'start=24576, size=7839744, type=83' "$TMP/usb" && grep -q 'stripe_width=3072' "$TMP/usb" &&
	grep -q 'su=12m,sw=1' "$TMP/usb"; then
	pass "auto --write usb-12m: 12MiB erase blocks, 3 open, matching sfdisk and mkfs advice"
else
	fail "auto --write usb-12m: 12MiB erase blocks, 3 open, matching sfdisk and mkfs advice" "$(head -20 "$TMP/usb")"
fi
# three short lines (doc/style.md); with -v, the bytes
"$FB" -A --write -v --budget=1ms sim:usb-12m 2> "$TMP/usb-v.err" > /dev/null
grep -qx 'flashbench: --auto --write overwrites 384MiB at 0 and 768MiB at 1920MiB for good' "$TMP/usb.err" &&
	grep -qx 'flashbench:   bytes 0 to 402653183 and 2013265920 to 2818572287 of sim:usb-12m' "$TMP/usb-v.err" &&
	pass "auto --write announces what it may overwrite" ||
	fail "auto --write announces what it may overwrite" "$(cat "$TMP/usb.err")"

"$FB" -A sim:sd-4m 2> "$TMP/ro.err" | mask > "$TMP/ro"
golden "auto read-only sd-4m report golden" auto-sd-4m.out cat "$TMP/ro"
if [ "$(grep -c 'needs --write' "$TMP/ro")" = 4 ] && grep -q '^written: nothing (read-only' "$TMP/ro" && [ ! -s "$TMP/ro.err" ]; then
	pass "auto without --write only reads and says what needs --write"
else
	fail "auto without --write only reads and says what needs --write" "$(cat "$TMP/ro" "$TMP/ro.err")"
fi

"$FB" -A --write sim:ssd 2> /dev/null | unwrap > "$TMP/ssd"
if grep -qE '^erase block size +not determined' "$TMP/ssd" && grep -q 'alignment does not seem to matter' "$TMP/ssd" &&
	grep -qE '^behaves like an SSD: no erase-block or open-AU penalty measurable in reads and linear writes; [0-9.]+MiB written .*; stopped early: random-order writes, small writes and a FAT area were not tested' "$TMP/ssd" &&
	[ "$(grep -c 'not measured: the run stopped early, as the medium behaves like an SSD' "$TMP/ssd")" = 4 ] &&
	grep -q 'no recommendation' "$TMP/ssd" && grep -qE 'device time [0-9.]+m?s, took ' "$TMP/ssd"; then
	pass "auto on a good SSD: says it behaves like an SSD and stops early, no erase size invented"
else
	fail "auto on a good SSD: says it behaves like an SSD and stops early, no erase size invented" "$(head -12 "$TMP/ssd")"
fi
"$FB" -A sim:ssd 2> /dev/null | unwrap > "$TMP/ssd-ro"
grep -qE '^no flash-like behaviour in reads: reading across boundaries from [0-9]+KiB to [0-9]+[MG]iB costs no more' \
	"$TMP/ssd-ro" && pass "auto read-only on a good SSD: no flash-like behaviour in reads" ||
	fail "auto read-only on a good SSD: no flash-like behaviour in reads" "$(head -5 "$TMP/ssd-ro")"

# Cards that answer reads of sectors without data from their mapping table
# (eMMC, A1/A2 cards, SSDs): read-only, the geometry is read where data are
# (a used card); a fresh card shows nothing to reads, and --write writes an
# area first and reads it back.
"$FB" -A sim:size=8G,unmapped=1,data=0.33,seed=3 > "$TMP/used" 2> /dev/null
if grep -qE '^erase block size +4MiB +(high|medium)' "$TMP/used" &&
	grep -q 'reads of sectors without data never reach the flash' "$TMP/used" &&
	grep -q 'so measured where data are: read in bytes' "$TMP/used"; then
	pass "auto read-only on a used card that answers unwritten sectors from its table: measured where data are"
else
	fail "auto read-only on a used card that answers unwritten sectors from its table: measured where data are" \
		"$(grep -A5 '^erase block' "$TMP/used")"
fi
"$FB" -A sim:size=8G,unmapped=1 > "$TMP/fresh" 2> /dev/null
"$FB" -A --write sim:size=8G,unmapped=1 > "$TMP/freshw" 2> /dev/null
if grep -qE '^no flash-like behaviour in reads' "$TMP/fresh" && grep -qE '^erase block size +not determined' "$TMP/fresh" &&
	grep -qE '^erase block size +4MiB +high' "$TMP/freshw" && grep -q -- 'wrote that area first: read in bytes' "$TMP/freshw" &&
	grep -qE '^open erase blocks, linear +2 +high' "$TMP/freshw"; then
	pass "auto on a fresh card with unmapped reads: nothing read-only, --write writes an area first and finds it"
else
	fail "auto on a fresh card with unmapped reads: nothing read-only, --write writes an area first and finds it" \
		"$(grep -A3 -E '^(no flash|erase block)' "$TMP/fresh" "$TMP/freshw")"
fi

# The cost bound: announced before the first write (bytes and time), never
# exceeded; a test that had to stop says so, and its finding is less sure or
# not measured; a bound the run fits in changes nothing but the bound line.
grep -qx 'flashbench: bound: 242MiB written, 10m of device time (--budget changes it)' "$TMP/usb.err" &&
	[ "$(wc -l < "$TMP/usb.err")" -le 3 ] && awk 'length > 80 { exit 1 }' "$TMP/usb.err" && pass "auto --write announces the most it writes and how long it may take" ||
	fail "auto --write announces the most it writes and how long it may take" "$(cat "$TMP/usb.err")"
# (the quick capacity check counts in the bound: it takes its share of what
# the reads leave, as a part of the plan worth its usual 8 s against the
# tests' parts, less the rest it gives the card: under 5 s of a 16 s or 20 s
# bound on usb-12m, against 8.3 s with the default bound)
"$FB" -A --write --budget=16s sim:usb-12m 2> /dev/null | unwrap > "$TMP/b10"
if grep -qE '^bound: 16s of device time \(--budget\) and 242MiB written; the device time cut short: min_write, open_linear, open_random, fat_area$' "$TMP/b10" &&
	grep -qE '^erase block size +12MiB +high' "$TMP/b10" && grep -q 'cut it short' "$TMP/b10" &&
	! grep -qE '^(smallest|open|FAT).* high$' "$TMP/b10" && grep -qE 'device time [0-9]\.[0-9]+s, took ' "$TMP/b10" &&
	grep -qE '^    capacity +[0-4]\.[0-9]+s +quick check' "$TMP/b10"; then
	pass "auto --budget=16s on usb-12m: within 16 s with the capacity check, the tests cut short named and no longer high"
else
	fail "auto --budget=16s on usb-12m: within 16 s with the capacity check, the tests cut short named and no longer high" "$(grep -A3 -E '^(smallest|cost|bound)' "$TMP/b10")"
fi
"$FB" -A --write --budget=20s sim:usb-12m 2> /dev/null | unwrap > "$TMP/b20"
if grep -qE '^bound: 20s of device time \(--budget\) and 242MiB written; the device time cut short: fat_area$' "$TMP/b20" &&
	grep -qE '^FAT-optimised erase blocks at the start +(.* (medium|low)|not determined)$' "$TMP/b20" &&
	grep -qE '^smallest efficient write +32KiB +high$' "$TMP/b20" && grep -qE '^open erase blocks, linear +3 +high$' "$TMP/b20" &&
	grep -qE '^open erase blocks, random order +1 +high$' "$TMP/b20" &&
	grep -q 'cut it short' "$TMP/b20" && grep -qE '^    capacity +[0-4]\.[0-9]+s +quick check' "$TMP/b20" &&
	unwrap < "$TMP/usb" | grep -qE '^    capacity +8\.[0-9]+s +quick check'; then
	pass "auto --budget=20s on usb-12m: the check takes its share, the tests cut short are named and no longer high, those that ran in full are"
else
	fail "auto --budget=20s on usb-12m: the check takes its share, the tests cut short are named and no longer high, those that ran in full are" \
		"$(grep -E -A4 '^(smallest|open|FAT|bound|    capacity)' "$TMP/b20" "$TMP/usb")"
fi
"$FB" -A --write --budget=1h,300M sim:usb-12m 2> "$TMP/b1h.err" | mask | unwrap > "$TMP/b1h"
if grep -qx 'bound: 1h of device time (--budget) and 300MiB written (--budget); every test ran in full' "$TMP/b1h" &&
	grep -qx 'flashbench: bound: 300MiB written, 1h of device time (--budget)' "$TMP/b1h.err" &&
	diff <(grep -v '^bound:' "$TMP/b1h") <(unwrap < "$TMP/usb" | grep -v '^bound:') > /dev/null; then
	pass "auto --budget=1h,300M on usb-12m: the same report as with the default bound"
else
	fail "auto --budget=1h,300M on usb-12m: the same report as with the default bound" "$(diff <(grep -v '^bound:' "$TMP/b1h") <(unwrap < "$TMP/usb") | head -5)"
fi
"$FB" -A --write --budget=12M sim:usb-12m 2> /dev/null | unwrap > "$TMP/b12m"
# (the capacity check's writes count in it: the tests get the rest)
written=$(sed -n 's/^written: \([0-9.]*\)KiB in all.*; and the capacity check.s \([0-9.]*\)MiB before.*/\1 \2/p' "$TMP/b12m")
if grep -qE '^bound: 10m of device time and 12MiB written \(--budget\); the bytes cut short: ' "$TMP/b12m" &&
	[ -n "$written" ] && awk -v w="$written" 'BEGIN { split(w, a, " "); exit !(a[1] / 1024 + a[2] <= 12) }'; then
	pass "auto --budget=12M on usb-12m: writes at most 12 MiB, the capacity check's in it ($written), says what it cut"
else
	fail "auto --budget=12M on usb-12m: writes at most 12 MiB" "written $written; $(grep -E '^(bound|written)' "$TMP/b12m")"
fi
"$FB" -A --write --budget=25s --json sim:usb-12m > "$TMP/b25.json" 2> /dev/null
json_budget=$(for p in cost.budget_ns cost.bound_ns cost.bound_bytes 'cost.cut_short#' 'cost.left_out#'; do "$JP" "$p" < "$TMP/b25.json" 2>&1; done | tr '\n' ' ')
ns=$("$JP" cost.device_ns < "$TMP/b25.json")
[[ "$json_budget" =~ ^25000000000\ 25000000000\ 253755392\ [1-9]\ 0\ $ ]] && [ "${ns%.*}" -le 25000000000 ] &&
	pass "auto --budget in JSON: cost.budget_ns, bound_ns, bound_bytes, cut_short, left_out" ||
	fail "auto --budget in JSON: cost.budget_ns, bound_ns, bound_bytes, cut_short, left_out" "got '$json_budget' $ns"

# A --budget time the reads alone pass: announced as such, nothing written,
# and the bound in JSON is what the run took (hostile h20 G5).
"$FB" -A --write --budget=1ms --json sim:sd-4m > "$TMP/b1ms.json" 2> "$TMP/b1ms.err"
ns=$("$JP" cost.device_ns < "$TMP/b1ms.json") bound=$("$JP" cost.bound_ns < "$TMP/b1ms.json")
unwrap < "$TMP/b1ms.err" | grep -qE '^flashbench: bound: the reads took [0-9.]+s of device time, all --budget allows: no write test runs'  && [ "$("$JP" cost.bytes_written < "$TMP/b1ms.json")" = 0 ] && [ "${ns%.*}" -le "${bound:-0}" ] &&
	[ "$("$JP" cost.capacity_check_left_out < "$TMP/b1ms.json")" = true ] && ! grep -q capacity_check_ns "$TMP/b1ms.json" &&
	pass "auto --budget=1ms: the reads passed it: says so, writes nothing, bound_ns covers the run" ||
	fail "auto --budget=1ms: the reads passed it: says so, writes nothing, bound_ns covers the run" \
	"device $ns bound $bound $(cat "$TMP/b1ms.err")"

# Cards whose garbage collection copies far slower than they write: one
# step of the cache probe paid the bound many times over (hostile h20 G3,
# G4); no request starts that could pass the bound now.
for b in "default sd-4m,crate=100K" "20s erase=8M,open=3,size=4G,crate=1M,wrate=20M,seed=22"; do
	set -- $b
	"$FB" -A --write --json $([ "$1" = default ] || echo "--budget=$1") "sim:$2" > "$TMP/slow.json" 2> /dev/null
	ns=$("$JP" cost.device_ns < "$TMP/slow.json") bound=$("$JP" cost.bound_ns < "$TMP/slow.json")
	[ -n "$ns" ] && [ "${ns%.*}" -le "${bound:-0}" ] && pass "auto --write, bound $1 on sim:$2: the time bound holds" ||
		fail "auto --write, bound $1 on sim:$2: the time bound holds" "device $ns ns, bound $bound ns"
done

# A small device: the open-AU search is bounded by the room past the middle
# (twice the largest count tried, and four more) and says "at least N" when
# it reaches that bound; the write tests never refuse while two fit.
small_ok() { # NAME SPEC REGEX...
	local name=$1 spec=$2 re
	shift 2
	if ! "$FB" -A --write "sim:$spec" > "$TMP/small.raw" 2> "$TMP/small.err"; then
		fail "$name" "$(tail -2 "$TMP/small.err")"
		return
	fi
	unwrap < "$TMP/small.raw" > "$TMP/small"
	for re in "$@"; do
		grep -qE "$re" "$TMP/small" || { fail "$name" "no line /$re/ in: $(head -16 "$TMP/small")"; return; }
	done
	pass "$name"
}
small_ok "auto --write on a 256MiB sd-4m: 2 open, as on the full card" "sd-4m,size=256M" \
	'^erase block size +4MiB +high' '^open erase blocks, linear +2 +high' '^open erase blocks, random order +1 +high'
small_ok "auto --write on a 400MiB usb-12m: 3 open, as on the full card" "usb-12m,size=400M" \
	'^erase block size +12MiB +high' '^open erase blocks, linear +3 +high'
small_ok "auto --write on a 128MiB card with 8 open: random 4; linear, which a cache could fake, not determined" \
	"sd-4m,open=8,random=4,size=128M,slc=32M" '^open erase blocks, linear +not determined' \
	'^open erase blocks, random order +4 ' 'a write cache or fast area larger than that would make every write look like this'
# Throttling is no cache (issue 31): a card that writes 3x slower after
# 512 KiB in a row and recovers with a rest is reported with no cache or
# fast area, and says it throttles; one that stays slow says it cannot tell
# why; a pSLC area is still a fast area
small_ok "auto --write on a card that throttles after 512KiB: no cache or fast area, throttling" \
	"sd-4m,throttle=512K" '^write cache or fast area +none +medium$' \
	'fast again after a rest of 5s, in another place .*throttling' '^open erase blocks, linear +2 +high'
# (the capacity check writes and puts back about 8 MiB first, which count:
# 9 MiB makes the rate drop inside the cache probe's burst)
small_ok "auto --write on a card whose rate drops for good after 9MiB: no cache, cannot tell why" \
	"sd-4m,throttle=9M,throttlerest=600s" '^write cache or fast area +none +medium$' \
	'still slow after a rest of 5s .*why the card slowed down is not known'
small_ok "auto --write on a card with a 16MiB pSLC area: a fast area" "sd-4m,slc=16M,slcrate=80M" \
	'^write cache or fast area +1[4-7](\.[0-9]+)?MiB +medium$' 'a fast area \(pseudo-SLC\) in front of the flash'
# ... where the cautious first probe paid for its copy at once, no cache took it
small_ok "auto --write on a 128MiB card with 8 open, no cache: linear at least 6 (all it has room for)" \
	"sd-4m,open=8,random=4,size=128M" '^open erase blocks, linear +at least 6 +high' '^open erase blocks, random order +4 +high'
# Findings never surer than their data (hostile h20: G1, G2, G11, G13).
small_ok "auto --write: open counts judged against a paused baseline (50x the sweep) are not high" \
	"erase=1M,open=8,pause=0.05,pausetime=100ms,seed=32,size=8G" '^open erase blocks, linear +.* (medium|low)' \
	'the baseline itself was slowed'
small_ok "auto --write: random-order writes costing 5ms more are no garbage collection at high" \
	"erase=4M,open=4,random=4,trandom=5ms,size=96M" '^open erase blocks, random order +.* (low|medium)' \
	'far less than copying an erase block'
small_ok "auto --write with 4096-byte sectors: a 3MiB erase lattice is not read as a 1MiB page" \
	"sector=4096,page=4K,planes=1,erase=3M" '^page size \(read unit\) +not determined' \
	'not at every multiple of 1MiB' '^erase block size +(not determined|3MiB)'
small_ok "auto --write: a random-mode FAT area whose end the probe cannot see is 'at least', not high" \
	"erase=1M,page=16K,planes=4,size=192M,minwrite=2K,open=4,random=2,sector=4096,fat=6,fatmode=random,trandom=0" \
	'^FAT-optimised erase blocks at the start +at least 1 +medium'
small_ok "auto --write on a used card whose data lie in a 6MiB window: writes the area first (hostile h20 G9)" \
	"erase=4M,open=2,size=2G,unmapped=1,data=0.01,seed=3" '^erase block size +4MiB' 'wrote that area first: read in bytes'
"$FB" -A --write sim:usb-12m,size=200M > /dev/null 2> "$TMP/small.err"
rc=$?
[ $rc = 2 ] && grep -q 'too small for --auto --write with 12582912-byte erase blocks (it needs 8 erase blocks' \
	"$TMP/small.err" && pass "auto --write refuses only when not even 2 erase blocks fit" ||
	fail "auto --write refuses only when not even 2 erase blocks fit" "rc=$rc $(cat "$TMP/small.err")"
# reads alone on a device with no read structure (noise only) never give a
# sure erase size: this seed finds a 3MiB pattern in noise
"$FB" -A "sim:ssd,size=320M,seed=1,noise=0.1" > "$TMP/noise" 2> /dev/null
if grep -qE '^erase block size +(not determined|[0-9.]+[KMG]iB +low)' "$TMP/noise"; then
	pass "auto on noise alone: no erase size above low"
else
	fail "auto on noise alone: no erase size above low" "$(grep -A2 '^erase block' "$TMP/noise")"
fi

# ------------------------------------------------------------ JSON
# The hostile test of issue 22 (F2, F3): mildly noisy or pausing presets must
# not give a wrong finding at high, nor halve the erase block.  For each run,
# every finding at high is compared with the model's truth (device.model).
high_wrong=""
for spec in sd-4m,noise=0.2,seed=4 sd-4m,pause=0.05,pausetime=20ms,seed=19 sd-4m,pause=0.1,pausetime=50ms,seed=17 \
	usb-12m,noise=0.2,seed=15 sd-4m,pause=0.3,pausetime=200ms,seed=15 sd-4m,pause=0.3,pausetime=200ms,seed=22; do
	"$FB" -A --write --json "sim:$spec" > "$TMP/h22.json" 2> /dev/null
	mapfile -t v < <("$JP" device.model.page device.model.planes device.model.erase device.model.minwrite \
		device.model.open device.model.random device.model.fat < "$TMP/h22.json")
	want=([0]=$((v[0] * v[1])) [1]=${v[2]} [2]=${v[3]} [3]=${v[4]} [4]=${v[5]} [5]=${v[6]})
	i=0
	for k in page erase_block min_write open_linear open_random fat_area; do
		mapfile -t f < <("$JP" "findings.$k.confidence" "findings.$k.value" "findings.$k.at_least" < "$TMP/h22.json")
		if [ "${f[0]}" = high ] && [ "${f[1]}" != "${want[i]}" ] &&
			! { [ "${f[2]}" = true ] && [ "${want[i]}" -ge "${f[1]}" ]; }; then
			high_wrong="$high_wrong $spec:$k=${f[1]}(want ${want[i]})"
		fi
		i=$((i + 1))
	done
done
[ -z "$high_wrong" ] && pass "auto --write on noisy and pausing presets: no finding at high is wrong" ||
	fail "auto --write on noisy and pausing presets: no finding at high is wrong" "$high_wrong"
"$FB" -A --json sim:usb-12m,noise=0.02,seed=4 > "$TMP/f3.json" 2> /dev/null
[ "$("$JP" findings.erase_block.value < "$TMP/f3.json")" = 12582912 ] &&
	pass "auto on usb-12m with 2% noise: 12MiB, not 6MiB (odd multiples of 6MiB lifted by noise)" ||
	fail "auto on usb-12m with 2% noise: 12MiB" "$("$JP" findings.erase_block.value < "$TMP/f3.json")"

# a device of 16 MiB up to 32 MiB (found by the lab on a 16 MiB USB stick):
# the data probes' first midpoint rounded down to the device's start, and
# --auto exited 2 with "the test would start before the beginning of the
# device", about no option given.  Now it runs and finds the page (also on a
# file, through the block path).
truncate -s 16M "$TMP/small.img"
for t in "16MiB sim|sim:size=16M" "24MiB sim|sim:size=24M" "31MiB sim|sim:size=31M" "16MiB file|$TMP/small.img"; do
	name="auto on a ${t%%|*} (under 32MiB) runs" dev=${t#*|}
	"$FB" -A --json "$dev" > "$TMP/small.json" 2> "$TMP/small.err"
	rc=$? got=$("$JP" findings.page.value findings.page.confidence measurements.data_probe.reads < "$TMP/small.json" 2>&1 |
		tr '\n' ' ')
	# (the sims: their 16 KiB page, and 255 data probes, the first left out)
	case $dev in sim:*) want="16384 high 255 " ;; *) want="" ;; esac
	if [ $rc = 0 ] && [ ! -s "$TMP/small.err" ] && { [ -z "$want" ] || [ "$got" = "$want" ]; }; then
		pass "$name"
	else
		fail "$name" "exit $rc, got '$got' want '$want': $(head -c 300 "$TMP/small.err")"
	fi
done
rm -f "$TMP/small.img"

# json NAME ARGS...: valid JSON (jsonpath; python3 too where present) with
# the given "path=value" checks after --
json_ok() {
	local name=$1 args=() checks=() p want got bad=""
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	checks=("$@")
	if ! "$FB" --json "${args[@]}" > "$TMP/j" 2> "$TMP/err"; then
		fail "$name" "$(cat "$TMP/err")"
		return
	fi
	if ! "$JP" < "$TMP/j" 2> "$TMP/err"; then
		fail "$name" "invalid JSON: $(cat "$TMP/err")"
		return
	fi
	if command -v python3 > /dev/null && ! python3 -m json.tool < "$TMP/j" > /dev/null 2>&1; then
		fail "$name" "python3 rejects the JSON"
		return
	fi
	for p in "${checks[@]}"; do
		want=${p#*=}
		got=$("$JP" "${p%%=*}" < "$TMP/j" 2>&1)
		[ "$got" = "$want" ] || bad="$bad ${p%%=*}=$got(want $want)"
	done
	if [ -z "$bad" ]; then pass "$name"; else fail "$name" "$bad"; fi
}
json_ok "json: align" -a sim:sd-4m -- test=align tool.name=flashbench device.size=8589934592 \
	device.simulated=true device.model.erase=4194304 "results#=16" results.0.align=1073741824 \
	results.0.diff_ns=460000 results.0.pre.requests=56 parameters.count=8
json_ok "json: open-au" -O -e 12M -b 1M --open-au-nr=3 sim:usb-12m -- test=open-au "results#=4" \
	results.0.chunk=12582912 results.3.chunk=1572864 written.from=25165824 written.to=62914559 \
	written.bytes=150994944 parameters.open_au_nr=3 parameters.random=false
json_ok "json: find-fat" -f -b 1M sim:sd-4m -- test=find-fat "results#=3" "results.0.erase_blocks#=6" \
	results.2.chunk=1048576 results.0.erase_blocks.1.offset=4194304
json_ok "json: scatter" -s --scatter-order=4 sim:sd-4m -- test=scatter "results#=16" results.3.offset=49152
json_ok "json: interval" -i --interval-order=2 sim:sd-4m -- test=interval "results#=3" results.2.stride=65536 \
	results.2.requests=32
json_ok "json: auto --write" -A --write sim:cf-16m -- test=auto findings.erase_block.value=16777216 \
	findings.erase_block.confidence=high findings.open_linear.value=2 findings.open_random.value=2 \
	findings.min_write.value=65536 findings.fat_area.value=0 findings.page.value=16384 \
	recommendations.partition_start=16777216 parameters.write=true
json_ok "json: auto read-only" -A sim:ssd -- test=auto findings.erase_block.determined=false \
	findings.erase_block.value=null findings.open_linear.note="needs --write (write tests overwrite data)" \
	alignment_matters=false cost.bytes_written=0

# A --budget too small for the quick capacity check's writes leaves it out,
# and says so before the first write: nothing written past the bound.
"$FB" -A --write --budget=4k --json sim:sd-4m > "$TMP/b4k.json" 2> "$TMP/b4k.err"
if sed -n 3p "$TMP/b4k.err" | grep -qx 'flashbench: bound: 4KiB written, 10m of device time (--budget; check left out)' &&
	! grep -q 'capacity_check_ns' "$TMP/b4k.json" && [ "$("$JP" cost.bytes_written < "$TMP/b4k.json")" -le 4096 ]; then
	pass "auto --budget=4k: the capacity check is left out and the bound says so"
else
	fail "auto --budget=4k: the capacity check is left out and the bound says so" "$(head -3 "$TMP/b4k.err")"
fi

# The capacity check's device time: -v names its own requests' time and the
# cost line's figure (putting back and the rest after it included), the
# latter the same as the cost line's and JSON's.
"$FB" -A --write -v sim:sd-4m 2> "$TMP/cv.err" | unwrap > "$TMP/cv.out"
said=$(unwrap < "$TMP/cv.err" | sed -n 's/.*the check took \([0-9.]*s\) of device time, \([0-9.]*s\) with putting its data back and the rest it gives the card after (the cost line.s capacity figure).*/\1 \2/p')
cost=$(sed -n 's/^    capacity  *\([0-9.]*s\)  .*/\1/p' "$TMP/cv.out")
if [ -n "$said" ] && [ "${said#* }" = "$cost" ] && [ "${said% *}" != "$cost" ]; then
	pass "auto --write -v: the check's two device times named, the second the cost line's ($said)"
else
	fail "auto --write -v: the check's two device times named" "said '$said', cost line '$cost'"
fi

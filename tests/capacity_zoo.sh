# tests/capacity_zoo.sh — the fake-card zoo: --capacity --json, twice, on
# simulated cards whose truth is known: wrap-around at 1/2, 1/4 and periods
# that are no power of two (one shorter than the reference block, one not
# even a whole MiB); writes lost past the real size; a cache of the
# latest writes (2 MiB to 256 MiB; counting every write, only those past
# the real end, or distinct places past it) that hides the loss for a while,
# also when the loss lies close to the end or the cache is small (the
# hostile pass h23b found usable sizes above the truth there); a working
# region at the end; scattered bad regions of 2% to 20% (also bad regions
# in one stretch at or near the end, which must not pass for a fake); and honest cards of
# every preset (as --help -v lists them) and several erase block sizes.  Every
# fake must be found with the right kind and its real size within an erase
# block and never above it (for bad regions: an
# edge of a true bad region, and the share inside the interval said); no
# honest card may be flagged; nothing said at "high" may be wrong; the two
# runs (two salts) must give the same answer; and every sector must hold
# what it held before (the sim's own count, device.model.sectors_changed).
# A table of what each card cost on the sim's clock ends the run.
. tests/lib.sh
JP=${FB%/flashbench}/tests/jsonpath
cd "$TMP" || exit 1

SD="size=2G,wrate=10M,rrate=20M"
# every preset the binary has (--help -v lists them), honest or fake
presets() { "$FB" --help -v | sed -n 's/^  sim:\([a-z0-9-]*\) .*/\1/p'; }
[ -n "$(presets)" ] || fail "capacity zoo: the presets" "--help lists none"
ZOO="
$SD,real=1G,fake=wrap
$SD,real=512M,fake=wrap
$SD,real=768M,fake=wrap
$SD,real=1000M,fake=wrap
$SD,real=1G,fake=wrap,erase=16M
$SD,real=768M,fake=drop
$SD,real=1536M,fake=drop
$SD,real=100M,fake=drop
$SD,real=1200M,fake=drop,erase=12M
$SD,real=1G,fake=cache,keep=2M
$SD,real=1G,fake=cache,keep=8M
$SD,real=1G,fake=cache,keep=32M
$SD,real=1G,fake=cache,keep=64M
$SD,real=1G,fake=cache,keep=128M
$SD,real=1G,fake=cache,keep=256M
$SD,real=1500M,fake=cache,keep=16M
$SD,real=1G,fake=cache,keep=32M,keepby=address
$SD,real=1G,fake=cache,keep=256M,keepby=address
$SD,real=1G,fake=cache,keep=128M,keepby=past
$SD,real=1900M,fake=cache,keep=64M,keepby=address
$SD,real=1700M,fake=cache,keep=8M,keepby=past
wrate=10M,rrate=20M,size=128M,erase=1M,real=114456576,fake=cache,keep=12M,keepby=past,seed=3
wrate=10M,rrate=20M,size=128M,real=115M,fake=cache,keep=8M
wrate=10M,rrate=20M,size=64M,real=48M,fake=cache,keep=4M,keepby=address
wrate=10M,rrate=20M,size=512M,real=496M,fake=cache,keep=4M,keepby=address
wrate=10M,rrate=20M,size=64M,sector=4096,erase=1M,real=54525952,fake=cache,keep=16M
$SD,fake=bad,bad=2%,seed=2
wrate=10M,rrate=20M,size=64M,erase=2M,sector=4096,fake=bad,bad=20%,seed=48
wrate=10M,rrate=20M,size=512M,fake=bad,bad=10%,seed=32
$SD,real=512M,fake=end,goodend=16M
$SD,real=1G,fake=end,goodend=64M
$SD,fake=bad,bad=5%,seed=1
$SD,fake=bad,bad=10%,seed=2
$SD,fake=bad,bad=15%,seed=3
$SD,fake=bad,bad=20%,seed=4
$SD,fake=bad,bad=5%,seed=5,erase=8M
$SD,real=1536K,fake=wrap
wrate=10M,rrate=20M,size=64M,real=8K,fake=wrap
wrate=10M,rrate=20M,size=64M,real=16K,fake=wrap
wrate=10M,rrate=20M,size=64M,sector=4096,real=4096,fake=wrap
$SD,real=700000256,fake=wrap
$SD,real=700000256,fake=drop
$SD,real=1234567680,fake=cache,keep=8M
$SD,real=1000000000,fake=end,goodend=10000384
$SD
$SD,erase=16M
$SD,erase=12M,open=4
$(presets)
"

# a sim's journal needs no disk: on tmpfs its syncs cost nothing (a sim's
# data live in the process, so a journal there loses nothing a crash would not)
J=()
if [ -d /dev/shm ] && [ -w /dev/shm ] && mkdir -p "/dev/shm/flashbench-zoo.$$"; then
	J=(--preserve="/dev/shm/flashbench-zoo.$$/journal")
	export FLASHBENCH_STATE_DIR=/dev/shm/flashbench-zoo.$$/state
	trap 'rm -rf "/dev/shm/flashbench-zoo.$$"; cleanup' EXIT
fi
fields="verdict.kind verdict.confidence usable.value usable.confidence usable.at_most edges.lost_to edges.bad_share_low
edges.bad_share_high device.model.erase device.size device.model.sectors_changed cost.device_ns"
truth() { "$JP" "device.model.$1" < z1.json 2> /dev/null || echo "$2"; } # truth KEY DEFAULT: the sim's

# The sanitizer build runs each card once: what it looks for (memory
# errors) needs no second salt, and the plain build checks that two runs
# agree.  (Its 51 cards twice took 192 s under ASan.)
RUNS="1 2"
case $FB in */build/*) RUNS=1 ;; esac
found=0 fakes=0 honest=0 flagged=0 high_wrong=0 unstable=0 changed=0 cards=0 exact=0 edged=0
declare -a COST
while read -r spec; do
	[ -n "$spec" ] || continue
	cards=$((cards + 1))
	ans=()
	for run in $RUNS; do
		if ! "$FB" --capacity --json "${J[@]}" "sim:$spec" > z$run.json 2> z.err; then
			fail "capacity zoo: $spec" "run $run failed: $(tail -1 z.err)"
			continue 2
		fi
		ans+=("$("$JP" verdict.kind verdict.confidence usable.value usable.confidence < z$run.json | tr '\n' ' ')")
	done
	mapfile -t v < <("$JP" $fields < z1.json)
	kind=${v[0]} kconf=${v[1]} usable=${v[2]} uconf=${v[3]} lost_to=${v[5]} blo=${v[6]} bhi=${v[7]}
	erase=${v[8]} size=${v[9]} changed_sectors=${v[10]} ns=${v[11]}
	tfake=$(truth fake genuine) treal=$(truth real 0) tend=$(truth goodend 0) tbad=$(truth bad 0)
	[ "${#ans[@]}" = 1 ] || [ "${ans[0]}" = "${ans[1]}" ] ||
		{ unstable=$((unstable + 1)); echo "unstable: $spec: ${ans[0]} / ${ans[1]}"; }
	[ "$changed_sectors" = 0 ] || { changed=$((changed + 1)); echo "data changed: $spec: $changed_sectors sectors"; }
	kind_ok=0 size_ok=0 why=""
	[ "$kind" = "$tfake" ] && kind_ok=1
	case $tfake in
	genuine) [ "$usable" = "$size" ] && size_ok=1 ;;
	# within an erase block, and never more flash than there is (nor a
	# working end larger than it is)
	wrap|drop|cache) [ "$usable" -le "$treal" ] && [ $((treal - usable)) -le "$erase" ] && size_ok=1 ;;
	end)
		edge=$((size - tend))
		[ "$usable" -le "$treal" ] && [ $((treal - usable)) -le "$erase" ] &&
			[ "$lost_to" -ge "$edge" ] && [ $((lost_to - edge)) -le "$erase" ] && size_ok=1 ;;
	bad)
		# the first bad region found: at an edge of a true one, or in it;
		# the share said covers the truth
		for rg in $(truth bad_regions ""); do # START-END ...
			if [ "$usable" -ge $((${rg%-*} - erase)) ] && [ "$usable" -lt "${rg#*-}" ]; then size_ok=1; break; fi
		done
		awk -v lo="$blo" -v hi="$bhi" -v t="$tbad" 'BEGIN { exit !(lo <= t && t <= hi) }' ||
			echo "note: $spec: the share interval $blo..$bhi misses the truth $tbad" ;;
	esac
	case $tfake in wrap|drop|cache|end) edged=$((edged + 1)); [ "$usable" = "$treal" ] && exact=$((exact + 1)) ;; esac
	if [ "$tfake" = genuine ]; then
		honest=$((honest + 1))
		[ $kind_ok = 1 ] || flagged=$((flagged + 1))
	else
		fakes=$((fakes + 1))
		[ $kind_ok = 1 ] && [ $size_ok = 1 ] && found=$((found + 1))
	fi
	{ [ $kind_ok = 0 ] && [ "$kconf" = high ]; } && high_wrong=$((high_wrong + 1))
	{ [ $size_ok = 0 ] && [ "$uconf" = high ]; } && high_wrong=$((high_wrong + 1))
	COST+=("$(printf '%-58s %-8s %-11s %-7s %8.1fs' "$spec" "$kind" "$usable" "$uconf" "$(awk -v n="$ns" 'BEGIN { print n / 1e9 }')")")
	if [ $kind_ok = 1 ] && [ $size_ok = 1 ]; then
		pass "capacity zoo: $spec"
	else
		fail "capacity zoo: $spec" "found $kind ($kconf), usable $usable ($uconf); truth $tfake, real $treal"
	fi
done <<< "$ZOO"

echo "capacity zoo: card, kind found, usable size, its confidence, device time (the sim's clock)"
printf '    %s\n' "${COST[@]}"
echo "capacity zoo: $found of $fakes fakes found (kind and size), $flagged of $honest honest cards flagged," \
	"$high_wrong wrong at high, $unstable unstable, $changed left data changed; $exact of $edged real sizes to the byte"
[ "$found" = "$fakes" ] && pass "capacity zoo: every fake found with its kind and size" ||
	fail "capacity zoo: every fake found with its kind and size" "$found of $fakes"
[ "$flagged" = 0 ] && pass "capacity zoo: no honest card flagged" || fail "capacity zoo: no honest card flagged" "$flagged"
[ "$high_wrong" = 0 ] && pass "capacity zoo: nothing at high confidence is wrong" ||
	fail "capacity zoo: nothing at high confidence is wrong" "$high_wrong"
if [ "$RUNS" = 1 ]; then
	# (a note, not a SKIP: the plain build checks it)
	echo "the sanitizer build runs each card once: the same answer on repeated runs is the plain build's test"
else
	[ "$unstable" = 0 ] && pass "capacity zoo: the same answer on repeated runs" ||
		fail "capacity zoo: the same answer on repeated runs" "$unstable cards differ"
fi
[ "$changed" = 0 ] && pass "capacity zoo: every sector as it was after each run" ||
	fail "capacity zoo: every sector as it was after each run" "$changed cards"

# tests/batch.sh — several devices on one command line (run/batch.c): the
# map first, one table, JSON Lines, -o DIR; 8 sims on links of their own
# take about the slowest card's device time, 8 on one simulated USB 2.0
# link take turns and find what each finds alone; a mixed batch (honest,
# fake, one refused because mounted) finishes the others and touches
# nothing of the refused one; SIGKILL in a batch of four --capacity runs,
# then --restore=DIR, gives every card's bytes back (also when the cards
# come back under other names); a name that moves to
# another disk during the run never gets a write to that disk.  Sims run
# on virtual clocks (fast); the loop-device tests need root.
. tests/lib.sh

cd "$TMP" || exit 1
have_py() { command -v python3 > /dev/null; }

# findings FILE.jsonl: one line per card, "value/confidence" of each finding
findings() {
	python3 - "$1" << 'EOF'
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    if "findings" not in d:
        continue
    f = d["findings"]
    print(" ".join(f"{k}={v.get('value')}/{v.get('confidence')}" for k, v in sorted(f.items())
                   if isinstance(v, dict) and "value" in v))
EOF
}
# times FILE.jsonl: "batch slowest sum" device seconds, from the last line
times() {
	python3 - "$1" << 'EOF'
import json, sys
end = json.loads(open(sys.argv[1]).readlines()[-1])
t = [c["card"]["device_time_s"] for c in end["cards"]]
print(f'{end["device_time_s"]:.2f} {max(t):.2f} {sum(t):.2f}')
EOF
}

ind=() hub=()
for i in 1 2 3 4 5 6 7 8; do
	spec="sim:sd-4m,size=$((128 * i + 128))M,noise=0.02,seed=$i"
	ind+=("$spec,bus=b$i,link=41M")
	hub+=("$spec,bus=hub,link=41M")
done

t="batch: 8 sims on links of their own take the slowest card's device time, not the sum"
if ! have_py; then
	skip "$t" "python3 is not installed (reads the JSON Lines)"
elif "$FB" --auto --write --json "${ind[@]}" > ind.jsonl 2> ind.err && read -r all slow sum < <(times ind.jsonl) &&
	awk -v a="$all" -v s="$slow" -v u="$sum" 'BEGIN { exit !(a >= s && a <= s * 1.05 && a < u / 4) }' &&
	[ "$(head -1 ind.jsonl | "$JP" mode)" = batch ] && [ "$(wc -l < ind.jsonl)" = 10 ]; then
	echo "# 8 on own links: batch device time ${all}s, slowest card ${slow}s, sum ${sum}s"
	pass "$t"
else
	fail "$t" "batch ${all:-?}s slowest ${slow:-?}s sum ${sum:-?}s; $(tail -1 ind.err)"
fi

t="batch: 8 sims on one USB 2.0 link take turns and find what each finds alone"
if ! have_py; then
	skip "$t" "python3 is not installed (reads the JSON Lines)"
elif "$FB" --auto --write --json "${hub[@]}" > hub.jsonl 2> hub.err; then
	: > alone.jsonl
	for s in "${hub[@]}"; do "$FB" --auto --write --json "$s" 2> /dev/null | tr -d '\n' >> alone.jsonl; echo >> alone.jsonl; done
	read -r all slow sum < <(times hub.jsonl)
	turns=$(grep -c '"turns":true' <(tail -1 hub.jsonl | tr '}' '\n'))
	if [ "$(findings hub.jsonl)" = "$(findings alone.jsonl)" ] && [ "$(findings hub.jsonl | wc -l)" = 8 ] &&
		[ "$turns" = 8 ] && head -1 hub.jsonl | grep -q '"why":"take turns: simulated link hub' &&
		awk -v a="$all" -v u="$sum" 'BEGIN { exit !(a >= u * 0.95) }'; then
		echo "# 8 on one 41M link: batch device time ${all}s, sum ${sum}s; findings as alone: 8 of 8"
		pass "$t"
	else
		fail "$t" "turns $turns, batch ${all}s sum ${sum}s; $(diff <(findings hub.jsonl) <(findings alone.jsonl) | head -3)"
	fi
else
	fail "$t" "$(tail -1 hub.err)"
fi

t="batch: 64 sims on 8 links in one run, every one done, each link's cards taking turns"
many=()
for i in $(seq 1 64); do many+=("sim:sd-4m,size=256M,seed=$i,bus=b$((i % 8)),link=41M"); done
if "$FB" --auto --write "${many[@]}" > many.out 2> many.err && [ "$(grep -c '^| sim:.* | done | took turns |' many.out)" = 64 ] &&
	[ "$(grep -c '^    sim:' many.out)" -ge 64 ]; then
	pass "$t"
else
	fail "$t" "$(grep -c '| done |' many.out) done; $(tail -1 many.err)"
fi

# the text: the map first, one table, each card's report; -o DIR
t="batch: the map first, one table naming the fake, then each card's report; -o DIR a file per card"
honest=sim:sd-4m,size=64M fake=sim:sd-4m,size=64M,fake=wrap,real=32M
mkdir out
if "$FB" --capacity --max-cache=8M "$honest" "$fake" > text.out 2> text.err &&
	head -1 text.out | grep -q '^2 cards; what they share' &&
	grep -q "^| $fake | simulated | done | took turns | [0-9.]*s | 64MiB | fake: wrap 32MiB |" text.out &&
	grep -q "^| $honest | simulated | done | took turns | [0-9.]*s | 64MiB | genuine[?]\{0,1\} |" text.out &&
	[ "$(grep -c '^flashbench --capacity: sim' text.out)" = 2 ] &&
	"$FB" --capacity --max-cache=8M -o out "$honest" "$fake" > dir.out 2> dir.err && [ ! -s dir.out ] &&
	[ -s out/01-sim_sd-4m_size_64M.txt ] && grep -q "wraps around" out/02-sim_sd-4m_size_64M_fake_wrap_real_32M.txt &&
	grep -q "^| $fake |" out/batch.txt; then
	pass "$t"
else
	fail "$t" "$(head -3 text.out | tr '\n' ' ') $(tail -1 text.err) $(tail -1 dir.err) $(ls out)"
fi

t="batch: bad usage refused before anything runs"
expect_usage() { # what... : status 2, one line naming the problem
	"$FB" "$@" > u.out 2> u.err
	[ $? = 2 ] && [ "$(wc -l < u.err)" = 1 ] && [ ! -s u.out ]
}
if expect_usage --capacity -o nodir "$honest" "$fake" && grep -q "names a directory" u.err &&
	expect_usage --capacity --plot=x.svg "$honest" "$fake" && grep -q -- "--plot draws one device" u.err &&
	expect_usage --capacity --all-removable "$honest" && grep -q -- "--all-removable names the devices" u.err &&
	expect_usage --analyze a b && [ ! -e x.svg ]; then
	pass "$t"
else
	fail "$t" "$(cat u.err)"
fi

# Loop devices: mounted (refused), killed and restored, renamed.
LOOPT="batch loop: a mixed batch finishes the others, the mounted one untouched|batch loop: SIGKILL in a batch of four --capacity, then --restore=DIR"
LOOPT="$LOOPT|batch loop: Ctrl-C stops every card, puts back each card's data and exits 130|batch loop: a name moved to another disk gets no write"
ALL=$LOOPT
is_root || skip_all "needs root for loop devices"
command -v losetup > /dev/null || skip_all "losetup is not installed (util-linux)"

# four cards of 64MiB (--capacity's least), each a rotation of one random
# image by i MiB (all different, cheap to make); the fifth, which is only
# refused, of 16MiB
head -c $((64 << 20)) /dev/urandom > base.img
head -c $((16 << 20)) /dev/urandom > card5.img
for i in 1 2 3 4 5; do
	[ $i = 5 ] || { tail -c +$(((i << 20) + 1)) base.img && head -c $((i << 20)) base.img; } > card$i.img
	attach card$i.img || skip_all "cannot attach a loop device here"
	L[i]=$DEV
	ORIG[i]=$(digest "$DEV")
done

t="batch loop: a mixed batch finishes the others, the mounted one untouched"
if ! command -v mkfs.ext2 > /dev/null; then
	skip "$t" "mkfs.ext2 is not installed (e2fsprogs)"
else
	mkfs.ext2 -q -F "${L[5]}" > /dev/null 2>&1 && mkdir mnt && mount -o ro "${L[5]}" mnt && MNTS+=("$TMP/mnt")
	m5=$(digest "${L[5]}")
	"$FB" --capacity --max-cache=8M "$honest" "$fake" "${L[5]}" > mixed.out 2> mixed.err
	rc=$?
	if [ $rc != 0 ] && [ "$(digest "${L[5]}")" = "$m5" ] && grep -q "^| ${L[5]} | .* | refused | - | - | .*mounted" mixed.out &&
		grep -q "^| $fake | .* | done | .* | fake: wrap 32MiB |" mixed.out && grep -q "^| $honest | .* | done |" mixed.out &&
		grep -q "did not finish: ${L[5]}" mixed.err; then
		pass "$t"
	else
		fail "$t" "status $rc; $(grep "^|" mixed.out | tr '\n' ' ') $(tail -1 mixed.err)"
	fi
	umount "$TMP/mnt"
fi

t="batch loop: SIGKILL in a batch of four --capacity, then --restore=DIR"
mkdir j
bad=0 first1=${L[1]}
RANDOM=30
for trial in 1 2 3; do
	want=$((4096 + (RANDOM * 32768 + RANDOM) % (6 << 20)))
	killed_at "j/flashbench-$(basename "${L[2]}").journal" "$want" 120 "$FB" --capacity --max-cache=8M --preserve=j \
		"${L[1]}" "${L[2]}" "${L[3]}" "${L[4]}" > /dev/null 2> kill.err || bad=$((bad + 1))
	if [ $trial = 3 ]; then # the cards come back under other names: each journal is found by its medium
		for i in 1 2 3 4; do
			detach "${L[i]}" || bad=$((bad + 1))
		done
		for i in 4 3 2 1; do attach card$i.img && L[i]=$DEV || bad=$((bad + 1)); done
	fi
	"$FB" --restore=j "${L[1]}" "${L[2]}" "${L[3]}" "${L[4]}" > restore.out 2>&1 || { bad=$((bad + 1)); cat restore.out; }
	for i in 1 2 3 4; do
		[ "$(digest "${L[i]}")" = "${ORIG[i]}" ] || { bad=$((bad + 1)); echo "trial $trial: ${L[i]} differs"; }
	done
	ls j/*.journal > /dev/null 2>&1 && { bad=$((bad + 1)); echo "trial $trial: journals left: $(ls j)"; }
done
if [ $bad = 0 ] && grep -q "^restored .* to ${L[2]}," restore.out && [ "${L[1]}" != "$first1" ]; then
	pass "$t"
else
	fail "$t" "$bad failures; $(tail -2 restore.out | tr '\n' ' ')"
fi

t="batch loop: Ctrl-C stops every card, puts back each card's data and exits 130"
"$FB" --capacity --max-cache=8M --preserve=j "${L[1]}" "${L[2]}" "${L[3]}" > int.out 2> int.err &
pid=$!
seen=0
wait_for "a journal of 1MiB" 60 bash -c '[ "$(stat -c %s "$1" 2> /dev/null || echo 0)" -ge $((1 << 20)) ]' _ \
	"j/flashbench-$(basename "${L[2]}").journal" && seen=1
kill -INT "$pid"
wait "$pid"
rc=$?
same=1
for i in 1 2 3; do [ "$(digest "${L[i]}")" = "${ORIG[i]}" ] || same=0; done
if [ $seen = 1 ] && [ $rc = 130 ] && [ $same = 1 ] && ! ls j/*.journal > /dev/null 2>&1 && grep -q "^| ${L[2]} |" int.out; then
	pass "$t"
else
	fail "$t" "journal seen $seen, status $rc, bytes as before $same; $(tail -1 int.err) $(ls j)"
fi

t="batch loop: a name moved to another disk gets no write"
ln -s "${L[1]}" card
m3=$(digest "${L[3]}")
# the name is swapped to the other disk once the first card's journal exists (its writes have begun)
"$FB" --capacity --max-cache=8M --preserve=j "$TMP/card" "${L[2]}" > moved.out 2> moved.err &
pid=$!
seen=0
wait_for "the journal" 60 test -e j/flashbench-card.journal && seen=1
ln -sfn "${L[3]}" card
wait "$pid"
rc=$?
if [ $seen = 1 ] && [ "$(digest "${L[3]}")" = "$m3" ] && [ "$(digest "${L[1]}")" = "${ORIG[1]}" ] &&
	[ "$(digest "${L[2]}")" = "${ORIG[2]}" ] && grep -q "^| ${L[2]} | .* | done |" moved.out; then
	pass "$t"
else
	fail "$t" "status $rc, journal seen $seen; $(grep "^|" moved.out | tr '\n' ' ') $(tail -1 moved.err)"
fi
grep "^| $TMP/card |" moved.out | sed 's/^/# /'

# tests/zoo.sh — --auto --write on a zoo of simulated cards of known geometry
# (erase blocks 1-16 MiB including 1.5, 3, 6 and 12 MiB; read units 4-32 KiB;
# 1-8 open erase blocks, 0-4 in random order; FAT areas of 0-8 erase blocks).
# Every noise-free model must be found exactly; the noisy copies must score
# at least 90% of all findings.  The score is printed.
. tests/lib.sh
JP=${FB%/flashbench}/tests/jsonpath

# spec (without size) : expected read unit (page x planes)
ZOO="
erase=1M,page=4K,planes=1,open=1,random=0,fat=0
erase=1536K,page=8K,planes=1,open=2,random=1,fat=2,minwrite=16K
erase=2M,page=16K,planes=1,open=4,random=2,fat=3,minwrite=64K
erase=3M,page=8K,planes=2,open=5,random=0,fat=1
erase=4M,page=4K,planes=2,open=6,random=3,fat=8,minwrite=8K
erase=6M,page=32K,planes=1,open=3,random=1,fat=0,minwrite=32K
erase=8M,page=16K,planes=2,open=8,random=4,fat=5,minwrite=64K
erase=12M,page=16K,planes=1,open=2,random=2,fat=4
erase=16M,page=8K,planes=2,open=7,random=1,fat=6,minwrite=16K
erase=1M,page=32K,planes=1,open=3,random=3,fat=7,minwrite=32K
erase=2M,page=4K,planes=1,open=1,random=1,fat=0,minwrite=4K
erase=12M,page=8K,planes=1,open=4,random=0,fat=2,minwrite=16K,tcross=150us
"

# check SPEC: prints "found total" and a line per miss
check_model() {
	local spec=$1 want got found=0 total=0 key
	local erase page planes open random fat
	eval "$(echo "$spec" | tr ',' '\n' | grep -E '^(erase|page|planes|open|random|fat)=' | sed 's/K$/*1024/; s/M$/*1048576/')"
	if ! "$FB" -A --write --json "sim:size=8G,$spec" > "$TMP/z.json" 2> "$TMP/z.err"; then
		echo "0 5 run failed: $(cat "$TMP/z.err")"
		return
	fi
	local misses=""
	for key in page erase_block open_linear open_random fat_area; do
		case $key in
		page) want=$(( page * planes )) ;;
		erase_block) want=$(( erase )) ;;
		open_linear) want=$open ;;
		open_random) want=$random ;;
		fat_area) want=$fat ;;
		esac
		got=$("$JP" "findings.$key.value" < "$TMP/z.json" 2>&1)
		total=$((total + 1))
		if [ "$got" = "$want" ]; then found=$((found + 1)); else misses="$misses $key=$got(want $want)"; fi
	done
	echo "$found $total$misses"
}

score_found=0 score_total=0
while read -r spec; do
	[ -n "$spec" ] || continue
	read -r found total misses < <(check_model "$spec")
	if [ "$found" = "$total" ]; then pass "zoo exact: $spec"; else fail "zoo exact: $spec" "$misses"; fi
done <<< "$ZOO"

seed=11
while read -r spec; do
	[ -n "$spec" ] || continue
	for noise in 0.03 0.08; do
		seed=$((seed + 1))
		read -r found total misses < <(check_model "$spec,noise=$noise,seed=$seed")
		score_found=$((score_found + found))
		score_total=$((score_total + total))
		[ -z "$misses" ] || echo "noisy miss: $spec,noise=$noise,seed=$seed:$misses"
	done
done <<< "$ZOO"
echo "zoo score with noise: $score_found of $score_total findings"
if [ $((score_found * 10)) -ge $((score_total * 9)) ]; then
	pass "zoo with noise finds at least 90% ($score_found of $score_total)"
else
	fail "zoo with noise finds at least 90%" "$score_found of $score_total"
fi

# Geometries nobody tuned for: 40 drawn at random (seeded) from wide ranges
# of erase block (512 KiB-32 MiB, 3x2^n too), read unit, open counts up to
# 12, FAT areas up to 10, minimum writes up to 128 KiB, read and write
# timings spanning 10x, noise up to 10%.  At least 90% of all findings must
# be exact (a finding "not determined" counts as missed).
# pick sets P to one of its arguments (no subshell: bash reseeds RANDOM there)
pick() { local a=("$@"); P=${a[RANDOM % ${#a[@]}]}; }
RANDOM=2026
wild_found=0 wild_total=0
for i in $(seq 1 40); do
	pick 512K 768K 1M 1536K 2M 3M 4M 6M 8M 12M 16M 24M 32M; erase=$P
	pick 2K 4K 8K 16K 32K; page=$P
	pick 1 2; planes=$P
	# shrink the page until page x planes divides the erase block
	e=$(( $(echo "$erase" | sed 's/K$/*1024/; s/M$/*1048576/') ))
	p=$(( $(echo "$page" | sed 's/K$/*1024/') ))
	while [ $((e % (p * planes))) -ne 0 ]; do p=$((p / 2)); done
	open=$((RANDOM % 12 + 1))
	random=$((RANDOM % (open < 6 ? open + 1 : 7)))
	spec="erase=$erase,page=$p,planes=$planes,open=$open,random=$random,fat=$((RANDOM % 11))"
	pick 4K 8K 16K 32K 64K 128K; spec="$spec,minwrite=$P"
	pick 100 300 550 800; spec="$spec,tread=${P}us"
	pick 30 80 160 300; spec="$spec,tunit=${P}us"
	pick 40 100 300 600; spec="$spec,tcross=${P}us"
	pick 50 150 300 1000; spec="$spec,twrite=${P}us"
	pick 5 10 20 40 80; spec="$spec,wrate=${P}M,crate=${P}M"
	pick 0 0 0.02 0.05 0.1; spec="$spec,noise=$P,seed=$i"
	read -r found total misses < <(check_model "$spec")
	wild_found=$((wild_found + found))
	wild_total=$((wild_total + total))
	[ -z "$misses" ] || echo "unseen-geometry miss: $spec:$misses"
done
echo "zoo score on 40 random geometries: $wild_found of $wild_total findings"
if [ $((wild_found * 10)) -ge $((wild_total * 9)) ]; then
	pass "zoo of random geometries finds at least 90% ($wild_found of $wild_total)"
else
	fail "zoo of random geometries finds at least 90%" "$wild_found of $wild_total"
fi

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

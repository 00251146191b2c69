# tests/zoo.sh — the friendly zoo: --auto --write on simulated cards of known
# geometry that behave like our model (erase blocks 512 KiB-32 MiB including
# 3x2^n sizes; read units 2-64 KiB; 1-12 open erase blocks, 0-6 in random
# order; FAT areas of 0-10 erase blocks; minimum writes 4-128 KiB).  Every
# finding is scored (tests/zoolib.sh): the noise-free models must be found
# exactly; over the whole zoo at least 98% of findings must be right, no
# finding at "high" confidence may be wrong and no run may write more or take
# longer than it announced.  Per-finding accuracy and the calibration table
# are printed.  ZOO_SEED=N draws other noise and other random geometries
# (bench/zoo-seeds runs several).
. tests/lib.sh
. tests/zoolib.sh
ZOO_NAME=friendly
zoo_reset

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

Z_CLASS=exact
while read -r spec; do
	[ -n "$spec" ] || continue
	score_model "$spec"
	if [ -z "$Z_LAST" ]; then pass "zoo exact: $spec"; else fail "zoo exact: $spec" "$Z_LAST"; fi
done <<< "$ZOO"

Z_CLASS=noisy
seed=$((11 + 100 * ZOO_SEED))
while read -r spec; do
	[ -n "$spec" ] || continue
	for noise in 0.03 0.08; do
		seed=$((seed + 1))
		score_model "$spec,noise=$noise,seed=$seed"
	done
done <<< "$ZOO"

# Geometries nobody tuned for: 40 drawn at random (seeded) from wide ranges
# of erase block (512 KiB-32 MiB, 3x2^n too), read unit, open counts up to
# 12, FAT areas up to 10, minimum writes up to 128 KiB, read and write
# timings spanning 10x, noise up to 10%.
Z_CLASS=random
RANDOM=$((2026 + ZOO_SEED))
for i in $(seq 1 40); do
	pick 512K 768K 1M 1536K 2M 3M 4M 6M 8M 12M 16M 24M 32M; erase=$P
	pick 2K 4K 8K 16K 32K; page=$P
	pick 1 2; planes=$P
	fit_page "$erase" "$page" "$planes"; p=$P
	open=$((RANDOM % 12 + 1))
	random=$((RANDOM % (open < 6 ? open + 1 : 7)))
	spec="erase=$erase,page=$p,planes=$planes,open=$open,random=$random,fat=$((RANDOM % 11))"
	pick 4K 8K 16K 32K 64K 128K; spec="$spec,minwrite=$P"
	pick 100 300 550 800; spec="$spec,tread=${P}us"
	pick 30 80 160 300; spec="$spec,tunit=${P}us"
	pick 40 100 300 600; spec="$spec,tcross=${P}us"
	pick 50 150 300 1000; spec="$spec,twrite=${P}us"
	pick 5 10 20 40 80; spec="$spec,wrate=${P}M,crate=${P}M"
	pick 0 0 0.02 0.05 0.1; spec="$spec,noise=$P,seed=$((i + 1000 * ZOO_SEED))"
	score_model "$spec"
done

zoo_verdict "friendly zoo" 98

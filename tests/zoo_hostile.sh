# tests/zoo_hostile.sh — the hostile zoo: --auto --write on 64 seeded
# simulated cards and 8 with larger write caches (4 MiB to 128 MiB), that misbehave the way real cards do (sim keys in README
# "Simulated devices"): interleaved, uneven and partly free boundary costs,
# a FAT area in random-access mode, copies faster than writes, garbage-
# collection pauses, a write cache, a read buffer, reads that cost more or
# less in the FAT area, heavy-tailed jitter, 4096-byte sectors, minimum
# writes of 3x2^n bytes, a fixed per-write cost that dominates, writes
# efficient down to 512 bytes.  Each model switches on one to three of these.
# Every finding is scored (tests/zoolib.sh); at least 90% must be right and
# none at "high" confidence wrong.  Per-finding accuracy and the calibration
# table are printed.
. tests/lib.sh
. tests/zoolib.sh
zoo_reset

BEHAVIOURS=(chips spread free fatrandom copyfast pauses cache rbuf fatread tail sector4k minwrite3 fixedcost tiny)
RANDOM=4242
for i in $(seq 1 64); do
	pick 768K 1M 1536K 2M 3M 4M 6M 8M 12M 16M; erase=$P
	pick 4K 8K 16K 32K; page=$P
	pick 1 2; planes=$P
	open=$((RANDOM % 8 + 1))
	random=$((RANDOM % (open < 4 ? open + 1 : 5)))
	fat=$((RANDOM % 7))
	pick 8K 16K 32K 64K; minwrite=$P
	pick 300 550 800; tread=$P
	pick 80 160 300; tunit=$P
	pick 100 300 600; tcross=$P
	pick 150 300 1000; twrite=$P
	pick 10 20 40; wrate=$P
	pick 0 0 0.02 0.05; noise=$P
	extra=""
	# one to three behaviours, the first by turn so that each one is
	# covered, the others at random
	n=$((RANDOM % 3 + 1))
	chosen=" ${BEHAVIOURS[(i - 1) % ${#BEHAVIOURS[@]}]}"
	for _ in $(seq 2 $n); do pick "${BEHAVIOURS[@]}"; chosen="$chosen $P"; done
	for b in $chosen; do
		case $b in
		chips) extra="$extra,chips=2" ;;
		spread) extra="$extra,spread=0.6" ;;
		free) pick 0.1 0.15 0.2; extra="$extra,free=$P" ;;
		fatrandom) [ "$fat" -gt 0 ] || fat=$((RANDOM % 6 + 1)); extra="$extra,fatmode=random" ;;
		copyfast) pick 2 4; crate=$((wrate * P)) ;;
		pauses) pick 0.01 0.02; extra="$extra,pause=$P,pausetime=150ms" ;;
		cache) pick 256K 512K 1M; extra="$extra,cache=$P" ;;
		rbuf) extra="$extra,rbuf=1" ;;
		fatread) [ "$fat" -gt 0 ] || fat=$((RANDOM % 6 + 1)); pick 0.5 2; extra="$extra,fatread=$P" ;;
		tail) pick 0.01 0.03; extra="$extra,tail=$P" ;;
		sector4k) extra="$extra,sector=4096" ;;
		minwrite3) pick 12K 24K 48K 96K; minwrite=$P ;;
		fixedcost) twrite=2000; wrate=80; pick 4K 8K 16K; minwrite=$P ;;
		tiny) minwrite=512 ;;
		esac
	done
	fit_page "$erase" "$page" "$planes"; p=$P
	# with 4096-byte sectors the reads are 8 KiB: a smaller read unit cannot show
	case $extra in *sector=4096*) [ $((p * planes)) -ge 8192 ] || p=$((8192 / planes)) ;; esac
	spec="erase=$erase,page=$p,planes=$planes,open=$open,random=$random,fat=$fat,minwrite=$minwrite"
	spec="$spec,tread=${tread}us,tunit=${tunit}us,tcross=${tcross}us,twrite=${twrite}us,wrate=${wrate}M"
	spec="$spec,crate=${crate:-$wrate}M,noise=$noise,seed=$i$extra"
	crate=""
	score_model "$spec"
done

# Larger write caches (after the seeded draws, which stay as they were):
# caches the tool must find by a longer burst (4-32 MiB, beyond what the
# first part of its probe writes), one at its largest (64 MiB) and two
# larger than it seeks (128 MiB: they cannot be told from no cache, so write
# findings must not be "high").  The tester's cases are the first two.
while read -r spec; do
	[ -n "$spec" ] && score_model "$spec"
done <<'EOF'
erase=4M,page=8K,planes=2,open=2,random=1,fat=0,minwrite=32K,cache=8M
erase=12M,page=8K,planes=2,open=3,random=1,fat=0,minwrite=32K,wrate=24M,crate=24M,cache=4M
erase=4M,page=16K,planes=1,open=4,random=2,fat=3,minwrite=16K,wrate=10M,cache=32M,seed=3
erase=8M,page=8K,planes=2,open=2,random=1,fat=2,minwrite=64K,noise=0.02,cache=16M,seed=4
erase=2M,page=4K,planes=2,open=3,random=0,fat=1,minwrite=8K,pause=0.01,pausetime=150ms,cache=8M,seed=5
erase=3M,page=16K,planes=1,open=2,random=1,fat=0,minwrite=16K,cache=64M,seed=6
erase=4M,page=8K,planes=2,open=2,random=1,fat=4,minwrite=32K,cache=128M,seed=7
erase=16M,page=16K,planes=2,open=5,random=2,fat=0,minwrite=32K,wrate=40M,cache=128M,seed=8
EOF
zoo_verdict "hostile zoo" 90

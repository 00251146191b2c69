# tests/zoo_hostile.sh — the hostile zoo: --auto --write on 64 seeded
# simulated cards and 8 with larger write caches (4 MiB to 128 MiB), that misbehave the way real cards do (sim keys in
# doc/simulator.md): interleaved, uneven and partly free boundary costs,
# a FAT area in random-access mode, copies faster than writes, garbage-
# collection pauses, a write cache, a read buffer, reads that cost more or
# less in the FAT area, heavy-tailed jitter, 4096-byte sectors, minimum
# writes of 3x2^n bytes, a fixed per-write cost that dominates, writes
# efficient down to 512 bytes.  Each model switches on one to three of these.
# Then cards of today: reads of unwritten sectors answered from the mapping
# table (a used card with data in some regions, a fresh one), pseudo-SLC
# regions in front of slower flash, throttling after sustained writes, and
# SSD-like media with no flash-like penalty (scored by their verdict).
# Every finding is scored (tests/zoolib.sh); at least 92% must be right,
# none at "high" confidence wrong, and no run may write more or take longer
# than it announced.  Per-finding accuracy and the calibration table are
# printed.  ZOO_SEED=N draws other models (bench/zoo-seeds runs several).
. tests/lib.sh
. tests/zoolib.sh
zoo_reset

BEHAVIOURS=(chips spread free fatrandom copyfast pauses cache rbuf fatread tail sector4k minwrite3 fixedcost tiny)
RANDOM=$((4242 + ZOO_SEED))
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
	Z_CLASS=${chosen# }
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
	spec="$spec,crate=${crate:-$wrate}M,noise=$noise,seed=$((i + 1000 * ZOO_SEED))$extra"
	crate=""
	score_model "$spec"
done

# Larger write caches (after the seeded draws, which stay as they were):
# caches the tool must find by a longer burst (4-32 MiB, beyond what the
# first part of its probe writes), one at its largest (64 MiB) and two
# larger than it seeks (128 MiB: they cannot be told from no cache, so write
# findings must not be "high").  The tester's cases are the first two.
Z_CLASS=cache-large
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

# Cards of today, seeded: a used card whose unwritten sectors read from the
# mapping table (data in extents over 10-60% of it), a fresh one (nothing
# written), a pseudo-SLC region of 16-48 MiB at 3-10x the flash's speed,
# throttling after 16-64 MiB of writes without a rest, and SSD-like media
# (no read boundary costs, 64 open erase blocks, no padding), noisy or not;
# one of the first list's misbehaviours may come with them.
TODAY=(used fresh slc throttle ssdlike used slc)
RANDOM=$((777 + ZOO_SEED))
for i in $(seq 1 28); do
	pick 1M 2M 3M 4M 6M 8M 12M 16M; erase=$P
	pick 4K 8K 16K; page=$P
	pick 1 2; planes=$P
	open=$((RANDOM % 6 + 1))
	random=$((RANDOM % (open < 3 ? open + 1 : 3)))
	fat=$((RANDOM % 5))
	pick 8K 16K 32K; minwrite=$P
	pick 10 20 40; wrate=$P
	pick 0 0 0.02 0.05; noise=$P
	b=${TODAY[(i - 1) % ${#TODAY[@]}]}
	Z_CLASS=$b
	fit_page "$erase" "$page" "$planes"; p=$P
	spec="erase=$erase,page=$p,planes=$planes,open=$open,random=$random,fat=$fat,minwrite=$minwrite"
	spec="$spec,wrate=${wrate}M,crate=${wrate}M,noise=$noise,seed=$((i + 1000 * ZOO_SEED))"
	case $b in
	used) pick 0.1 0.33 0.6; spec="$spec,unmapped=1,data=$P" ;;
	fresh) spec="$spec,unmapped=1" ;;
	slc) pick 16M 32M 48M; spec="$spec,slc=$P"; pick 3 5 10; spec="$spec,slcrate=$((wrate * P))M" ;;
	throttle) pick 16M 32M 64M; spec="$spec,throttle=$P" ;;
	ssdlike)
		pick 512K 1M 2M; e=$P; pick 0 0.05 0.1; n=$P; pick 0 0.02 0.05; t=$P; pick 0 1; u=$P
		spec="erase=$e,page=4K,planes=1,open=64,random=64,fat=0,minwrite=512,tread=60us,tunit=0,tcross=0"
		spec="$spec,twrite=30us,trandom=0,rrate=250M,wrate=200M,crate=200M,noise=$n,tail=$t,unmapped=$u"
		spec="$spec,seed=$((i + 1000 * ZOO_SEED))"
		score_ssd "$spec"
		continue ;;
	esac
	if [ $((RANDOM % 2)) = 1 ]; then
		pick chips spread rbuf tail pauses
		case $P in
		chips) spec="$spec,chips=2" ;; spread) spec="$spec,spread=0.6" ;; rbuf) spec="$spec,rbuf=1" ;;
		tail) spec="$spec,tail=0.01" ;; pauses) spec="$spec,pause=0.01,pausetime=150ms" ;;
		esac
	fi
	score_model "$spec"
done

# The cards of the issue that asked for them: a TLC stick with a 32 MiB
# pSLC region (2 GiB, ~100 MB/s in front of 12 MB/s), a used eMMC-like card
# (a third holds data), a fresh one, a throttling card, a CF card with 2
# open erase blocks on a noisy bus, and an SSD-like medium, quiet and on a
# busy host (heavy-tailed delays).
Z_CLASS=issue
SLC_STICK="size=2G,erase=4M,page=16K,planes=1,open=3,random=1,fat=0,minwrite=16K,wrate=12M,crate=12M,slc=32M"
SLC_STICK="$SLC_STICK,slcrate=100M"
score_model "$SLC_STICK"
slc_ns=$Z_NS slc_miss=$Z_LAST
slc_area=$("$JP" findings.write_cache.value < "$TMP/z.json" 2> /dev/null)
if [ "${slc_area:-0}" != null ] && [ "${slc_area:-0}" -ge $((24 << 20)) ] && [ "${slc_area:-0}" -le $((40 << 20)) ]; then
	pass "hostile zoo: the pSLC stick's fast area found at $((slc_area >> 20)) MiB (32 MiB)"
else
	fail "hostile zoo: the pSLC stick's fast area found (32 MiB)" "write_cache=$slc_area"
fi
score_model "erase=4M,page=8K,planes=2,open=4,random=2,fat=2,minwrite=16K,unmapped=1,data=0.33,seed=$((9 + ZOO_SEED))"
score_model "erase=8M,page=16K,planes=1,open=3,random=1,fat=0,minwrite=32K,unmapped=1,seed=$((10 + ZOO_SEED))"
score_model "erase=4M,page=8K,planes=2,open=2,random=1,fat=4,minwrite=32K,throttle=24M,seed=$((11 + ZOO_SEED))"
score_model "size=16G,erase=16M,page=8K,planes=2,open=2,random=2,fat=0,minwrite=64K,wrate=70M,crate=70M,rrate=60M,noise=0.05,tail=0.02,seed=$((12 + ZOO_SEED))"
# The presets' geometry with the misbehaviour the hostile test of issue 22
# found "high" wrong on (noise, garbage-collection pauses; its seeds at
# ZOO_SEED 0): a collapse a pause can fake, a fit on noisy sizes, odd
# multiples of half the erase block lifted by noise.
Z_CLASS=h22
SD4="erase=4M,page=8K,planes=2,open=2,random=1,fat=4,minwrite=32K"
USB12="erase=12M,page=8K,planes=2,open=3,random=1,fat=0,minwrite=32K,wrate=24M,crate=24M"
CF16="erase=16M,page=8K,planes=2,open=2,random=2,fat=0,minwrite=64K,wrate=70M,crate=70M,rrate=60M"
score_model "$SD4,noise=0.2,seed=$((4 + ZOO_SEED))"
score_model "$SD4,pause=0.05,pausetime=20ms,seed=$((2 + ZOO_SEED))"
score_model "$SD4,pause=0.1,pausetime=50ms,seed=$((17 + ZOO_SEED))"
score_model "$CF16,pause=0.05,pausetime=20ms,seed=$((6 + ZOO_SEED))"
score_model "$CF16,noise=0.2,seed=$((5 + ZOO_SEED))"
score_model "$USB12,noise=0.02,seed=$((4 + ZOO_SEED))"
score_model "$USB12,noise=0.2,seed=$((15 + ZOO_SEED))"
score_model "$USB12,pause=0.05,pausetime=20ms,seed=$((3 + ZOO_SEED))"
SSD="size=2G,erase=512K,page=4K,planes=1,open=64,random=64,fat=0,minwrite=512,tread=60us,tunit=0,tcross=0,twrite=30us"
SSD="$SSD,trandom=0,rrate=250M,wrate=200M,crate=200M,unmapped=1"
score_ssd "$SSD"
score_ssd "$SSD,noise=0.1,tail=0.05,seed=$((13 + ZOO_SEED))"
if [ -z "$slc_miss" ] && [ "${slc_ns:-0}" -lt 120000000000 ]; then
	pass "hostile zoo: the pSLC stick (32 MiB fast, 2 GiB) right in $((slc_ns / 1000000000)) s of device time"
else
	fail "hostile zoo: the pSLC stick right in under 2 minutes" "$((${slc_ns:-0} / 1000000000)) s,$slc_miss"
fi
if [ -z "$Z_SSD_BAD" ]; then
	pass "hostile zoo: SSD-like media say so within 60 s and 128 MiB"
else
	fail "hostile zoo: SSD-like media say so within 60 s and 128 MiB" "$(printf '%s' "$Z_SSD_BAD" | head -2 | tr '\n' ';')"
fi
zoo_verdict "hostile zoo" 92

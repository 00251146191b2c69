#!/usr/bin/env bash
# tests/tablegen.sh CLASS SEED — a table of a card of known geometry, in the
# shapes people post (for tests/analyze_classes.sh and bench/confidence).
# The first line is "# truth: KEY=VALUE ..." (the geometry; fat_area=slower
# for a start that is slower at every chunk size: no FAT claim is right).
# Every number comes from SEED through one generator (Park-Miller, exact in
# any awk), so a seed is the same table on any machine.  Classes:
#   align   one to three -a runs of a card whose page and erase block show
#           as steps of the diff; half the cards read the block before each
#           erase-block boundary slower (or faster) than the one after it
#   sweep   -O sweeps from the simulator (linear, random), their counts on
#           label lines of many shapes, on command lines, in a loop's echo
#           or left to the classic default; cards that keep up to 8 open,
#           so the collapse may come late or never; one open AU faster for
#           the smallest writes than several, or small writes buffered so
#           that a collapse shows only from the middle sizes up
#   fat     a find-fat table: a first area faster for small writes, less
#           penalised by them (slower for large ones), slower at every
#           chunk size ("different": not FAT-optimised), or none
# Needs FB (the flashbench binary, for the sweeps).
set -u
class=$1 seed=$2

# awk_gen CLASS SEED: the align and fat tables
awk_gen() {
	awk -v class="$1" -v seed="$2" '
	function rnd() { st = (st * 16807) % 2147483647; return st / 2147483647 }
	function pick(n) { return int(rnd() * n) }
	function uni(a, b) { return a + (b - a) * rnd() }
	function gauss() { return sqrt(-2 * log(rnd() + 1e-12)) * cos(6.283185307 * rnd()) }
	# the classic units: ns below 1us, else 3 significant digits
	function t(ns,   a, u) {
		a = ns < 0 ? -ns : ns
		if (a < 1000) return sprintf("%dns", ns)
		if (a < 1e6) { u = "µs"; ns /= 1e3 } else if (a < 1e9) { u = "ms"; ns /= 1e6 } else { u = "s"; ns /= 1e9 }
		return sprintf("%.3g%s", ns, u)
	}
	function sz(b) {
		if (b >= 1048576) return sprintf("%gMiB", b / 1048576)
		return sprintf("%gKiB", b / 1024)
	}
	function rate(bps) {
		if (bps >= 1e6) return sprintf("%.3gM/s", bps / 1e6)
		return sprintf("%.3gK/s", bps / 1e3)
	}
	BEGIN {
		st = (seed * 7919 + 12345) % 2147483646 + 1
		for (i = 0; i < 5; i++) rnd()
		if (class == "align") align(); else fat()
	}
	function align(   E, P, bs, dev, runs, t0, sig, d0, dp, de, A, top, a, r, base, off, pre, post, on, d, cmd) {
		E = 2 ^ (20 + pick(5)); P = 2 ^ (12 + pick(4)); bs = pick(4) ? 1024 : 2048
		dev = 2 ^ (31 + pick(5)); runs = 1 + pick(3)
		t0 = uni(200e3, 2e6); sig = t0 * uni(0.003, 0.02)
		d0 = uni(0, 3) * sig; dp = uni(8, 40) * sig; de = dp * uni(2, 8)
		A = pick(2) ? 0 : (pick(2) ? 1 : -1) * uni(0.4, 1.2) * de
		if (A < -0.6 * t0) A = -0.6 * t0
		printf "# truth: page=%.0f erase_block=%.0f asym=%d\n", P, E, A != 0
		cmd = sprintf("$ sudo ./flashbench -a /dev/mmcblk0 --blocksize=%d", bs)
		# what the card does at each alignment, the same in every run
		for (a = dev / 2; a >= 2 * bs; a /= 2) off[a] = gauss() * sig * 0.7
		for (r = 0; r < runs; r++) {
			print cmd
			base = t0 * uni(0.98, 1.02)
			for (a = dev / 2; a >= 2 * bs; a /= 2) {
				pre = base + gauss() * sig + (a >= E ? A : 0)
				post = base + gauss() * sig
				d = d0 + (a >= P ? dp : 0) + (a >= E ? de : 0) + off[a]
				on = (pre + post) / 2 + d + gauss() * sig * 0.7
				printf "align %.0f\tpre %s\ton %s\tpost %s\tdiff %s\n", a, t(pre), t(on), t(post), t(on - (pre + post) / 2)
			}
			print ""
		}
	}
	function fat(   E, nb, k, kind, w, tc, mw, noise, c, j, x, f, slow, time, pen) {
		E = 2 ^ (21 + pick(3)); nb = 6 + pick(3); k = pick(5); kind = pick(3)
		if (!k) kind = -1
		w = uni(5e6, 40e6); tc = uni(0.2e6, 2e6); mw = 2 ^ (14 + pick(3)); noise = uni(0.01, 0.05)
		# less penalised: small writes cost the ordinary blocks an overhead
		# and their minimum, that the area does not pay
		if (kind == 1) { tc = uni(1e6, 3e6); mw = 2 ^ (15 + pick(2)) }
		f = uni(1.6, 3); slow = uni(0.3, 0.6)
		for (j = 0; j < k; j++) pen[j] = uni(0.45, 0.6)
		printf "# truth: fat_area=%s\n", kind == 2 ? "slower" : k
		printf "$ sudo ./flashbench --find-fat --fat-nr=%d --erasesize=%.0f /dev/sdb\n", nb, E
		for (c = E; c >= 16384; c /= 2) {
			printf "%s", sz(c)
			for (j = 0; j < nb; j++) {
				time = tc + (c < mw ? mw : c) / w * 1e9
				if (j < k && kind == 0)         # faster at every size, small writes the most
					time = (tc / 2 + c / w * 1e9) / f
				else if (j < k && kind == 1)    # slower for large writes, less penalised by small ones
					time = tc / f + c / (w * pen[j]) * 1e9
				else if (j < k && kind == 2)    # slower at every size
					time = time / slow
				x = c * 1e9 / time * (1 + gauss() * noise)
				printf "\t%s", rate(x)
			}
			printf "\n"
		}
	}'
}

# sweep SEED: open-au sweeps of a simulated card, their counts written as
# posters write them
sweep_gen() {
	local s=$1 st n e o ro top rtop shape conf spec i lab rnd order
	st=$(( (s * 7919 + 12345) % 2147483646 + 1 ))
	next_r() { st=$(( st * 16807 % 2147483647 )); R=$st; }
	pickn() { next_r; P=$(( R % $1 )); }
	pickn 4; e=$(( (1 << (20 + P)) )); [ $P = 3 ] && e=$((12 << 20))
	pickn 8; o=$((P + 1))
	pickn 3; ro=$(( P < o ? P : o )); [ $ro -ge 1 ] || ro=1
	pickn 3; top=$(( o + P - 1 )); [ $top -ge 2 ] || top=2; [ $top -le 8 ] || top=8
	rtop=$(( ro + 2 ))
	pickn 8; shape=$P
	pickn 3; conf=$P   # 0 none, 1 nr=1 faster for small writes, 2 small writes buffered
	pickn 4; spec="size=8G,erase=$e,page=8K,planes=2,open=$o,random=$ro,fat=0,minwrite=16K"
	spec="$spec,wrate=$((10 + 10 * P))M,crate=$((10 + 10 * P))M,noise=0.03,seed=$s"
	[ $((s % 5)) = 0 ] && spec="$spec,crate=$((40 + 40 * P))M"
	# (drawn last, so that the draws above stay what they were): the shapes
	# of two scripts found on GitHub, one sweep in five
	pickn 5; [ $P = 0 ] && shape=$((8 + shape % 2))
	echo "# truth: open_linear=$o open_random=$ro shape=$shape conf=$conf"
	for order in linear random; do
		[ $order = random ] && rnd=--random || rnd=
		[ $order = random ] && n=$rtop || n=$top
		for i in $(seq 1 "$n"); do
			case $shape in
			0) echo "=== AU nr $i $order ===" ;;
			1) echo "open AUs: $i ($order)" ;;
			2) echo "${order^^}, NR=$i" ;;
			3) echo "# open au: $i, order: $order" ;;
			4) echo "AU $i $order"; echo "\$ sudo flashbench -O -e $e $rnd --open-au-nr=\$n /dev/sdb" ;;
			5) echo "\$ sudo flashbench -O --erasesize=$e $rnd --open-au-nr=$i /dev/sdb" ;;
			6) echo "+ flashbench -O --erasesize=$e $rnd --open-au-nr=\$i /dev/sdb"; echo "$i" ;;
			7) [ $order = random ] && echo "nr:$i rnd" || echo "nr:$i lin" ;;
			8) echo "======= AU=$i, $order access =======" ;;
			9) echo "BLOCKSIZE = 16384 ERASESIZE = $e AU = $i${rnd:+ random}" ;;
			esac
			echo "@@nr $i"
			"$FB" -O -e "$e" -b 16K $rnd --open-au-nr="$i" "sim:$spec" 2> /dev/null
		done
	done | awk -v conf="$conf" '
	# a table: the rows of one run, largest chunk first; the confounders
	# change the 3 smallest rows once the table is complete
	function flush(   k, r) {
		for (k = 0; k < n; k++) {
			r = rate[k]
			if (n - k <= 3 && conf == 1 && nr == 1)
				r = rate[k] * 3
			else if (n - k <= 3 && conf == 2 && nr != 1 && (k in ref))
				r = ref[k]
			if (nr == 1)
				ref[k] = rate[k]
			printf "%s\t%s\n", size[k], (r >= 1e6 ? sprintf("%.3gM/s", r / 1e6) : sprintf("%.3gK/s", r / 1e3))
		}
		n = 0
	}
	function val(s,   x) { x = s + 0; if (s ~ /K\/s/) return x * 1e3; if (s ~ /G\/s/) return x * 1e9; return x * 1e6 }
	/^@@nr / { if (n) flush(); nr = $2; next }
	BEGIN { n = 0 }
	/^[0-9.]+[KM]iB\t/ { size[n] = $1; rate[n++] = val($2); next }
	{ if (n) flush(); print }
	END { if (n) flush() }'
}

case $class in
align|fat) awk_gen "$class" "$seed" ;;
sweep) sweep_gen "$seed" ;;
*) echo "tablegen: unknown class $class (align, sweep, fat)" >&2; exit 2 ;;
esac

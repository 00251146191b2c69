#!/usr/bin/env bash
# open-au-sweep.sh — the loop people write by hand around flashbench -O:
# try N = 1, 2, 3... open erase blocks, linear and then in random order,
# stop each sweep at the knee, and print a summary.
set -u

usage() {
	cat <<USAGE
Usage: open-au-sweep.sh [OPTION]... DEVICE
Run "flashbench --open-au --open-au-nr=N" for N = 1, 2, ... until the
smallest chunk's throughput falls below a third of what it was with N=1
(the card had to clean up on every write), first in linear order, then with
--random.  WRITES to DEVICE (see flashbench --help).

  -e SIZE      erase block size (default 4M; 12M, 1.5M work)
  -b SIZE      smallest chunk (default 64k)
  -n MAX       largest N tried (default 16)
  --linear     only the linear sweep        --random   only the random sweep
  --preserve   pass --preserve to flashbench (keep the data on DEVICE)
  -h, --help   this help
The flashbench binary is \$FLASHBENCH, else flashbench from PATH.
Exit status: 0, or 2 for bad arguments, or flashbench's status on error.
USAGE
}

FB=${FLASHBENCH:-flashbench}
erase=4M bs=64k max=16 modes="linear random" extra=()
while [ $# -gt 0 ]; do
	case $1 in
	-e) erase=${2:?-e needs a size}; shift 2 ;;
	-b) bs=${2:?-b needs a size}; shift 2 ;;
	-n) max=${2:?-n needs a number}; shift 2 ;;
	--linear) modes=linear; shift ;;
	--random) modes=random; shift ;;
	--preserve) extra+=(--preserve); shift ;;
	-h | --help) usage; exit 0 ;;
	-*) echo "open-au-sweep.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
if [ $# -ne 1 ]; then
	echo "open-au-sweep.sh: name one device (see --help)" >&2
	exit 2
fi
case $max in '' | *[!0-9]*) echo "open-au-sweep.sh: -n needs a whole number" >&2; exit 2 ;; esac
dev=$1

# "8.79M/s" -> bytes per second
to_bps() { awk '{ v = $1 + 0; if ($1 ~ /K\/s/) v *= 1e3; else if ($1 ~ /M\/s/) v *= 1e6;
	else if ($1 ~ /G\/s/) v *= 1e9; printf "%.0f\n", v }' <<< "$1"; }

summary=()
for mode in $modes; do
	flag=()
	[ "$mode" = random ] && flag=(--random)
	base="" found="" last_size="" last_rate=""
	for n in $(seq 1 "$max"); do
		echo "== $mode, $n open erase block(s)"
		out=$("$FB" --open-au "${flag[@]}" "${extra[@]}" --erasesize="$erase" --blocksize="$bs" \
			--open-au-nr="$n" "$dev") || exit $?
		echo "$out"
		last_size=$(tail -1 <<< "$out" | cut -f1)
		last_rate=$(tail -1 <<< "$out" | cut -f2)
		rate=$(to_bps "$last_rate")
		if [ "$n" = 1 ] && [ "$mode" = linear ]; then
			base=$rate
		elif [ "$n" = 1 ]; then
			base=${linear_base:-$rate}
		fi
		if [ $((rate * 3)) -lt "$base" ]; then
			found=$((n - 1))
			break
		fi
		[ "$mode" = linear ] && [ "$n" = 1 ] && linear_base=$rate
	done
	if [ -n "$found" ]; then
		summary+=("$mode: $found open erase block(s) (with $((found + 1)): $last_rate at $last_size)")
	else
		summary+=("$mode: at least $max open erase blocks (no collapse up to $max)")
	fi
done
echo
echo "== summary for $dev (erase block $erase)"
printf '%s\n' "${summary[@]}"

#!/usr/bin/env bash
# open-au-sweep.sh (installed as flashbench-open-au-sweep) — the loop
# people write by hand around flashbench -O: try N = 1, 2, 3... open erase
# blocks, linear and then in random order, stop each sweep at the knee, and
# print a summary.
set -u
lib=$(dirname "$(readlink -f "$0")")/lib.sh
# shellcheck source=scripts/lib.sh
. "$lib" || exit 1

usage() {
	cat <<USAGE
Usage: $me [OPTION]... DEVICE
Run "flashbench --open-au --open-au-nr=N" for N = 1, 2, ... until the
writes collapse (the card has to clean up on every write: flashbench
--analyze judges each run against the sweep's own N=1 run), first in linear
order, then with --random.  WRITES to DEVICE (see flashbench --help).

  -e SIZE      erase block size (12M, 1.5M work); without -e it is found
               first with "flashbench --auto" (read-only), and the sweep is
               refused when that finds none, or none with at least medium
               confidence
  -b SIZE      smallest chunk (default 64k)
  -n MAX       largest N tried (default 16)
  --linear     only the linear sweep        --random   only the random sweep
  --preserve   pass --preserve to flashbench (keep the data on DEVICE)
  -h, --help   this help                    --version  the version
The flashbench binary is \$FLASHBENCH, else flashbench from PATH.
Exit status: 0; 1 when the erase block size could not be found; 2 for bad
arguments; or flashbench's status on error.
USAGE
}

erase='' bs=64k max=16 modes="linear random" extra=()
while [ $# -gt 0 ]; do
	case $1 in
	-e | -b | -n)
		[ -n "${2-}" ] || bad "$1 needs a value (see --help)"
		case $1 in -e) erase=$2 ;; -b) bs=$2 ;; -n) max=$2 ;; esac
		shift 2 ;;
	--linear) modes=linear; shift ;;
	--random) modes=random; shift ;;
	--preserve) extra+=(--preserve); shift ;;
	*) break ;;
	esac
done
device "$@"
case $max in '' | *[!0-9]*) bad "-n needs a whole number" ;; esac

# Without -e: the erase block size --auto finds by reading (never a guess:
# a size it does not determine, or determines with low confidence, stops
# the sweep, saying why)
if [ -z "$erase" ]; then
	echo "== erase block size: flashbench --auto $dev (read-only; give -e SIZE to skip this)"
	found=$("$FB" --auto "$dev") || exit
	line=$(printf '%s\n' "$found" | grep -m1 '^erase block size ')
	read -r _ _ _ value conf _ <<< "$line"
	why=$(printf '%s\n' "$found" | awk '/^erase block size /{ on = 1; next } on && /^    /{ sub(/^ +/, ""); print; exit }')
	case $conf in
	high | medium) erase=$value
		echo "== erase block $erase ($conf confidence): $why" ;;
	*)
		if [ "$value" = not ]; then what="did not determine the erase block size"; else what="found an erase block size of $value with only $conf confidence"; fi
		echo "$me: flashbench --auto $what on $dev (${why:-no reason given}): give the erase block size with -e SIZE" >&2
		exit 1 ;;
	esac
fi

# Every table goes under a header line that names its command (with
# --open-au-nr), so "flashbench --analyze" reads the sweep back; it decides
# where the writes collapse (the same rule as --auto), judging each sweep
# against its own --open-au-nr=1 run.
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT
title() { [ "$1" = random ] && echo "open erase blocks, random order" || echo "open erase blocks, linear"; }
summary() {
	echo
	echo "== summary for $dev (erase block $erase), from flashbench --analyze"
	"$FB" --analyze "$log" | awk '/^open erase blocks/ { on = 1; print; next } /^[^ ]/ { on = 0 } on'
}
# Ctrl-C: flashbench keeps the rows it measured (they are in the log); the
# table cut short is marked "^C" as in a mail, the summary says what the
# sweep showed so far, and the script ends by the signal
stopped() {
	trap - INT TERM
	echo "^C" >> "$log"
	echo
	echo "== stopped by a signal: what the sweep measured so far"
	summary
	rm -f "$log"
	kill -"$1" $$
}
trap 'stopped INT' INT
trap 'stopped TERM' TERM
for mode in $modes; do
	flag=()
	[ "$mode" = random ] && flag=(--random)
	for n in $(seq 1 "$max"); do
		cmd=("$FB" --open-au "${flag[@]}" "${extra[@]}" --erasesize="$erase" --blocksize="$bs" --open-au-nr="$n" "$dev")
		echo "== $mode: flashbench ${cmd[*]:1}" | tee -a "$log"
		# each row as flashbench measures it, on the screen and in the log
		"${cmd[@]}" | tee -a "$log"
		rc=${PIPESTATUS[0]}
		[ "$rc" = 0 ] || exit "$rc"
		# stop at the knee: --analyze finds an exact count
		"$FB" --analyze "$log" 2> /dev/null | grep -qE "^$(title "$mode") +[0-9]" && break
	done
done
summary

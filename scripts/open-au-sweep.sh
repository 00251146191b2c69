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
  -n MAX       largest N tried (default 16, at least 1)
  --linear     the linear sweep             --random   the random sweep
               (one of them alone: only that sweep; neither or both: both)
  --preserve   pass --preserve to flashbench (keep the data on DEVICE)
  -h, --help   this help                    --version  the version
The flashbench it runs is \$FLASHBENCH, else the one installed beside it (in
the source: the one built there), else flashbench from PATH; one that does not
answer --version as this flashbench does (the classic tool) is refused.
Ctrl-C, or SIGTERM or SIGHUP to the script, is passed on to flashbench,
which stops at its next request (and puts back what --preserve saved);
then the summary of what was measured is printed, the table cut short
marked "^C".
Exit status: 0; 1 when the erase block size could not be found; 2 for bad
arguments; flashbench's status on error; 130/143/129 after SIGINT/TERM/HUP.
USAGE
}

erase='' erase_by='' bs=64k max=16 linear='' random='' extra=()
while [ $# -gt 0 ]; do
	case $1 in
	-e | -b | -n)
		[ -n "${2-}" ] || bad "$1 needs a value (see --help)"
		case $1 in -e) erase=$2 ;; -b) bs=$2 ;; -n) max=$2 ;; esac
		shift 2 ;;
	--linear) linear=1; shift ;;
	--random) random=1; shift ;;
	--preserve) extra+=(--preserve); shift ;;
	*) break ;;
	esac
done
device "$@"
check_fb
[[ $max =~ ^[0-9]+$ ]] || bad "-n needs a whole number (-n 8: try up to 8 open erase blocks)"
[[ $max =~ [1-9] ]] || bad "-n $max tries no erase block at all: give at least 1 (-n 8: try up to 8)"
# --linear and --random each ask for their sweep; neither (or both): both
modes="linear random"
[ -n "$linear" ] && [ -z "$random" ] && modes=linear
[ -n "$random" ] && [ -z "$linear" ] && modes=random

# Everything the script prints on standard output goes to the log as well,
# so the line numbers "flashbench --analyze" gives in the summary (it reads
# the log) are those of the output above it.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
log=$tmp/log
: > "$log" && mkfifo "$tmp/rows" || exit 1
say() {
	printf '%s\n' "$@" >> "$log"
	printf '%s\n' "$@"
}
# show HEADER: copy a flashbench's rows (standard input) to the screen and
# the log as they come, under HEADER once the first row is there: a run
# refused for a bad option, or stopped before its first row, leaves none
show() {
	local line first=1
	trap '' INT TERM HUP # it ends when flashbench does (a signal to all of them)
	while IFS= read -r line || [ -n "$line" ]; do
		[ -z "$first" ] || say "$1"
		first=''
		say "$line"
	done
}
# stopped: a signal came (flashbench was given it too, and has stopped):
# the summary of what the sweep measured, then end by the signal
stopped() {
	say "" "== stopped by a signal (SIG$caught): what the sweep measured so far"
	summary
	rm -rf "$tmp"
	stop_if_caught
}

# Without -e: the erase block size --auto finds by reading (never a guess:
# a size it does not determine, or determines with low confidence, stops
# the sweep, saying why)
if [ -z "$erase" ]; then
	say "== erase block size: flashbench --auto $dev (read-only; -e SIZE skips it)"
	run_fb "$FB" --auto "$dev" > "$tmp/auto"
	rc=$?
	[ -z "$caught" ] || { rm -rf "$tmp"; stop_if_caught; }
	[ "$rc" = 0 ] || exit "$rc"
	line=$(grep -m1 '^erase block size ' "$tmp/auto")
	read -r _ _ _ value conf _ <<< "$line"
	# its first line of evidence (wrapped: the lines indented further go on with it)
	why=$(awk '/^erase block size /{ on = 1; next }
		on && /^      / { sub(/^ +/, ""); w = w " " $0; next }
		on && w != "" { exit }
		on && /^    / { sub(/^ +/, ""); w = $0; next }
		END { print w }' "$tmp/auto")
	case $conf in
	high | medium) erase=$value erase_by="--auto ($conf confidence)"
		say "== erase block $erase ($conf confidence), as flashbench --auto found it:"
		say "$(printf '%s\n' "$why" | fold -s -w 73 | sed 's/^/   /; s/ *$//')" ;;
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
title() { [ "$1" = random ] && echo "open erase blocks, random order" || echo "open erase blocks, linear"; }
# The summary: what --analyze makes of the tables.  It reads only them, so
# an erase block --auto found (the header above) is one it cannot confirm
# itself: its note saying so is replaced by where the size came from, and
# the summary agrees with its own header.
summary() {
	say "" "== summary for $dev (erase block $erase), from flashbench --analyze" \
		"   (the line numbers are those of this output)"
	"$FB" --analyze "$log" | awk -v by="${erase_by:-}" -v e="$erase" '
		/^open erase blocks/ { on = 1; print; next }
		/^[^ ]/ { on = 0 }
		!on { next }
		note && /^      / { next }
		{ note = 0 }
		by != "" && /^    note: counted in the .* regions the sweep wrote/ {
			note = 1
			print "    note: in the " e " erase blocks found by " by
			next
		}
		{ print }'
}
for mode in $modes; do
	flag=()
	[ "$mode" = random ] && flag=(-r)
	for n in $(seq 1 "$max"); do
		cmd=("$FB" -O "${flag[@]}" "${extra[@]}" -e "$erase" -b "$bs" --open-au-nr="$n" "$dev")
		# each row as flashbench measures it, on the screen and in the log,
		# under its command as one would type it (short options: it fits)
		show "== $mode: flashbench ${cmd[*]:1}" < "$tmp/rows" &
		reader=$!
		lines=$(wc -l < "$log")
		run_fb "${cmd[@]}" > "$tmp/rows"
		rc=$?
		await "$reader"
		if [ -n "$caught" ]; then
			# the run a signal cut short is marked "^C", as in a mail; one
			# that ended before the signal reached it is complete
			if [ "$rc" != 0 ]; then
				if [ "$(wc -l < "$log")" -gt "$lines" ]; then
					say "^C"
				else
					say "== $mode: --open-au-nr=$n was stopped before its first row"
				fi
			fi
			stopped
		fi
		[ "$rc" = 0 ] || exit "$rc"
		# stop at the knee: --analyze finds an exact count
		"$FB" --analyze "$log" 2> /dev/null | grep -qE "^$(title "$mode") +[0-9]" && break
		[ -z "$caught" ] || stopped
	done
done
summary

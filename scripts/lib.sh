# lib.sh — what the flashbench scripts share (sourced, not run): the name
# they were called by (report.sh in the source tree, flashbench-report when
# installed), the flashbench they run, and the checks of their arguments.
# Installed as $(DATADIR)/lib.sh; `make install` writes that path into the
# installed scripts.
# shellcheck shell=bash disable=SC2034

me=${0##*/}
# The flashbench they run is their own, never whichever one PATH finds
# first (a machine may have the classic tool installed too): $FLASHBENCH
# when set; in a source tree the binary built beside the scripts'
# directory; installed, the flashbench installed beside them; else PATH's.
here=$(dirname "$(readlink -f "$0")")
if [ -n "${FLASHBENCH:-}" ]; then
	FB=$FLASHBENCH
elif [ -x "$here/../flashbench" ] && [ -f "$here/../flashbench.c" ]; then
	FB=$(readlink -f "$here/../flashbench")
elif [ -x "$here/flashbench" ]; then
	FB=$here/flashbench
else
	FB=flashbench
fi
# the version of the scripts: flashbench's, kept equal to lib/version.h
# (tests/scripts.sh checks it)
version=0.2.0

# bad MESSAGE...: a usage error: one line on stderr, exit status 2
bad() {
	echo "$me: $*" >&2
	exit 2
}

# device ARG...: the arguments left after a script's own options: -h or
# --help prints its usage (the script's usage function), --version its
# version (with any argument after them: a usage error, as in flashbench),
# any other option is unknown, else exactly one DEVICE, put in $dev
device() {
	case ${1-} in
	-h | --help | --version) [ $# -eq 1 ] || bad "$1 takes no argument ('$2' is one; see --help)" ;;
	esac
	case ${1-} in
	-h | --help) usage; exit 0 ;;
	--version) echo "$me (flashbench) $version"; exit 0 ;;
	-*) bad "unknown option '$1' (see --help)" ;;
	esac
	[ $# -eq 1 ] || bad "name one device (see --help)"
	dev=$1
}

# check_fb: the flashbench found is this one (its --version says
# "flashbench VERSION"); the classic tool, which has no --version, would
# take our options for others and write where they do not say: refused,
# with what to do (exit status 2)
check_fb() {
	local v
	v=$("$FB" --version 2> /dev/null < /dev/null) || v=''
	case $v in
	"flashbench "[0-9]*) ;;
	*) bad "$FB is not this flashbench (it does not answer --version: the classic tool?); build it (make) or set FLASHBENCH=/path/to/flashbench" ;;
	esac
	case $FB in */*) ;; *) FB=$(command -v "$FB") || bad "no flashbench found: set FLASHBENCH=/path/to/flashbench" ;; esac
}

# Signals: SIGINT, SIGTERM and SIGHUP sent to the script (Ctrl-C, `kill
# PID`, a supervisor, a closed terminal) are passed on to the flashbench it
# runs (run_fb), and the script waits until that one has stopped at its
# next request, put back what --preserve saved and printed what it measured;
# then it ends by the signal (stop_if_caught).  A script that ended at
# once would leave its flashbench writing to the device, reparented to init.
caught='' child=''
pass_on() {
	[ -n "$caught" ] || caught=$1
	[ -z "$child" ] || kill -s "$1" "$child" 2> /dev/null
}
trap 'pass_on INT' INT
trap 'pass_on TERM' TERM
trap 'pass_on HUP' HUP

# await PID: wait until the background job PID has ended, also when
# signals come meanwhile (each ends a wait early); its exit status (after
# a signal it may be that of the wait a signal ended: 128 + its number).
# A job that is gone is never waited for again: bash may block on that.
await() {
	local rc
	while :; do
		wait "$1"
		rc=$?
		# (127: not a child of ours, as a reused number would be)
		if [ "$rc" = 127 ] || ! kill -0 "$1" 2> /dev/null; then
			break
		fi
	done
	return "$rc"
}

# run_fb CMD...: run CMD in the background (with SIGINT not ignored, as it
# would be for a background job) and wait for it; its exit status
run_fb() {
	local rc
	(trap - INT QUIT; exec "$@") &
	child=$!
	await "$child"
	rc=$?
	child=''
	return "$rc"
}

# stop_if_caught: after a signal, end as that signal would (the caller's
# shell sees 128 + its number, and a loop around the script stops too)
stop_if_caught() {
	[ -n "$caught" ] || return 0
	trap - "$caught"
	kill -s "$caught" $$
	case $caught in INT) exit 130 ;; TERM) exit 143 ;; *) exit 129 ;; esac
}

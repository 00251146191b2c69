# tests/lib.sh — helpers for the shell tests: pass/fail/skip lines that
# tests/run counts, and expectations on exit status and output.
# FB and ERASE name the binaries under test (set by tests/run).
: "${FB:=$PWD/flashbench}" "${ERASE:=$PWD/erase}"
# The test's own directory: made new by mktemp (never one left by an
# earlier run, never another test's, whatever the PIDs)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/flashbench-test.XXXXXX") || {
	echo "FAIL $(basename "$0" .sh): environment: cannot make a temporary directory in ${TMPDIR:-/tmp}"
	exit 1
}
# the index of unfinished --preserve journals: never the real one
export FLASHBENCH_STATE_DIR=$TMP/state

# Loop devices and mounts a test made are undone when it exits.  Each loop
# device is recorded as "DEV FILE", the file the kernel says it is over
# when it was attached; it is detached only while it is still over that
# file (a test's files live in its own directory), so a device number that
# was freed and then taken by another program is never touched.
LOOPS=() MNTS=()
# loop_backing DEV: the file the loop device DEV is over ("" if none)
loop_backing() {
	local f=/sys/block/${1#/dev/}/loop/backing_file b=
	[ -r "$f" ] && read -r b < "$f"
	echo "${b% (deleted)}"
}
# record_loop DEV: a loop device the test attached itself (attach does it)
record_loop() { LOOPS+=("$1 $(loop_backing "$1")"); }
# detach DEV...: detach the test's own loop devices, now
detach() {
	local d e keep
	for d; do
		losetup -d "$d"
		keep=()
		for e in "${LOOPS[@]}"; do [ "${e%% *}" = "$d" ] || keep+=("$e"); done
		LOOPS=("${keep[@]}")
	done
}
# env_gone: what the test made that something else took away, or nothing
env_gone() {
	local e
	[ -d "$TMP" ] || printf '%s; ' "its directory $TMP vanished"
	for e in "${LOOPS[@]}"; do
		[ "$(loop_backing "${e%% *}")" = "${e#* }" ] || printf '%s; ' "its loop device ${e%% *} (over ${e#* }) was detached"
	done
}
cleanup() {
	local m e gone
	gone=$(env_gone)
	[ -z "$gone" ] || echo "FAIL $(basename "$0" .sh): environment: ${gone%; } by another program while the test ran"
	for m in "${MNTS[@]}"; do umount "$m" 2> /dev/null; done
	for e in "${LOOPS[@]}"; do
		[ "$(loop_backing "${e%% *}")" = "${e#* }" ] || continue
		swapoff "${e%% *}" 2> /dev/null
		losetup -d "${e%% *}" 2> /dev/null
	done
	# never into a file system still mounted there
	rm -rf --one-file-system "$TMP"
}
trap cleanup EXIT
# attach [-r|-P] FILE: a new loop device over FILE, in DEV.  The first
# attach takes a machine-wide lock, held until the script exits, so that two
# test runs (two work trees, CI and a developer) never time or use loop
# devices at the same time.
LOCKED=
attach() {
	if [ -z "$LOCKED" ]; then
		exec 9> "${FLASHBENCH_LOOP_LOCK:-/run/lock/flashbench-loop.lock}" || return 1
		flock -w 900 9 || { echo "loop-device lock still held after 900 s" >&2; return 1; }
		LOCKED=1
	fi
	DEV=$(losetup -f --show "$@") || return 1
	record_loop "$DEV"
}
# plain_build_only: a suite that runs once per make check, with the build
# in the tree itself, says so and ends under any other build (a note, not
# SKIP lines: its tests did run, with the plain build)
plain_build_only() {
	[ "$(cd "$(dirname "$FB")" && pwd -P)" = "$(pwd -P)" ] && return 0
	echo "runs once per make check, with the plain build"
	exit 0
}
# skip_all REASON: every test named in ALL ("a|b|c") is skipped
skip_all() { local IFS='|' t; for t in $ALL; do skip "$t" "$1"; done; exit 0; }

pass() { echo "PASS $1"; }
# a failure says so when what the test made was taken away meanwhile
fail() {
	local gone
	gone=$(env_gone)
	echo "FAIL $1: $2${gone:+ [environment: ${gone%; }]}"
}
skip() { echo "SKIP $1: $2"; }

# expect NAME STATUS PATTERN CMD...: CMD exits with STATUS, prints exactly one
# line on stderr matching the extended regex PATTERN, and nothing on stdout.
expect_error() {
	local name=$1 want=$2 pat=$3 rc lines
	shift 3
	"$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	# (bash's own reading and matching: no program started when it passes,
	# which counts where starting one is slow, as in the lab's guest)
	mapfile lines < "$TMP/err"
	if [ $rc -ne "$want" ]; then
		fail "$name" "exit status $rc, want $want ($(head -c 200 "$TMP/err"))"
	elif [ ${#lines[@]} -ne 1 ] || [[ ${lines[0]} != *$'\n' ]]; then
		fail "$name" "want one line on stderr, got: $(head -c 300 "$TMP/err")"
	elif ! [[ ${lines[0]%$'\n'} =~ $pat ]]; then
		fail "$name" "message '$(cat "$TMP/err")' does not match '$pat'"
	elif [ -s "$TMP/out" ]; then
		fail "$name" "printed on stdout: $(head -c 200 "$TMP/out")"
	else
		pass "$name"
	fi
}

# unwrap: stdin to stdout with the lines lib/wrap.c broke joined again, so
# that a test can grep a phrase wherever the wrap fell: a line is joined to
# the one before when it is indented further and its first word would not
# have fitted on that one (76 columns, doc/style.md); table rows (runs of
# spaces) never join.
unwrap() {
	awk 'function ind(s) { match(s, /^ */); return RLENGTH }
	# para: the line as joined so far (its indent, and no table row);
	# prev: the line before as printed (the room left on it)
	function joins(para, prev, cur, w, p) {
		if (prev == "" || ind(cur) <= ind(para)) return 0
		w = cur; sub(/^ +/, "", w)
		p = substr(para, ind(para) + 1); sub(/^flashbench: +/, "", p)
		if (w ~ /  / || p ~ /  /) return 0 # table rows
		sub(/ .*/, "", w)
		return length(prev) + 1 + length(w) > 76
	}
	{ cur = $0; if (NR > 1 && joins(line, last, cur)) { sub(/^ +/, ""); line = line " " $0 } else { if (NR > 1) print line; line = $0 }
	  last = cur }
	END { if (NR) print line }'
}

# golden NAME FILE CMD...: CMD's stdout equals tests/golden/FILE exactly.
# With UPDATE_GOLDEN=1 the file is rewritten instead.
golden() {
	local name=$1 file=tests/golden/$2
	shift 2
	if ! "$@" > "$TMP/golden" 2> "$TMP/err"; then
		fail "$name" "failed: $(head -c 300 "$TMP/err")"
		return
	fi
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$TMP/golden" "$file"
	fi
	if cmp -s "$TMP/golden" "$file"; then
		pass "$name"
	else
		fail "$name" "output differs from $file: $(diff "$file" "$TMP/golden" | head -5 | tr '\n' '|')"
	fi
}

# wait_for WHAT SECONDS CMD...: wait until CMD succeeds (an event: a line in
# a file, a file, a pid gone), checking 20 times a second; after SECONDS
# says "timed out after N s waiting for WHAT" on stderr and returns 1.  The
# short pause between checks is a poll interval, not a timing assumption.
wait_for() {
	local what=$1 secs=$2 end
	shift 2
	end=$((SECONDS + secs))
	until "$@"; do
		if [ "$SECONDS" -ge "$end" ]; then
			echo "timed out after $secs s waiting for $what" >&2
			return 1
		fi
		sleep 0.05
	done
}

is_root() { [ "$(id -u)" = 0 ]; }

# event_or_end PID EVENT...: PID has ended, or EVENT happened
event_or_end() { local pid=$1; shift; ! kill -0 "$pid" 2> /dev/null || "$@"; }
# hold_program: hold.fbp in the current directory, a program that writes
# MiB 8..15 of its device (0x5a), then reads for ever.  held JOURNAL
# DEVICE runs it with --preserve=JOURNAL and SIGKILLs it once the test's
# own `written DEVICE` says its writes are made: it leaves a killed run's
# journal, every range of it overwritten (held.err: its messages)
hold_program() {
	printf '%s\n' seq '  off 8M' '    len 1M' '      pattern 0x5a' '        off-linear 1M 8' '          write' \
		'  len 16M' '    repeat 1000000' '      read' > hold.fbp
}
held() {
	local pid
	rm -f "$1"
	"$FB" --program hold.fbp --write --preserve="$1" "$2" > /dev/null 2> held.err &
	pid=$!
	wait_for "the program's writes" 120 event_or_end "$pid" written "$2"
	kill -KILL "$pid" 2> /dev/null
	wait "$pid" 2> /dev/null
	[ -s "$1" ] && written "$2"
}

JP=${FB%/flashbench}/tests/jsonpath
# digest FILE: the SHA-256 of FILE (a device or a file), to compare with
digest() { sha256sum < "$1" | cut -d' ' -f1; }
# killed_at FILE BYTES SECS CMD...: runs CMD and sends it SIGKILL as soon as
# FILE holds BYTES bytes (CMD may end first); after SECS kills it anyway,
# says "timed out" on stderr and returns 1.  With python3, which starts CMD
# itself (so no startup delay lets a short run end unwatched), the file is
# checked every 0.2 ms: the kill lands within a record of BYTES however
# fast the run is.  Without it, by wait_for, 20 times a second.
killed_at() {
	local pid
	if command -v python3 > /dev/null; then
		python3 - "$@" << 'EOF'
import os, subprocess, sys, time
path, want, secs = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
child = subprocess.Popen(sys.argv[4:])
end = time.monotonic() + secs
while child.poll() is None:
    try:
        size = os.stat(path).st_size
    except FileNotFoundError:
        size = 0
    if size >= want or time.monotonic() >= end:
        child.kill()
        child.wait()
        if size < want:
            sys.exit(f"timed out after {secs:g} s waiting for {path} to hold {want} bytes")
        break
    time.sleep(0.0002)
EOF
	else
		"${@:4}" &
		pid=$!
		# shellcheck disable=SC2016 # the script's own variables
		wait_for "$1 to hold $2 bytes" "$3" \
			bash -c '! kill -0 "$1" 2> /dev/null || [ "$(stat -c %s "$2" 2> /dev/null || echo 0)" -ge "$3" ]' _ "$pid" "$1" "$2"
		kill -KILL "$pid" 2> /dev/null
		wait "$pid" 2> /dev/null
		return 0
	fi
}
# signal_at_line SIG ERR REGEX SECS CMD...: runs CMD with its stderr in
# ERR and sends it SIG as soon as a line of ERR matches the extended REGEX
# (CMD may end first); returns CMD's status (128+N if a signal ended it).
# With python3 the file is read every 0.2 ms, so a phase that lasts a
# tenth of a second is not missed; without it, by wait_for.  After SECS
# says "timed out" on stderr and sends SIG anyway.
signal_at_line() {
	local sig=$1 err=$2 re=$3 secs=$4 pid
	shift 4
	if command -v python3 > /dev/null; then
		python3 - "$sig" "$err" "$re" "$secs" "$@" << 'EOF'
import re, signal, subprocess, sys, time
sig, err, pat, secs = getattr(signal, "SIG" + sys.argv[1]), sys.argv[2], re.compile(sys.argv[3]), float(sys.argv[4])
with open(err, "wb") as e:
    child = subprocess.Popen(sys.argv[5:], stderr=e)
end, seen = time.monotonic() + secs, False
while child.poll() is None and not seen:
    with open(err, "rb") as e:
        seen = any(pat.search(l.decode(errors="replace")) for l in e.read().splitlines())
    if seen or time.monotonic() >= end:
        child.send_signal(sig)
        if not seen:
            print(f"timed out after {secs:g} s waiting for {sys.argv[3]} in {err}", file=sys.stderr)
        break
    time.sleep(0.0002)
rc = child.wait()
sys.exit(128 - rc if rc < 0 else rc)
EOF
	else
		"$@" 2> "$err" &
		pid=$!
		wait_for "$re in $err" "$secs" grep -Eqs -- "$re" "$err"
		kill "-$sig" "$pid" 2> /dev/null
		wait "$pid"
	fi
}
# kill_trials NAME DEVICE LOOP ORIG TRIALS ARGS...: each trial starts
# flashbench -C ARGS DEVICE (KILL_MODE: another mode than -C) and kills it (SIGKILL) once its journal holds a
# number of bytes drawn at random (from $RANDOM: seed it) from KILL_FROM
# (default 512, the journal's header) up to what a whole run saves;
# --restore must then give LOOP (the device, or the file behind it) back as
# ORIG, its digest.  The journal is the --preserve=FILE among ARGS, else the
# mode's own in the state directory ($FLASHBENCH_STATE_DIR/NAME.journal, as
# -C and --rating keep it).  KILL_FULL: what a whole run saves, when the
# caller knows it (else a whole run finds out).  Trials of which none found
# a journal to put back tested nothing: they fail.
kill_trials() {
	local name=$1 dev=$2 loop=$3 orig=$4 trials=$5 j a full from=${KILL_FROM:-512} i want failures=0 restored=0
	shift 5
	j=$FLASHBENCH_STATE_DIR/$(basename "$dev" | tr ':,=' '___').journal
	for a in "$@"; do case $a in --preserve=*) j=${a#--preserve=} ;; esac; done
	# how much a whole run saves: the journal grows to about that
	full=${KILL_FULL:-$("$FB" "${KILL_MODE:--C}" --json "$@" "$dev" 2> /dev/null | "$JP" data.saved 2> /dev/null)}
	[ "${full:-0}" -gt "$from" ] || full=$((from + (4 << 20)))
	for ((i = 0; i < trials; i++)); do
		want=$((from + (RANDOM * 32768 + RANDOM) % (full - from + 512)))
		killed_at "$j" "$want" 120 "$FB" "${KILL_MODE:--C}" "$@" "$dev" > /dev/null 2> trial.err ||
			{ failures=$((failures + 1)); echo "trial $i: $(tail -1 trial.err)"; }
		if [ -e "$j" ]; then
			"$FB" --restore "$j" "$dev" > restore.out 2>&1 || echo "restore failed: $(cat restore.out)"
			restored=$((restored + 1))
		fi
		[ "$(digest "$loop")" = "$orig" ] || { failures=$((failures + 1)); echo "trial $i (killed at $want bytes): device differs"; }
	done
	echo "$name: $trials trials, $restored needed --restore, $failures failures"
	if [ "$trials" -ge 2 ] && [ $restored = 0 ]; then
		fail "$name" "no trial left a journal at $j to put back: the kills tested nothing"
	elif [ $failures = 0 ]; then pass "$name"; else fail "$name" "$failures of $trials"; fi
}

# named_paths ROOT: what an installed flashbench shows its user (the
# messages in its two binaries, their --help, the manual pages, the
# scripts' text outside comments) names no file the installation lacks:
# each /usr/... path exists under ROOT (or ROOT itself when it is a PREFIX
# root: give PREFIX as $2), each flashbench-NAME command is in bin/, and no
# source-tree path (scripts/..., tests/..., NAME.sh) appears unless it says
# "in the source".  Prints what is missing, one a line; nothing when all is
# there.
named_paths() {
	local root=$1 prefix=${2:-/usr} b m p
	{
		for b in flashbench flashbench-erase; do
			objcopy -O binary --only-section=.rodata "$root$prefix/bin/$b" /dev/stdout 2> /dev/null | tr '\0' '\n'
			"$root$prefix/bin/$b" --help
		done
		for m in "$root$prefix"/share/man/man1/*; do
			case $m in *.gz) zcat "$m" ;; *) cat "$m" ;; esac |
				LC_ALL=C.UTF-8 groff -man -Tutf8 -rLL=300n -rHY=0 2> /dev/null | sed 's/.\x08//g'
		done
		grep -hv '^[[:space:]]*#' "$root$prefix"/bin/flashbench-report "$root$prefix"/bin/flashbench-open-au-sweep \
			"$root$prefix"/share/flashbench/lib.sh
	} | sed -E 's/[^ ]+ +in +the +source//g' > "$TMP/named.txt"
	grep -oE "($prefix/[A-Za-z0-9_./-]*[A-Za-z0-9_/]|\bflashbench-[a-z][a-z-]*[a-z]\b[.(]?|\b(scripts|tests|bench)/[A-Za-z0-9_./-]*|\b[A-Za-z0-9_-]+\.sh\b)" \
		"$TMP/named.txt" | sort -u | while IFS= read -r p; do
		case $p in
		"$prefix"/*) [ -e "$root$p" ] || echo "$p" ;;
		flashbench-*.) ;; # a file name such as flashbench-sdb.journal
		flashbench-*) p=${p%(}; [ -x "$root$prefix/bin/$p" ] || echo "$p (no such command)" ;;
		*) echo "$p (a source-tree path)" ;;
		esac
	done
}

# complete_loaded DATADIR LINE: what bash-completion's on-demand loader,
# finding the completion files in DATADIR/bash-completion/completions,
# offers at the end of LINE (one candidate a line): the file is sourced
# inside the loader's function, as in an interactive shell.  Needs
# /usr/share/bash-completion/bash_completion.
complete_loaded() {
	XDG_DATA_DIRS=$1 BASH_COMPLETION_USER_DIR=$TMP/no-user-completions bash --norc --noprofile -c '
		. /usr/share/bash-completion/bash_completion
		line=$1
		read -ra COMP_WORDS <<< "$line"
		[[ $line == *" " ]] && COMP_WORDS+=("")
		cmd=${COMP_WORDS[0]##*/}
		__load_completion "$cmd" || { echo "nothing loaded for $cmd"; exit 1; }
		spec=$(complete -p "$cmd") || exit 1
		fn=${spec#*-F }
		fn=${fn%% *}
		COMP_LINE=$line COMP_POINT=${#line} COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) COMPREPLY=()
		"$fn" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' bash "$2"
}

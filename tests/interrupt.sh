# tests/interrupt.sh — results survive Ctrl-C: the rows of a classic test
# are printed and flushed as they are measured; SIGINT or SIGTERM stops a
# run at the next request, puts back what --preserve saved, leaves the rows
# that were complete (JSON: a valid document with "interrupted": true),
# says how much was written where, and ends by the signal (status 130 or
# 143); a reader that goes away (| head) ends the run quietly, a full disk
# is still an error; --auto's progress names its part, its share of the
# plan, what it wrote and the time left.  Every signal is sent at an event
# (a row in the output, a line of progress), never after a time.
. tests/lib.sh
JP=${FB%/flashbench}/tests/jsonpath

# A long test whose first rows come at once: row N reads 2^N blocks 20
# times (84 million requests in all, about 10 s of a fast machine on a
# simulated card), as the interval format prints them.  Its first rows are
# those of the short one.
long_program() { # long_program FILE SMALLEST
	printf '%s\n' 'format interval' "unit-halve 1G $2 keep" '  len 512' '    off-span 1G' '      repeat 20' \
		'        read' > "$1"
}
long_program "$TMP/long.fbp" 512
long_program "$TMP/short.fbp" 64k
"$FB" --program "$TMP/short.fbp" sim:sd-4m > "$TMP/short.out" 2> "$TMP/err" ||
	fail "the short program runs" "$(cat "$TMP/err")"

has_rows() { [ -e "$1" ] && [ "$(wc -l < "$1")" -ge "${2:-1}" ]; }
alive() { kill -0 "$1" 2> /dev/null; }
# in_range N LO HI: LO <= N <= HI (a signal sent once a part began may be
# seen in a later part on a loaded machine: fewer findings are cut short)
in_range() { [ -n "$1" ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }
# stop_at_row SIGNAL OUT ERR ARGS...: run flashbench ARGS in the
# background, send SIGNAL once OUT has a row, while it still runs; sets rc
stop_at_row() {
	local sig=$1 out=$2 err=$3 pid
	shift 3
	"$FB" "$@" > "$out" 2> "$err" &
	pid=$!
	if ! wait_for "a first row in $out" 120 has_rows "$out"; then
		kill -KILL "$pid" 2> /dev/null
		wait "$pid"
		rc=timeout
		return
	fi
	alive "$pid" && still_running=1 || still_running=0
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
}
# prefix OUT: OUT's lines begin as the short program's output does (as
# far as both go)
prefix() {
	local n
	n=$(wc -l < "$1")
	[ "$n" -gt "$(wc -l < "$TMP/short.out")" ] && n=$(wc -l < "$TMP/short.out")
	[ -s "$1" ] && cmp -s <(head -n "$n" "$1") <(head -n "$n" "$TMP/short.out")
}
rows_said() { sed -n 's/.* after \([0-9]*\) complete rows\{0,1\}[;( ].*/\1/p' "$1"; }

# a second signal (SIGTERM while the SIGINT is handled) is not the cause:
# the first one names the stop and gives the status
: > "$TMP/two.out"
"$FB" --program "$TMP/long.fbp" sim:sd-4m > "$TMP/two.out" 2> "$TMP/two.err" &
pid=$!
if wait_for "a first row" 120 has_rows "$TMP/two.out"; then
	kill -INT "$pid"
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	if [ "$rc" = 130 ] && grep -q '^flashbench: stopped by a signal (SIGINT) after' "$TMP/two.err"; then
		pass "SIGINT then SIGTERM: the first signal is the cause (130, SIGINT)"
	else
		fail "SIGINT then SIGTERM: the first signal is the cause" "exit $rc: $(tail -1 "$TMP/two.err")"
	fi
else
	kill -KILL "$pid" 2> /dev/null
	wait "$pid"
	fail "SIGINT then SIGTERM: the first signal is the cause" "no row came"
fi

# text: each row was on the file before the run ended (flushed as
# measured), the rows are those an uninterrupted run prints, exit 130
stop_at_row INT "$TMP/int.out" "$TMP/int.err" --program "$TMP/long.fbp" sim:sd-4m
n=$(wc -l < "$TMP/int.out")
if [ "$rc" = 130 ] && [ "$still_running" = 1 ] && prefix "$TMP/int.out" && [ "$(rows_said "$TMP/int.err")" = "$n" ] &&
	grep -qx "flashbench: stopped by a signal (SIGINT) after $n complete rows\{0,1\}; the rest were not measured; nothing was written to sim:sd-4m" "$TMP/int.err"; then
	pass "SIGINT: the $n rows measured were printed as they came, exit 130, says what it left"
else
	fail "SIGINT: rows printed as they came, exit 130" "exit $rc, running $still_running, $n rows: $(tail -2 "$TMP/int.err")"
fi

# JSON: one valid document, "interrupted": true, the complete rows;
# SIGTERM: 143.  JSON waits for the end: the event is a progress line
# after the first rows
"$FB" --program "$TMP/long.fbp" --progress --json sim:sd-4m > "$TMP/term.json" 2> "$TMP/term.err" &
pid=$!
wait_for "a progress line past the first rows" 120 grep -sqE '\(([1-9][0-9]{3,}) of' "$TMP/term.err"
kill -TERM "$pid"
wait "$pid"
rc=$?
n=$(rows_said "$TMP/term.err")
F=$(sed -n 's/^#define FLASHBENCH_JSON_FORMAT //p' lib/version.h)
if [ "$rc" = 143 ] && [ "$("$JP" interrupted format 'results#' < "$TMP/term.json" | tr '\n' ' ')" = "true $F $n " ] &&
	[ "$("$JP" results.0.stride < "$TMP/term.json")" = 1073741824 ] &&
	grep -q 'stopped by a signal (SIGTERM) after .* (JSON: "interrupted": true)' "$TMP/term.err"; then
	pass "SIGTERM with --json: a valid document of the $n complete rows, \"interrupted\": true, exit 143"
else
	fail "SIGTERM with --json: a valid document, exit 143" "exit $rc: $(tail -1 "$TMP/term.err"); $(head -c 200 "$TMP/term.json")"
fi

# -o: the rows complete at the stop are put in place (a stop before any
# row leaves the file as it was: tests/output.sh); until the end they go
# to a temporary file next to it
mkdir -p "$TMP/o"
echo old > "$TMP/o/res"
temp_has_row() { cat "$TMP"/o/.res.* 2> /dev/null | grep -q '^interval'; }
"$FB" --program "$TMP/long.fbp" -o "$TMP/o/res" sim:sd-4m 2> "$TMP/o.err" &
pid=$!
wait_for "a row in the temporary file" 120 temp_has_row
kill -INT "$pid"
wait "$pid"
rc=$?
if [ "$rc" = 130 ] && prefix "$TMP/o/res" && [ "$(wc -l < "$TMP/o/res")" = "$(rows_said "$TMP/o.err")" ] &&
	[ "$(ls -A "$TMP/o")" = res ]; then
	pass "SIGINT with -o: the complete rows are put in place, nothing else left"
else
	fail "SIGINT with -o: the complete rows are put in place" "exit $rc: $(tail -1 "$TMP/o.err"); $(ls -A "$TMP/o")"
fi

# a reader that goes away ends the run quietly (status 141 as for any
# filter); a full disk is an error
"$FB" --program "$TMP/long.fbp" sim:sd-4m 2> "$TMP/pipe.err" | head -1 > "$TMP/pipe.out"
rc=${PIPESTATUS[0]}
[ "$rc" = 141 ] && [ ! -s "$TMP/pipe.err" ] && cmp -s "$TMP/pipe.out" <(head -1 "$TMP/short.out") &&
	pass "| head: the run ends quietly when the reader goes away (status 141)" ||
	fail "| head: the run ends quietly" "exit $rc: $(cat "$TMP/pipe.err")"
expect_error "a full disk (standard output) is an error" 1 \
	'^flashbench: cannot write the results to standard output: No space left on device$' \
	sh -c '"$0" -a sim:sd-4m > /dev/full' "$FB"
expect_error "a full disk (-o) is an error" 1 '^flashbench: cannot write the results to /dev/full: No space left on device$' \
	"$FB" -a sim:sd-4m -o /dev/full

# --auto's progress: each part (7 with --write; the third, an area written
# and read back, only on cards whose reads found no data) in order, its
# share of the plan and the bytes written growing, the time left
"$FB" --auto --write --progress sim:usb-12m > /dev/null 2> "$TMP/auto.err"
parts=$(sed -n 's/^flashbench: --auto \([0-9]\)\/7: \(.*\), \([0-9]*\)%, \(.*\) written, \(about [0-9hms]* left\|[0-9hms]* so far\|longer than planned, [0-9hms]* so far\)$/\1 \3 \4/p' "$TMP/auto.err")
order=$(echo "$parts" | cut -d' ' -f1 | uniq | tr -d '\n')
if [ "$order" = 124567 ] && [ "$(echo "$parts" | cut -d' ' -f2 | sort -n -c 2>&1)" = "" ] &&
	grep -q '^flashbench: --auto 5/7: open erase block' "$TMP/auto.err" && awk 'length > 80 { exit 1 }' "$TMP/auto.err" &&
	[ "$(echo "$parts" | tail -1 | cut -d' ' -f3)" != 0B ]; then
	pass "--auto progress: parts 1-7 in order, share of the plan growing, bytes written, time left"
else
	fail "--auto progress: parts in order" "order '$order': $(head -4 "$TMP/auto.err" | tr '\n' '|')"
fi
"$FB" --auto --progress sim:usb-12m > /dev/null 2> "$TMP/auto.err"
grep -qE '^flashbench: --auto: reads for the page and erase block, [0-9]+%, (about [0-9hms]+ left|[0-9hms]+ so far)$' "$TMP/auto.err" &&
	! grep -q 'written\|part' "$TMP/auto.err" && pass "--auto progress without --write: one part, nothing about writes" ||
	fail "--auto progress without --write" "$(head -2 "$TMP/auto.err")"

# On a file (real I/O, so the run takes long enough to be stopped): the
# --preserve journal is put back and the data are as before; then --auto
# --write stopped after its reads keeps the read findings
IMG=$TMP/card.img
if ! head -c 96M /dev/urandom > "$IMG" 2> /dev/null || ! "$FB" -a -c 1 "$IMG" > /dev/null 2> "$TMP/err"; then
	skip "SIGINT with --preserve on a file: data put back" "no room or no direct I/O in $TMP ($(head -c 100 "$TMP/err"))"
else
	orig=$(sha256sum < "$IMG")
	printf '%s\n' 'format interval' 'unit-halve 32M 512 keep' '  len 512' '    off 16M' '      off-span 32M' \
		'        repeat 4' '          write' > "$TMP/longw.fbp"
	stop_at_row INT "$TMP/w.out" "$TMP/w.err" --program "$TMP/longw.fbp" --write --preserve="$TMP/j" "$IMG"
	if [ "$rc" = 130 ] && [ "$(sha256sum < "$IMG")" = "$orig" ] && [ ! -e "$TMP/j" ] &&
		grep -Eq "^flashbench: stopped by a signal \(SIGINT\) after [0-9]+ complete rows?; the rest were not measured; [0-9.]+[KMG]iB \([0-9]+ bytes\) written within bytes 16777216 to [0-9]+ of $IMG; the saved data were put back and verified$" "$TMP/w.err"; then
		pass "SIGINT with --preserve on a file: data put back, says what was written where, exit 130"
	else
		fail "SIGINT with --preserve on a file: data put back" "exit $rc: $(tail -2 "$TMP/w.err" | tr '\n' ' ')"
	fi
	# what goes back is what the run wrote to (in 4 KiB grains, as the
	# writes of its first rows were scattered): the rest of the 32MiB it
	# saved is still on the device, and is not rewritten
	back=$(unwrap < "$TMP/w.err" | sed -n 's/^flashbench: --preserve: put back \([0-9]*\) bytes .* and verified them; \([0-9]*\) bytes .* saved but never changed were left as they were$/\1 \2/p')
	if [ -n "$back" ] && [ "${back% *}" -lt 33554432 ] && [ $((${back% *} + ${back#* })) = 33554432 ] &&
		[ $((${back% *} % 4096)) = 0 ]; then
		pass "SIGINT with --preserve: only what the run wrote to is put back (${back% *} of 33554432 bytes)"
	else
		fail "SIGINT with --preserve: only what the run wrote to is put back" "$(grep -- --preserve "$TMP/w.err" | tr '\n' ' ')"
	fi
fi

# SIGINT while --preserve saves the range (before any test request): the
# saving stops at its next piece, nothing was written so nothing is put
# back (the image is not even rewritten: its mtime stays), the journal
# goes, and the line says so.  The signal comes once the journal holds its
# first record.
truncate -s 2G "$TMP/save.img" 2> /dev/null
if [ "$(stat -c %s "$TMP/save.img" 2> /dev/null)" != 2147483648 ] || ! "$FB" -a -c 1 "$TMP/save.img" > /dev/null 2> "$TMP/err"; then
	skip "SIGINT while --preserve saves" "no 2GiB file with direct I/O in $TMP"
else
	mtime=$(stat -c %y "$TMP/save.img")
	"$FB" -O -e 32M -b 64k --open-au-nr=16 --preserve="$TMP/save.j" "$TMP/save.img" > "$TMP/save.out" 2> "$TMP/save.err" &
	pid=$!
	saving() { [ "$(stat -c %s "$TMP/save.j" 2> /dev/null || echo 0)" -gt 1048576 ]; }
	wait_for "a record in the journal" 120 saving
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	said=$(grep '^flashbench: stopped by a signal' "$TMP/save.err")
	case $said in
	*"while --preserve saved the range it overwrites ("*" of 512MiB saved), before its first request: no results; nothing was written to "*"; nothing needed putting back") how="during the saving" ;;
	*"after 0 complete rows; the rest were not measured; nothing was written to "*"; nothing needed putting back") how="just after the saving" ;;
	*) how="" ;;
	esac
	if [ "$rc" = 130 ] && [ -n "$how" ] && [ "$(stat -c %y "$TMP/save.img")" = "$mtime" ] && [ ! -e "$TMP/save.j" ] &&
		[ ! -s "$TMP/save.out" ] && ! grep -q 'put back [0-9]' "$TMP/save.err"; then
		pass "SIGINT while --preserve saves ($how): nothing written, nothing put back, the image untouched, exit 130"
	else
		fail "SIGINT while --preserve saves: nothing written, nothing put back" "exit $rc: $(tail -2 "$TMP/save.err" | tr '\n' ' ')"
	fi
fi

# --auto --write IMG > out.txt, stopped once its writes began: the read
# findings are in out.txt, the write findings it had not finished say
# "interrupted", stderr says what was written where; the same as JSON.
# With --preserve, so that the write-cache part (tens of ms on a file)
# lasts long enough to be stopped in: each step saves and syncs first.
truncate -s 2G "$TMP/big.img" 2> /dev/null
if [ ! -s "$TMP/big.img" ] && [ "$(stat -c %s "$TMP/big.img" 2> /dev/null)" != 2147483648 ]; then
	skip "--auto --write stopped after its reads" "cannot make a 2GiB sparse file in $TMP"
elif ! "$FB" -a -c 1 "$TMP/big.img" > /dev/null 2> "$TMP/err"; then
	skip "--auto --write stopped after its reads" "no direct I/O in $TMP: $(head -c 100 "$TMP/err")"
else
	"$FB" --auto --write --progress --preserve="$TMP/big.j" "$TMP/big.img" > "$TMP/auto.out" 2> "$TMP/auto.err" &
	pid=$!
	wait_for "the write cache part" 300 grep -q -- '--auto 2/7: ' "$TMP/auto.err"
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	reads=$(sed -n '/^page size/,/^smallest/p' "$TMP/auto.out")
	if [ "$rc" = 130 ] && echo "$reads" | grep -q '^erase block size ' && ! echo "$reads" | grep -q interrupted &&
		in_range "$(unwrap < "$TMP/auto.out" | grep -c '^    interrupted: the run was stopped by a signal \(while measuring it\|before it was measured\)$')" 1 5 &&
		unwrap < "$TMP/auto.out" | grep -q '^interrupted: stopped by a signal in [a-z_]*; the findings it had not finished say so$' &&
		grep -Eq "^flashbench: stopped by a signal \(SIGINT\) during its [a-z ,]+ part: findings it had not finished say \"interrupted\"; [0-9.]+[KMG]?i?B \([0-9]+ bytes\) written within bytes [0-9]+ to [0-9]+ of $TMP/big.img(; the saved data were put back and verified)?$" "$TMP/auto.err"; then
		pass "--auto --write > out.txt stopped after its reads: read findings kept, the rest 'interrupted', exit 130"
	else
		fail "--auto --write stopped after its reads" "exit $rc: $(tail -1 "$TMP/auto.err"); $(head -12 "$TMP/auto.out" | tr '\n' '|')"
	fi
	# emptied here, not by the child's redirection: until the child opens it,
	# the file holds the run above's 'part 2 of 7' and the wait would end at once
	: > "$TMP/auto.err"
	"$FB" --auto --write --progress --json --preserve="$TMP/big.j" "$TMP/big.img" > "$TMP/auto.json" 2> "$TMP/auto.err" &
	pid=$!
	wait_for "the write cache part" 300 grep -q -- '--auto 2/7: ' "$TMP/auto.err"
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	got=$("$JP" interrupted findings.page.note findings.fat_area.note cost.stopped_in < "$TMP/auto.json" 2>&1 | tr '\n' '|')
	case $rc:$got in
	"143:true|"*"|interrupted: the run was stopped by a signal "*"|"[a-z]*"|") pass "--auto --json stopped: a valid document, \"interrupted\": true, exit 143" ;;
	*) fail "--auto --json stopped: a valid document" "exit $rc: $got" ;;
	esac
fi

# SIGINT while --auto --write's quick capacity check saves to a journal of
# its own (no --preserve): the saving stops at its next piece (1 MiB), as
# --preserve's does, not only at the check's next request.  On a 32 GiB
# sparse file the check's reference block is 8 MiB, saved in 8 pieces
# before its first write; the signal comes once the journal holds the
# first.  The journal then grows by the piece being saved (and one more
# at most, saved while the signal was on its way), nothing is written, the
# journal goes and the run ends as stopped in its capacity check (before
# the fix it saved all 8).  A try where the saving outran the signal (sent
# when little of it was left) says nothing and is made again, three times
# at most.
# signal_at FILE BYTES SECS OUT ERR CMD...: run CMD (its output in OUT and
# ERR), send it SIGINT once FILE holds BYTES bytes; print "AT TOP STATUS":
# FILE's size then, the most it held, CMD's exit status (128 + N for
# signal N).  Timed out: "timeout".
signal_at() {
	python3 - "$@" << 'PY'
import os, signal, subprocess, sys, time
path, want, secs = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
with open(sys.argv[4], "w") as out, open(sys.argv[5], "w") as err:
    child = subprocess.Popen(sys.argv[6:], stdout=out, stderr=err)
at, top, end = None, 0, time.monotonic() + secs
while child.poll() is None:
    try:
        size = os.stat(path).st_size
    except FileNotFoundError:
        size = 0
    top = max(top, size)
    if at is None and size >= want:
        child.send_signal(signal.SIGINT)
        at = size
    if time.monotonic() >= end:
        child.kill()
        child.wait()
        print("timeout")
        sys.exit(0)
    time.sleep(0.0002)
rc = child.returncode
print(at, top, 128 - rc if rc < 0 else rc)
PY
}
piece=$((1048576 + 32)) # a journal record: its 32-byte header and 1 MiB of data
QIMG=$TMP/quick.img
QNAME="SIGINT while --auto --write's own capacity-check journal saves: the saving stops"
if ! command -v python3 > /dev/null; then
	skip "$QNAME" "no python3 to send the signal at a size of the journal"
elif ! truncate -s 32G "$QIMG" 2> /dev/null ||
	! "$FB" -a -c 1 "$QIMG" > /dev/null 2> "$TMP/err"; then
	skip "$QNAME" "no 32GiB sparse file with direct I/O in $TMP: $(head -c 100 "$TMP/err")"
else
	full=$((512 + 8 * piece)) said="" try=0
	while [ -z "$said" ] && [ $try -lt 3 ]; do
		try=$((try + 1))
		# (the check's own journal: in the state directory, tests/lib.sh's)
		got=$(cd "$TMP" && signal_at "$FLASHBENCH_STATE_DIR/quick.img.journal" $((512 + piece)) 120 \
			quick.out quick.err "$FB" --auto --write quick.img)
		read -r at top rc <<< "$got"
		[ "$got" != timeout ] && [ "$at" != None ] || { said="no signal sent ($got)"; break; }
		[ $((at + 3 * piece)) -le $full ] || continue # too late to tell: again
		stop='^flashbench: stopped by a signal \(SIGINT\) during its capacity check part: .*; '
		stop+='nothing was written to quick\.img$'
		if [ "$rc" = 130 ] && [ $((top - at)) -le $((2 * piece)) ] &&
			[ ! -e "$FLASHBENCH_STATE_DIR/quick.img.journal" ] && cmp -s -n 16777216 "$QIMG" /dev/zero &&
			grep -Eq "$stop" "$TMP/quick.err"; then
			said=ok
		else
			said="exit $rc, the journal held $at bytes at the signal and $top at most (of $full)"
			said+=": $(tail -1 "$TMP/quick.err")"
		fi
	done
	case $said in
	ok) pass "$QNAME at its next piece, nothing written, the journal gone, exit 130" ;;
	"") skip "$QNAME" "the saving outran the signal three times (a loaded machine)" ;;
	*) fail "$QNAME" "$said" ;;
	esac
fi

# -C and --rating stopped before their verdicts: JSON is a valid document
# with "interrupted": true and no verdict, text says the verdict was not
# reached, the data go back (the man page's STOPPING A RUN).  -C on a sim
# is stopped in its flush (part 2), --rating on a sparse file in its writes
# (part 2 of 5).
# stop_at_progress SIGNAL PATTERN OUT ERR ARGS...: run flashbench ARGS, send
# SIGNAL once ERR has a progress line matching PATTERN; sets rc
stop_at_progress() {
	local sig=$1 pat=$2 out=$3 err=$4 pid
	shift 4
	"$FB" "$@" > "$out" 2> "$err" &
	pid=$!
	if ! wait_for "$pat in $err" 120 grep -q -- "$pat" "$err"; then
		kill -KILL "$pid" 2> /dev/null
		wait "$pid"
		rc=timeout
		return
	fi
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
}
stop_at_progress TERM '--capacity 2/3' "$TMP/cap.json" "$TMP/cap.err" -C --progress --json sim:sd-4m
got="$rc:$("$JP" interrupted < "$TMP/cap.json" 2>&1):$("$JP" verdict.kind < "$TMP/cap.json" 2>&1)"
[ "$got" = "143:true:not_determined" ] && grep -q '^flashbench: stopped by a signal (SIGTERM) before its verdict; ' "$TMP/cap.err" &&
	pass "-C --json stopped: a valid document, \"interrupted\": true, verdict not determined, exit 143" ||
	fail "-C --json stopped: a valid document, \"interrupted\": true, verdict not determined" "$got: $(tail -1 "$TMP/cap.err")"
stop_at_progress INT '--capacity 2/3' "$TMP/cap.out" "$TMP/cap.err" -C --progress sim:sd-4m
[ "$rc" = 130 ] && grep -qx 'verdict: not reached: the run was stopped by a signal before it' "$TMP/cap.out" &&
	grep -q '^cost: ' "$TMP/cap.out" && pass "-C stopped: the text says the verdict was not reached, exit 130" ||
	fail "-C stopped: the text says the verdict was not reached" "exit $rc: $(head -3 "$TMP/cap.out" | tr '\n' '|')"
if ! truncate -s 2G "$TMP/rating.img" 2> /dev/null || ! "$FB" -a -c 1 "$TMP/rating.img" > /dev/null 2> "$TMP/err"; then
	skip "--rating --json stopped: a valid document" "no 2GiB sparse file with direct I/O in $TMP"
else
	stop_at_progress TERM '--rating 2/5' "$TMP/rating.json" "$TMP/rating.err" --rating --progress --json \
		--preserve="$TMP/rating.j" "$TMP/rating.img"
	got="$rc:$("$JP" interrupted < "$TMP/rating.json" 2>&1):$("$JP" 'marks#' < "$TMP/rating.json" 2>&1)"
	if [ "$got" = "143:true:0" ] && grep -q '^flashbench: stopped by a signal (SIGTERM) before its verdicts; ' "$TMP/rating.err" &&
		cmp -s "$TMP/rating.img" /dev/zero -n 2147483648; then
		pass "--rating --json stopped: a valid document, \"interrupted\": true, no verdicts, data put back, exit 143"
	else
		fail "--rating --json stopped: a valid document, \"interrupted\": true, no verdicts" "$got: $(tail -1 "$TMP/rating.err")"
	fi
fi
rm -f "$TMP/rating.img"

# tests/scripts.sh — scripts/open-au-sweep.sh and scripts/report.sh on
# simulated devices.
. tests/lib.sh
export FLASHBENCH=$FB

# rate_at SWEEP KIND N CHUNK: the rate the sweep's table printed
rate_at() { awk -v h="^== $2: .*--open-au-nr=$3 " -v c="^$4\t" '$0 ~ h { on = 1; next } /^== /{ on = 0 } on && $0 ~ c { print $2; exit }' "$1"; }
scripts/open-au-sweep.sh -e 12M -b 96k sim:usb-12m 2> "$TMP/err" | unwrap > "$TMP/sweep"
# the random sweep's runs are judged against its own N=1 (not the linear one)
at=$(sed -n 's/^    --open-au-nr=2 (line [0-9]*): [^ ]* at \([^,]*\), .*than --open-au-nr=1 (\([^)]*\)).*/\1 \2/p' "$TMP/sweep" | tail -1)
if grep -qE '^open erase blocks, linear +3 ' "$TMP/sweep" &&
	grep -qE '^open erase blocks, random order +1 ' "$TMP/sweep" &&
	[ -n "$at" ] && [ "$(rate_at "$TMP/sweep" random 1 "${at% *}")" = "${at#* }" ] &&
	[ "$(grep -c '^== linear: flashbench -O ' "$TMP/sweep")" = 4 ]; then
	pass "open-au-sweep.sh finds 3 linear and 1 random on usb-12m through --analyze, stopping at the knee"
else
	fail "open-au-sweep.sh finds 3 linear and 1 random on usb-12m" "$(tail -8 "$TMP/sweep")"
fi
# cf-16m: random-order writes are slower per byte than linear ones, yet two
# erase blocks stay open in random order too; judged against the random
# sweep's own N=1 run (not the linear one) the script must say 2
scripts/open-au-sweep.sh -e 16M -b 64k -n 4 sim:cf-16m 2> "$TMP/err" | unwrap > "$TMP/sweep"
at=$(sed -n 's/^    --open-au-nr=2 (line [0-9]*): [^ ]* at \([^,]*\), as fast as .*/\1/p' "$TMP/sweep" | tail -1)
lin1=$(rate_at "$TMP/sweep" linear 1 "$at")
rnd1=$(rate_at "$TMP/sweep" random 1 "$at")
if grep -qE '^open erase blocks, random order +2 ' "$TMP/sweep" && grep -qE '^open erase blocks, linear +2 ' "$TMP/sweep" &&
	[ -n "$rnd1" ] && [ "$rnd1" != "$lin1" ] && grep -q "as fast as --open-au-nr=1 ($rnd1)" "$TMP/sweep" &&
	[ "$(grep -c '^== random: flashbench -O -r ' "$TMP/sweep")" = 3 ]; then
	pass "open-au-sweep.sh: random writes slower per byte ($rnd1 against $lin1) but 2 open, judged by the random N=1"
else
	fail "open-au-sweep.sh on cf-16m: 2 random" "linear N=1 $lin1, random N=1 $rnd1; $(tail -8 "$TMP/sweep")"
fi
scripts/open-au-sweep.sh --random -n 3 -e 4M sim:ssd > "$TMP/sweep" 2> /dev/null
grep -qE '^open erase blocks, random order +at least 3 ' "$TMP/sweep" &&
	! grep -q '^== linear' "$TMP/sweep" && pass "open-au-sweep.sh --random -n on an SSD" ||
	fail "open-au-sweep.sh --random -n on an SSD" "$(tail -4 "$TMP/sweep")"

# without -e: the erase block size comes from --auto (read-only), never
# from a guess; where --auto finds none the sweep is refused, saying why,
# and nothing is written
scripts/open-au-sweep.sh -b 96k sim:usb-12m 2> "$TMP/err" | unwrap > "$TMP/sweep"
if grep -qx '== erase block 12MiB (high confidence), as flashbench --auto found it:' "$TMP/sweep" &&
	grep -q '^   reads across multiples of 12MiB cost 300µs more than across other' "$TMP/sweep" &&
	grep -q -- '-O -e 12MiB -b 96k --open-au-nr=1 sim:usb-12m' "$TMP/sweep" &&
	grep -q '^    note: in the 12MiB erase blocks found by --auto (high confidence)$' "$TMP/sweep" &&
	grep -qE '^open erase blocks, linear +3 ' "$TMP/sweep" && grep -qE '^open erase blocks, random order +1 ' "$TMP/sweep"; then
	pass "open-au-sweep.sh without -e finds the 12MiB erase block with --auto first: 3 linear, 1 random"
else
	fail "open-au-sweep.sh without -e finds the 12MiB erase block with --auto first" "$(head -3 "$TMP/sweep") $(tail -3 "$TMP/err")"
fi
scripts/open-au-sweep.sh sim:ssd > "$TMP/sweep" 2> "$TMP/err"
rc=$?
if [ $rc = 1 ] && [ "$(wc -l < "$TMP/err")" = 1 ] &&
	grep -qx 'open-au-sweep.sh: flashbench --auto did not determine the erase block size on sim:ssd (no boundary from 64KiB to 1GiB costs clearly more to read across than page boundaries): give the erase block size with -e SIZE' "$TMP/err" &&
	! grep -q -- '--open-au' "$TMP/sweep"; then
	pass "open-au-sweep.sh without -e refuses an SSD whose erase block --auto cannot find, saying why"
else
	fail "open-au-sweep.sh without -e refuses an SSD" "exit $rc: $(cat "$TMP/err")"
fi

scripts/report.sh sim:cf-16m > "$TMP/report" 2> "$TMP/err"
if grep -q '^flashbench report: sim:cf-16m' "$TMP/report" && grep -q '^kernel: ' "$TMP/report" &&
	grep -qE '^erase block size +16MiB +high' "$TMP/report" && grep -q 'needs --write' "$TMP/report"; then
	pass "report.sh prints identity and the --auto report"
else
	fail "report.sh prints identity and the --auto report" "$(head -5 "$TMP/report")"
fi
scripts/report.sh --write sim:cf-16m > "$TMP/report" 2> /dev/null
grep -qE '^open erase blocks, linear +2 +high' "$TMP/report" && pass "report.sh --write" ||
	fail "report.sh --write" "$(grep open "$TMP/report")"

for s in open-au-sweep.sh report.sh; do
	scripts/$s --help > "$TMP/help" && grep -q "^Usage: $s" "$TMP/help" && pass "$s --help" || fail "$s --help" "no usage"
	v=$(scripts/$s --version)
	[ "$v" = "$s (flashbench) $("$FB" --version | sed 's/^flashbench //')" ] && pass "$s --version: $v" ||
		fail "$s --version" "'$v' is not the version of lib/version.h"
	expect_error "$s refuses a bad option" 2 "unknown option '--frob'" scripts/$s --frob sim:sd-4m
	expect_error "$s needs one device" 2 "name one device" scripts/$s
done
expect_error "open-au-sweep.sh: -e without a value is a usage error" 2 "^open-au-sweep.sh: -e needs a value" \
	scripts/open-au-sweep.sh -b 64k -e
expect_error "open-au-sweep.sh: -n takes a whole number" 2 "^open-au-sweep.sh: -n needs a whole number" \
	scripts/open-au-sweep.sh -n x sim:sd-4m

# called by another name (as installed, here through a link): help and
# errors say that name, and the library beside the script is still found
for s in open-au-sweep report; do
	ln -s "$PWD/scripts/$s.sh" "$TMP/flashbench-$s"
	"$TMP/flashbench-$s" --help > "$TMP/help" 2>&1 && grep -q "^Usage: flashbench-$s " "$TMP/help" &&
		! grep -q "$s\.sh" "$TMP/help" && pass "$s.sh called as flashbench-$s: --help names flashbench-$s" ||
		fail "$s.sh called as flashbench-$s: --help names flashbench-$s" "$(head -2 "$TMP/help")"
	expect_error "$s.sh called as flashbench-$s: errors name flashbench-$s" 2 "^flashbench-$s: name one device" \
		"$TMP/flashbench-$s"
done

# The sweep's own arguments: -n 0 tries nothing (refused, not an empty
# summary with status 0); --linear --random asks for both sweeps; a bad
# size is refused by flashbench before a header or row is printed
expect_error "open-au-sweep.sh: -n 0 is refused" 2 "^open-au-sweep.sh: -n 0 tries no erase block at all" \
	scripts/open-au-sweep.sh -e 4M -n 0 sim:sd-4m
scripts/open-au-sweep.sh --linear --random -n 2 -e 4M sim:sd-4m > "$TMP/sweep" 2> /dev/null
[ "$(grep -c '^== linear: ' "$TMP/sweep")" -ge 1 ] && [ "$(grep -c '^== random: ' "$TMP/sweep")" -ge 1 ] &&
	pass "open-au-sweep.sh --linear --random runs both sweeps" ||
	fail "open-au-sweep.sh --linear --random runs both sweeps" "$(grep '^==' "$TMP/sweep" | tr '\n' '|')"
scripts/open-au-sweep.sh -e bogus sim:sd-4m > "$TMP/sweep" 2> "$TMP/err"
rc=$?
[ $rc = 2 ] && [ ! -s "$TMP/sweep" ] && [ "$(wc -l < "$TMP/err")" = 1 ] && grep -q 'bogus' "$TMP/err" &&
	pass "open-au-sweep.sh -e bogus: one error line, no header printed, status 2" ||
	fail "open-au-sweep.sh -e bogus: one error line, no header" "exit $rc: $(head -2 "$TMP/sweep" "$TMP/err" | tr '\n' '|')"
# the summary's "(line N)" are lines of the script's own output (here
# with the --auto lines first): line N is the first row of that run
scripts/open-au-sweep.sh -b 96k -n 4 --linear sim:usb-12m > "$TMP/sweep" 2> /dev/null
bad_lines=
for n in 3 4; do
	l=$(sed -n "s/^    --open-au-nr=$n (line \([0-9]*\)).*/\1/p" "$TMP/sweep" | head -1)
	h=$(grep -n -- "--open-au-nr=$n sim:usb-12m\$" "$TMP/sweep" | cut -d: -f1)
	[ -n "$l" ] && [ -n "$h" ] && [ "$l" = $((h + 1)) ] || bad_lines="$bad_lines N=$n: line '$l', header at '$h';"
done
[ -z "$bad_lines" ] && pass "open-au-sweep.sh: the summary's line numbers are those of its output" ||
	fail "open-au-sweep.sh: the summary's line numbers are those of its output" "$bad_lines"

# Signals: the scripts pass SIGTERM (as `kill PID` or a supervisor sends
# it, to the script alone) on to the flashbench they run and wait for it:
# it stops at its next request, puts back what --preserve saved, prints
# what it measured; then the script ends by the signal.  None of them
# leaves a flashbench writing to the device behind it.
gone() { # gone PID: no such process (a zombie still waiting for init counts as gone)
	local st
	st=$(ps -o stat= -p "$1" 2> /dev/null)
	[ -z "$st" ] || [ "${st#Z}" != "$st" ]
}
# term_script NAME EVENT ARGS...: run scripts/NAME.sh ARGS in $TMP (where
# --preserve puts its journal), output in $TMP/NAME.out and .err; once
# EVENT (a pattern) is in FILE, SIGTERM to the script alone.  Sets rc, and
# orphan=yes when its flashbench still ran after the script had ended
# (then waits for that one to end).
term_script() {
	local name=$1 file=$2 event=$3 pid child
	shift 3
	(cd "$TMP" && exec "$OLDPWD/scripts/$name.sh" "$@") > "$TMP/$name.out" 2> "$TMP/$name.err" &
	pid=$!
	wait_for "$event in $file" 120 grep -qs -- "$event" "$TMP/$file"
	child=$(pgrep -P "$pid" -x flashbench | head -1)
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	orphan=no
	[ -n "$child" ] || orphan="no flashbench found"
	if [ -n "$child" ] && ! gone "$child"; then
		orphan=yes
		wait_for "the orphaned flashbench to end" 300 gone "$child"
	fi
}
# no journal is left, and the image holds its zeros again
put_back() { [ -z "$(ls "$TMP" | grep journal)" ] && cmp -s -n 2147483648 "$TMP/card.img" /dev/zero; }
truncate -s 2G "$TMP/card.img" 2> /dev/null
if [ "$(stat -c %s "$TMP/card.img" 2> /dev/null)" != 2147483648 ] || ! "$FB" -a -c 1 "$TMP/card.img" > /dev/null 2> "$TMP/err"; then
	skip "report.sh passes SIGTERM on to flashbench" "no 2GiB file with direct I/O in $TMP"
	skip "open-au-sweep.sh passes SIGTERM on to flashbench" "no 2GiB file with direct I/O in $TMP"
else
	term_script report report.err 'overwrites ' --write --preserve card.img
	if [ "$rc" = 143 ] && [ $orphan = no ] &&
		grep -q '^flashbench: stopped by a signal (SIGTERM) during its .* part' "$TMP/report.err" &&
		grep -Eq '^flashbench: --preserve: (put back |the run wrote to none of)|^flashbench: stopped by a signal .*; nothing needed putting back$' "$TMP/report.err" &&
		grep -q 'interrupted' "$TMP/report.out" && put_back; then
		pass "report.sh --write --preserve, SIGTERM: flashbench stops, puts the data back, reports; then 143"
	else
		fail "report.sh passes SIGTERM on to flashbench" "exit $rc, orphaned: $orphan; $(tail -2 "$TMP/report.err" | tr '\n' '|')"
	fi

	term_script open-au-sweep open-au-sweep.out '^16MiB' -e 16M -b 1k -n 2 --linear --preserve card.img
	rows=$(sed -n '/--open-au-nr=1 card.img$/,/^\^C$/p' "$TMP/open-au-sweep.out" | grep -c '^[0-9.]*[KM]iB	')
	said=$(sed -n 's/^flashbench: stopped by a signal (SIGTERM) after \([0-9]*\) complete rows\{0,1\};.*/\1/p' "$TMP/open-au-sweep.err")
	if [ "$rc" = 143 ] && [ $orphan = no ] && [ "$said" = "$rows" ] && [ "$rows" -lt 15 ] &&
		grep -qx '\^C' "$TMP/open-au-sweep.out" && ! grep -q -- '--open-au-nr=2' "$TMP/open-au-sweep.out" &&
		grep -q '^== stopped by a signal (SIGTERM): what the sweep measured so far' "$TMP/open-au-sweep.out" && put_back; then
		pass "open-au-sweep.sh, SIGTERM during a run: flashbench stops after $rows of 15 rows, the table marked ^C, 143"
	else
		fail "open-au-sweep.sh passes SIGTERM on to flashbench" "exit $rc, orphaned: $orphan, $rows rows, flashbench said '$said'; $(tail -2 "$TMP/open-au-sweep.err" | tr '\n' '|')"
	fi
fi

# SIGTERM between two runs (here while --analyze reads the first table, held
# until the signal is sent): the complete table is not marked "^C", no
# further run starts, and the summary is printed
mkfifo "$TMP/go"
cat > "$TMP/fbhold" <<HOLD
#!/usr/bin/env bash
case " \$* " in
*" --analyze "*)
	if [ ! -e "$TMP/held" ]; then
		: > "$TMP/held"
		read -r -t 120 _ <> "$TMP/go" # the test's line (at most 2 minutes)
	fi ;;
esac
exec "$FB" "\$@"
HOLD
chmod +x "$TMP/fbhold"
FLASHBENCH=$TMP/fbhold scripts/open-au-sweep.sh -e 12M -b 96k sim:usb-12m > "$TMP/sw.out" 2> "$TMP/sw.err" &
pid=$!
wait_for "the first --analyze" 60 test -e "$TMP/held"
kill -TERM "$pid"
# (this open returns once the held --analyze has the FIFO open too)
timeout 60 sh -c 'echo go > "$1"' _ "$TMP/go"
wait "$pid"
rc=$?
if [ "$rc" = 143 ] && ! grep -q '\^C' "$TMP/sw.out" && ! grep -q -- '--open-au-nr=2' "$TMP/sw.out" &&
	[ "$(grep -c '^[0-9.]*[KM]iB	' "$TMP/sw.out")" = 8 ] && grep -q '^    --open-au-nr=1 (line 2): ' "$TMP/sw.out" &&
	grep -q '^== stopped by a signal (SIGTERM)' "$TMP/sw.out"; then
	pass "open-au-sweep.sh, SIGTERM between runs: the complete table is not marked ^C, no new run, summary, 143"
else
	fail "open-au-sweep.sh, SIGTERM between runs" "exit $rc: $(grep -n '\^C\|^==\|line' "$TMP/sw.out" | tr '\n' '|')"
fi

# debian/postrm purge: flashbench's state directory goes with the package
# (its lock files, then the directory), unless it lists an unfinished
# --preserve journal, or a lock is held by a run still going
st=$TMP/purge/var/lib/flashbench
mkdir -p "$st" && : > "$st/file-1-2.lock" && : > "$st/disk-8-0.lock"
DPKG_ROOT=$TMP/purge sh debian/postrm purge 2> "$TMP/purge.err"
gone=$([ ! -e "$st" ] && echo yes)
mkdir -p "$st" && : > "$st/file-1-2.lock" && : > "$st/0123456789abcdef.entry" && : > "$st/held.lock"
exec 8> "$st/held.lock" && flock 8
DPKG_ROOT=$TMP/purge sh debian/postrm purge 2> "$TMP/purge2.err"
exec 8>&-
if [ "$gone" = yes ] && [ ! -e "$st/file-1-2.lock" ] && [ -e "$st/0123456789abcdef.entry" ] && [ -e "$st/held.lock" ] &&
	grep -q "is kept: it lists unfinished --preserve journals" "$TMP/purge2.err"; then
	pass "debian/postrm purge removes the state directory, keeping journal entries and held locks"
else
	fail "debian/postrm purge removes the state directory" "gone=$gone; $(ls "$st" 2> /dev/null | tr '\n' ' '); $(cat "$TMP/purge.err" "$TMP/purge2.err")"
fi

# A machine with the classic flashbench first on PATH (Debian's): from the
# source tree the scripts run the tree's flashbench, never that one; a
# script with no flashbench of its own beside it (installed elsewhere)
# refuses the classic one, which answers no --version, before it runs a
# test (the classic would take the sweep's options for a write test)
mkdir -p "$TMP/classic" "$TMP/alone"
cat > "$TMP/classic/flashbench" <<CLASSIC
#!/bin/sh
echo "\$*" >> "$TMP/classic.ran"
echo "flashbench: invalid option -- '-'" >&2
echo "Usage: flashbench [OPTION]... [DEVICE]" >&2
exit 234
CLASSIC
chmod +x "$TMP/classic/flashbench"
for s in report open-au-sweep; do
	sed "s|^lib=.*|lib=$PWD/scripts/lib.sh|" "scripts/$s.sh" > "$TMP/alone/flashbench-$s"
	chmod +x "$TMP/alone/flashbench-$s"
done
tree_fb=$(readlink -f ./flashbench)
env -u FLASHBENCH PATH="$TMP/classic:$PATH" scripts/report.sh sim:sd-4m > "$TMP/cl.out" 2> "$TMP/cl.err"
rc=$?
env -u FLASHBENCH PATH="$TMP/classic:$PATH" scripts/open-au-sweep.sh -e 4M -n 1 --linear sim:sd-4m > "$TMP/cl2.out" 2> "$TMP/cl2.err"
rc2=$?
if [ $rc = 0 ] && [ $rc2 = 0 ] && [ ! -e "$TMP/classic.ran" ] &&
	grep -qx "flashbench: flashbench [0-9.]* ($tree_fb)" "$TMP/cl.out" && grep -qE '^erase block size +4MiB' "$TMP/cl.out" &&
	grep -q "^== linear: flashbench -O " "$TMP/cl2.out" && grep -qE '^open erase blocks, linear ' "$TMP/cl2.out"; then
	pass "scripts from the source tree run its flashbench, not the classic one first on PATH"
else
	fail "scripts from the source tree run its flashbench, not the classic one first on PATH" \
		"rc $rc/$rc2, classic ran: $(cat "$TMP/classic.ran" 2> /dev/null); $(head -4 "$TMP/cl.out" | tr '\n' '|') $(tail -n 2 "$TMP/cl.err" "$TMP/cl2.err")"
fi
rm -f "$TMP/classic.ran"
for s in report open-au-sweep; do
	env -u FLASHBENCH PATH="$TMP/classic:$PATH" "$TMP/alone/flashbench-$s" sim:sd-4m > "$TMP/al.out" 2> "$TMP/al.err"
	rc=$?
	if [ $rc = 2 ] && [ ! -s "$TMP/al.out" ] && [ "$(cat "$TMP/classic.ran")" = --version ] &&
		grep -q "^flashbench-$s: flashbench is not this flashbench (it does not answer --version: the classic tool?)" "$TMP/al.err"; then
		pass "flashbench-$s with the classic flashbench on PATH refuses it before any test"
	else
		fail "flashbench-$s with the classic flashbench on PATH refuses it before any test" \
			"rc $rc, classic ran: $(tr '\n' ' ' < "$TMP/classic.ran"); $(head -2 "$TMP/al.out") $(cat "$TMP/al.err")"
	fi
	rm -f "$TMP/classic.ran"
done

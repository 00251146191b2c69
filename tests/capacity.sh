# tests/capacity.sh — --capacity on simulated cards: the report a person
# reads (golden, wall time masked), JSON, --summary and the --plot map; what
# it announces before writing and that it put everything back (the journal
# gone, the sim's own count of changed sectors 0); Ctrl-C puts back too; bad
# input and misplaced options are refused before anything is written.
. tests/lib.sh
JP=${FB%/flashbench}/tests/jsonpath
ROOT=$PWD
cd "$TMP" || exit 1

mask() { sed -E 's/, took [^ ]+$/, took X/'; }

"$FB" --capacity sim:fake-drop 2> drop.err | mask > drop.out
(cd "$ROOT" && golden "capacity fake-drop report golden" capacity-fake-drop.out cat "$TMP/drop.out")
"$FB" -C sim:fake-wrap 2> /dev/null | mask > wrap.out
(cd "$ROOT" && golden "capacity fake-wrap report golden" capacity-fake-wrap.out cat "$TMP/wrap.out")

# three short lines before the first write (doc/style.md), the detail with -v
"$FB" -C -v sim:fake-drop 2> drop-v.err > /dev/null
if [ "$(sed -n 1p drop.err)" = 'flashbench: --capacity writes up to 11MiB of signatures, then puts it all back' ] &&
	sed -n 2p drop.err | grep -qE '^flashbench: journal: .*/flashbench-fake-drop\.[0-9]+(-[0-9]+)?\.journal$' &&
	[ "$(sed -n 3p drop.err)" = 'flashbench: to flush a cache it rewrites up to 522MiB with the bytes it holds' ] &&
	head -3 drop.err | awk 'length > 80 { exit 1 }' &&
	unwrap < drop-v.err | grep -q '256MiB at a time, from the top down, of bytes 1599078400 to 2146435071 (room for the probes it leaves alone), read and saved just before: nothing there changes$' &&
	unwrap < drop-v.err | grep -q '^flashbench:   it saves up to 533MiB' &&
	grep -q '^flashbench: --capacity: put back [0-9]* bytes .* and verified them' drop.err; then
	pass "capacity announces what it may write, and puts it back"
else
	fail "capacity announces what it may write, and puts it back" "$(cat drop.err)"
fi
if ! ls ./*.journal "${TMPDIR:-/tmp}"/flashbench-sim.*.journal "$FLASHBENCH_STATE_DIR"/*.entry > /dev/null 2>&1; then
	pass "capacity leaves no journal or index entry behind"
else
	fail "capacity leaves no journal or index entry behind" "$(ls ./*.journal "$FLASHBENCH_STATE_DIR" 2>&1)"
fi

# A simulated card's journal is the run's own: named by its preset and PID
# (the next free name when one is taken), so that one a SIGKILL left behind
# (with the PID the next run may get) never blocks a later run
mkdir -p simtmp
printf 'left by a killed run' > simtmp/stale
(
	export TMPDIR=$TMP/simtmp
	for i in 1 2; do
		# shellcheck disable=SC2016 # $$ is the shell's, which exec makes flashbench's
		sh -c 'cp "$TMPDIR/stale" "$TMPDIR/flashbench-fake-drop.$$.journal"; exec "$0" -C sim:fake-drop' "$FB" \
			> /dev/null 2> "$TMP/sim$i.err"
		echo $? > "$TMP/sim$i.rc"
	done
)
j1=$(unwrap < sim1.err | sed -n 's/^flashbench: journal: //p') j2=$(unwrap < sim2.err | sed -n 's/^flashbench: journal: //p')
if [ "$(cat sim1.rc sim2.rc)" = "$(printf '0\n0')" ] && [ "$j1" != "$j2" ] &&
	[[ $j1 =~ simtmp/flashbench-fake-drop\.[0-9]+-2\.journal$ ]] &&
	[ "$(cat simtmp/flashbench-fake-drop.*.journal)" = "$(cat simtmp/stale simtmp/stale)" ] &&
	[ "$(find simtmp -type f | wc -l)" = 3 ]; then
	pass "capacity: a sim's journal is the run's own: a stale one in TMPDIR does not stop a run"
else
	fail "capacity: a sim's journal is the run's own: a stale one in TMPDIR does not stop a run" \
		"$(cat sim1.rc sim2.rc | tr '\n' ' ')$(tail -1 sim1.err) $j1 $j2; $(ls simtmp)"
fi
rm -rf simtmp

# JSON: the verdict, its edges and the truth of every sector
json() { # json NAME "ARGUMENTS" PATH=VALUE...
	local name=$1 args=$2 kv got bad=""
	shift 2
	# shellcheck disable=SC2086 # the arguments are words
	if ! "$FB" -C --json $args > j.json 2> j.err; then
		fail "$name" "$(tail -1 j.err)"
		return
	fi
	for kv in "$@"; do
		got=$("$JP" "${kv%%=*}" < j.json 2>&1)
		[ "$got" = "${kv#*=}" ] || bad="$bad ${kv%%=*}=$got (want ${kv#*=})"
	done
	[ -z "$bad" ] && pass "$name" || fail "$name" "$bad"
}
json "capacity json: a cache that keeps 8MiB" sim:fake-cache verdict.kind=cache verdict.confidence=high \
	usable.value=1073741824 usable.confidence=high edges.cache_kept=4194304 edges.cache_lost_within=8388608 \
	data.verified=true device.model.sectors_changed=0 test=capacity
json "capacity json: wraps at 768MiB (no power of two)" sim:size=2G,real=768M,fake=wrap verdict.kind=wrap \
	edges.period=805306368 usable.value=805306368 usable.confidence=high device.model.sectors_changed=0
json "capacity json: a working end" sim:size=1G,real=300M,fake=end,goodend=32M verdict.kind=end \
	edges.lost_from=314572800 edges.lost_to=1040187392 device.model.sectors_changed=0
json "capacity json: lost past a size that is no whole MiB: found to the byte, never above" \
	sim:size=1G,real=700000256,fake=drop verdict.kind=drop usable.value=700000256 usable.confidence=high \
	edges.resolution=512 spans.0.bad_from=700000256 device.model.sectors_changed=0
json "capacity json: a working end whose edges are no whole MiB" sim:size=1G,real=300000256,fake=end,goodend=10000384 \
	verdict.kind=end edges.lost_from=300000256 edges.lost_to=1063741440 device.model.sectors_changed=0
json "capacity json: wraps with a period shorter than the reference block" sim:size=1G,real=1536K,fake=wrap \
	verdict.kind=wrap edges.period=1572864 usable.value=1572864 usable.confidence=high edges.resolution=512 \
	device.model.sectors_changed=0
json "capacity json: wraps at 64KiB" sim:size=1G,real=64K,fake=wrap edges.period=65536 usable.confidence=high
json "capacity json: a genuine card, flushed up to --max-cache" sim:size=512M verdict.kind=genuine usable.value=536870912 \
	flush.bytes=268435456 flush.full=true device.model.sectors_changed=0
json "capacity json: --max-cache bounds the flush" "--max-cache=32M sim:size=512M" flush.bytes=33554432 flush.max_cache=33554432

# --summary: one line per card, the columns of --auto's (doc/style.md)
if "$FB" -C --summary sim:fake-drop 2> /dev/null > sum.out &&
	grep -qx '| sim:fake-drop | 2GiB | fake: drop 768MiB | - | - | - | - | - | - | - |' sum.out; then
	pass "capacity --summary: one table line"
else
	fail "capacity --summary: one table line" "$(cat sum.out)"
fi

# a usable size is room promised: never shown above what the card holds
# (2047MiB is no 2GiB), in the text, --summary, the --plot title and the
# --auto --write check; a size that is no whole MiB: floored in --summary
"$FB" -C --summary --plot floor.svg sim:fake=drop,real=2047M > floor.sum 2> /dev/null
"$FB" -C sim:fake=drop,real=2047M > floor.out 2> /dev/null
"$FB" -A --write sim:fake=drop,real=2047M 2>&1 > /dev/null | unwrap > floor.auto
if grep -qE '^\| sim:fake=drop,real=2047M \| 2GiB \| fake: drop 1\.99GiB\?? \|' floor.sum &&
	grep -qE '^usable size +1\.99GiB +high$' floor.out && grep -q '>usable size 1\.99GiB (high)<' floor.svg &&
	grep -q '(usable 1\.99GiB of 2GiB)' floor.auto; then
	pass "capacity: a usable size of 2047MiB is never shown as 2GiB"
else
	fail "capacity: a usable size of 2047MiB is never shown as 2GiB" \
		"$(cat floor.sum; grep '^usable' floor.out; grep -o 'usable size [^<]*' floor.svg; tail -1 floor.auto)"
fi
"$FB" -C --summary sim:fake=drop,real=1535M > floor.sum 2> /dev/null
"$FB" -C sim:fake=drop,real=1023.5M > floor.out 2> /dev/null
if grep -qE '\| fake: drop 1\.49GiB\?? \|' floor.sum && grep -qE '^usable size +1023MiB +high$' floor.out &&
	"$FB" -C --summary sim:fake=drop,real=1023.5M 2> /dev/null | grep -qE '\| fake: drop 1023MiB\?? \|'; then
	pass "capacity: 1535MiB usable is 1.49GiB, 1023.5MiB is 1023MiB (also in --summary)"
else
	fail "capacity: 1535MiB usable is 1.49GiB, 1023.5MiB is 1023MiB (also in --summary)" \
		"$(cat floor.sum; grep '^usable' floor.out)"
fi

# --plot: the map of the device
if "$FB" -C --plot map.svg sim:fake-wrap > /dev/null 2>&1 && grep -q '^<svg' map.svg && grep -q 'wraps around' map.svg &&
	[ "$(grep -c '<rect' map.svg)" -gt 360 ] && grep -q '#fb8c00' map.svg; then
	pass "capacity --plot: a map of the device, the repeating part marked"
else
	fail "capacity --plot: a map of the device, the repeating part marked" "$(head -c 300 map.svg 2>&1)"
fi

# refused before anything runs
expect_error "capacity: a device too small" 2 "checks devices of 64MiB or more" "$FB" -C sim:size=32M
expect_error "capacity: --max-cache=0" 2 "max-cache=0: must not be zero" "$FB" -C --max-cache=0 sim:sd-4m
# the flush rewrites 1MiB at a time: a size below it, or of part of one, is
# refused rather than announced as a smaller rewrite than it makes
expect_error "capacity: --max-cache=511 is less than the 1MiB the flush rewrites" 2 \
	"^flashbench: --max-cache=511: less than 1MiB, the smallest it takes \(the flush rewrites 1MiB at a time\)$" \
	"$FB" -C --max-cache=511 sim:fake-cache
expect_error "capacity: --max-cache=1 is refused" 2 "^flashbench: --max-cache=1: less than 1MiB, the smallest it takes" \
	"$FB" -C --max-cache=1 sim:fake-cache
expect_error "capacity: --max-cache=4097 is refused" 2 "^flashbench: --max-cache=4097: less than 1MiB" \
	"$FB" -C --max-cache=4097 sim:fake-cache
expect_error "capacity: --max-cache of part of a MiB is refused" 2 \
	"^flashbench: --max-cache=1.5M: not a multiple of 1MiB \(the flush rewrites 1MiB at a time\)$" \
	"$FB" -C --max-cache=1.5M sim:fake-cache
json "capacity json: --max-cache=1M is the smallest flush" "--max-cache=1M sim:size=256M" flush.max_cache=1048576 \
	flush.bytes=1048576 device.model.sectors_changed=0
expect_error "capacity: --max-cache goes with --capacity" 2 "'--max-cache' does not apply to --align" \
	"$FB" -a --max-cache=64M sim:sd-4m
expect_error "capacity: one test at a time" 2 "choose one test" "$FB" -C -A sim:sd-4m
expect_error "capacity: --max-cache larger than the card (a flush of it would run for hours)" 2 \
	"max-cache=107374182400 is more than sim:size=2G holds \(2147483648 bytes\)" "$FB" -C --max-cache=100G sim:size=2G
expect_error "capacity: --plot into a missing directory" 2 "plot" "$FB" -C --plot /nonexistent/x.svg sim:sd-4m
expect_error "capacity: sim keepby= takes writes, past or address" 2 \
	"^flashbench: sim: keepby=lru: expected writes, past or address$" "$FB" -C sim:fake-cache,keepby=lru
expect_error "capacity: sim keepby= goes with fake=cache" 2 "^flashbench: sim: keepby=past goes with fake=cache$" \
	"$FB" -C sim:size=256M,real=96M,fake=drop,keepby=past
expect_error "capacity: sim keepby= without a fake card" 2 "^flashbench: sim: keepby=writes goes with fake=cache$" \
	"$FB" -C sim:size=256M,keepby=writes
if ! ls ./*.journal > /dev/null 2>&1; then
	pass "capacity: a refused run leaves no journal"
else
	fail "capacity: a refused run leaves no journal" "$(ls ./*.journal)"
fi

# --preserve=FILE names the journal: a file that is there is never overwritten
printf 'not a journal' > taken.journal
expect_error "capacity: refuses to overwrite what is at the journal's path" 2 "not a flashbench journal" \
	"$FB" -C --preserve=taken.journal sim:fake-drop
[ "$(cat taken.journal)" = 'not a journal' ] && pass "capacity: the file at the journal's path is left as it was" ||
	fail "capacity: the file at the journal's path is left as it was" "$(head -c 100 taken.journal)"
rm -f taken.journal

# A journal on tmpfs is refused before anything is read or written, for
# --capacity and for --auto --write's capacity check alike (without
# --preserve their journal goes to the state directory, never the current
# one: here a state directory on tmpfs), and
# --preserve-volatile, which goes with both, accepts it
if [ -d /dev/shm ] && [ -w /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ] && shm=$(mktemp -d /dev/shm/fb-cap.XXXXXX); then
	head -c 67108864 /dev/urandom > card.img
	before=$(sha256sum < card.img)
	for t in -C "-A --write"; do
		# shellcheck disable=SC2086 # the test's words
		(cd "$TMP" && FLASHBENCH_STATE_DIR=$shm "$FB" $t "$TMP/card.img" > "$TMP/v.out" 2> "$TMP/v.err")
		rc=$?
		if [ $rc = 2 ] && [ "$(wc -l < v.err)" = 1 ] && grep -q 'would be on tmpfs.*--preserve-volatile' v.err &&
			[ ! -s v.out ] && [ -z "$(ls "$shm")" ]; then
			pass "capacity: $t refuses a journal on tmpfs before it reads or writes"
		else
			fail "capacity: $t refuses a journal on tmpfs before it reads or writes" "rc $rc: $(cat v.err)"
		fi
		# shellcheck disable=SC2086
		# (--auto --write overwrites its areas: only --capacity leaves every byte)
		if (cd "$TMP" && FLASHBENCH_STATE_DIR=$shm "$FB" $t --preserve-volatile --summary "$TMP/card.img" > "$TMP/v.out" 2> "$TMP/v.err") &&
			{ [ "$t" != -C ] || [ "$(sha256sum < card.img)" = "$before" ]; } && [ -z "$(ls "$shm")" ] &&
			grep -qx "flashbench: journal: $shm/card.img.journal" v.err && ! ls ./*.journal > /dev/null 2>&1; then
			pass "capacity: $t --preserve-volatile takes the journal there, and leaves none"
		else
			fail "capacity: $t --preserve-volatile takes the journal there, and leaves none" "$(tail -2 v.err)"
		fi
	done
	rm -rf "$shm" card.img
else
	skip "capacity: a journal on tmpfs" "no writable tmpfs at /dev/shm"
fi

# --auto --write stopped in its capacity check: the write findings say
# "interrupted" (not "needs --write"), the stop names the check, and with
# --preserve (whose saves are synced: the check lasts) nothing is left
truncate -s 1G big.img
# (the check lasts about a tenth of a second: the signal is sent within a
# fraction of a millisecond of its first line)
signal_at_line INT stop.err 'checks the capacity first' 120 \
	"$FB" -A --write -v --json --preserve="$TMP/big.j" big.img > stop.json
rc=$?
got=$("$JP" cost.stopped_in findings.fat_area.note < stop.json 2>&1 | tr '\n' '|')
if [ $rc = 130 ] && [ "$got" = "capacity_check|interrupted: the run was stopped by a signal before it was measured|" ] &&
	grep -q 'during its capacity check part' stop.err && [ ! -e big.j ]; then
	pass "auto --write stopped in its capacity check: write findings interrupted, the check named"
elif [ $rc = 130 ] && case ${got%%|*} in cache|probe_area|min_write|open_*|fat_area) true ;; *) false ;; esac; then
	skip "auto --write stopped in its capacity check" "the check had ended before the signal ($got)"
else
	fail "auto --write stopped in its capacity check" "rc $rc: $got $(tail -1 stop.err)"
fi
rm -f big.img

# Ctrl-C once it has written (the progress line says so): everything is put back
"$FB" -C --progress sim:size=64G > /dev/null 2> int.err &
pid=$!
wait_for "the first write" 60 grep -qs -- '--capacity [0-9]/[0-9]: .* written' int.err
kill -INT "$pid" 2> /dev/null
wait "$pid"
rc=$?
# (the signal may come while it saves what it writes next: nothing more is written then)
if [ $rc = 130 ] && grep -q 'stopped by a signal.*; the saved data were put back and verified' int.err &&
	! grep -q 'the device was not written' int.err &&
	! ls ./*.journal "$FLASHBENCH_STATE_DIR"/*.entry > /dev/null 2>&1; then
	pass "capacity: Ctrl-C puts everything back"
elif [ $rc = 0 ]; then
	skip "capacity: Ctrl-C puts everything back" "the run ended before the signal arrived"
else
	fail "capacity: Ctrl-C puts everything back" "status $rc: $(tail -2 int.err | tr '\n' ' ')"
fi

# --auto --write says (and reserves) what it writes, then checks the capacity
# before its first write of its own, and stops on a fake
if ! "$FB" -A --write sim:fake-wrap > auto.out 2> auto.err && [ ! -s auto.out ] &&
	grep -q 'sim:fake-wrap: fake: wraps around (usable 512MiB of 2GiB); --auto --write measures nothing on it' auto.err &&
	head -1 auto.err | grep -qx 'flashbench: --auto --write overwrites 128MiB at 0 and 256MiB at 1GiB for good' &&
	sed -n 2p auto.err | grep -q '^flashbench: journal: ' && sed -n 3p auto.err | grep -q '^flashbench: bound: ' &&
	unwrap < auto.err | sed -n 4p | grep -q '^flashbench: the capacity check put back the [0-9]* bytes .* and verified them$' &&
	[ "$(unwrap < auto.err | wc -l)" = 5 ] &&
	"$FB" -A --write -v sim:fake-wrap 2>&1 > /dev/null | unwrap | grep -q 'checks the capacity first: 2MiB of signatures at its start, 4KiB at up to 256 places and a stretch of up to 4MiB at each of up to 2 edges it finds (at most 11MiB of signatures in all); .*(at most 11MiB) and put back before --auto writes$' &&
	! ls ./*.journal > /dev/null 2>&1; then
	pass "auto --write on a fake: stops before its write tests and says why"
else
	fail "auto --write on a fake: stops before its write tests and says why" "$(cat auto.err)"
fi
# the stop says what becomes of writes on that fake: only a card that wraps
# puts them on other flash; one that loses them loses them
if grep -q 'measures nothing on it, as its writes past the usable size would overwrite the flash below it (the data at the start) (flashbench --capacity sim:fake-wrap says more)$' auto.err &&
	! "$FB" -A --write sim:fake-drop > /dev/null 2> drop-auto.err &&
	grep -q '^flashbench: sim:fake-drop: fake: writes past the real size are lost (usable 768MiB of 2GiB); --auto --write measures nothing on it, as its writes past the usable size are lost (flashbench --capacity sim:fake-drop says more)$' drop-auto.err; then
	pass "auto --write on a fake: the stop says what becomes of writes there (wrap: other flash; drop: lost)"
else
	fail "auto --write on a fake: the stop says what becomes of writes there (wrap: other flash; drop: lost)" \
		"$(tail -1 auto.err; tail -1 drop-auto.err)"
fi
if "$FB" -A --write -v sim:sd-4m > auto.out 2> auto.err && grep -q 'checks the capacity first' auto.err &&
	grep -q 'no fake capacity seen' auto.err && grep -qE '^open erase blocks, linear +2 +high' auto.out; then
	pass "auto --write on a genuine card: checked, then measured as before"
else
	fail "auto --write on a genuine card: checked, then measured as before" "$(cat auto.err)"
fi

# --program with signatures: a card that wraps at 64 MiB shows the moved sectors
printf '%s\n' 'format signatures' 'seq keep' '  len 8k keep' '    pattern 1 keep' '      off-list 0,64M keep' \
	'        sig-write' '  len 8k keep' '    pattern 1 keep' '      off-list 0,64M,128M keep' '        sig-read' > sig.fbp
if "$FB" --program sig.fbp --write sim:size=256M,real=64M,fake=wrap > sig.out 2> /dev/null &&
	LC_ALL=C grep -qxP 'sig-read 0\t8KiB\tgood 0\tmoved 16\tstale 0\tforeign 0\tfrom 67108864\t\S+' sig.out &&
	LC_ALL=C grep -qxP 'sig-read 67108864\t8KiB\tgood 16\tmoved 0\tstale 0\tforeign 0\t\S+' sig.out &&
	[ "$(grep -c '^sig-write' sig.out)" = 2 ]; then
	pass "program format signatures: what each read found, moved sectors named"
else
	fail "program format signatures: what each read found, moved sectors named" "$(cat sig.out)"
fi
expect_error "program: sig-write needs --write" 2 "writes to the device: add --write" "$FB" --program sig.fbp sim:size=256M

# a loss inside the reference block the run writes at the start (h23c D6):
# the card loses 1 MiB to 3 MiB and works above; it must not pass as genuine,
# and the usable size from byte 0 is at most the real 1 MiB
"$FB" -C --json sim:size=2G,fake=end,real=1M,goodend=2144337920 > ref.json 2> /dev/null
kind=$("$JP" verdict.kind < ref.json) usable=$("$JP" usable.value < ref.json)
if [ -n "$kind" ] && [ "$kind" != genuine ] && [ "$usable" -le 1048576 ]; then
	pass "capacity: a loss inside the reference block is found"
else
	fail "capacity: a loss inside the reference block is found" "kind '$kind', usable '$usable'"
fi

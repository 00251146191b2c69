# tests/scripts.sh — scripts/open-au-sweep.sh and scripts/report.sh on
# simulated devices.
. tests/lib.sh
export FLASHBENCH=$FB

# rate_at SWEEP KIND N CHUNK: the rate the sweep's table printed
rate_at() { awk -v h="^== $2: .*--open-au-nr=$3 " -v c="^$4\t" '$0 ~ h { on = 1; next } /^== /{ on = 0 } on && $0 ~ c { print $2; exit }' "$1"; }
scripts/open-au-sweep.sh -e 12M -b 96k sim:usb-12m > "$TMP/sweep" 2> "$TMP/err"
# the random sweep's runs are judged against its own N=1 (not the linear one)
at=$(sed -n 's/^    --open-au-nr=2 (line [0-9]*): [^ ]* at \([^,]*\), .*than --open-au-nr=1 (\([^)]*\)).*/\1 \2/p' "$TMP/sweep" | tail -1)
if grep -qE '^open erase blocks, linear +3 ' "$TMP/sweep" &&
	grep -qE '^open erase blocks, random order +1 ' "$TMP/sweep" &&
	[ -n "$at" ] && [ "$(rate_at "$TMP/sweep" random 1 "${at% *}")" = "${at#* }" ] &&
	[ "$(grep -c '^== linear: flashbench --open-au ' "$TMP/sweep")" = 4 ]; then
	pass "open-au-sweep.sh finds 3 linear and 1 random on usb-12m through --analyze, stopping at the knee"
else
	fail "open-au-sweep.sh finds 3 linear and 1 random on usb-12m" "$(tail -8 "$TMP/sweep")"
fi
# cf-16m: random-order writes are slower per byte than linear ones, yet two
# erase blocks stay open in random order too; judged against the random
# sweep's own N=1 run (not the linear one) the script must say 2
scripts/open-au-sweep.sh -e 16M -b 64k -n 4 sim:cf-16m > "$TMP/sweep" 2> "$TMP/err"
at=$(sed -n 's/^    --open-au-nr=2 (line [0-9]*): [^ ]* at \([^,]*\), as fast as .*/\1/p' "$TMP/sweep" | tail -1)
lin1=$(rate_at "$TMP/sweep" linear 1 "$at")
rnd1=$(rate_at "$TMP/sweep" random 1 "$at")
if grep -qE '^open erase blocks, random order +2 ' "$TMP/sweep" && grep -qE '^open erase blocks, linear +2 ' "$TMP/sweep" &&
	[ -n "$rnd1" ] && [ "$rnd1" != "$lin1" ] && grep -q "as fast as --open-au-nr=1 ($rnd1)" "$TMP/sweep" &&
	[ "$(grep -c '^== random: flashbench --open-au ' "$TMP/sweep")" = 3 ]; then
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
scripts/open-au-sweep.sh -b 96k sim:usb-12m > "$TMP/sweep" 2> "$TMP/err"
if grep -qx '== erase block 12MiB (high confidence): reads across multiples of 12MiB cost 300µs more than across other boundaries' "$TMP/sweep" &&
	grep -q -- '--erasesize=12MiB --blocksize=96k --open-au-nr=1 sim:usb-12m' "$TMP/sweep" &&
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

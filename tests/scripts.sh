# tests/scripts.sh — scripts/open-au-sweep.sh and scripts/report.sh on
# simulated devices.
. tests/lib.sh
export FLASHBENCH=$FB

scripts/open-au-sweep.sh -e 12M -b 96k sim:usb-12m > "$TMP/sweep" 2> "$TMP/err"
if grep -qE '^open erase blocks, linear +3 ' "$TMP/sweep" &&
	grep -qE '^open erase blocks, random order +1 ' "$TMP/sweep" &&
	grep -q 'than --open-au-nr=1 (17.6M/s)' "$TMP/sweep" &&
	[ "$(grep -c '^== linear: flashbench --open-au ' "$TMP/sweep")" = 4 ]; then
	pass "open-au-sweep.sh finds 3 linear and 1 random on usb-12m through --analyze, stopping at the knee"
else
	fail "open-au-sweep.sh finds 3 linear and 1 random on usb-12m" "$(tail -8 "$TMP/sweep")"
fi
scripts/open-au-sweep.sh --random -n 3 -e 4M sim:ssd > "$TMP/sweep" 2> /dev/null
grep -qE '^open erase blocks, random order +at least 3 ' "$TMP/sweep" &&
	! grep -q '^== linear' "$TMP/sweep" && pass "open-au-sweep.sh --random -n on an SSD" ||
	fail "open-au-sweep.sh --random -n on an SSD" "$(tail -4 "$TMP/sweep")"

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
	expect_error "$s refuses a bad option" 2 "unknown option '--frob'" scripts/$s --frob sim:sd-4m
	expect_error "$s needs one device" 2 "name one device" scripts/$s
done

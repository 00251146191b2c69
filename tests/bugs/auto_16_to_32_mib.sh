# tests/bugs/auto_16_to_32_mib.sh — A KNOWN TOOL BUG, found by the lab
# (issue 28), not yet fixed; run by hand: bash tests/bugs/auto_16_to_32_mib.sh
# (tests/run does not run tests/bugs/; once the bug is fixed, move this test
# into tests/auto.sh).
# flashbench --auto on a device of 16 MiB up to (not including) 32 MiB exits
# 2 with "the test would start before the beginning of the device", a
# message about no option the user gave; 8 MiB and 32 MiB work.  Found on
# a 16 MiB USB stick in the lab's guest; the same on sim:size=16M and on a
# 16 MiB file.  Either --auto runs there, or it says the device is too small
# for it and what size it needs.
. tests/lib.sh
for size in 16M 24M 31M; do
	"$FB" -A "sim:size=$size" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ $rc = 0 ] || grep -q "too small" "$TMP/err"; then
		pass "auto on a ${size}B device runs or says it is too small"
	else
		fail "auto on a ${size}B device runs or says it is too small" "exit $rc: $(cat "$TMP/err")"
	fi
done

# tests/cases.sh — bad input, one directory per case: tests/cases/NAME/cmd
# is a shell command line ($FB, $ERASE and $CASE, the case's directory, are
# set; redirections work), `status` its exit status and `expect` an extended
# regex that its one line on stderr must match; nothing may appear on
# stdout.  Adding a case is adding a directory.
. tests/lib.sh

run_case() { eval "$(cat "$CASE/cmd")"; }
for CASE in tests/cases/*/; do
	CASE=${CASE%/}
	if [ ! -f "$CASE/cmd" ] || [ ! -f "$CASE/status" ] || [ ! -f "$CASE/expect" ]; then
		fail "case ${CASE##*/}" "needs cmd, status and expect files"
		continue
	fi
	expect_error "case ${CASE##*/}" "$(cat "$CASE/status")" "$(cat "$CASE/expect")" run_case
done

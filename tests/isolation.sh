# tests/isolation.sh — tests cannot disturb each other (tests/lib.sh): a
# test's directory is made new by mktemp, never a leftover that bears its
# PID's name (the old scheme adopted it, and its clean-up removed it); a
# loop device the test attached, then detached by another program and
# attached by it to another file under the same name, is left to it at
# clean-up; and what vanished while the test ran (its directory, its loop
# device) is named, on its failures and as an environmental failure of its
# own.  Each case is a child test run under conditions made here.
. tests/lib.sh
SRC=$PWD

ALL="isolation: a test's directory is new, not a leftover with its PID's name"
ALL="$ALL|isolation: a vanished directory is named as an environmental failure"
ALL="$ALL|isolation: a loop device taken over by another program is left to it"
ALL="$ALL|isolation: a vanished loop device is named as an environmental failure"
cd "$TMP" || exit 1
mkdir tmp
# a child test: reports its directory in dir, waits for go, then fails
cat > child.sh << EOF
. "$SRC/tests/lib.sh"
echo "\$TMP" > "$TMP/dir"
[ -z "\${CHILD_LOOP:-}" ] || { truncate -s 1M "\$TMP/f1"; attach "\$TMP/f1" && echo "\$DEV" > "$TMP/dev"; }
wait_for "go" 60 test -e "$TMP/go"
fail "child: its own work" "it failed"
EOF

# the old scheme's directory for the child's PID, left by an earlier run
# shellcheck disable=SC2016 # expanded by the child's shell
TMPDIR=$TMP/tmp bash -c 'mkdir "$TMPDIR/flashbench-test.$$" && touch "$TMPDIR/flashbench-test.$$/left" &&
	echo "$TMPDIR/flashbench-test.$$" > "$0/old" && touch "$0/go" && exec bash "$0/child.sh"' "$TMP" > child1.out 2>&1
if [ -s dir ] && [ "$(cat dir)" != "$(cat old)" ] && [ -e "$(cat old)/left" ] && [ ! -e "$(cat dir)" ]; then
	pass "isolation: a test's directory is new, not a leftover with its PID's name"
else
	fail "isolation: a test's directory is new, not a leftover with its PID's name" \
		"child's $(cat dir 2> /dev/null), leftover $(cat old 2> /dev/null): $(ls "$(cat old 2> /dev/null)" 2>&1)"
fi

# its directory removed by someone else while it runs
rm -f dir go
TMPDIR=$TMP/tmp bash child.sh > child2.out 2>&1 &
pid=$!
wait_for "the child's directory" 60 test -s dir && rm -rf "$(cat dir)"
touch go
wait "$pid"
if grep -q "^FAIL child: its own work: it failed \[environment: its directory $(cat dir) vanished\]$" child2.out &&
	grep -q "^FAIL child: environment: its directory $(cat dir) vanished by another program" child2.out; then
	pass "isolation: a vanished directory is named as an environmental failure"
else
	fail "isolation: a vanished directory is named as an environmental failure" "$(tr '\n' '|' < child2.out)"
fi

if ! is_root || ! command -v losetup > /dev/null; then
	skip "isolation: a loop device taken over by another program is left to it" "needs root and losetup"
	skip "isolation: a vanished loop device is named as an environmental failure" "needs root and losetup"
	exit 0
fi
# its loop device detached by another program, which attaches its own
# file under the same name
rm -f dir go dev
truncate -s 1M f2
# (a lock of its own: the child times nothing, and must not wait for the
# suites that do)
CHILD_LOOP=1 FLASHBENCH_LOOP_LOCK=$TMP/lock TMPDIR=$TMP/tmp bash child.sh > child3.out 2>&1 &
pid=$!
if wait_for "the child's loop device" 60 test -s dev; then
	D=$(cat dev)
	# (this test is the other program: the child holds the loop-device lock)
	losetup -d "$D" && losetup "$D" "$TMP/f2" && record_loop "$D"
	touch go
	wait "$pid"
	if [ "$(loop_backing "$D")" = "$TMP/f2" ]; then
		pass "isolation: a loop device taken over by another program is left to it"
	else
		fail "isolation: a loop device taken over by another program is left to it" "$D is over '$(loop_backing "$D")'"
	fi
	if grep -q "^FAIL child: its own work: it failed \[environment: its loop device $D (over $(cat dir)/f1) was detached\]$" child3.out &&
		grep -q "^FAIL child: environment: its loop device $D (over $(cat dir)/f1) was detached by another program" child3.out; then
		pass "isolation: a vanished loop device is named as an environmental failure"
	else
		fail "isolation: a vanished loop device is named as an environmental failure" "$(tr '\n' '|' < child3.out)"
	fi
else
	touch go
	wait "$pid"
	fail "isolation: a loop device taken over by another program is left to it" "the child attached none: $(cat child3.out)"
	fail "isolation: a vanished loop device is named as an environmental failure" "the child attached none"
fi

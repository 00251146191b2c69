#!/usr/bin/env bash
# tests/modes.sh — a mode is one row and one file: each row of the mode
# table is `const struct mode mode_NAME` in run/NAME.c, listed once in
# modes.h's MODES(); its option exists exactly once, made from the row (no
# entry of options.c names it), in --help -v where the row says and in
# --help; MODE --help shows it; and no other file names the row.
. tests/lib.sh

# the rows: "FILE SYMBOL NAME HELP_AFTER", from each definition in run/
rows=$(for f in run/*.c; do
	awk -v f="$f" '
		/^const struct mode mode_[a-z_]+ = \{/ { sym = $4; inrow = 1; after = "-" }
		inrow && match($0, /\.name = "[^"]*"/) {
			name = substr($0, RSTART + 9, RLENGTH - 10)
		}
		inrow && match($0, /\.help_after = "[^"]*"/) {
			after = substr($0, RSTART + 15, RLENGTH - 16)
		}
		inrow && /^};/ { print f, sym, name, after; inrow = 0 }' "$f"
done)
listed=$(sed -n 's/^#define MODES(X) //p' modes.h | grep -oE 'X\([a-z_]+\)' |
	sed 's/^X(\(.*\))$/mode_\1/')
if [ -z "$rows" ] || [ -z "$listed" ]; then
	fail "modes: the rows and their list are found" "rows '$rows', list '$listed'"
fi

bad=""
while read -r file sym name after; do
	[ "$file" = "run/${sym#mode_}.c" ] || bad="$bad $sym is in $file, not run/${sym#mode_}.c;"
	[ "$(echo "$listed" | grep -cx "$sym")" = 1 ] ||
		bad="$bad $sym is not listed once in modes.h;"
	# nothing else names the row (modes.h's list makes the name)
	others=$(grep -rlw --include='*.c' --include='*.h' "$sym" . | grep -v "^\./$file$" |
		grep -v '^\./tests/')
	[ -z "$others" ] || bad="$bad $sym is named in $others;"
done <<< "$rows"
for sym in $listed; do
	echo "$rows" | grep -q " $sym " ||
		bad="$bad modes.h lists $sym, which no file in run/ defines;"
done
if [ -z "$bad" ]; then
	pass "modes: each row is mode_NAME in run/NAME.c, once in modes.h, named nowhere else"
else
	fail "modes: each row in its file, listed once" "$bad"
fi

# each mode's option: once in --help -v (where its row says), in --help, in
# MODE --help, and not an entry of options.c's table (the row makes it)
helpv=$("$FB" --help -v) short=$("$FB" --help)
opts=$(echo "$helpv" | sed -nE 's/^ {2}(-[A-Za-z], | {4})--([a-z0-9-]+).*/\2/p')
bad=""
while read -r file sym name after; do
	[ "$name" = test ] && continue # the test kinds' row: each kind has its own option
	[ "$(echo "$opts" | grep -cx -- "$name")" = 1 ] ||
		bad="$bad --$name is not in --help -v once;"
	echo "$short" | grep -qE -- "^  (-[A-Za-z], |    )--$name([= []|$)" ||
		bad="$bad --$name is not in --help;"
	"$FB" "--$name" --help 2>&1 | head -1 | grep -q -- "^Usage: flashbench --$name" ||
		bad="$bad --$name --help does not show its usage;"
	! grep -qE "\.name = \"$name\"" options.c || bad="$bad options.c has an entry named $name;"
	if [ "$after" != - ]; then
		prev=$(echo "$opts" | grep -x -B1 -- "$name" | head -1)
		[ "$prev" = "$after" ] ||
			bad="$bad --$name follows --$prev in --help -v, its row says --$after;"
	fi
done <<< "$rows"
if [ -z "$bad" ]; then
	pass "modes: each mode's option is its row's: once in --help -v, --help, MODE --help"
else
	fail "modes: each mode's option made from its row" "$bad"
fi

# no "which mode" question is written outside the rows: no mode looked up
# by name, no per-mode option bits
bad=$(grep -rnE --include='*.c' --include='*.h' \
	'mode_named|FOR_(AUTO|CAPACITY|PROGRAM|RESTORE|ANALYZE|COMPARE|ALL|TESTS|SAVED)\b' . |
	grep -v '^\./tests/' | grep -v '^\./saved/compare\.c:')
if [ -z "$bad" ]; then
	pass "modes: no mode is looked up by name and no option lists modes"
else
	fail "modes: no mode looked up by name" "$bad"
fi

# tests/docs.sh — the documentation stays true: every option of --help has
# its entry in the man page, the man pages render without warnings, every
# document a comment or page cites exists (and the section it names), the
# examples of the README and doc/ are what the tool prints, the figures
# the docs quote name the sims they come from, HACKING.md names every
# source file, make install puts binaries, man pages and the guides where
# PREFIX and DESTDIR say, and the scripts are shellcheck-clean.
. tests/lib.sh

opts=$("$FB" --help -v | grep -oE -- '--[a-z][a-z-]+' | sort -u)
# the option list that was the README's is the man page's: each option is
# named, and has an entry of its own (a .TP heading line naming it)
entries=$(awk '/^\.TP/ { getline; print }' flashbench.1 | sed 's/\\-/-/g')
missing_man="" missing_entry=""
for o in $opts; do
	grep -qF -- "$(echo "$o" | sed 's/-/\\-/g')" flashbench.1 || missing_man="$missing_man $o"
	grep -qE -- "(^|[^a-z-])$o([^a-z-]|$)" <<< "$entries" || missing_entry="$missing_entry $o"
done
[ -z "$missing_man" ] && pass "man page covers every option of --help" ||
	fail "man page covers every option of --help" "missing:$missing_man"
[ -z "$missing_entry" ] && pass "man page: every option of --help has an entry of its own" ||
	fail "man page: every option of --help has an entry of its own" "missing:$missing_entry"

if command -v groff > /dev/null; then
	for m in flashbench.1 erase.1; do
		if LC_ALL=C.UTF-8 groff -ww -man -Tutf8 "$m" > "$TMP/man.txt" 2> "$TMP/groff.err" && [ ! -s "$TMP/groff.err" ] &&
			[ "$(wc -l < "$TMP/man.txt")" -gt 20 ]; then
			pass "man page $m renders without warnings"
		else
			fail "man page $m renders without warnings" "$(head -3 "$TMP/groff.err")"
		fi
	done
else
	skip "man page flashbench.1 renders without warnings" "groff is not installed"
	skip "man page erase.1 renders without warnings" "groff is not installed"
fi

if make -s install PREFIX=/usr DESTDIR="$TMP/root" > "$TMP/inst" 2>&1 &&
	[ -x "$TMP/root/usr/bin/flashbench" ] && [ -x "$TMP/root/usr/bin/flashbench-erase" ] &&
	[ -f "$TMP/root/usr/share/man/man1/flashbench.1" ] && [ -f "$TMP/root/usr/share/man/man1/flashbench-erase.1" ]; then
	pass "make install honours PREFIX and DESTDIR"
else
	fail "make install honours PREFIX and DESTDIR" "$(tail -3 "$TMP/inst")"
fi
grep -qx 'lib=/usr/share/flashbench/lib.sh' "$TMP/root/usr/bin/flashbench-report" &&
	grep -qx 'lib=/usr/share/flashbench/lib.sh' "$TMP/root/usr/bin/flashbench-open-au-sweep" &&
	cmp -s scripts/lib.sh "$TMP/root/usr/share/flashbench/lib.sh" &&
	pass "make install: the scripts find their library in /usr/share/flashbench" ||
	fail "make install: the scripts find their library in /usr/share/flashbench" \
		"$(grep -h '^lib=' "$TMP/root/usr/bin/flashbench-"* | tr '\n' ' ')"
missing=$(named_paths "$TMP/root")
[ -z "$missing" ] && pass "make install: every path the commands and manual pages name is installed" ||
	fail "make install: every path the commands and manual pages name is installed" "$(echo "$missing" | tr '\n' ' ')"
zcat "$TMP/root/usr/share/doc/flashbench/README.gz" 2> /dev/null | cmp -s - README &&
	pass "make install: the README in share/doc/flashbench" || fail "make install: the README in share/doc/flashbench" "missing or different"
bad=""
for d in doc/*.md; do
	zcat "$TMP/root/usr/share/doc/flashbench/${d#doc/}.gz" 2> /dev/null | cmp -s - "$d" || bad="$bad ${d#doc/}.gz"
done
[ -e "$TMP/root/usr/share/doc/flashbench/HACKING.md.gz" ] && bad="$bad HACKING.md.gz (it is the source tree's)"
[ -z "$bad" ] && pass "make install: the guides of doc/ in share/doc/flashbench, HACKING.md not" ||
	fail "make install: the guides of doc/ in share/doc/flashbench, HACKING.md not" "missing, different or extra:$bad"
# installed under a PREFIX (no DESTDIR), the scripts run and say their names
if make -s install PREFIX="$TMP/prefix" > "$TMP/inst" 2>&1 &&
	"$TMP/prefix/bin/flashbench-report" --help 2>&1 | grep -q '^Usage: flashbench-report ' &&
	"$TMP/prefix/bin/flashbench-open-au-sweep" --help 2>&1 | grep -q '^Usage: flashbench-open-au-sweep ' &&
	[ "$("$TMP/prefix/bin/flashbench-report" --version)" = "flashbench-report (flashbench) $("$FB" --version | sed 's/^flashbench //')" ] &&
	grep -q "$TMP/prefix/share/flashbench/programs/" "$TMP/prefix/share/man/man1/flashbench.1" &&
	grep -q "$TMP/prefix/share/doc/flashbench/README.gz" "$TMP/prefix/share/man/man1/flashbench.1"; then
	pass "installed under a PREFIX: the scripts run, name themselves and their version; the man page names PREFIX's paths"
else
	fail "installed under a PREFIX: the scripts run, name themselves and their version; the man page names PREFIX's paths" \
		"$(tail -3 "$TMP/inst") $("$TMP/prefix/bin/flashbench-report" --help 2>&1 | head -2)"
fi

if command -v shellcheck > /dev/null; then
	if shellcheck -s bash scripts/*.sh > "$TMP/sc" 2>&1; then
		pass "scripts are shellcheck-clean"
	else
		fail "scripts are shellcheck-clean" "$(head -5 "$TMP/sc" | tr '\n' ' ')"
	fi
else
	skip "scripts are shellcheck-clean" "shellcheck is not installed"
fi

# the man page's simulated-device keys are the ones the tool takes (its
# own refusal lists them)
keys=$("$FB" -a sim:sd-4m,nosuchkey=1 2>&1 | sed -n 's/.*(keys: \(.*\))$/\1/p')
man_keys=$(sed -n '/^\.SH SIMULATED DEVICES/,/^\.SH /p' flashbench.1 | sed -n '/^Keys/,/the list/p' | tr -c 'a-z\n' ' ')
keys=$("$FB" -a sim:sd-4m,nosuchkey=1 2>&1 | sed -n 's/.*(keys: \(.*\))$/\1/p')
missing=""
for k in $keys; do
	case " $(echo $man_keys) " in *" $k "*) ;; *) missing="$missing $k" ;; esac
done
[ -n "$keys" ] && [ -z "$missing" ] && pass "man page: SIMULATED DEVICES lists every key the tool takes" ||
	fail "man page: SIMULATED DEVICES lists every key the tool takes" "missing:$missing (keys: $keys)"
# a tab in an example renders as \t, not as nothing
if command -v groff > /dev/null; then
	LC_ALL=C.UTF-8 groff -man -Tutf8 flashbench.1 2> /dev/null | col -b 2> /dev/null | grep -qF '("4MiB\t29.6M/s"' &&
		pass "man page: -R's example shows its tab as \\t" || fail "man page: -R's example shows its tab as \\t" "rendered without it"
else
	skip "man page: -R's example shows its tab as \\t" "groff is not installed"
fi

# the README and doc/ are installed (/usr/share/doc/flashbench/): the
# source-tree paths they and HACKING.md name exist in the tree, and the
# README says that they are the source tree's, not the installation's
missing=""
for p in $(grep -ohE '(^|[ `(])((tests|bench|scripts|debian|lib|dev|prog|guard|auto|saved|report|run|doc)/[A-Za-z0-9_./-]*[A-Za-z0-9_])' \
	README HACKING.md doc/*.md | sed 's/^[ `(]//' | sort -u); do
	case $p in *NAME* | *PART* | *MODE*) continue ;; esac
	[ -e "$p" ] || compgen -G "$p*" > /dev/null || missing="$missing $p"
done
if [ -z "$missing" ] && grep -q '^A path without a leading `/` in this README' README; then
	pass "README, HACKING.md, doc/: the source-tree paths they name exist, and the README says they are the source tree's"
else
	fail "README, HACKING.md, doc/: the source-tree paths they name exist, and the README says they are the source tree's" "missing:$missing"
fi

# --capacity's cost figures (doc/capacity.md, "What it costs") name the sim
# each was measured on, so that they can be reproduced: the rates and sizes,
# and for each fake the keys, which make the card the figure speaks of (its
# verdict's kind)
para=$(awk '/^## What it costs$/ { on = 1; next } on && NF { text = 1 } on && text && !NF { exit } on && text' doc/capacity.md |
	tr '\n' ' ')
bad=""
for base in size=2G,wrate=10M,rrate=20M size=64G,wrate=10M,rrate=20M; do
	grep -qF "\`$base\`" <<< "$para" || bad="$bad no $base;"
done
n=0
while read -r part keys; do
	base=size=2G,wrate=10M,rrate=20M
	[ "$part" = 2 ] && base=size=64G,wrate=10M,rrate=20M
	want=${keys#*fake=}
	want=${want%%,*}
	got=$("$FB" -C --summary "sim:$base,$keys" 2> /dev/null | awk -F ' \\| ' '{ split($3, v, " "); print v[2] }')
	[ "$got" = "$want" ] || bad="$bad sim:$base,$keys gave '$got', not $want;"
	n=$((n + 1))
done < <(sed 's/ On 64 GiB / \n2 /' <<< "1 $para" | while read -r part rest; do
	# shellcheck disable=SC2016 # the page's backquotes, not expansions
	grep -oE '`(real|fake)=[^`]*`' <<< "$rest" | tr -d '`' | sed "s/^/$part /"
done)
if [ -z "$bad" ] && [ "$n" -ge 8 ]; then
	pass "doc/capacity.md: each --capacity cost figure names its sim spec, and the spec makes that card"
else
	fail "doc/capacity.md: each --capacity cost figure names its sim spec, and the spec makes that card" "$n specs;$bad"
fi

# the README is a README: at most 300 lines (the reference is the man
# pages, the guides are doc/, the developer's notes HACKING.md)
n=$(wc -l < README)
[ "$n" -le 300 ] && pass "README: at most 300 lines ($n)" || fail "README: at most 300 lines" "$n lines"

# Citations.  headings FILE: the section names of a document (a man page's
# .SH lines, a Markdown page's # lines, the README's underlined titles).
headings() {
	case $1 in
	*.1) sed -n 's/^\.SH //p' "$1" | tr -d '"' | sed 's/\\-/-/g' ;;
	*.md) sed -n 's/^#\{1,6\} \(.*\)/\1/p' "$1" ;;
	*) awk 'NR > 1 && /^(-+|=+)$/ && prev != "" { print prev } { prev = $0 }' "$1" ;;
	esac
}
# joined FILE: its text as one line per paragraph-ish run, comment markers
# at the start of lines dropped, so that a citation wrapped over two lines
# is read whole
joined() {
	sed -E 's/^[[:space:]]*(\*|#|\/\/|\.[A-Z]{1,2} )?[[:space:]]*//' "$1" | tr '\n' ' ' |
		sed 's/\\-/-/g; s/\\(aq/'"'"'/g; s/\\"/"/g'
}
# bad_citations FILE...: each citation of a document that does not hold:
#   doc/NAME.md, HACKING.md, README      the file exists
#   FILE, "Section"  or  FILE "Section"  or  FILE ("Section")   and has that section
#   the manual page, "SECTION"  or  man flashbench, "SECTION"   flashbench.1 has it
#   doc/NAME.md, rule N                  that page has a numbered item N
#   see "Section", "Section" above/below in a document: a section of its own
bad_citations() {
	local f text c doc sec
	for f in "$@"; do
		text=$(joined "$f")
		while IFS= read -r c; do
			[ -n "$c" ] || continue
			c=$(sed -E 's/^[^A-Za-z]+//' <<< "$c")
			doc=$(sed -E 's/^[^A-Za-z]*((doc\/[a-z0-9_-]+\.md)|HACKING\.md|README).*/\1/' <<< "$c")
			if [ ! -f "$doc" ]; then
				echo "$f: cites $doc, which does not exist"
				continue
			fi
			case $c in
			*\"*)
				sec=$(sed -E 's/^[^"]*"([^"]*)".*/\1/' <<< "$c")
				headings "$doc" | grep -qxF -- "$sec" || echo "$f: cites $doc, \"$sec\": no such section"
				;;
			*", rule "*)
				sec=${c##*rule }
				grep -qE "^$sec\. " "$doc" || echo "$f: cites $doc, rule $sec: no such rule"
				;;
			esac
		done < <(grep -oE '(^|[^A-Za-z0-9_./-])(doc/[a-z0-9_-]+\.md|HACKING\.md|README)((,? \(?"[^"]+")|(, rule [0-9]+))?' <<< "$text" |
			grep -vE '^.?README$')
		while IFS= read -r sec; do
			[ -n "$sec" ] && ! headings flashbench.1 | grep -qxF -- "$sec" &&
				echo "$f: cites the manual page, \"$sec\": no such section"
		done < <(grep -oE '(manual page|man flashbench`?),? \(?"[A-Z][A-Z -]*"' <<< "$text" | sed -E 's/.*"([^"]*)"/\1/')
		case $f in
		*.md | */README | README)
			while IFS= read -r sec; do
				[ -n "$sec" ] && ! headings "$f" | grep -qxF -- "$sec" && echo "$f: cites its own \"$sec\": no such section"
			done < <(grep -oE '(see "[^"]+")|("[^"]+" (above|below))' <<< "$text" | sed -E 's/^(see )?"([^"]*)".*/\2/')
			;;
		esac
	done
}
# the citing files: sources, scripts, man pages, documents, build and
# package files (not the real tables and inputs, which quote others' files,
# nor this file, whose patterns would cite themselves)
cited=$(find . \( -path ./.git -o -path ./build -o -path ./tests/real -o -path ./tests/shapes -o -path ./tests/fuzz/corpus \
	-o -path ./tests/golden -o -path ./tests/cases -o -path ./tests/tmp \) -prune -o -type f \
	\( -name '*.[ch]' -o -name '*.sh' -o -name '*.md' -o -name '*.1' -o -name '*.fbp' -o -name '*.py' -o -name README \
	-o -name Makefile -o -name rules -o -name README.Debian -o -name copyright -o -path './.ci/*' -o -path './bench/*' \) \
	! -name '*.o' ! -path ./tests/docs.sh ! -path ./prog/programs_fbp.c -print | sort |
	xargs grep -lE 'doc/|HACKING|README|manual page|man flashbench|see "|" (above|below)')
bad=$(bad_citations $cited)
[ -n "$cited" ] && [ -z "$bad" ] && pass "every document a comment or page cites exists, and the section it names" ||
	fail "every document a comment or page cites exists, and the section it names" "$(echo "$bad" | head -5 | tr '\n' '|')"
# ... and the check sees a bad one
cat > "$TMP/planted.c" << 'PLANTED'
/* see doc/no-such-page.md; HACKING.md, "No such section"; README "Nowhere";
 * the manual page, "NO SUCH SECTION"; doc/safety.md, rule 99 */
PLANTED
n=$(bad_citations "$TMP/planted.c" | wc -l)
[ "$n" = 5 ] && pass "citations: a planted file's five bad citations are each found" ||
	fail "citations: a planted file's five bad citations are each found" "$n found: $(bad_citations "$TMP/planted.c" | tr '\n' '|')"

# The examples are what the tool prints.  In the README and doc/, an
# example is a `    $ ./flashbench ...` line in a code block and the lines
# shown below it: each shown line is a line of the command's output
# (standard output and error; blank lines aside), in order, and lines shown
# one after the other follow one another there unless a "..." line stands
# between them.  Wall times ("took 4.1ms") and the names of simulated
# cards' journals are masked.  `$ cat FILE` before it shows a file the
# example uses: it is written from the page.  Checked are the commands that
# need no real device (sim: cards, files the page makes, tests/real/), and
# those on card.img, a 96 MiB file made for them; not checked: --restore
# and a run refused for an unfinished journal, which need a run killed
# first (tests/preserve.sh kills and restores).
examples() { # examples FILE: "CMD<TAB>command" and "OUT<TAB>line" records
	awk '/^    \$ / { print "CMD\t" substr($0, 7); inblk = 1; next }
		inblk && /^    / { print "OUT\t" substr($0, 5); next }
		inblk && /^$/ { next }
		{ inblk = 0 }' "$1"
}
mask() { sed -E 's/took [0-9.]+(ns|µs|ms|s)/took T/g; s#[^ ]*flashbench-[a-z0-9-]+\.[0-9]+(-[0-9]+)?\.journal#SIMJOURNAL#g'; }
# shown_in OUT SHOWN: every line of SHOWN in OUT, in order, adjacent unless
# a "..." line stands between them; prints the first that is not
shown_in() {
	awk 'NR == FNR { if (NF) out[++n] = $0; next }
		$0 == "..." { gap = 1; next }
		!NF { next }
		{ for (i = at + 1; i <= n; i++) { if (out[i] == $0) break; if (!gap && at > 0) { i = n + 1; break } }
		  if (i > n) { print "not shown by the tool" (gap || !at ? "" : " right after the line before") ": " $0; exit }
		  at = i; gap = 0 }' <(mask < "$1") <(mask < "$2")
}
# run_example DIR CMD: run CMD (an example's command) in DIR, compare its
# output with DIR/shown; prints what is wrong
run_example() {
	local w=$1 cmd=$2 rc
	case $cmd in "cat "*) [ -e "$w/${cmd#cat }" ] || cp "$w/shown" "$w/${cmd#cat }" ;; esac
	grep -q 'unfinished run' "$w/shown" && return # refused for a journal a killed run left: not made here
	(cd "$w" && FB=$FB bash -c "${cmd//.\/flashbench/\"\$FB\"}") > "$w/out" 2>&1
	rc=$?
	[ $rc = 0 ] || echo "status $rc: $(head -c 200 "$w/out")"
	shown_in "$w/out" "$w/shown"
}
bad="" n=0
for page in README doc/*.md; do
	w=$TMP/examples/${page//\//_}
	mkdir -p "$w" && ln -sfn "$PWD/tests" "$w/tests"
	cmd=""
	while IFS=$'\t' read -r kind line; do
		if [ "$kind" = OUT ]; then
			[ -n "$cmd" ] && printf '%s\n' "$line" >> "$w/shown"
			continue
		fi
		if [ -n "$cmd" ]; then
			why=$(run_example "$w" "$cmd")
			[ -z "$why" ] || bad="$bad $page: \$ $cmd: $(echo "$why" | tr '\n' ' ');"
			n=$((n + 1))
		fi
		cmd="" && : > "$w/shown"
		case $line in
		./flashbench*--restore*) ;;
		"cat "* | ./flashbench*sim:* | ./flashbench*--analyze* | ./flashbench*--compare* | ./flashbench*--program*)
			cmd=$line ;;
		./flashbench*card.img*)
			[ -e "$w/card.img" ] || truncate -s 96M "$w/card.img"
			cmd=$line ;;
		esac
	done < <(examples "$page"; printf 'CMD\t\n')
done
[ "$n" -ge 15 ] && [ -z "$bad" ] && pass "the examples of the README and doc/ are what the tool prints ($n commands)" ||
	fail "the examples of the README and doc/ are what the tool prints" "$n commands;$(echo "$bad" | cut -c1-600)"

# HACKING.md's "Layout" names every source file of the tree (a .c, or a .h
# that has no .c) in its part, and every file it names is there.  Its list
# of files: a line "    PART/" opens a part, and a file is the first name
# on a line ("      name.c  what it does") or a name followed by a colon
# ("(other.h: what it holds)"), in the part open, or at the top when the
# line starts at four spaces.
named=$(awk '/^The files, part by part/ { on = 1; next }
	on && /^    / { code = 1 }
	on && !code { next }
	on && /^    [a-z]+\/( |$)/ { part = $1; next }
	on && /^    [A-Za-z0-9_.]+\.[ch]( |,|$)/ { part = "" }
	on && /^    / { if ($1 ~ /^[a-z0-9_]+\.[ch],?$/) { sub(/,$/, "", $1); print part $1 }
		t = $0; while (match(t, /[a-z0-9_]+\.[ch]:/)) { print part substr(t, RSTART, RLENGTH - 1); t = substr(t, RSTART + RLENGTH) }
		next }
	on && NF && !/^    / { exit }' HACKING.md | sort -u)
missing="" extra=""
for f in $(find . \( -path ./.git -o -path ./build -o -path ./tests -o -path ./bench \) -prune -o \
	-type f \( -name '*.c' -o -name '*.h' \) ! -path ./prog/programs_fbp.c -print | sed 's#^\./##' | sort); do
	case $f in *.h) [ -e "${f%.h}.c" ] && continue ;; esac
	grep -qxF -- "$f" <<< "$named" || missing="$missing $f"
done
for f in $named; do
	[ -e "$f" ] || extra="$extra $f"
done
[ -n "$named" ] && [ -z "$missing" ] && [ -z "$extra" ] &&
	pass "HACKING.md: Layout names every source file in its part, and only files that exist" ||
	fail "HACKING.md: Layout names every source file in its part, and only files that exist" \
		"not named:$missing; no such file:$extra"

# the man page's PROGRAM FILES names every opcode of doc/program.md's list
# (which a unit test holds to vm.h's table)
ops=$(awk '/^`VM_OPCODES`/ { on = 1; next } on && /^    [a-z]/ { print $1; next } on && /^$/ && seen++ { exit }' doc/program.md)
man_ops=$(sed -n '/^\.SH PROGRAM FILES/,/^\.SH /p' flashbench.1 | sed 's/\\-/-/g')
missing=""
for o in $ops; do
	grep -qE "(^|[^a-z-])$o([^a-z-]|$)" <<< "$man_ops" || missing="$missing $o"
done
[ "$(wc -w <<< "$ops")" -ge 19 ] && [ -z "$missing" ] && pass "man page: PROGRAM FILES names every opcode ($(wc -w <<< "$ops"))" ||
	fail "man page: PROGRAM FILES names every opcode" "missing:$missing (doc/program.md lists: $(echo $ops))"

# doc/simulator.md gives each key the tool takes, in its tables (a key at
# the start of a line of a code block, or after another key's default)
keys=$("$FB" -a sim:sd-4m,nosuchkey=1 2>&1 | sed -n 's/.*(keys: \(.*\))$/\1/p')
missing=""
for k in $keys; do
	grep -qE "^    (|.*(\] | {2,}))$k( \[| {2,}|$)" doc/simulator.md || missing="$missing $k"
done
[ -n "$keys" ] && [ -z "$missing" ] && pass "doc/simulator.md gives every key the tool takes" ||
	fail "doc/simulator.md gives every key the tool takes" "missing:$missing (keys: $keys)"

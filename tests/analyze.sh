# tests/analyze.sh — flashbench --analyze on the real tables in tests/real/
# (each with its source and the conclusion stated there), on mangled copies
# of them (quoted, tabs as spaces, µ lost, wrapped, records run together,
# CRLF), and on our own output.  Prints the score against the experts;
# ANALYZE_CALIB_LOG=FILE appends each determined finding with its
# confidence and outcome (bench/confidence).
. tests/lib.sh
JP=${FB%/flashbench}/tests/jsonpath
# the text report wraps at 76 columns (doc/style.md): the phrases below are
# looked for in it with its wrapped lines joined again (unwrap)
FB_REAL=$FB FB=$TMP/fb-unwrapped
export -f unwrap
cat > "$FB" <<WRAPPER
#!/usr/bin/env bash
case " \$* " in
*" --json "* | *" --plot"* | *" -o "*) exec "$FB_REAL" "\$@" ;;
*" --analyze "*) "$FB_REAL" "\$@" | unwrap; exit "\${PIPESTATUS[0]}" ;;
*) exec "$FB_REAL" "\$@" ;;
esac
WRAPPER
chmod +x "$FB"
KEYS="page erase_block open_linear open_random fat_area"

# verdict FILE: the values, confidences and bounds of the findings that
# matter, the report's own and each card's (tables of one column per card)
verdict() {
	local args=() k c n
	for k in $KEYS; do args+=("findings.$k.value" "findings.$k.confidence" "findings.$k.at_least"); done
	n=$("$FB" --analyze --json "$1" 2> "$TMP/err" | "$JP" "cards#" 2>> "$TMP/err")
	for ((c = 0; c < ${n:-0}; c++)); do
		for k in open_linear open_random; do
			args+=("cards.$c.findings.$k.value" "cards.$c.findings.$k.confidence" "cards.$c.findings.$k.at_most")
		done
	done
	"$FB" --analyze --json "$1" 2>> "$TMP/err" | "$JP" "${args[@]}" 2>> "$TMP/err" | paste -sd' ' -
}

# finding FILE KEY: value, confidence, at_least, at_most of one finding
# (KEY: page, or cards.N.open_random for a card's)
finding() {
	local path=findings.$2
	case $2 in cards.*) path=${2%.*}.findings.${2##*.} ;; esac
	"$FB" --analyze --json "$1" 2> /dev/null |
		"$JP" "$path.value" "$path.confidence" "$path.at_least" "$path.at_most" 2> /dev/null | paste -sd' ' -
}

right=0 medium=0 nd=0 wrong=0 tables=0
for f in tests/real/*.txt; do
	name=$(basename "$f" .txt)
	tables=$((tables + 1))
	clean=$(verdict "$f")
	if [ -z "$clean" ]; then
		fail "analyze $name" "no verdict: $(head -c 300 "$TMP/err")"
		continue
	fi
	rows=$("$FB" --analyze --json "$f" | "$JP" source.align_rows source.open_au_rows | paste -sd+ - | bc)
	[ "${rows:-0}" -gt 0 ] && pass "analyze $name reads its rows ($rows)" || fail "analyze $name reads its rows" "none"

	# the experts' conclusions
	while read -r _ _ key value rest; do
		key=${key%:}
		read -r got conf lo hi <<< "$(finding "$f" "$key")"
		bound=
		case " $rest " in *" at-least "*) bound=lo ;; *" at-most "*) bound=hi ;; esac
		# a bound stated is part of the value: "at least 5" is not "fewer than 5"
		if [ "$got" != null ]; then
			if [ "$bound" = lo ] && [ "$lo" != true ]; then got="$got(no bound)"; fi
			if [ "$bound" = hi ] && [ "$hi" != true ]; then got="$got(no bound)"; fi
			if [ -z "$bound" ] && [ "$hi" = true -o "$lo" = true ]; then got="$got(a bound)"; fi
		fi
		case $value in
		none) want=null kind=clear ;;
		disputed) want=$rest kind=disputed ;;
		hedged) want=$rest kind=hedged ;;
		*) want=$value kind=${rest%% *}; kind=${kind:-clear} ;;
		esac
		if [ "$got" = null ]; then
			outcome=nd
			[ "$want" = null ] && outcome=right
		elif [ "$kind" = disputed ]; then
			case " $want " in *" $got "*) outcome=medium ;; *) outcome=wrong ;; esac
		elif [ "$got" = "$want" ]; then
			[ "$conf" = high ] && outcome=right || outcome=medium
		else
			outcome=wrong
		fi
		case $outcome in right) right=$((right + 1)) ;; medium) medium=$((medium + 1)) ;;
		nd) nd=$((nd + 1)) ;; wrong) wrong=$((wrong + 1)) ;; esac
		# the calibration (bench/confidence): each determined finding with its confidence
		[ -z "${ANALYZE_CALIB_LOG:-}" ] || [ "${got%%(*}" = null ] ||
			printf 'real\t%s\t%s\t%s\treal\t%s\n' "${key##*.}" "$conf" \
				"$([ $outcome = wrong ] && echo wrong || echo right)" "$name" >> "$ANALYZE_CALIB_LOG"
		t="analyze $name: $key ($kind ${want}) -> $got $conf"
		if [ "$kind" = clear ] && [ "$outcome" = nd ] && [ "${rest#clear known-miss}" != "$rest" ]; then
			# a clear conclusion this analysis does not reach (the file says
			# why): asserted as exactly that, so that a wrong answer, or a
			# right one (then drop the marker), shows
			pass "$t: a known miss, not determined (tests/real/$name.txt says why), never a contradiction"
		elif [ "$kind" = clear ] && [ "$outcome" = nd -o "$outcome" = wrong ]; then
			fail "$t" "a clear conclusion must be matched"
		elif [ "$outcome" = wrong ] && [ "$conf" = high -o "$conf" = medium ]; then
			fail "$t" "contradicts the stated conclusion at $conf confidence"
		elif [ "$kind" = disputed ] && [ "$conf" = high ]; then
			fail "$t" "the poster and the card disagree: high is too sure"
		else
			pass "$t ($outcome)"
		fi
	done < <(grep '^# expect ' "$f")

	# mangled copies read the same
	sed 's/^/> /' "$f" > "$TMP/quoted"
	tr '\t' ' ' < "$f" > "$TMP/spaces"
	sed 's/µ/u/g' "$f" > "$TMP/micro-u"
	sed 's/µ/Âµ/g' "$f" > "$TMP/micro-mangled"
	fold -s -w 48 "$f" > "$TMP/wrapped"
	awk '/^(> )*align /{ if (held != "") { print held " " $0; held = "" } else held = $0; next }
		{ if (held != "") print held; held = ""; print } END { if (held != "") print held }' "$f" > "$TMP/joined"
	sed 's/$/\r/' "$f" > "$TMP/crlf"
	sed 's/^/> /' "$TMP/wrapped" | sed 's/µ/u/g' > "$TMP/all"
	for m in quoted spaces micro-u micro-mangled wrapped joined crlf all; do
		got=$(verdict "$TMP/$m")
		[ "$got" = "$clean" ] && pass "analyze $name $m copy" ||
			fail "analyze $name $m copy" "'$got', clean: '$clean'"
	done
done
echo "score against the experts: right $right, medium $medium, not determined $nd, wrong $wrong ($tables tables)"

# real threads that hold no flashbench table (tests/real/prose/: the seed
# threads of dd and dbench figures and prose): no table is read from them,
# as they are or mangled, and the refusal is the one line bad input gets
for f in tests/real/prose/*.txt; do
	name=$(basename "$f" .txt)
	sed 's/^/> /' "$f" > "$TMP/quoted"
	fold -s -w 48 "$f" > "$TMP/wrapped"
	tr '\t' ' ' < "$f" > "$TMP/spaces"
	for m in "$f" "$TMP/quoted" "$TMP/wrapped" "$TMP/spaces"; do
		"$FB" --analyze "$m" > "$TMP/out" 2> "$TMP/err"
		st=$?
		if [ $st = 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l < "$TMP/err")" = 1 ] &&
			grep -q ': no flashbench -a, -O or --find-fat table found (' "$TMP/err"; then
			pass "analyze $name ($(basename "$m")): no table read from prose, dd or dbench figures"
		else
			fail "analyze $name ($(basename "$m")): no table read" "status $st; $(head -c 200 "$TMP/out" "$TMP/err")"
		fi
	done
done

# the shapes of issue 21 (tests/shapes/: our own text in the shapes public
# posts take): never more sure than the rows, rows checked against
# themselves, one card per column, a single sweep read
sh=tests/shapes
jq_() { "$FB" --analyze --json "$1" 2> "$TMP/err" | "$JP" "${@:2}" 2>> "$TMP/err" | paste -sd' ' -; }
got=$(jq_ $sh/flat-mu-lost-one-line.txt findings.erase_block.value findings.page.value source.align_rows source.align_runs.0.repaired)
[ "$got" = "null null 14 14" ] && "$FB" --analyze $sh/flat-mu-lost-one-line.txt | grep -q '14 diffs read as µs: written in seconds' &&
	"$FB" --analyze $sh/flat-mu-lost-one-line.txt | grep -q 'they overlap (8MiB costs 345µs, more than 256MiB.s 290µs), so no step is determined' &&
	pass "analyze a flat -a table with µ lost, on one line: diffs repaired, the overlap named, nothing determined" ||
	fail "analyze a flat -a table with µ lost" "$got"
"$FB" --analyze $sh/cut-last-row.txt > "$TMP/out" 2>&1
got=$(jq_ $sh/cut-last-row.txt findings.erase_block.value findings.page.value source.align_rows source.align_runs.0.dropped)
[ "$got" = "null null 14 1" ] && grep -q '^        dropped the row for align 262144 (line 17): post 1 has no unit: the row was cut off$' "$TMP/out" &&
	! grep -q 'diffs cut off computed' "$TMP/out" &&
	pass "analyze a table whose last row was cut off (post 1): the row dropped and named, no page from it" ||
	fail "analyze a table whose last row was cut off" "$got; $(sed -n 3,4p "$TMP/out")"
for f in cards-columns cards-pipe cards-html; do
	for m in clean quoted spaces crlf; do
		case $m in
		clean) cp $sh/$f.txt "$TMP/$m" ;;
		quoted) sed 's/^/> /' $sh/$f.txt > "$TMP/$m" ;;
		spaces) tr '\t' ' ' < $sh/$f.txt > "$TMP/$m" ;;
		crlf) sed 's/$/\r/' $sh/$f.txt > "$TMP/$m" ;;
		esac
		args=()
		for c in 0 1 2 3; do args+=("cards.$c.name" "cards.$c.findings.open_random.value" "cards.$c.findings.open_random.confidence"); done
		got=$("$FB" --analyze --json "$TMP/$m" 2> "$TMP/err" | "$JP" "${args[@]}" findings.fat_area.value findings.open_random.value 2>> "$TMP/err" | paste -sd'|' -)
		want='Fast reference card|5|low|Brand X 4GB microSD "A"|4|medium|Brand Y 4GB microSD "B"|4|medium|Slow card|4|medium|null|null'
		[ "$got" = "$want" ] && pass "analyze four cards in columns ($f, $m): four cards, each judged on its own" ||
			fail "analyze four cards in columns ($f, $m)" "'$got' $(head -c 200 "$TMP/err")"
	done
done
"$FB" --analyze $sh/cards-columns.txt > "$TMP/out" 2>&1
grep -q '^card "Slow card" (its column of the table at line 8)$' "$TMP/out" &&
	grep -qE '^open erase blocks, random order +fewer than 5 +medium$' "$TMP/out" &&
	grep -qE '^open erase blocks, random order +at least 5 +low$' "$TMP/out" &&
	grep -q 'FAT-optimised erase blocks at the start  not determined' "$TMP/out" &&
	pass "analyze four cards in columns: \"fewer than 5, medium\" for the collapsing ones, no find-fat reading" ||
	fail "analyze four cards in columns (text)" "$(grep -A2 '^card' "$TMP/out" | head -8)"
"$FB" --analyze $sh/single-sweep-collapse.txt > "$TMP/out" 2>&1
got=$(jq_ $sh/single-sweep-collapse.txt findings.open_random.value findings.open_random.at_most findings.open_random.confidence)
[ "$got" = "4 true medium" ] && grep -qE '^open erase blocks, random order +fewer than 5 +medium$' "$TMP/out" &&
	grep -q '14.2M/s at 4MiB falls to 470K/s at 128KiB (30x)' "$TMP/out" &&
	pass "analyze one collapsing --open-au-nr=5 --random sweep: fewer than 5, medium" ||
	fail "analyze one collapsing sweep" "$got; $(grep -A2 'random order' "$TMP/out")"
got=$(jq_ $sh/single-sweep-flat.txt findings.open_random.value findings.open_random.at_least findings.open_random.confidence)
[ "$got" = "5 true low" ] && pass "analyze one flat --open-au-nr=5 --random sweep: at least 5, low (a fast copy looks the same)" ||
	fail "analyze one flat sweep" "$got"
# a sweep between a small write's cost and garbage collection decides nothing
printf 'flashbench -O --open-au-nr=3 /dev/sdc\n4MiB\t10M/s\n1MiB\t9M/s\n64KiB\t5M/s\n16KiB\t900K/s\n' > "$TMP/mid.txt"
got=$(jq_ "$TMP/mid.txt" findings.open_linear.value)
[ "$got" = null ] && "$FB" --analyze "$TMP/mid.txt" | grep -q 'between a small write.s cost' &&
	pass "analyze one sweep between the two: not determined, with the figures" || fail "analyze one sweep between the two" "$got"
# repeated runs are the table's own noise too
"$FB" --analyze $sh/repeated-runs-disagree.txt > "$TMP/out" 2>&1
grep -q 'only 123µs apart, less than 2 x the reads. own noise (75µs), so no step is determined' "$TMP/out" &&
	pass "analyze two runs that differ by 75µs at every alignment: a 123µs step is not determined" ||
	fail "analyze two runs that differ" "$(grep -A2 '^erase' "$TMP/out")"
# JSON is what parses as JSON: a paste that starts with a bracket is text,
# a JSON result cut short still says where
printf '[quote]\n$ flashbench -a /dev/sdb --blocksize=1024\n' > "$TMP/q.txt"
sed -n '/^align/,$p' tests/real/classic-readme.txt | head -17 >> "$TMP/q.txt"
got=$(jq_ "$TMP/q.txt" findings.erase_block.value source.align_rows)
[ "$got" = "4194304 17" ] && pass "analyze text starting with a [quote] marker reads as text" || fail "analyze [quote] text" "$got $(cat "$TMP/err")"
"$FB" -a --json sim:sd-4m > "$TMP/a1.json"
head -30 "$TMP/a1.json" > "$TMP/half.json"
expect_error "analyze names the place where a cut-off JSON result ends" 2 "half.json:31:1: invalid JSON" "$FB" --analyze "$TMP/half.json"
# our own rows need no repair
"$FB" -a --blocksize=1024 sim:sd-4m | "$FB" --analyze --json - | "$JP" source.align_runs.0.repaired source.align_runs.0.dropped > "$TMP/got"
[ "$(paste -sd' ' "$TMP/got")" = "0 0" ] && pass "analyze our own -a text: no row repaired or dropped" ||
	fail "analyze our own -a text: no row repaired or dropped" "$(cat "$TMP/got")"

# our own -a output and an open-au sweep, on simulated cards
"$FB" -a --blocksize=1024 sim:sd-4m > "$TMP/a.txt" && "$FB" --analyze "$TMP/a.txt" > "$TMP/out" 2>&1 &&
	grep -qE '^erase block size +4MiB +medium' "$TMP/out" && pass "analyze our -a of sim:sd-4m: 4MiB" ||
	fail "analyze our -a of sim:sd-4m: 4MiB" "$(grep -A2 erase "$TMP/out")"
"$FB" -a --blocksize=1024 sim:usb-12m > "$TMP/a12.txt" && "$FB" -a --blocksize=4096 sim:usb-12m >> "$TMP/a12.txt" &&
	"$FB" --analyze "$TMP/a12.txt" > "$TMP/out" 2>&1 &&
	grep -qE '^erase block size +4MiB +(medium|low)' "$TMP/out" && grep -q '12MiB erase block' "$TMP/out" &&
	grep -q 'shows the same step' "$TMP/out" && pass "analyze two -a runs of sim:usb-12m: 4MiB step, 12MiB named" ||
	fail "analyze two -a runs of sim:usb-12m" "$(grep -A4 erase "$TMP/out")"
"$FB" --analyze "$TMP/a.txt" > "$TMP/out1" 2>&1
"$FB" --analyze - < "$TMP/a.txt" > "$TMP/out2" 2>&1 && [ "$(tail -n +2 "$TMP/out2")" = "$(tail -n +2 "$TMP/out1")" ] &&
	pass "analyze reads standard input" || fail "analyze reads standard input" "$(head -3 "$TMP/out2")"
"$FB" --analyze --plot="$TMP/p.svg" tests/real/classic-readme.txt > /dev/null && grep -q '<svg' "$TMP/p.svg" &&
	pass "analyze --plot draws the align chart" || fail "analyze --plot draws the align chart" "no svg"
"$FB" --analyze --json tests/real/classic-readme.txt | "$JP" test findings.erase_block.value next_steps.0 > "$TMP/j" &&
	[ "$(head -2 "$TMP/j" | paste -sd' ' -)" = "analyze 4194304" ] && pass "analyze --json" ||
	fail "analyze --json" "$(head -3 "$TMP/j")"

# our own --json results of every test, on simulated cards
# findings FILE: the headline of each finding (title, value, confidence)
findings() { grep -E '^(page size|erase block size|smallest efficient|open erase blocks|FAT-optimised)' "$1"; }
for dev in sd-4m usb-12m; do
	"$FB" -a "sim:$dev" | "$FB" --analyze - > "$TMP/text" 2>&1
	"$FB" -a --json "sim:$dev" | "$FB" --analyze - > "$TMP/json" 2>&1
	if grep -qE '^    read [0-9]+ align rows in 1 run .* from 1 --json result$' "$TMP/json" &&
		[ -n "$(findings "$TMP/json")" ] && [ "$(findings "$TMP/json")" = "$(findings "$TMP/text")" ]; then
		pass "analyze -a --json of sim:$dev: the findings of the text form"
	else
		fail "analyze -a --json of sim:$dev" "$(diff <(findings "$TMP/text") <(findings "$TMP/json") | head -5)"
	fi
done
# an open-au sweep written with a shell loop: several results in one stream
: > "$TMP/sweep.txt"
: > "$TMP/sweep.json"
for r in "" --random; do
	for n in 1 2 3; do
		echo "flashbench -O $r --open-au-nr=$n sim:sd-4m" >> "$TMP/sweep.txt"
		"$FB" -O $r --open-au-nr=$n sim:sd-4m >> "$TMP/sweep.txt" 2> /dev/null
		"$FB" -O $r --open-au-nr=$n --json sim:sd-4m >> "$TMP/sweep.json" 2> /dev/null
	done
done
"$FB" --analyze "$TMP/sweep.txt" > "$TMP/text" 2>&1
"$FB" --analyze "$TMP/sweep.json" > "$TMP/json" 2>&1
if grep -qE '^open erase blocks, linear +2 ' "$TMP/json" && grep -qE '^open erase blocks, random order +1 ' "$TMP/json" &&
	grep -q '54 open-au rows in 6 tables, from 6 --json results' "$TMP/json" &&
	[ "$(findings "$TMP/json")" = "$(findings "$TMP/text")" ]; then
	pass "analyze six open-au --json results in one stream: 2 linear, 1 random, as the text sweep"
else
	fail "analyze an open-au --json sweep" "$(findings "$TMP/json" | grep open; diff <(findings "$TMP/text") <(findings "$TMP/json") | head -4)"
fi
# find-fat: sd-4m has a 4-erase-block FAT area, usb-12m none; without an -a
# table the count is in the table's 4MiB columns (medium), and "none" could
# be an area over every column (low)
for c in "sd-4m 4 medium" "usb-12m 0 low"; do
	set -- $c
	"$FB" --find-fat "sim:$1" 2> /dev/null | "$FB" --analyze - > "$TMP/text" 2>&1
	"$FB" --find-fat --json "sim:$1" 2> /dev/null | "$FB" --analyze - > "$TMP/json" 2>&1
	if grep -qE "^FAT-optimised erase blocks at the start +$2 +$3\$" "$TMP/json" &&
		grep -q 'find-fat table at line .*: 9 rows down to 16KiB, 6 erase blocks of 4MiB' "$TMP/json" &&
		[ "$(findings "$TMP/json")" = "$(findings "$TMP/text")" ]; then
		pass "analyze find-fat of sim:$1 (text and --json): $2 FAT erase blocks, $3"
	else
		fail "analyze find-fat of sim:$1" "$(grep -A3 '^FAT' "$TMP/json"; findings "$TMP/text" | grep FAT)"
	fi
done
# a noisy card: the area still shows, but no more than medium
"$FB" --find-fat --json "sim:sd-4m,noise=0.1,seed=3" 2> /dev/null | "$FB" --analyze - > "$TMP/json" 2>&1
grep -qE '^FAT-optimised erase blocks at the start +4 +medium$' "$TMP/json" &&
	pass "analyze find-fat of a noisy card: 4, medium" || fail "analyze find-fat of a noisy card" "$(grep -A3 '^FAT' "$TMP/json")"
# tests no finding rests on are named, not analysed
printf 'len 4096\n  off 0\n    read\n' > "$TMP/tree.fbp"
for c in "--interval|--interval result at line 32: 7 rows" "--scatter|--scatter result at line 33: 512 rows" \
	"--program=$TMP/tree.fbp|--program result at line 31: 1 rows"; do
	opt=${c%%|*} want=${c#*|}
	"$FB" $opt --json sim:sd-4m | "$FB" --analyze - > "$TMP/json" 2>&1
	grep -q "^    $want, not analysed (no finding rests on it)" "$TMP/json" &&
		grep -qE '^erase block size +not determined' "$TMP/json" && pass "analyze ${opt%%=*} --json: named, not analysed" ||
		fail "analyze ${opt%%=*} --json" "$(head -4 "$TMP/json")"
done
# an --auto result: its findings as that run made them, the same code prints them
for w in "" --write; do
	how=read-only
	[ -n "$w" ] && how="with --write"
	# (the write-cache finding is not read back: --analyze shows the six it knows)
	"$FB" --auto $w sim:sd-4m 2> /dev/null | unwrap | awk '/^write cache or fast area/ { skip = 1; next }
		skip && /^    / { next } { skip = 0; print }' > "$TMP/text"
	"$FB" --auto $w --json sim:sd-4m 2> /dev/null > "$TMP/auto.json"
	"$FB" --analyze "$TMP/auto.json" > "$TMP/json" 2>&1
	if grep -q "^    an --auto result from flashbench .* of sim:sd-4m (8GiB), $how: its findings as that run made them" "$TMP/json" &&
		[ "$(sed -n '/^page size/,/^$/p' "$TMP/json" | grep -v '^    alignment')" = \
		  "$(sed -n '/^page size/,/^$/p' "$TMP/text" | grep -v '^    alignment\|^    note: the write tests')" ] &&
		[ "$(sed -n '/^recommendations/,/^$/p' "$TMP/json")" = "$(sed -n '/^recommendations/,/^$/p' "$TMP/text")" ]; then
		pass "analyze --auto ${w:+$w }--json of sim:sd-4m: the run's findings and advice, as --auto printed them"
	else
		fail "analyze --auto ${w:+$w }--json of sim:sd-4m" "$(diff <(sed -n '/^page size/,/^$/p' "$TMP/text") <(sed -n '/^page size/,/^$/p' "$TMP/json") | head -6)"
	fi
done
args=()
for k in page erase_block min_write open_linear open_random fat_area; do
	args+=("findings.$k.value" "findings.$k.confidence" "findings.$k.evidence.0")
done
"$JP" "${args[@]}" < "$TMP/auto.json" > "$TMP/want"
"$FB" --analyze --json "$TMP/auto.json" > "$TMP/an.json" && "$JP" "${args[@]}" < "$TMP/an.json" > "$TMP/got" &&
	"$FB" --analyze --json "$TMP/an.json" | "$JP" "${args[@]}" > "$TMP/got2" && cmp -s "$TMP/want" "$TMP/got" &&
	cmp -s "$TMP/want" "$TMP/got2" && pass "analyze --json of an --auto result, and of that, keep its findings" ||
	fail "analyze --json of an --auto result" "$(diff "$TMP/want" "$TMP/got" | head -4)"
# a bound ("2KiB or less", "at least 16") stays a bound when read back
"$FB" --auto --write --json sim:sd-4m,minwrite=512 2> /dev/null > "$TMP/bound.json"
"$FB" --analyze "$TMP/bound.json" > "$TMP/json" 2>&1
"$FB" --analyze --json "$TMP/bound.json" | "$JP" findings.min_write.at_most findings.min_write.value > "$TMP/got"
grep -qE '^smallest efficient write +2KiB or less +medium$' "$TMP/json" && [ "$(paste -sd' ' "$TMP/got")" = "true 2048" ] &&
	pass "analyze of an --auto result keeps \"2KiB or less\" (at_most)" ||
	fail "analyze of an --auto result keeps \"2KiB or less\"" "$(grep '^smallest' "$TMP/json"; cat "$TMP/got")"
"$FB" --analyze --plot="$TMP/p.svg" "$TMP/auto.json" > /dev/null && grep -q '<svg' "$TMP/p.svg" &&
	pass "analyze --plot of an --auto result draws its align rows" || fail "analyze --plot of an --auto result" "no svg"
sed 's/"version": "[^"]*"/"version": "0.0.1"/' "$TMP/auto.json" | "$FB" --analyze - > "$TMP/json" 2>&1
grep -q 'these findings come from flashbench 0.0.1, this is .*: run `flashbench --auto --write DEV` again' "$TMP/json" &&
	pass "analyze of an --auto result from another version says so" || fail "analyze of an older --auto result" "$(tail -3 "$TMP/json")"

# JSON that is not ours or not a test we know: one line naming the file, place and field
"$FB" -a --json sim:sd-4m > "$TMP/a.json"
echo '{"foo": 1}' > "$TMP/foreign.json"
expect_error "analyze refuses JSON that is not ours" 2 "^flashbench: $TMP/foreign.json:1:1: no field tool.name " "$FB" --analyze "$TMP/foreign.json"
echo '{"tool": {"name": "fio"}, "test": "align"}' > "$TMP/fio.json"
expect_error "analyze refuses another tool's JSON" 2 "fio.json:1:19: field tool.name is \"fio\": not a flashbench result" "$FB" --analyze "$TMP/fio.json"
sed 's/"test": "align"/"test": "frob"/' "$TMP/a.json" > "$TMP/frob.json"
expect_error "analyze refuses a test it does not know" 2 'frob.json:25:11: field test is "frob": not a test --analyze knows \(align, open-au, ' "$FB" --analyze "$TMP/frob.json"
sed '0,/"ns": 1100625/s//"ns": "fast"/' "$TMP/a.json" > "$TMP/type.json"
expect_error "analyze names a field of the wrong type" 2 'type.json:36:15: field results.0.pre.ns is a string, not a number' "$FB" --analyze "$TMP/type.json"
sed '/"diff_ns"/d' "$TMP/a.json" > "$TMP/nodiff.json"
expect_error "analyze names a missing field" 2 'nodiff.json:32:5: no field results.0.diff_ns' "$FB" --analyze "$TMP/nodiff.json"
{ cat "$TMP/a.json"; head -40 "$TMP/a.json"; } > "$TMP/cut.json"
expect_error "analyze names the line of a cut-off second result" 2 "cut.json:$(($(wc -l < "$TMP/a.json") + 41)):1: invalid JSON" "$FB" --analyze "$TMP/cut.json"
cat "$TMP/a.json" "$TMP/auto.json" > "$TMP/mixed.json"
expect_error "analyze reads an --auto result on its own" 2 "mixed.json:[0-9]+:11: an --auto result is analysed on its own" "$FB" --analyze "$TMP/mixed.json"

# bad input
printf 'hello\nno table here\n' > "$TMP/none.txt"
expect_error "analyze refuses text without a table" 2 "no flashbench -a, -O or --find-fat table found" "$FB" --analyze "$TMP/none.txt"
expect_error "analyze names a missing file" 2 "cannot read $TMP/missing" "$FB" --analyze "$TMP/missing"
expect_error "analyze takes no --write" 2 "option '--write' does not apply to --analyze" "$FB" --analyze --write tests/real/classic-readme.txt

# impossible values: refused with one line naming the file, place and field
sed '0,/"diff_ns": [0-9]*/s//"diff_ns": -1e300/' "$TMP/a.json" > "$TMP/huge.json"
expect_error "analyze refuses a diff no device took" 2 \
	'huge.json:34:18: field results.0.diff_ns is -1e300, not a time a device took \(nanoseconds, -1e13 to 1e13\)' \
	"$FB" --analyze "$TMP/huge.json"
sed '0,/"ns": [0-9]*/s//"ns": -5/' "$TMP/a.json" > "$TMP/neg.json"
expect_error "analyze refuses a negative time" 2 'neg.json:[0-9]+:[0-9]+: field results.0.pre.ns is -5, not a time a device took \(nanoseconds, 0 to 1e13\)' \
	"$FB" --analyze "$TMP/neg.json"
sed 's/"blocksize": [0-9]*/"blocksize": 0/' "$TMP/a.json" > "$TMP/bs0.json"
expect_error "analyze refuses a zero block size" 2 \
	'bs0.json:27:18: field parameters.blocksize is 0, not a size a test can use \(a positive multiple of 512 bytes\)' \
	"$FB" --analyze "$TMP/bs0.json"
sed 's/"blocksize": [0-9]*/"blocksize": 1000/' "$TMP/a.json" > "$TMP/bs1000.json"
expect_error "analyze refuses a block size that is no multiple of 512" 2 'field parameters.blocksize is 1000, not a size a test can use' \
	"$FB" --analyze "$TMP/bs1000.json"
"$FB" -O --json sim:sd-4m 2> /dev/null | sed '0,/"bytes_per_second": [0-9.e+]*/s//"bytes_per_second": 1e300/' > "$TMP/fast.json"
expect_error "analyze refuses a throughput no device reached" 2 'fast.json:[0-9]+:[0-9]+: field results.0.bytes_per_second is 1e300, not a throughput' \
	"$FB" --analyze "$TMP/fast.json"
sed '0,/"diff_ns": [0-9]*/s//"diff_ns": 1e300/' "$TMP/auto.json" > "$TMP/auto-huge.json"
expect_error "analyze refuses an --auto measurement no device took" 2 'auto-huge.json:[0-9]+:[0-9]+: field measurements.align.0.diff_ns is 1e300' \
	"$FB" --analyze "$TMP/auto-huge.json"
# ... but in a pasted table, one absurd cell drops its row (named, with its
# line), not the file
printf 'flashbench -a -b 1k /dev/sdb\n' > "$TMP/huge.txt"
"$FB" -a -b 1k sim:sd-4m | sed 's/^align 65536\tpre \([^\t]*\)\ton [^\t]*/align 65536\tpre \1\ton 1e30µs/' >> "$TMP/huge.txt"
"$FB" --analyze "$TMP/huge.txt" > "$TMP/out" 2>&1
grep -q '^        dropped the row for align 65536 (line 16): it holds a time no device took' "$TMP/out" &&
	grep -qE '^erase block size +4MiB +medium' "$TMP/out" &&
	pass "analyze drops a pasted row with a time no device took (named with its line), and reads the rest" ||
	fail "analyze a pasted row with a time no device took" "$(head -5 "$TMP/out")"

# hostile shapes: every read of a run with its µ lost is still read as µs;
# "[edit" alone is text without a table, not broken JSON
printf 'flashbench -a --blocksize=1024 /dev/sdb\n' > "$TMP/allmu.txt"
sed -n '/^align/p' tests/real/classic-readme.txt | sed 's/µs/s/g' >> "$TMP/allmu.txt"
got=$(jq_ "$TMP/allmu.txt" findings.erase_block.value findings.page.value source.align_runs.0.dropped)
[ "$got" = "4194304 16384 0" ] && pass "analyze a table whose every µ was lost: read as µs, the README's 4MiB" ||
	fail "analyze a table whose every µ was lost" "$got"
printf '[edit\n' > "$TMP/edit.txt"
expect_error "analyze a paste starting \"[edit\" without a table: no table, not invalid JSON" 2 "no flashbench -a, -O or --find-fat table found" \
	"$FB" --analyze "$TMP/edit.txt"
# prose above a table of several columns is no header of card names: without
# an -O command it stays a find-fat table (its first erase block is 3x
# slower at every chunk size: different, not FAT-optimised)
printf 'Here are the find-fat results of my card, I hope they help:\n4MiB 3M/s 9M/s 9M/s 9M/s\n2MiB 3M/s 9M/s 9M/s 9M/s\n1MiB 3M/s 9M/s 9M/s 9M/s\n512KiB 3M/s 9M/s 9M/s 9M/s\n' > "$TMP/prose.txt"
got=$(jq_ "$TMP/prose.txt" "cards#" source.find_fat_rows findings.fat_area.value)
[ "$got" = "0 4 null" ] && "$FB" --analyze "$TMP/prose.txt" | grep -q 'erase block 0 (the first 4MiB) is different' &&
	pass "analyze prose above a table of columns: a find-fat table, not cards; a slower start is different" ||
	fail "analyze prose above columns" "$got"

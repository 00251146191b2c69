# tests/analyze.sh — flashbench --analyze on the real tables in tests/real/
# (each with its source and the conclusion stated there), on mangled copies
# of them (quoted, tabs as spaces, µ lost, wrapped, records run together,
# CRLF), and on our own output.  Prints the score against the experts.
. tests/lib.sh
JP=${FB%/flashbench}/tests/jsonpath
KEYS="page erase_block open_linear open_random"

# verdict FILE: "key=value/confidence ..." for the findings that matter
verdict() {
	local args=() k
	for k in $KEYS; do args+=("findings.$k.value" "findings.$k.confidence" "findings.$k.at_least"); done
	"$FB" --analyze --json "$1" 2> "$TMP/err" | "$JP" "${args[@]}" 2>> "$TMP/err" | paste -sd' ' -
}

right=0 medium=0 nd=0 wrong=0
for f in tests/real/*.txt; do
	name=$(basename "$f" .txt)
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
		set -- $clean
		i=0
		for k in $KEYS; do
			[ "$k" = "$key" ] && { got=$(eval echo "\${$((i * 3 + 1))}"); conf=$(eval echo "\${$((i * 3 + 2))}"); }
			i=$((i + 1))
		done
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
		t="analyze $name: $key ($kind ${want}) -> $got $conf"
		if [ "$kind" = clear ] && [ "$outcome" = nd ] && [ "${rest#clear known-miss}" != "$rest" ]; then
			skip "$t" "a known miss, not determined (tests/real/$name.txt says why)"
		elif [ "$kind" = clear ] && [ "$outcome" = nd -o "$outcome" = wrong ]; then
			fail "$t" "a clear conclusion must be matched"
		elif [ "$outcome" = wrong ] && [ "$conf" = high ]; then
			fail "$t" "contradicts the stated conclusion at high confidence"
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
echo "score against the experts: right $right, medium $medium, not determined $nd, wrong $wrong"

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

# bad input
printf 'hello\nno table here\n' > "$TMP/none.txt"
expect_error "analyze refuses text without a table" 2 "no flashbench -a or -O table found" "$FB" --analyze "$TMP/none.txt"
expect_error "analyze names a missing file" 2 "cannot read $TMP/missing" "$FB" --analyze "$TMP/missing"
expect_error "analyze takes no --write" 2 "option '--write' does not apply to --analyze" "$FB" --analyze --write tests/real/classic-readme.txt

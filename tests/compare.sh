# tests/compare.sh — --compare of saved --json results (golden text and JSON
# on the sim presets, the bar chart, the errors naming file and field) and
# --auto --summary, one survey-table line per device (golden).
. tests/lib.sh
JP=${FB%/flashbench}/tests/jsonpath

for p in sd-4m usb-12m cf-16m; do
	"$FB" -A --write --json "sim:$p" > "$TMP/$p.json" 2> /dev/null
done
"$FB" -A --json sim:ssd > "$TMP/ssd-read-only.json"
"$FB" -a --json sim:sd-4m > "$TMP/align-sd.json"
"$FB" -a --json sim:usb-12m > "$TMP/align-usb.json"
in_tmp() { (cd "$TMP" && "$@"); } # file names as given appear in the output
golden "compare: auto results of four presets (text) golden" compare-auto.out \
	in_tmp "$FB" --compare usb-12m.json sd-4m.json cf-16m.json ssd-read-only.json
golden "compare: auto results (JSON) golden" compare-auto.json in_tmp "$FB" --compare --json sd-4m.json usb-12m.json
golden "compare: two align tables golden" compare-align.out in_tmp "$FB" --compare align-sd.json align-usb.json

if "$FB" --compare "$TMP/sd-4m.json" "$TMP/sd-4m.json" > "$TMP/same" && ! grep -v '^\* marks' "$TMP/same" | grep -q '^\*'  &&
	[ "$(grep -c '^  [a-zF]' "$TMP/same")" = 10 ]; then
	pass "compare: a result against itself marks no row"
else
	fail "compare: a result against itself marks no row" "$(head -5 "$TMP/same")"
fi
"$FB" --compare --json -o "$TMP/c.json" "$TMP/usb-12m.json" "$TMP/sd-4m.json" > "$TMP/stdout"
got=$("$JP" rows.3.key rows.3.differ rows.3.values.0 rows.3.values.1 rows.3.confidence.0 < "$TMP/c.json" | tr '\n' ' ')
[ "$got" = "erase_block true 12582912 4194304 high " ] && [ ! -s "$TMP/stdout" ] &&
	pass "compare: -o and --json, values and confidences per card" ||
	fail "compare: -o and --json, values and confidences per card" "$got"

rm -f "$TMP/c.svg"
if "$FB" --compare --plot="$TMP/c.svg" "$TMP/usb-12m.json" "$TMP/sd-4m.json" "$TMP/cf-16m.json" > /dev/null &&
	[ "$(grep -cE 'height="[0-9]+\.[0-9]" fill="#' "$TMP/c.svg")" = 21 ] && grep -q '>12MiB high<' "$TMP/c.svg" && grep -q '>71.9M/s<' "$TMP/c.svg" &&
	grep -q '>write speed (largest writes)<' "$TMP/c.svg" && { ! command -v python3 > /dev/null ||
		python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$TMP/c.svg"; }; then
	pass "compare: --plot draws 21 labelled bars (7 findings x 3 cards, in 3 panels), well-formed SVG"
else
	fail "compare: --plot draws 21 labelled bars (7 findings x 3 cards, in 3 panels), well-formed SVG" \
		"$(grep -cE 'height="[0-9]+\.[0-9]" fill="#' "$TMP/c.svg" 2>&1) bars"
fi

# errors: one line naming the file and the field, status 2, nothing written
printf '{\n  "tool": {"name": "flashbench"},\n  "test": \n' > "$TMP/cut.json"
echo '{"tool": {"name": "fio"}, "test": "auto"}' > "$TMP/fio.json"
sed 's/"determined": true/"determined": "yes"/' "$TMP/sd-4m.json" > "$TMP/det.json"
"$FB" -s --json --scatter-order=2 sim:sd-4m > "$TMP/scatter.json"
expect_error "compare error: mismatched tests name the file and field" 2 \
	'align-sd.json: field test is "align", but .*sd-4m.json holds "auto": compare results of the same test' \
	"$FB" --compare "$TMP/sd-4m.json" "$TMP/align-sd.json"
expect_error "compare error: invalid JSON names line:column" 2 'cut.json:4:1: invalid JSON: expected a value' \
	"$FB" --compare "$TMP/sd-4m.json" "$TMP/cut.json"
expect_error "compare error: not a flashbench result" 2 'fio.json: not a flashbench result \(field tool.name' \
	"$FB" --compare "$TMP/fio.json" "$TMP/sd-4m.json"
# every file's head is looked at before any is read whole: a file that is
# no result is refused before a first one that breaks past its head is read
{ cat "$TMP/sd-4m.json" && head -c 100000 /dev/zero | tr '\0' ' ' && echo x; } > "$TMP/late.json"
expect_error "compare error: a non-result is refused before the others are read" 2 \
	'fio.json: not a flashbench result \(field tool.name' "$FB" --compare "$TMP/late.json" "$TMP/fio.json"
# and a small file read whole by its head is judged whole: fio's own JSON
# has no field tool at all
echo '{"fio version": "fio-3.33", "jobs": []}' > "$TMP/fio3.json"
expect_error "compare error: a small file without a tool is refused before the others are read" 2 \
	'fio3.json: not a flashbench result \(field tool.name' "$FB" --compare "$TMP/late.json" "$TMP/fio3.json"
expect_error "compare error: a field of the wrong type" 2 'det.json:[0-9]+:[0-9]+: field findings.page.determined is a string, not a true/false' \
	"$FB" --compare "$TMP/sd-4m.json" "$TMP/det.json"
# values --analyze refuses, --compare refuses by the same rules (one reader)
sed '/"erase_block": {/,/"value":/s/"value": [0-9]*/"value": -5/' "$TMP/sd-4m.json" > "$TMP/neg.json"
sed '0,/"size": [0-9]*/s//"size": 1000/' "$TMP/sd-4m.json" > "$TMP/size.json"
for f in neg size; do
	want='neg.json:[0-9]+:[0-9]+: field findings.erase_block.value is -5, not a whole number'
	[ $f = size ] && want='size.json:[0-9]+:[0-9]+: field device.size is 1000, not a size a test can use'
	expect_error "compare error: $f.json, which --analyze refuses" 2 "$want" "$FB" --compare "$TMP/usb-12m.json" "$TMP/$f.json"
	expect_error "analyze error: $f.json" 2 "$want" "$FB" --analyze "$TMP/$f.json"
done
expect_error "compare error: a test it cannot compare" 2 'scatter.json: field test is "scatter": --compare reads' \
	"$FB" --compare "$TMP/scatter.json" "$TMP/scatter.json"
expect_error "compare error: a missing file" 2 'cannot read .*nothere.json: No such file' \
	"$FB" --compare "$TMP/sd-4m.json" "$TMP/nothere.json"
expect_error "compare error: one file is not a comparison" 2 '--compare needs two or more files' \
	"$FB" --compare "$TMP/sd-4m.json"
rm -f "$TMP/none.svg"
"$FB" --compare --plot="$TMP/none.svg" "$TMP/sd-4m.json" "$TMP/align-sd.json" > /dev/null 2>&1
[ ! -s "$TMP/none.svg" ] && pass "compare error: nothing drawn on a refused comparison" ||
	fail "compare error: nothing drawn on a refused comparison" "$(head -c 100 "$TMP/none.svg")"

# --auto --summary
summary() { for p in sd-4m usb-12m cf-16m ssd; do "$FB" -A --write --summary "sim:$p" 2> /dev/null; done; "$FB" -A --summary sim:sd-4m; }
golden "summary: one line per preset golden" summary.out summary
if [ "$(summary | grep -cE '^\| [^|]+( \| [^|]+){9} \|$')" = 5 ]; then
	pass "summary: ten cells a line, in table syntax"
else
	fail "summary: ten cells a line, in table syntax" "$(summary | head -2)"
fi
expect_error "summary error: needs --auto" 2 "option '--summary' does not apply to --align \(it goes with --auto, --capacity, --rating\)" "$FB" -a --summary sim:sd-4m
expect_error "summary error: not with --json" 2 '--summary goes with --auto, --capacity or --rating, without --json' \
	"$FB" -A --summary --json sim:sd-4m

# files of the same name in two directories: each column is named by the
# shortest tail of its path that tells them apart
mkdir -p "$TMP/d1" "$TMP/d2"
cp "$TMP/sd-4m.json" "$TMP/d1/x.json"
cp "$TMP/usb-12m.json" "$TMP/d2/x.json"
head=$(in_tmp "$FB" --compare d1/x.json d2/x.json sd-4m.json | sed -n 3p)
# shellcheck disable=SC2086 # squeeze the padding
[ "$(echo $head)" = "d1/x d2/x sd-4m" ] && pass "compare: same file names in two directories are told apart" ||
	fail "compare: same file names in two directories are told apart" "head line '$head'"
# the README shows what --summary prints: the line, no head
shown=$(awk '/flashbench --auto --write --summary/ { on = 1 } on && /^    \|/ { sub(/^    /, ""); print; exit }' README)
got=$("$FB" -A --write --summary sim:usb-12m 2> /dev/null)
[ "$shown" = "$got" ] && pass "summary: the README shows what it prints" ||
	fail "summary: the README shows what it prints" "README '$shown', printed '$got'"

# a result over 64 MiB, the old limit (a --json of a long run: 200000 requests kept one by
# one come to 88 MB; here the align result and 70 MiB of white space) is
# read by --analyze and --compare, not refused for its size (bench/run
# measures what the memory of a real one comes to)
{ cat "$TMP/align-sd.json" && head -c 70M /dev/zero | tr '\0' ' '; } > "$TMP/align-bg.json"
if "$FB" --analyze "$TMP/align-bg.json" > "$TMP/big.out" 2> "$TMP/err" &&
	"$FB" --analyze "$TMP/align-sd.json" | diff - "$TMP/big.out" | grep -v 'align-\(sd\|bg\)' | grep -q '^[<>]'; then
	fail "analyze: a result over 64 MiB is read" "it reads otherwise than the same result without the padding"
elif [ -s "$TMP/err" ]; then
	fail "analyze: a result over 64 MiB is read" "$(cat "$TMP/err")"
else
	pass "analyze: a result over 64 MiB is read"
fi
if in_tmp "$FB" --compare align-bg.json align-usb.json > "$TMP/big.out" 2> "$TMP/err" &&
	in_tmp "$FB" --compare align-sd.json align-usb.json | sed 's/align-sd/align-bg/g' | cmp -s - "$TMP/big.out"; then
	pass "compare: a result over 64 MiB is read"
else
	fail "compare: a result over 64 MiB is read" "$(cat "$TMP/err")"
fi
rm -f "$TMP/align-bg.json"

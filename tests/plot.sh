# tests/plot.sh — --plot writes self-contained SVG charts that parse as XML
# and mark what they should; every kind of chart is rendered to PNG
# (rsvg-convert) and tests/chart.py checks the picture: not blank, each
# panel's title, axis labels and markers as expected, tick labels that
# differ, marker labels clear of the data, titles that fit.
. tests/lib.sh

xml_ok() { # xml_ok FILE: well-formed XML (python3), or "skip"
	command -v python3 > /dev/null || { echo skip; return; }
	python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" "$1" 2> /dev/null && echo ok || echo bad
}

plot() { # plot NAME FILE PATTERNS... -- ARGS...
	local name=$1 file=$TMP/$2 pats=() p bad="" x
	shift 2
	while [ "$1" != -- ]; do pats+=("$1"); shift; done
	shift
	if ! "$FB" "$@" --plot "$file" > /dev/null 2> "$TMP/err"; then
		fail "$name" "$(cat "$TMP/err")"
		return
	fi
	for p in "<svg xmlns=\"http://www.w3.org/2000/svg\"" "</svg>" "${pats[@]}"; do
		grep -qF -- "$p" "$file" || bad="$bad missing '$p';"
	done
	grep -qE '(href|<script|@import|url\()' "$file" && bad="$bad refers to something outside;"
	x=$(xml_ok "$file")
	[ "$x" = bad ] && bad="$bad not well-formed XML;"
	if [ -n "$bad" ]; then fail "$name" "$bad"; else pass "$name"; fi
}
plot "plot: align marks page and erase steps" a.svg "page (read unit) 16KiB" "step at 4MiB (erase block?)" \
	"alignment of the boundary" "extra time to read across it" "<polyline" -- -a -b 1k sim:sd-4m
plot "plot: align of a 12MiB stick marks its 4MiB step" u.svg "step at 4MiB" -- -a -b 1k sim:usb-12m
plot "plot: auto marks the erase block found" auto.svg "erase block 12MiB" "page (read unit) 16KiB" -- -A sim:usb-12m
plot "plot: scatter" s.svg "offset (MiB)" "<circle" -- -s --scatter-order=6 sim:sd-4m,noise=0.05
plot "plot: open-au" o.svg "chunk size (log scale)" "4 erase blocks, random" "write throughput" -- \
	-O -r --open-au-nr=4 sim:sd-4m
plot "plot: find-fat, one line per erase block" f.svg "erase block 0" "erase block 5" -- -f sim:sd-4m
plot "plot: interval" i.svg "stride (log scale)" -- -i sim:sd-4m
plot "plot: a program with a classic format" p.svg "page (read unit) 16KiB" -- \
	--program scripts/programs/align.fbp -b 1k sim:sd-4m
case $(xml_ok "$TMP/a.svg") in
ok) pass "plot: XML parsed by python3" ;;
skip) skip "plot: XML parsed by python3" "python3 is not installed" ;;
*) fail "plot: XML parsed by python3" "a.svg is not well-formed" ;;
esac


cat > "$TMP/tree.fbp" <<'PROG'
len 4k keep
  read
PROG
expect_error "plot: a tree program has no chart" 2 "the 'tree' format has none" "$FB" --program "$TMP/tree.fbp" --plot "$TMP/t.svg" sim:sd-4m
[ ! -e "$TMP/t.svg" ] && pass "plot: no file left behind on error" || fail "plot: no file left behind on error" "t.svg exists"
plot "plot: read-speed" r.svg "request size (log scale)" "read throughput (log scale)" ">read throughput<" -- -R sim:sd-4m

# Every kind of chart, rendered: chart NAME "EXPECTED PANELS" ARGS... runs
# flashbench ARGS --plot, renders the SVG at half size and compares what
# tests/chart.py reads from each panel (title | x label | y label | markers)
ALL="$(printf 'plot: rendered: %s|' align align-16k align-64k auto auto-write auto-write-usb analyze analyze-16k scatter-flat interval open-au find-fat read-speed compare-auto compare-open-au compare-align program)"
if ! command -v rsvg-convert > /dev/null; then
	skip_all "rsvg-convert is not installed (Debian package librsvg2-bin; .ci/run installs it)"
elif ! command -v python3 > /dev/null; then
	skip_all "python3 is not installed"
fi
chart() {
	local name=$1 want=$2 svg=$TMP/chart-$1.svg
	shift 2
	if ! "$FB" "$@" --plot "$svg" > /dev/null 2> "$TMP/err"; then
		fail "plot: rendered: $name" "$(tail -1 "$TMP/err")"
	elif ! rsvg-convert -z 0.5 "$svg" -o "${svg%.svg}.png" 2> "$TMP/err"; then
		fail "plot: rendered: $name" "rsvg-convert: $(head -2 "$TMP/err")"
	elif ! python3 tests/chart.py "$svg" "${svg%.svg}.png" 0.5 > "$TMP/got" 2> "$TMP/err"; then
		fail "plot: rendered: $name" "$(cat "$TMP/err")"
	elif [ "$(cat "$TMP/got")" != "$want" ]; then
		fail "plot: rendered: $name" "$(diff <(echo "$want") "$TMP/got" | grep '^[<>]' | tr '\n' ' ')"
	else
		pass "plot: rendered: $name"
	fi
}
A="alignment of the boundary (log scale) | extra time to read across it (diff)"
chart align "flashbench -a sim:sd-4m: align diff, 1KiB reads | $A | page (read unit) 16KiB | step at 4MiB (erase block?)" \
	-a -b 1k sim:sd-4m
# the smallest alignment of 16KiB reads is 32KiB: a step there only shows
# the page is that size or smaller; with 64KiB reads the first step is the
# erase block's, which --analyze says is no page
chart align-16k "flashbench -a sim:usb-12m: align diff, 16KiB reads | $A | step at or below 32KiB | step at 4MiB (erase block?)" \
	-a sim:usb-12m
chart align-64k "flashbench -a sim:sd-4m: align diff, 64KiB reads | $A | step at 4MiB (erase block?)" \
	-a -b 64k sim:sd-4m
chart auto "flashbench --auto sim:usb-12m: align diff, 1KiB reads | $A | page (read unit) 16KiB | erase block 12MiB" \
	--auto sim:usb-12m
chart auto-write "flashbench --auto sim:sd-4m: align diff, 1KiB reads | $A | page (read unit) 16KiB | erase block 4MiB
sim:sd-4m: write cache, one burst from idle | bytes of the burst written | time of each write (log scale)
sim:sd-4m: smallest efficient write | write size (log scale) | time per write, median (log scale) | smallest efficient write 32KiB
sim:sd-4m: open erase blocks | erase blocks written in turn | time per write, slowest erase block (log scale) | 2 open, linear | 1 open, random order
sim:sd-4m: FAT area | erase block from the start | times faster than the same writes in the middle | FAT area: 4 erase blocks | reference: as fast as in the middle" \
	--auto --write sim:sd-4m
# no FAT area: the one probed block in the middle of its axis, the three
# kinds of writes at the same point all visible (chart.py), the line at 1
chart auto-write-usb "flashbench --auto sim:usb-12m: align diff, 1KiB reads | $A | page (read unit) 16KiB | erase block 12MiB
sim:usb-12m: write cache, one burst from idle | bytes of the burst written | time of each write (log scale)
sim:usb-12m: smallest efficient write | write size (log scale) | time per write, median (log scale) | smallest efficient write 32KiB
sim:usb-12m: open erase blocks | erase blocks written in turn | time per write, slowest erase block (log scale) | 3 open, linear | 1 open, random order
sim:usb-12m: FAT area | erase block from the start | times faster than the same writes in the middle | reference: as fast as in the middle" \
	--auto --write sim:usb-12m
fat_ticks=$(python3 -c "import sys, xml.etree.ElementTree as E; t=[x for x in E.parse(sys.argv[1]).iter('{http://www.w3.org/2000/svg}text')]; i=max(k for k, x in enumerate(t) if x.get('class') == 'title'); print(' '.join(x.text for x in t[i:] if x.get('class') == 'xtick'))" "$TMP/chart-auto-write-usb.svg")
[ "$fat_ticks" = 0 ] && pass "plot: a FAT probe of one block has one block on its axis" ||
	fail "plot: a FAT probe of one block has one block on its axis" "ticks: $fat_ticks"
# a long path: the title keeps its start and its end
long=$TMP/mail/a/directory/name/long/enough/to/run/off/the/edge/of/any/chart
mkdir -p "$long"
cp tests/real/seed-001-sandisk-cf-32g.txt "$long/seed.txt"
"$FB" --analyze "$long/seed.txt" --plot "$TMP/an.svg" > /dev/null
title=$(python3 -c "import sys, xml.etree.ElementTree as E; print([t.text for t in E.parse(sys.argv[1]).iter('{http://www.w3.org/2000/svg}text') if t.get('class') == 'title'][0])" "$TMP/an.svg")
case $title in
"flashbench --analyze /"*"…"*"/seed.txt: align diff, 1KiB reads") pass "plot: --analyze names itself, a long path shortened in the middle" ;;
*) fail "plot: --analyze names itself, a long path shortened in the middle" "$title" ;;
esac
# (seed-001's random sweep: its reference collapses already, so no trials: its tables)
chart analyze "flashbench --analyze standard input: align diff, 1KiB reads | $A | page (read unit) 16KiB
standard input: the open-au tables | chunk size (log scale) | write throughput (log scale)" \
	--analyze - < tests/real/seed-001-sandisk-cf-32g.txt
"$FB" -a sim:sd-4m > "$TMP/a16k.txt"
chart analyze-16k "flashbench --analyze standard input: align diff, 16KiB reads | $A | step at or below 32KiB | erase block 4MiB" \
	--analyze - < "$TMP/a16k.txt"
# a linear sweep alone: its legend names no random-order series
for i in 1 2 3; do
	echo "\$ flashbench -O -e 4M -b 64k --open-au-nr=$i sim:sd-4m"
	"$FB" -O -e 4M -b 64k --open-au-nr=$i sim:sd-4m 2> /dev/null
done > "$TMP/sweep.txt"
"$FB" --analyze "$TMP/sweep.txt" --plot "$TMP/sweep.svg" > /dev/null
legend() { python3 -c "import sys, xml.etree.ElementTree as E; print('|'.join(t.text for t in E.parse(sys.argv[1]).iter('{http://www.w3.org/2000/svg}text') if t.get('class') == 'legend'))" "$1"; }
[ "$(legend "$TMP/sweep.svg")" = linear ] && pass "plot: the legend names only the series drawn" ||
	fail "plot: the legend names only the series drawn" "$(legend "$TMP/sweep.svg")"
"$FB" -R sim:sd-4m --plot "$TMP/rs.svg" > /dev/null
[ "$(legend "$TMP/rs.svg")" = "read throughput" ] && pass "plot: -R's legend says what it is, not the test's inner name" ||
	fail "plot: -R's legend says what it is" "$(legend "$TMP/rs.svg")"
"$FB" -s --scatter-order=4 sim:sd-4m --plot "$TMP/sc.svg" > /dev/null
python3 -c "import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot(); N = '{http://www.w3.org/2000/svg}'
plot = [x for x in r.iter(N + 'rect') if x.get('class') == 'plot'][0]
right = float(plot.get('x')) + float(plot.get('width'))
sys.exit(0 if [c for c in r.iter(N + 'circle') if float(c.get('cx')) > right] and not [q for q in r.iter(N + 'rect') if float(q.get('x', 0)) > right] else 1)" "$TMP/sc.svg" &&
	pass "plot: a chart of dots has dots in its legend" || fail "plot: a chart of dots has dots in its legend" "a line in the legend"
# all equal: the ticks still read differently (tests/chart.py checks)
chart scatter-flat "flashbench -s sim:ssd: read time by offset | offset (MiB) | read time (best of the tries)" \
	-s --scatter-order=5 sim:ssd
chart interval "flashbench -i sim:sd-4m: read time by stride | stride (log scale) | read time" -i sim:sd-4m
chart open-au "flashbench -O sim:sd-4m: write throughput by chunk size | chunk size (log scale) | write throughput (log scale)" \
	-O -r --open-au-nr=4 sim:sd-4m
chart find-fat "flashbench -f sim:sd-4m: write throughput of each erase block | chunk size (log scale) | write throughput (log scale)" \
	-f sim:sd-4m
chart read-speed "flashbench -R sim:sd-4m: read throughput by request size | request size (log scale) | read throughput (log scale)" \
	-R sim:sd-4m
"$FB" --auto --write --json sim:usb-12m > "$TMP/usb.json" 2> /dev/null
"$FB" --auto --write --json sim:sd-4m > "$TMP/sd.json" 2> /dev/null
# bytes, counts and bytes per second on axes of their own, bars named as the table names them
chart compare-auto "flashbench --compare: sizes | finding (a bar per result, with its value and confidence) | bytes (log scale)
flashbench --compare: counts | finding (a bar per result, with its value and confidence) | erase blocks
flashbench --compare: speed | finding (a bar per result, with its value and confidence) | bytes per second" \
	--compare "$TMP/usb.json" "$TMP/sd.json"
python3 -c "import sys, xml.etree.ElementTree as E; print('|'.join(''.join(t.itertext()) for t in E.parse(sys.argv[1]).iter('{http://www.w3.org/2000/svg}text') if t.get('class') == 'category'))" \
	"$TMP/chart-compare-auto.svg" > "$TMP/cats"
[ "$(cat "$TMP/cats")" = "page size (read unit)|erase block size|smallest efficient write|open erase blocks, linear|open erase blocks,random order|FAT-optimised erase blocks|write speed (largest writes)" ] &&
	pass "plot: --compare names the bars as its table does" || fail "plot: --compare names the bars as its table does" "$(cat "$TMP/cats")"
"$FB" -O --open-au-nr=1 --json sim:sd-4m > "$TMP/o1.json" 2> /dev/null
"$FB" -O --open-au-nr=3 --json sim:sd-4m > "$TMP/o3.json" 2> /dev/null
chart compare-open-au "flashbench --compare: open-au | chunk size (log scale) | write throughput (log scale)" \
	--compare "$TMP/o1.json" "$TMP/o3.json"
# rows one result has and the other lacks (the 3.75GiB stick has no 512MiB
# and 1GiB rows) are a gap in its line, not 0: every diff measured is above
# 0, so nothing may be drawn on the x axis
"$FB" -a --json sim:sd-4m > "$TMP/a1.json" 2> /dev/null
"$FB" -a --json sim:usb-12m > "$TMP/a2.json" 2> /dev/null
chart compare-align "flashbench --compare: align | alignment of the boundary (log scale) | extra time to read across it (diff)" \
	--compare "$TMP/a1.json" "$TMP/a2.json"
python3 -c "import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot(); N = '{http://www.w3.org/2000/svg}'
f = [x for x in r.iter(N + 'rect') if x.get('class') == 'plot'][0]
bottom = float(f.get('y')) + float(f.get('height'))
ys = [float(c.get('cy')) for c in r.iter(N + 'circle')] + [float(p.split(',')[1]) for l in r.iter(N + 'polyline') for p in l.get('points').split()]
sys.exit(1 if [y for y in ys if abs(y - bottom) < 1] else 0)" "$TMP/chart-compare-align.svg" &&
	pass "plot: --compare leaves a gap where a result has no row" || fail "plot: --compare leaves a gap where a result has no row" "drawn at 0"
chart program "flashbench -a sim:sd-4m: align diff, 1KiB reads | $A | page (read unit) 16KiB | step at 4MiB (erase block?)" \
	--program scripts/programs/align.fbp -b 1k sim:sd-4m

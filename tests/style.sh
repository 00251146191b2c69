# tests/style.sh — the one output style (doc/style.md) in every mode: no
# line over 80 columns in any text output (stdout and stderr) on the
# presets, the fakes and a loop device, but the classic tab-separated rows;
# at most three announcement lines of at most 80 columns before the first
# write of --auto --write and -C (-v: the detail); the --summary rows of
# --auto, --capacity and --rating paste into one table under the header of
# doc/style.md; and seven --auto --write runs on one loop device over a
# file give the same verdict and no medium or high finding they contradict.
. tests/lib.sh
JP=${FB%/flashbench}/tests/jsonpath
ROOT=$PWD
cd "$TMP" || exit 1

# widest FILE: the widest line in columns (UTF-8), the classic
# tab-separated rows and --summary's table rows left out (doc/style.md)
widest() { grep -v -e $'\t' -e '^| ' "$1" | LC_ALL=C.UTF-8 wc -L; }
long=""
wide() { # wide "ARGS": runs flashbench ARGS; notes each output over 80 columns
	local w
	# shellcheck disable=SC2086 # the arguments are words
	"$FB" $1 > o.txt 2> e.txt < /dev/null
	for w in o e; do
		[ "$(widest $w.txt)" -le 80 ] ||
			long="$long [$1] $w: $(widest $w.txt): $(grep -v -e $'\t' -e '^| ' $w.txt | LC_ALL=C.UTF-8 awk 'length > 80' | head -1);"
	done
	cat o.txt e.txt >> all.txt
}
for d in sd-4m usb-12m cf-16m ssd; do
	for a in "-a" "-a -b 1k" "-O -e 4M -b 1M --open-au-nr=2" "-f -b 64k" "-R -e 1M -b 64k -c 2" \
		"-s --scatter-order=5 --scatter-span=2 -b 1M" "-i --interval-order=4" "--auto" "--auto --write" \
		"--auto --write -v" "--auto --summary"; do
		wide "$a sim:$d"
	done
done
for d in fake-drop fake-wrap fake-cache sd-4m; do
	wide "-C sim:$d"
	wide "-C -v sim:$d"
	wide "-C --summary sim:$d"
done
for d in rating-u3 rating-a2 rating-c10; do
	wide "--rating sim:$d"
	wide "--rating -v sim:$d"
	wide "--rating --summary sim:$d"
	wide "--auto sim:$d"
done
for f in "$ROOT"/tests/real/*.txt; do
	wide "--analyze $f"
	[ -n "${one:-}" ] || one=$f
done
"$FB" --auto --json sim:sd-4m > a.json 2> /dev/null
"$FB" --auto --json sim:usb-12m > b.json 2> /dev/null
wide "--compare a.json b.json"
for h in "--help" "--help -v" "-A --help" "-C --help" "--rating --help" "-O --help" "--analyze --help"; do
	wide "$h"
done
# (the loop device's outputs join these below)

# --summary: one header (doc/style.md) and rows of every mode with its cells
header=$(grep -m1 '^| device | size | verdict |' "$ROOT/doc/style.md")
cells() { awk -F'|' '{ print NF - 2 }'; }
{
	echo "$header"
	"$FB" --auto --summary sim:usb-12m 2> /dev/null
	"$FB" --auto --write --summary sim:sd-4m 2> /dev/null
	"$FB" -C --summary sim:fake-drop 2> /dev/null
	"$FB" -C --summary sim:sd-4m 2> /dev/null
	"$FB" --rating --summary sim:rating-u3 2> /dev/null
} > survey.md
n=$(echo "$header" | cells)
if [ -n "$header" ] && [ "$n" = 10 ] && [ "$(wc -l < survey.md)" = 6 ] && [ "$(cells < survey.md | sort -u)" = 10 ] &&
	grep -qE '^\| sim:usb-12m \| 3\.75GiB \| flash \| 12MiB \| 16KiB \| - \| - \| - \| [0-9.]+ \| - \|$' survey.md &&
	grep -qE '^\| sim:sd-4m \| 8GiB \| flash \| 4MiB \| 16KiB \| [0-9]+KiB \| 2/1 \| [0-9]+ \| [0-9.]+ \| [0-9.]+ \|$' survey.md &&
	grep -qx '| sim:fake-drop | 2GiB | fake: drop 768MiB | - | - | - | - | - | - | - |' survey.md &&
	grep -qE '^\| sim:rating-u3 \| 32GiB \| C10 U3 V30 \| ' survey.md &&
	grep -qF "\"$header\\n\"" "$ROOT/report/summary.c"; then
	pass "style: --summary rows of --auto, --capacity and --rating paste into one table of 10 columns"
else
	fail "style: --summary rows of --auto, --capacity and --rating paste into one table of 10 columns" \
		"header '$header' ($n); $(tr '\n' '~' < survey.md)"
fi

# before the first write: three lines of at most 80 columns; -v the detail
announced() { # announced NAME FILE: the lines before the first "put back" or report
	local n
	n=$(awk '/put back|^flashbench --/ { exit } { n++ } END { print n + 0 }' "$2")
	if [ "$n" -ge 1 ] && [ "$n" -le 3 ] && [ "$(head -"$n" "$2" | LC_ALL=C.UTF-8 wc -L)" -le 80 ]; then
		pass "style: $1: $n short lines before the first write"
	else
		fail "style: $1: $n short lines before the first write" "$(head -5 "$2" | tr '\n' '|')"
	fi
}
"$FB" --auto --write sim:usb-12m 2> aw.err > /dev/null
"$FB" -C sim:fake-drop 2> c.err > /dev/null
announced "--auto --write" aw.err
announced "-C" c.err
"$FB" --auto --write -v sim:usb-12m 2> awv.err > /dev/null
"$FB" -C -v sim:fake-drop 2> cv.err > /dev/null
[ "$(wc -l < awv.err)" -gt 5 ] && [ "$(wc -l < cv.err)" -gt 6 ] && grep -q 'bytes 0 to 402653183' awv.err &&
	pass "style: -v adds the detail of what --auto --write and -C write" ||
	fail "style: -v adds the detail of what --auto --write and -C write" "$(wc -l awv.err cv.err | tr '\n' ' ')"

# a loop device over a file (root): its outputs fit too, and seven
# --auto --write runs give the same verdict, first words and kind, and
# no finding above low whose value the runs do not all agree on
if ! is_root || ! command -v losetup > /dev/null; then
	skip "style: a loop device's outputs fit 80 columns" "needs root for loop devices"
	skip "style: seven --auto --write runs on a loop device over a file agree" "needs root for loop devices"
else
	truncate -s 512M card.img
	if ! attach card.img; then
		skip "style: a loop device's outputs fit 80 columns" "cannot attach a loop device here"
		skip "style: seven --auto --write runs on a loop device over a file agree" "cannot attach a loop device here"
	else
		seen=$long long=""
		for a in "--auto" "--auto --write" "-C" "-C --summary" "-a" "--auto --write --summary"; do
			wide "$a $DEV"
		done
		[ -z "$long" ] && pass "style: a loop device's outputs fit 80 columns" ||
			fail "style: a loop device's outputs fit 80 columns" "$long"
		long=$seen
		"$FB" --auto --write "$DEV" 2> loop-aw.err > /dev/null
		"$FB" -C "$DEV" 2> loop-c.err > /dev/null
		announced "--auto --write on a loop device" loop-aw.err
		announced "-C on a loop device" loop-c.err
		bad=""
		for i in 1 2 3 4 5 6 7; do
			"$FB" --auto --write --json "$DEV" > "r$i.json" 2> /dev/null || bad="$bad run $i failed;"
			"$JP" verdict.kind < "r$i.json" >> kinds
			"$JP" verdict.text < "r$i.json" | sed 's/;.*//' >> firsts
			for f in page erase_block min_write open_linear open_random fat_area write_cache; do
				c=$("$JP" "findings.$f.confidence" < "r$i.json" 2> /dev/null)
				v=$("$JP" "findings.$f.value" < "r$i.json" 2> /dev/null)
				echo "$f ${c:-none} ${v:-none}" >> "f$i"
			done
		done
		# a finding at medium or high must be the same in every run
		for f in page erase_block min_write open_linear open_random fat_area write_cache; do
			if grep -hE "^$f (medium|high) " f? > /dev/null; then
				[ "$(grep -h "^$f " f? | sort -u | wc -l)" = 1 ] || bad="$bad $f: $(grep -h "^$f " f? | sort -u | tr '\n' ',');"
			fi
		done
		if [ -z "$bad" ] && [ "$(sort -u kinds)" = no-flash-reads ] && [ "$(sort -u firsts | wc -l)" = 1 ] &&
			grep -q 'is a file' firsts; then
			pass "style: seven --auto --write runs on a loop device over a file agree: $(sort -u firsts | cut -c1-40)..."
		else
			fail "style: seven --auto --write runs on a loop device over a file agree" \
				"$bad kinds $(sort -u kinds | tr '\n' ' '); $(sort -u firsts | tr '\n' '|')"
		fi
	fi
fi
[ -z "$long" ] && pass "style: every mode's text output fits 80 columns (classic rows excepted)" ||
	fail "style: every mode's text output fits 80 columns (classic rows excepted)" "$long"

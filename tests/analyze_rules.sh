# tests/analyze_rules.sh — --analyze is never surer than the rows: each way
# a pasted table can mislead (a missing or dropped row, a line pasted twice,
# a run that cannot see a step, a reference run that collapses, an erase
# size not confirmed, one slow cell, two cards in one paste, units and
# encodings, a command line that is not the table's) on tables made here
# from simulated cards of known geometry, mangled as posts mangle them.
. tests/lib.sh
JP=${FB%/flashbench}/tests/jsonpath

# jq_ FILE PATH...: the values at the paths of the --analyze --json report
jq_() { "$FB" --analyze --json "$1" 2> "$TMP/err" | "$JP" "${@:2}" 2>> "$TMP/err" | paste -sd' ' -; }
# report FILE: the text report into $TMP/out
# (the report with its wrapped lines joined again: tests/lib.sh, unwrap)
report() { "$FB" --analyze "$1" > "$TMP/out.raw" 2>&1; local rc=$?; unwrap < "$TMP/out.raw" > "$TMP/out"; return $rc; }
# ok NAME: pass if the last command succeeded, else fail with the report
ok() { if [ $? -eq 0 ]; then pass "$1"; else fail "$1" "$(grep -v '^    \(not in\|no \)' "$TMP/out" 2> /dev/null | head -c 600)"; fi; }
# sweep DEV ERASE BLOCK FROM TO [-r]: an open-au sweep as a shell loop posts it
sweep() {
	for n in $(seq "$4" "$5"); do
		echo "\$ sudo flashbench -O -e $2 -b $3 ${6:+$6 }--open-au-nr=$n /dev/sdb"
		"$FB" -O -e "$2" -b "$3" $6 --open-au-nr="$n" "$1" 2> /dev/null
	done
}
"$FB" -a -b 1k sim:sd-4m > "$TMP/a1k" && "$FB" -a -b 4k sim:sd-4m > "$TMP/a4k" || fail "analyze_rules setup" "sim -a"
cut16k() { sed 's/^align 16384\t.*/align 16384\tpre 734µs\ton 894µs\tpost 7/' "$@"; }

# -------------------------------------------------- a missing row is not a measured one
# the read unit is 16KiB; with the 16KiB row cut off (or missing) in both
# runs, 8KiB is cheap and 32KiB costs extra: 16KiB or 32KiB
cut16k "$TMP/a1k" "$TMP/a4k" > "$TMP/cut16k.txt"
grep -v '^align 16384' "$TMP/a1k" > "$TMP/no16k.txt"
for f in cut16k no16k; do
	report "$TMP/$f.txt"
	[ "$(jq_ "$TMP/$f.txt" findings.page.value)" = null ] &&
		grep -q 'read unit is 16KiB or 32KiB' "$TMP/out"
	ok "analyze_rules: the page row below the step $f: \"16KiB or 32KiB\", not determined"
done
# the erase step's row below it missing, or cut off (dropped): 4MiB or 8MiB
grep -v '^align 4194304' "$TMP/a1k" > "$TMP/no4m.txt"
sed 's/^align 4194304\t.*/align 4194304\tpre 734µs\ton 1.19ms\tpost 1/' "$TMP/a1k" > "$TMP/cut4m.txt"
for f in no4m cut4m; do
	report "$TMP/$f.txt"
	[ "$(jq_ "$TMP/$f.txt" findings.erase_block.value)" = null ] && grep -q 'the erase block is 4MiB or 8MiB' "$TMP/out"
	ok "analyze_rules: the erase row below the step $f: \"4MiB or 8MiB\", not determined"
done

# -------------------------------------------------- a copy accident is not a second run
awk '{print} /^align 2097152/{print}' "$TMP/a1k" > "$TMP/dup.txt"
awk '/^align 4194304/{held=$0; next} {print} /^align 2097152/{print held}' "$TMP/a1k" > "$TMP/swap.txt"
tac "$TMP/a1k" > "$TMP/tac.txt"
for f in dup swap tac; do
	report "$TMP/$f.txt"
	[ "$(jq_ "$TMP/$f.txt" "source.align_runs#" findings.page.value findings.page.confidence findings.erase_block.value)" = \
	  "1 16384 medium 4194304" ]
	ok "analyze_rules: one table with a line $f: one run, 16KiB (not high), 4MiB"
done
grep -q '^    line 11 repeats line 10 (align 2097152) exactly: read once$' <("$FB" --analyze "$TMP/dup.txt")
ok "analyze_rules: a line pasted twice is named"
# the same table twice, the second under a command line it contradicts
{ echo '$ sudo ./flashbench -a -b 1k /dev/mmcblk0'; cat "$TMP/a1k"; echo '$ sudo ./flashbench -a -b 4k /dev/mmcblk0'; cat "$TMP/a1k"; } > "$TMP/twice.txt"
report "$TMP/twice.txt"
grep -q 'a copy of the run at line 2 (every row the same): not a second measurement' "$TMP/out" &&
	grep -q 'says --blocksize=4KiB, but the run goes down to align 2KiB' "$TMP/out" &&
	[ "$(jq_ "$TMP/twice.txt" findings.page.confidence)" = medium ]
ok "analyze_rules: a table pasted twice is a copy, and the command line it contradicts is named"
# an -a table under another test's command line: -f's -b is its chunk size,
# not the block size the -a table read with
{ echo '$ flashbench -f -b 2k sim:sd-4m'; "$FB" -a -b 2k sim:usb-12m; } > "$TMP/ff-a.txt"
report "$TMP/ff-a.txt"
grep -q '^    -a run at line 2: 17 rows, 2KiB reads (half the smallest alignment)$' "$TMP/out"
ok "analyze_rules: only an -a command line gives an -a table's block size"

# -------------------------------------------------- a run that cannot see a step confirms nothing
# read unit 4KiB: the 4KiB run's rows start at 8KiB
"$FB" -a -b 1k sim:size=2G,page=4K,planes=1 > "$TMP/p4k.txt" && "$FB" -a -b 4k sim:size=2G,page=4K,planes=1 >> "$TMP/p4k.txt"
report "$TMP/p4k.txt"
grep -q 'reads of 4KiB cannot show it (their rows have no 2KiB and 4KiB), so they do not confirm it' "$TMP/out" &&
	[ "$(jq_ "$TMP/p4k.txt" findings.page.value findings.page.confidence)" != "4096 high" ]
ok "analyze_rules: a run whose rows start above the step does not confirm it"
# three planes: a 12KiB read unit steps at 4KiB like a 4KiB one
dev=sim:size=6G,page=4K,planes=3,erase=12M
{ "$FB" -a -b 1k $dev; "$FB" -a -b 4k $dev; } > "$TMP/p12k.txt"
report "$TMP/p12k.txt"
grep -qE '^page size \(read unit\) +4KiB +medium$' "$TMP/out" &&
	grep -q 'cannot tell this from a 12KiB read unit (3 x 4KiB: three planes read together)' "$TMP/out"
ok "analyze_rules: a 3-plane read unit (12KiB): the 4KiB step at most medium, 12KiB named"

# -------------------------------------------------- a row between the levels leaves the step open
sed 's/^align 1048576\t.*/align 1048576\tpre 734µs\ton 1.03ms\tpost 734µs\tdiff 300µs/' "$TMP/a1k" |
	sed 's/^align 2097152\t.*/align 2097152\tpre 734µs\ton 1.19ms\tpost 734µs\tdiff 460µs/' > "$TMP/mid.txt"
"$FB" -a -b 1k "sim:size=8G,erase=1M,seed=10,free=0.3" > "$TMP/free.txt"
for f in mid free; do
	report "$TMP/$f.txt"
	[ "$(jq_ "$TMP/$f.txt" findings.erase_block.value)" = null ] && grep -q 'the erase block is 1MiB or 2MiB' "$TMP/out"
	ok "analyze_rules: the 1MiB row between the page level and the 2MiB step ($f): \"1MiB or 2MiB\""
done

# -------------------------------------------------- open erase blocks
# sd-4m keeps 2 open: a sweep from --open-au-nr=3 has a collapsed reference
{ sweep sim:sd-4m 4M 16K 3 6; sweep sim:sd-4m 8M 16K 3 6; } > "$TMP/from3.txt"
[ "$(jq_ "$TMP/from3.txt" findings.open_linear.value findings.open_linear.at_most findings.open_linear.confidence)" = \
  "2 true medium" ]
ok "analyze_rules: a sweep whose --open-au-nr=3 reference collapses: fewer than 3, medium"
# 16MiB erase blocks, 2 open, swept with -e 1M and 2M: the regions share erase blocks
dev=sim:size=8G,erase=16M,open=2
{ sweep $dev 1M 16K 1 8; sweep $dev 2M 16K 1 8; } > "$TMP/small-e.txt"
report "$TMP/small-e.txt"
# (the 2MiB sweep's eighth region reaches back into an erase block it wrote:
# it collapses, 1.4-1.9x; the sweeps disagree, which is low too)
[ "$(jq_ "$TMP/small-e.txt" findings.open_linear.confidence)" = low ] &&
	grep -qE 'if it is larger, several regions share one|the sweeps disagree' "$TMP/out"
ok "analyze_rules: at least 8 counted in 1MiB regions of an unknown erase block: low"
sweep sim:sd-4m 4M 16K 1 4 > "$TMP/o4m.txt"
{ cat "$TMP/o4m.txt"; sweep sim:sd-4m 8M 16K 1 4; } > "$TMP/o2e.txt"
{ cat "$TMP/a1k"; cat "$TMP/o2e.txt"; } > "$TMP/a-o2e.txt"
[ "$(jq_ "$TMP/o2e.txt" findings.open_linear.value findings.open_linear.confidence)" = "2 medium" ] &&
	[ "$(jq_ "$TMP/a-o2e.txt" findings.open_linear.value findings.open_linear.confidence)" = "2 medium" ]
ok "analyze_rules: two erase sizes that count the same: never surer than the erase block (medium)"
# MiB/s written out, one slow cell in the reference
sed 's#M/s#MiB/s#g' "$TMP/o4m.txt" > "$TMP/mibs.txt"
awk 'NR==10{$0="16KiB\t150K/s"} {print}' "$TMP/o4m.txt" > "$TMP/outlier.txt"
for f in mibs outlier; do
	[ "$(jq_ "$TMP/$f.txt" findings.open_linear.value findings.open_linear.at_least findings.open_linear.at_most)" = \
	  "2 false false" ]
	ok "analyze_rules: sd-4m swept N=1..4 ($f): 2 open"
done
sed 's#M/s#Mb/s#g' "$TMP/o4m.txt" > "$TMP/mbits.txt"
report "$TMP/mbits.txt"
grep -q 'rows with a throughput in "Mb/s" (line 2 and on) were skipped: not a unit --analyze reads' "$TMP/out"
ok "analyze_rules: a throughput unit not read is named, not silently dropped"
# random order: one too many makes only one erase block pay (1.5x)
sweep "sim:size=8G,erase=1M,open=4,random=1,minwrite=64K" 1M 32K 1 5 -r > "$TMP/rand.txt"
[ "$(jq_ "$TMP/rand.txt" findings.open_random.value)" = 1 ]
ok "analyze_rules: a random-order sweep uses the random-order collapse (1.5x): 1"
# one sweep: a fixed 15ms per write is not garbage collection; a fast copy is at most low
{ echo '$ flashbench -O -e 4M -b 16K --open-au-nr=2 /dev/sdb'; "$FB" -O -e 4M -b 16K --open-au-nr=2 "sim:size=8G,open=4,twrite=15ms" 2> /dev/null; } > "$TMP/tw15.txt"
{ echo '$ flashbench -O -e 4M -b 16K --open-au-nr=2 /dev/sdb'; "$FB" -O -e 4M -b 16K --open-au-nr=2 "sim:size=8G,open=1,crate=2G" 2> /dev/null; } > "$TMP/crate.txt"
[ "$(jq_ "$TMP/tw15.txt" findings.open_linear.value)" = null ] &&
	[ "$(jq_ "$TMP/crate.txt" findings.open_linear.confidence)" = low ]
ok "analyze_rules: one sweep: a fixed cost per write decides nothing, a flat sweep is low"
# two cards: headings, devices, JSON device paths; a sweep that starts over
{ echo 'Card A: 8GB, 5 open'; sweep "sim:size=8G,open=5" 4M 16K 1 7; echo 'Card B: 4GB'; sweep sim:sd-4m 4M 16K 1 3; } > "$TMP/2cards.txt"
{ sweep "sim:size=8G,open=5" 4M 16K 1 7; sweep sim:sd-4m 4M 16K 1 3; } > "$TMP/restart.txt"
[ "$(jq_ "$TMP/2cards.txt" "cards#" cards.0.findings.open_linear.value cards.1.findings.open_linear.value findings.open_linear.value)" = \
  "2 5 2 null" ] && [ "$(jq_ "$TMP/restart.txt" findings.open_linear.value)" = null ] &&
	"$FB" --analyze "$TMP/restart.txt" | unwrap | grep -q 'the sweeps at line 2 and line 72 (both --erasesize=4MiB) disagree: 5 against 2'
ok "analyze_rules: two cards in one paste are never one card's sweep"
: > "$TMP/2dev.json"
for d in "sim:size=8G,open=5" sim:sd-4m; do
	for n in 1 2 3 6; do "$FB" -O --open-au-nr=$n --json "$d" 2> /dev/null >> "$TMP/2dev.json"; done
done
[ "$(jq_ "$TMP/2dev.json" "cards#" cards.0.name cards.1.name)" = "2 sim:size=8G,open=5 sim:sd-4m" ]
ok "analyze_rules: --json results of two device paths are two cards"
{ echo 'Card A (Kingston 8GB):'; cat "$TMP/a1k"; echo 'Card B (Transcend 4GB):'; "$FB" -a -b 4k sim:usb-12m; } > "$TMP/2a.txt"
[ "$(jq_ "$TMP/2a.txt" "cards#" findings.page.value cards.0.findings.page.value cards.1.findings.page.value)" = "2 null 16384 16384" ]
ok "analyze_rules: two cards' -a runs do not confirm each other"
{ cat "$TMP/2a.txt"; echo 'Card A, again with 4KiB reads:'; cat "$TMP/a4k"; } > "$TMP/2a2.txt"
report "$TMP/2a2.txt"
[ "$(jq_ "$TMP/2a2.txt" "cards#" cards.0.name)" = "2 Card A (Kingston 8GB)" ] &&
	grep -q '^card "Card A (Kingston 8GB)" (its tables from line 2)$' "$TMP/out" && grep -q 'the run with 4KiB reads (line [0-9]*) shows the same step' "$TMP/out"
ok "analyze_rules: a second heading for the same card (Card A) is that card"

# -------------------------------------------------- find-fat counts in the erase blocks found
dev=sim:size=8G,erase=8M,fat=2
{ "$FB" -a -b 1k $dev; echo '$ sudo flashbench -f -b 64k /dev/mmcblk0'; "$FB" -f -b 64k $dev 2> /dev/null; } > "$TMP/fat8m.txt"
report "$TMP/fat8m.txt"
[ "$(jq_ "$TMP/fat8m.txt" findings.fat_area.value findings.fat_area.confidence)" = "2 medium" ] &&
	grep -q 'that is 16MiB: 2 erase blocks of the 8MiB -a found (the table.s columns are 4MiB)' "$TMP/out"
ok "analyze_rules: find-fat at -e 4M with 8MiB erase blocks: 2 erase blocks, never surer than the erase block"
printf '$ flashbench --find-fat /dev/sdb\n' > "$TMP/alt.txt"
for s in 4MiB 2MiB 1MiB 512KiB 256KiB; do echo "$s 20M/s 10M/s 20M/s 10M/s 20M/s 10M/s"; done >> "$TMP/alt.txt"
report "$TMP/alt.txt"
[ "$(jq_ "$TMP/alt.txt" findings.fat_area.value)" = null ] && grep -q 'differ among themselves too' "$TMP/out"
ok "analyze_rules: find-fat columns that alternate show no single area"
"$FB" -f --fat-nr=4 sim:sd-4m 2> /dev/null > "$TMP/fat4.txt"
[ "$(jq_ "$TMP/fat4.txt" findings.fat_area.value findings.fat_area.confidence)" = "0 low" ]
ok "analyze_rules: find-fat where every column is FAT: 0 only at low"
{ echo '$ sudo flashbench -O -e 4M --open-au-nr=1 /dev/sdb'; "$FB" -O --open-au-nr=1 sim:sd-4m 2> /dev/null; echo; echo 'and the fat test:'; "$FB" -f sim:sd-4m 2> /dev/null; } > "$TMP/o-f.txt"
[ "$(jq_ "$TMP/o-f.txt" "cards#" findings.fat_area.value)" = "0 4" ]
ok "analyze_rules: a find-fat table after an -O command is find-fat, not cards"
# 12MiB erase blocks: -a shows the 4MiB steps; the advice fits both
"$FB" -a -b 1k sim:usb-12m > "$TMP/usb.txt"
report "$TMP/usb.txt"
grep -q 'partition start:  12MiB' "$TMP/out" && grep -q 'right for both' "$TMP/out"
ok "analyze_rules: -a cannot tell 4MiB from 12MiB: the advice is for multiples of 12MiB"

# -------------------------------------------------- units, encodings, bad cells
sed 's/µs/u/g' "$TMP/a1k" > "$TMP/u.txt"
sed 's/\([0-9]\)µs/\1 µs/g' "$TMP/a1k" > "$TMP/space.txt"
printf '\xef\xbb\xbf' | cat - "$TMP/a1k" > "$TMP/bom.txt"
iconv -f UTF-8 -t UTF-16 "$TMP/a1k" > "$TMP/utf16.txt"
for f in u space bom utf16; do
	[ "$(jq_ "$TMP/$f.txt" source.align_rows findings.erase_block.value)" = "20 4194304" ]
	ok "analyze_rules: an -a table written $f reads all 20 rows"
done
"$FB" -a -b 1k --json sim:sd-4m > "$TMP/a.json"
printf '\xef\xbb\xbf' | cat - "$TMP/a.json" > "$TMP/bom.json"
{ echo 'Hi all, here are my results:'; echo; cat "$TMP/a.json"; echo 'Thanks, Bob'; } > "$TMP/prose.json.txt"
sed 's/^/> /' "$TMP/prose.json.txt" > "$TMP/quoted.json.txt"
for f in bom.json prose.json.txt quoted.json.txt; do
	[ "$(jq_ "$TMP/$f" source.json_results findings.erase_block.value)" = "1 4194304" ]
	ok "analyze_rules: a --json result with $f around it is read"
done
"$FB" --auto sim:sd-4m > "$TMP/auto.txt" 2> /dev/null
expect_error "analyze_rules: our own --auto text report is named, with what to give instead" 2 \
	"this is the text report of .flashbench --auto.*add --json" "$FB" --analyze "$TMP/auto.txt"
sed 's/^align 524288\tpre \([^\t]*\)\ton [^\t]*/align 524288\tpre \1\ton inf/' "$TMP/a1k" > "$TMP/inf.txt"
report "$TMP/inf.txt"
grep -q 'line 12: the row for align 524288 has a value that is not a time: row skipped' "$TMP/out"
ok "analyze_rules: a row with a value that is no time is named with its line"
{ echo '$ flashbench -O --open-au-nr=1 /dev/sdb'; "$FB" -O --open-au-nr=1 sim:sd-4m 2> /dev/null | sed '3s/\t.*/\t1e30M\/s/'; } > "$TMP/fast.txt"
report "$TMP/fast.txt"
grep -q 'line 4: a throughput of 1e30M/s is more than any device reached (10 TB/s): row skipped' "$TMP/out"
ok "analyze_rules: a throughput no device reached drops its row, not the file"

# -------------------------------------------------- what reaches the terminal and the JSON
printf 'Size\tFast\t\033[31mRed\033[0m card\t\xff\xfe bad\t\xc3\x28 card\n' > "$TMP/evil.txt"
for s in 4MiB 2MiB 1MiB 512KiB 256KiB 128KiB 64KiB 32KiB 16KiB; do printf '%s\t9M/s\t8M/s\t7M/s\t6M/s\n' $s; done >> "$TMP/evil.txt"
echo 'flashbench -O --open-au-nr=5 --random /dev/sdc' >> "$TMP/evil.txt"
"$FB" --analyze --json "$TMP/evil.txt" > "$TMP/evil.json"
iconv -f UTF-8 -t UTF-8 "$TMP/evil.json" > /dev/null 2>&1 && ! grep -q $'\033' "$TMP/evil.json" &&
	! "$FB" --analyze "$TMP/evil.txt" | grep -q $'[\033\377]' && [ "$(jq_ "$TMP/evil.txt" "cards#")" = 4 ]
ok "analyze_rules: card names with escapes and bad bytes: JSON stays UTF-8, the terminal gets no escape"
# a forged --auto result: no advice from a size no device has
"$FB" --auto --json sim:sd-4m 2> /dev/null > "$TMP/auto.json"
sed '/"erase_block": {/,/"value"/s/"value": [0-9]*/"value": 7/' "$TMP/auto.json" > "$TMP/forged.json"
expect_error "analyze_rules: a forged --auto erase block of 7 bytes is refused" 2 \
	'forged.json:[0-9]+:[0-9]+: field findings.erase_block.value is 7, not a size a device has' "$FB" --analyze "$TMP/forged.json"
# --read-speed rows are not open-au rows, in text and in JSON
{ cat "$TMP/o4m.txt"; echo '$ sudo flashbench -R /dev/sdb'; "$FB" -R sim:sd-4m 2> /dev/null; } > "$TMP/R.txt"
report "$TMP/R.txt"
grep -q -- '--read-speed result at line [0-9]*: [0-9]* rows, not analysed' "$TMP/out" && ! grep -q 'had no --open-au-nr' "$TMP/out"
ok "analyze_rules: a -R table under its command is named, not taken for an open-au table"
"$FB" -R --json sim:sd-4m 2> /dev/null > "$TMP/R.json"
"$FB" --analyze "$TMP/R.json" > "$TMP/out" 2>&1 && grep -q -- '--read-speed result at line' "$TMP/out"
ok "analyze_rules: -R --json is named, not refused"

# -------------------------------------------------- messages the rows bear out
sed 's/\ton [^\t]*\tpost 734µs\tdiff .*/\ton 734µs\tpost 734µs\tdiff 0ns/' "$TMP/a1k" |
	sed 's/^align 8192\t.*/align 8192\tpre 734µs\ton 894µs\tpost 734µs\tdiff 160µs/' > "$TMP/pg.txt"
report "$TMP/pg.txt"
grep -q 'the 8KiB row costs 160µs, but the 16KiB row above it only 0ns' "$TMP/out"
ok "analyze_rules: a page not found says which row breaks the step"
sed 's/^align 4096\t.*/align 4096\tpre 734µs\ton 894µs\tpost 734µs\tdiff 160µs/' "$TMP/a1k" > "$TMP/pg2.txt"
report "$TMP/pg2.txt"
grep -qE '^page size \(read unit\) +16KiB +low$' "$TMP/out" && grep -q 'the 4KiB row below it costs 160µs too' "$TMP/out"
ok "analyze_rules: a row below the page step that costs as much leaves the page low"
grep -E '^align (8192|4096|2048)\s' "$TMP/a1k" > "$TMP/tail.txt"
report "$TMP/tail.txt"
grep -q 'the table stops at 8KiB, too few rows to say whether alignment matters' "$TMP/out"
ok "analyze_rules: three rows do not say that alignment does not matter"
grep -E '^align ' "$TMP/a1k" | sed 's/^align 2097152\t.*/align 3000000\tpre 734µs\ton 1.19ms\tpost 734µs\tdiff 460µs/' > "$TMP/flat.txt"
report "$TMP/flat.txt"
! grep -q '460µs to 460µs' "$TMP/out"
ok "analyze_rules: a range of one time is printed as one time"

# -------------------------------------------------- --plot
sweep sim:sd-4m 4M 16K 1 3 > "$TMP/plot-o.txt"
"$FB" --analyze "$TMP/plot-o.txt" --plot "$TMP/o.svg" -o "$TMP/o.out" && grep -q '<svg' "$TMP/o.svg" && grep -q '^open erase' "$TMP/o.out" &&
	"$FB" --analyze "$TMP/fat4.txt" --plot "$TMP/f.svg" > /dev/null && grep -q 'erase block 3' "$TMP/f.svg"
ok "analyze_rules: --plot draws open-au and find-fat tables"
rm -f "$TMP/r.out"
"$FB" --analyze "$TMP/R.json" --plot "$TMP/r.svg" -o "$TMP/r.out" 2> "$TMP/err"
[ $? -eq 2 ] && [ -s "$TMP/r.out" ] && [ ! -e "$TMP/r.svg" ] && grep -q 'nothing to draw.*the report was written' "$TMP/err"
ok "analyze_rules: a chart with nothing to draw does not lose the -o report"

# tests/cli.sh — the command line on simulated devices: classic output
# formats (golden files), the align steps at the model's page and erase
# sizes, the write tests' knees, --help; bad input is in tests/cases/.
. tests/lib.sh

# ------------------------------------------------------------ goldens
golden "align sd-4m golden" align-sd-4m.out "$FB" -a sim:sd-4m
golden "align sd-4m 1KiB blocks golden" align-sd-4m-b1k.out "$FB" -a -b 1k sim:sd-4m
golden "align usb-12m golden" align-usb-12m.out "$FB" -a sim:usb-12m
golden "align cf-16m golden" align-cf-16m.out "$FB" -a sim:cf-16m
golden "align ssd golden" align-ssd.out "$FB" -a sim:ssd
golden "align with noise golden" align-sd-4m-noise.out "$FB" -a -b 1k sim:sd-4m,noise=0.05,seed=3
golden "open-au usb-12m golden" open-au-usb-12m.out "$FB" -O -e 12M -b 32K --open-au-nr=3 sim:usb-12m
golden "open-au random verbose golden" open-au-random-v.out "$FB" -O -r -v -e 4M -b 64K sim:sd-4m
golden "find-fat sd-4m golden" find-fat-sd-4m.out "$FB" -f -b 64k sim:sd-4m
golden "scatter golden" scatter-sd-4m.out "$FB" -s --scatter-order=5 --scatter-span=2 -b 1M sim:sd-4m
golden "interval golden" interval-sd-4m.out "$FB" -i --interval-order=4 sim:sd-4m
golden "read-speed golden" read-speed-usb-12m-v.out "$FB" -R -v -e 1M -b 64k -c 2 sim:usb-12m

# -o FILE gives the same bytes as stdout, and a pipe works
"$FB" -a sim:sd-4m -o "$TMP/a.out" && "$FB" -a sim:sd-4m | cat > "$TMP/b.out"
if cmp -s "$TMP/a.out" tests/golden/align-sd-4m.out && cmp -s "$TMP/b.out" "$TMP/a.out"; then
	pass "-o FILE and a pipe give the golden output"
else
	fail "-o FILE and a pipe give the golden output" "outputs differ"
fi

# ------------------------------------------------------------ align steps
# to_ns: "1.5ms" -> 1500000
to_ns='function ns(s,  v) { v = s + 0; if (s ~ /µs$/) v *= 1e3; else if (s ~ /ms$/) v *= 1e6;
	else if (s ~ /[0-9]s$/) v *= 1e9; return v }'

# steps NAME SPEC BLOCKSIZE UNIT ERASE2: the diff column is flat below UNIT,
# one step up from UNIT, and higher again from ERASE2 (the power-of-two part
# of the erase size; 0 when alignment must not matter at all)
steps() {
	local name=$1 spec=$2 bs=$3 unit=$4 erase=$5
	if ! "$FB" -a -b "$bs" "$spec" > "$TMP/steps" 2> "$TMP/err"; then
		fail "$name" "$(cat "$TMP/err")"
		return
	fi
	local verdict
	verdict=$(awk -F'\t' -v unit="$unit" -v erase="$erase" "$to_ns"'
		{ a = substr($1, 7) + 0; d = ns(substr($5, 6)) }
		erase == 0 { if (d > 5000 || d < -5000) bad = bad " " a; next }
		a < unit { lo = (d > lo) ? d : lo; if (d > 30000) bad = bad " " a }
		a >= unit && a < erase { if (!mid || d < midmin) midmin = d; if (d > midmax) midmax = d; mid = 1 }
		a >= erase { if (!hi || d < himin) himin = d; hi = 1 }
		END {
			if (bad) { print "unexpected diff at" bad; exit }
			if (erase == 0) { print "ok"; exit }
			if (!mid || midmin < lo + 80000) { print "no page step at " unit; exit }
			if (!hi || himin < midmax + 40000) { print "no erase step at " erase; exit }
			print "ok"
		}' "$TMP/steps")
	if [ "$verdict" = ok ]; then pass "$name"; else fail "$name" "$verdict"; fi
}
steps "align steps: sd-4m at 16KiB and 4MiB" sim:sd-4m 1k 16384 4194304
steps "align steps: sd-4m with noise" sim:sd-4m,noise=0.05,seed=9 1k 16384 4194304
steps "align steps: usb-12m at 16KiB and 4MiB (12MiB = 3x4MiB)" sim:usb-12m 1k 16384 4194304
steps "align steps: usb-12m with noise" sim:usb-12m,noise=0.05,seed=4 1k 16384 4194304
steps "align steps: cf-16m at 16KiB and 16MiB" sim:cf-16m 1k 16384 16777216
steps "align steps: cf-16m with noise" sim:cf-16m,noise=0.05,seed=5 1k 16384 16777216
steps "align steps: ssd has none" sim:ssd 1k 0 0
steps "align steps: ssd with noise has none" sim:ssd,noise=0.05,seed=6 1k 0 0
steps "align steps: 2MiB erase, 32KiB pages" sim:erase=2M,page=32K,planes=1,size=1G 1k 32768 2097152
steps "align steps: 8MiB erase, 4KiB page pairs" sim:erase=8M,page=4K,planes=2,size=4G,noise=0.03 1k 8192 8388608

# ------------------------------------------------------------ write knees
# knee NAME SPEC ERASE BS OPEN [-r]: small-chunk throughput stays within 2x of
# N=1 up to OPEN erase blocks and collapses (over 3x slower) beyond
knee() {
	local name=$1 spec=$2 e=$3 bs=$4 open=$5 r=${6:-} n last base verdict=ok
	for n in $(seq 1 $((open + 2))); do
		last=$("$FB" -O $r -e "$e" -b "$bs" --open-au-nr=$n "$spec" 2>/dev/null | tail -1 | cut -f2)
		last=$(echo "$last" | awk '{ v = $1 + 0; if ($1 ~ /K\/s/) v *= 1e3; else if ($1 ~ /M\/s/) v *= 1e6;
			else if ($1 ~ /G\/s/) v *= 1e9; print v }')
		[ "$n" = 1 ] && base=$last
		if [ "$n" -le "$open" ] && awk -v a="$last" -v b="$base" 'BEGIN { exit !(a * 2 < b) }'; then
			verdict="N=$n slow ($last vs $base)"
		fi
		if [ "$n" -gt "$open" ] && awk -v a="$last" -v b="$base" 'BEGIN { exit !(a * 3 > b) }'; then
			verdict="N=$n not collapsed ($last vs $base)"
		fi
	done
	if [ "$verdict" = ok ]; then pass "$name"; else fail "$name" "$verdict"; fi
}
knee "open-au knee: usb-12m between 3 and 4" sim:usb-12m 12M 32K 3
knee "open-au knee: sd-4m between 2 and 3" sim:sd-4m 4M 16K 2
knee "open-au knee: 5 open AUs, 2MiB erase" sim:erase=2M,open=5,random=2,size=1G 2M 16K 5
knee "open-au knee: 1 open AU with noise" sim:erase=4M,open=1,random=1,noise=0.05,seed=2 4M 16K 1
knee "open-au random knee: usb-12m 1 random" sim:usb-12m 12M 96K 1 -r
knee "open-au random knee: cf-16m 2 random" sim:cf-16m 16M 128K 2 -r
knee "open-au random knee: 3 random of 4" sim:erase=4M,open=4,random=3,size=2G 4M 64K 3 -r

# find-fat: the model's FAT erase blocks are faster at small chunks
"$FB" -f --fat-nr=6 -e 2M -b 16k sim:erase=2M,fat=3,size=1G 2>/dev/null | tail -1 > "$TMP/fat"
if awk -F'\t' '{ for (i = 2; i <= NF; i++) v[i] = $i + 0;
	exit !(v[2] > 2 * v[5] && v[3] > 2 * v[6] && v[4] > 2 * v[7] && v[5] == v[6] && v[6] == v[7]) }' "$TMP/fat"; then
	pass "find-fat shows the 3 FAT erase blocks faster"
else
	fail "find-fat shows the 3 FAT erase blocks faster" "$(cat "$TMP/fat")"
fi

# the write range is announced on stderr before the results
# in one line; the bytes with -v
"$FB" -O -e 4M -b 1M --open-au-nr=3 sim:sd-4m > "$TMP/out" 2> "$TMP/err"
"$FB" -O -v -e 4M -b 1M --open-au-nr=3 sim:sd-4m > /dev/null 2> "$TMP/err-v"
if [ "$(cat "$TMP/err")" = "flashbench: --open-au overwrites 12MiB at 16MiB of sim:sd-4m, 36MiB in all" ] &&
	grep -qx "flashbench:   bytes 16777216 to 29360127 of sim:sd-4m" "$TMP/err-v"; then
	pass "open-au announces the range it overwrites"
else
	fail "open-au announces the range it overwrites" "$(cat "$TMP/err")"
fi

# --progress: the line shows from the first request, however short the run,
# as plain lines when stderr is a file; without it nothing but the announcement
"$FB" -O -e 4M -b 2k --progress sim:sd-4m > /dev/null 2> "$TMP/forced"
if sed -n 2p "$TMP/forced" | grep -qE '^flashbench: --open-au: 0% \(1 of 8190 requests\), 4MiB written, ([0-9ms]+ so far|about [0-9hms]+ left)$' &&
	! grep -q $'[\r\033]' "$TMP/forced"; then
	pass "--progress into a file from the first request"
else
	fail "--progress into a file from the first request" "$(head -c 300 "$TMP/forced")"
fi
"$FB" -O -e 4M -b 2k sim:sd-4m > /dev/null 2> "$TMP/quiet"
if [ "$(wc -l < "$TMP/quiet")" = 1 ] && grep -q "overwrites 8MiB at 16MiB" "$TMP/quiet"; then
	pass "no progress into a file without --progress"
else
	fail "no progress into a file without --progress" "$(head -c 300 "$TMP/quiet")"
fi

# ------------------------------------------------------------ bad input
# (one directory per case in tests/cases/, run by tests/cases.sh; here the
# cases that need more than one command)
expect_error "write test refuses a missing file" 1 "no such device or file" "$FB" -O "$TMP/missing.img"
if [ ! -e "$TMP/missing.img" ]; then pass "a write test never creates a file"; else fail "a write test never creates a file" "created"; fi

if is_root && command -v setpriv > /dev/null; then
	truncate -s 64M "$TMP/private.img" && chmod 600 "$TMP/private.img" && chmod 755 "$TMP"
	expect_error "permission denied suggests root" 1 "permission denied \(run as root" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$FB" -a "$TMP/private.img"
else
	skip "permission denied suggests root" "needs root and setpriv to drop privileges"
fi

# --help is generated from the option, mode and test kind tables; pinned
# here: the short help, what goes with -C, and every option (-v)
golden "--help golden" help.out "$FB" --help
golden "-C --help golden" help-capacity.out "$FB" -C --help
golden "--help -v golden" help-all.out "$FB" --help -v
# the short --help fits a terminal and points to the rest; MODE --help
# lists what goes with MODE and nothing else (from the option table)
help_fits() { # NAME LINES ARGS...: at most LINES lines, none wider than 80 columns
	local name=$1 most=$2 out
	shift 2
	out=$("$FB" "$@") || { fail "$name" "status $?"; return; }
	if [ "$(printf '%s\n' "$out" | wc -l)" -le "$most" ] &&
		printf '%s\n' "$out" | LC_ALL=C.UTF-8 awk 'length > 80 { bad = 1 } END { exit bad }'; then
		pass "$name"
	else
		fail "$name" "$(printf '%s\n' "$out" | wc -l) lines, widest $(printf '%s\n' "$out" |
			LC_ALL=C.UTF-8 awk '{ if (length > w) w = length } END { print w }') columns"
	fi
}
help_fits "--help: at most 45 lines of at most 80 columns" 45 --help
for m in -A -C -a -i -s -O -f -R --program --restore --analyze --compare; do
	help_fits "$m --help: at most 80 columns" 1000 $m --help
done
help_fits "--help -v: at most 80 columns" 1000 --help -v
h=$("$FB" --help)
for want in --auto --capacity --align --open-au --find-fat --program --analyze --compare --restore \
	--preserve --json 'man flashbench' 'flashbench MODE --help'; do
	printf '%s\n' "$h" | grep -q -- "$want" || bad_help="$bad_help no '$want';"
done
printf '%s\n' "$h" | grep -q -- '--open-au-nr\|--max-cache\|--budget' && bad_help="$bad_help a mode's own option;"
[ -z "${bad_help:-}" ] && pass "--help lists the modes and the common options, and points to MODE --help and man" ||
	fail "--help lists the modes and the common options" "$bad_help"
# mode_help NAME ARGS... -- WANT... -- NOT...: ARGS --help lists each WANT and no NOT
mode_help() {
	local name=$1 out bad='' w
	shift
	local -a args=()
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	out=$("$FB" "${args[@]}" --help 2>&1)
	while [ "$1" != -- ]; do printf '%s\n' "$out" | grep -qe "^ .*$1\b" || bad="$bad no $1;"; shift; done
	shift
	for w in "$@"; do printf '%s\n' "$out" | grep -qe "^ .*$w\b" && bad="$bad $w;"; done
	[ -z "$bad" ] && pass "$name" || fail "$name" "$bad"
}
mode_help "-C --help: --max-cache and --preserve, not --open-au-nr nor --budget" -C -- --max-cache --preserve \
	--summary -- --open-au-nr --budget --blocksize --device-changed
mode_help "-A --help: --write and --budget, not --max-cache nor --blocksize" -A -- --write --budget --summary -- \
	--max-cache --blocksize --fat-nr
mode_help "-a --help: --blocksize and --count, not --write nor --open-au-nr" -a -- --blocksize --count --verbose -- \
	--write --open-au-nr --preserve --budget
mode_help "-O --help: --open-au-nr, --random and --preserve, not --fat-nr" -O -- --open-au-nr --random --preserve -- \
	--fat-nr --budget --max-cache
mode_help "--restore --help: --device-changed only" --restore -- --device-changed -- --out --json --preserve
mode_help "--compare --help: the outputs, no device option" --compare -- --out --json --plot -- --blocksize \
	--preserve
want_version=$(sed -n 's/^#define FLASHBENCH_VERSION "\(.*\)"$/flashbench \1/p' lib/version.h)
[ "$("$FB" --version)" = "$want_version" ] && pass "--version" || fail "--version" "$("$FB" --version) vs $want_version"
# the erase helper names itself as it was called (erase here,
# flashbench-erase installed: tests/deb.sh)
ln -s "$ERASE" "$TMP/flashbench-erase"
if [ "$("$ERASE" --version)" = "erase (flashbench) ${want_version#flashbench }" ] &&
	[ "$("$TMP/flashbench-erase" --version)" = "flashbench-erase (flashbench) ${want_version#flashbench }" ] &&
	"$TMP/flashbench-erase" --help | grep -q '^Usage: flashbench-erase DEVICE START LENGTH$'; then
	pass "erase --version and --help use the name it was called by"
else
	fail "erase --version and --help use the name it was called by" "$("$TMP/flashbench-erase" --version 2>&1)"
fi

# a write test announces its range on stderr before its first write; when
# that line cannot be printed (stderr closed or full) it writes nothing and
# exits 1.  A closed stderr is held on /dev/null: the claim lock, journal or
# device opened later never becomes fd 2 and receives the messages.
head -c 64M /dev/urandom > "$TMP/unannounced.img" && truncate -s 256M "$TMP/unannounced.img"
sum0=$(sha256sum < "$TMP/unannounced.img")
for how in closed full; do
	for t in "-O -b 64k -e 4M" "--auto --write"; do
		if [ $how = closed ]; then
			"$FB" $t "$TMP/unannounced.img" > "$TMP/unann.out" 2>&-
		else
			"$FB" $t "$TMP/unannounced.img" > "$TMP/unann.out" 2> /dev/full
		fi
		rc=$?
		if [ $rc = 1 ] && [ "$(sha256sum < "$TMP/unannounced.img")" = "$sum0" ] && [ ! -s "$TMP/unann.out" ]; then
			pass "$t with stderr $how: status 1, nothing written"
		else
			fail "$t with stderr $how: status 1, nothing written" "rc=$rc, $(head -c 200 "$TMP/unann.out")"
		fi
	done
done
# with --preserve, the journal is not left behind either
"$FB" -O -b 64k -e 4M --preserve="$TMP/unann.journal" "$TMP/unannounced.img" > /dev/null 2>&-
rc=$?
[ $rc = 1 ] && [ ! -e "$TMP/unann.journal" ] && [ "$(sha256sum < "$TMP/unannounced.img")" = "$sum0" ] &&
	pass "--preserve with stderr closed: status 1, no journal, nothing written" ||
	fail "--preserve with stderr closed: status 1, no journal, nothing written" "rc=$rc $(ls "$TMP" | grep unann)"
# the message itself where stderr works: a read-only test is not refused
"$FB" -a sim:sd-4m > /dev/null 2>&- && pass "a read-only test runs with stderr closed" ||
	fail "a read-only test runs with stderr closed" "status $?"

# --version (and --help) with an argument after it is a usage error in
# every command, as in flashbench itself
bad=""
for cmd in "$FB" "$ERASE" "bash scripts/report.sh" "bash scripts/open-au-sweep.sh"; do
	for args in "--version extra" "--help extra"; do
		$cmd $args > /dev/null 2>&1
		rc=$?
		[ "$rc" = 2 ] || bad="$bad ${cmd##*/} $args: $rc;"
	done
	$cmd --version > /dev/null 2>&1 || bad="$bad ${cmd##*/} --version alone: $?;"
done
[ -z "$bad" ] && pass "--version or --help with an argument: status 2 in every command" ||
	fail "--version or --help with an argument: status 2 in every command" "$bad"

# -v does what --help says: min/avg/max on -O, -f and -R rows; -a unchanged
if "$FB" -R -v sim:sd-4m 2> /dev/null | head -1 | grep -qP '^4MiB\t[^\t]+\tmin [^\t]+\tavg [^\t]+\tmax ' &&
	"$FB" -O -v --open-au-nr=1 sim:sd-4m 2> /dev/null | head -1 | grep -q 'min .*avg .*max ' &&
	[ "$("$FB" -a sim:sd-4m 2>&1)" = "$("$FB" -a -v sim:sd-4m 2>&1)" ]; then
	pass "-v adds min/avg/max to -R and -O rows, and leaves -a as it is (as --help says)"
else
	fail "-v adds min/avg/max to -R and -O rows, and leaves -a as it is" "$("$FB" -R -v sim:sd-4m 2>&1 | head -1)"
fi

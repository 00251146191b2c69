# tests/output.sh — output files (-o, --plot): written to a temporary file
# and renamed into place only on success, so a failed or stopped run leaves
# the old file as it was and no file behind; device nodes are written in
# place and never removed; an output naming the device under test, or one
# that cannot be written, is refused before anything runs.
. tests/lib.sh

img=$TMP/t.img
truncate -s 64M "$img"
zero_img() { cmp -s -n $((64 << 20)) "$img" /dev/zero; }
# no_leftovers: no temporary file left in $TMP/o
no_leftovers() { [ -z "$(find "$TMP/o" -name '.*' -type f)" ]; }
mkdir -p "$TMP/o"

expect_error "-o naming the file under test is refused" 2 "--out=$img is the device under test \($img\)" \
	"$FB" -a "$img" -o "$img"
[ "$(stat -c %s "$img")" = $((64 << 20)) ] && pass "-o naming the file under test leaves it whole" ||
	fail "-o naming the file under test leaves it whole" "size now $(stat -c %s "$img")"
ln -s "$img" "$TMP/alias.img"
expect_error "-o naming the file under test through a symlink is refused" 2 "is the device under test" \
	"$FB" -a "$img" -o "$TMP/alias.img"
expect_error "--plot naming the file under test is refused" 2 "--plot=$img is the device under test" \
	"$FB" -O "$img" --plot "$img"
expect_error "-O with --plot into a missing directory is refused before writing" 2 \
	"--plot=/nonexistent/x.svg: directory /nonexistent: " "$FB" -O "$img" --plot /nonexistent/x.svg
zero_img && pass "a refused --plot writes nothing to the device" ||
	fail "a refused --plot writes nothing to the device" "the image changed"
expect_error "-o into a missing directory is refused" 2 "--out=$TMP/none/x: directory $TMP/none: " \
	"$FB" -a sim:sd-4m -o "$TMP/none/x"
expect_error "-o naming a directory is refused" 2 "--out=$TMP is a directory" "$FB" -a sim:sd-4m -o "$TMP"
expect_error "--preserve into a missing directory is refused" 2 "--preserve=/nonexistent/j: directory /nonexistent: " \
	"$FB" -O --preserve=/nonexistent/j "$img"
zero_img && pass "a refused --preserve writes nothing to the device" ||
	fail "a refused --preserve writes nothing to the device" "the image changed"

# -o through a symlink writes the file it points to and keeps the link and
# the file's mode; no temporary file is left
echo old > "$TMP/o/keep"
chmod 640 "$TMP/o/keep"
ln -s keep "$TMP/o/link"
if "$FB" -a sim:sd-4m -o "$TMP/o/link" 2> "$TMP/err" && [ -L "$TMP/o/link" ] &&
	cmp -s "$TMP/o/keep" tests/golden/align-sd-4m.out && [ "$(stat -c %a "$TMP/o/keep")" = 640 ] && no_leftovers; then
	pass "-o through a symlink writes its target, keeps link and mode"
else
	fail "-o through a symlink writes its target, keeps link and mode" "$(cat "$TMP/err") $(ls -la "$TMP/o")"
fi

# a run stopped half-way (SIGTERM, seen after the first progress line)
# before any row was complete leaves the old -o file and --plot file as
# they were, and nothing else, says so, and ends by the signal (143)
cat > "$TMP/long.fbp" <<'PROG'
format interval
unit-double 512 512 keep
  len 512
    repeat 99000000
      read
PROG
echo old > "$TMP/o/res"
echo old > "$TMP/o/p.svg"
"$FB" --program "$TMP/long.fbp" --progress -o "$TMP/o/res" --plot "$TMP/o/p.svg" sim:sd-4m 2> "$TMP/long.err" &
pid=$!
if wait_for "the first progress line" 60 grep -q requests "$TMP/long.err" 2> "$TMP/werr"; then
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	if [ "$rc" = 143 ] && [ "$(cat "$TMP/o/res")" = old ] && [ "$(cat "$TMP/o/p.svg")" = old ] && no_leftovers &&
		grep -q "^flashbench: stopped by a signal (SIGTERM) after 0 complete rows; .*--out=$TMP/o/res was left as it was; nothing was written" "$TMP/long.err"; then
		pass "a stopped run leaves -o and --plot files as they were"
	else
		fail "a stopped run leaves -o and --plot files as they were" "exit $rc; $(tail -1 "$TMP/long.err"); $(ls -a "$TMP/o")"
	fi
else
	kill -TERM "$pid" 2> /dev/null
	wait "$pid"
	fail "a stopped run leaves -o and --plot files as they were" "$(cat "$TMP/werr")"
fi

# a non-regular output is written in place and never removed
if "$FB" -a sim:sd-4m -o /dev/null --plot /dev/null 2> "$TMP/err" && [ -c /dev/null ]; then
	pass "-o and --plot /dev/null work and leave it"
else
	fail "-o and --plot /dev/null work and leave it" "$(cat "$TMP/err")"
fi
if command -v mkfifo > /dev/null && mkfifo "$TMP/fifo"; then
	# the reader is there before the run (a FIFO nobody reads is refused):
	# this shell holds it open read-write, so its own open for reading
	# returns at once, and hands that to cat: cat reads from before the run
	# however late it starts (a cat left to open the FIFO itself could come
	# after the run and the shell's close, and wait for a writer for ever)
	exec 3<> "$TMP/fifo"
	exec 4< "$TMP/fifo"
	cat <&4 4<&- 3<&- > "$TMP/fromfifo" &
	reader=$!
	exec 4<&-
	"$FB" -a sim:sd-4m -o "$TMP/fifo" 2> "$TMP/err" 3<&-
	rc=$?
	exec 3<&-
	wait "$reader"
	if [ "$rc" = 0 ] && [ -p "$TMP/fifo" ] && cmp -s "$TMP/fromfifo" tests/golden/align-sd-4m.out; then
		pass "-o into a FIFO writes in place and keeps it"
	else
		fail "-o into a FIFO writes in place and keeps it" "exit $rc, $(cat "$TMP/err")"
	fi
else
	skip "-o into a FIFO writes in place and keeps it" "cannot make a FIFO here"
fi
if is_root; then
	# a full device (a copy of /dev/full's node): the error is reported,
	# the node stays, and the -o file of the same run is left as it was
	mknod "$TMP/full" c 1 7
	echo old > "$TMP/o/res"
	expect_error "--plot to a full device reports the error" 1 "--plot=$TMP/full: cannot write it: No space left" \
		"$FB" -a sim:sd-4m -o "$TMP/o/res" --plot "$TMP/full"
	if [ -c "$TMP/full" ] && [ "$(cat "$TMP/o/res")" = old ] && no_leftovers; then
		pass "--plot to a full device keeps the node and the old -o file"
	else
		fail "--plot to a full device keeps the node and the old -o file" "$(ls -la "$TMP" "$TMP/o")"
	fi
else
	skip "--plot to a full device reports the error" "needs root to make a device node"
	skip "--plot to a full device keeps the node and the old -o file" "needs root to make a device node"
fi

# an output naming a file the run reads (--compare's, --analyze's,
# --program's), directly, through a hard link or a symlink, is refused
# before anything is read or run, and the input stays as it was; so are -o
# and --plot naming the same file
"$FB" -a --json sim:sd-4m > "$TMP/o/u.json"
cp "$TMP/o/u.json" "$TMP/o/c.json"
cp "$TMP/o/u.json" "$TMP/o/orig.json"
ln "$TMP/o/c.json" "$TMP/o/hard.json"
ln -s c.json "$TMP/o/sym.json"
printf 'len 4k\n  read\n' > "$TMP/o/two.fbp"
cp "$TMP/o/two.fbp" "$TMP/o/two.orig"
expect_error "--plot naming a --compare input is refused" 2 \
	"^flashbench: --plot=$TMP/o/u.json names an input file \($TMP/o/u.json\)" \
	"$FB" --compare "$TMP/o/u.json" "$TMP/o/c.json" --plot "$TMP/o/u.json"
expect_error "-o naming a --compare input is refused" 2 "^flashbench: --out=$TMP/o/c.json names an input file" \
	"$FB" --compare "$TMP/o/u.json" "$TMP/o/c.json" -o "$TMP/o/c.json"
expect_error "-o naming a hard link of a --compare input is refused" 2 \
	"^flashbench: --out=$TMP/o/hard.json names an input file \($TMP/o/c.json\)" \
	"$FB" --compare "$TMP/o/u.json" "$TMP/o/c.json" -o "$TMP/o/hard.json"
expect_error "--plot naming the file behind a symlinked --compare input is refused" 2 \
	"^flashbench: --plot=$TMP/o/c.json names an input file \($TMP/o/sym.json\)" \
	"$FB" --compare "$TMP/o/u.json" "$TMP/o/sym.json" --plot "$TMP/o/c.json"
expect_error "-o naming the --analyze input is refused" 2 "^flashbench: --out=$TMP/o/u.json names an input file" \
	"$FB" --analyze "$TMP/o/u.json" -o "$TMP/o/u.json"
expect_error "-o naming the --program file is refused" 2 "^flashbench: --out=$TMP/o/two.fbp names an input file" \
	"$FB" --program "$TMP/o/two.fbp" sim:sd-4m -o "$TMP/o/two.fbp"
if cmp -s "$TMP/o/u.json" "$TMP/o/orig.json" && cmp -s "$TMP/o/c.json" "$TMP/o/orig.json" &&
	cmp -s "$TMP/o/two.fbp" "$TMP/o/two.orig" && no_leftovers; then
	pass "refused outputs leave their inputs as they were"
else
	fail "refused outputs leave their inputs as they were" "$(ls -la "$TMP/o")"
fi
rm -f "$TMP/o/x.txt"
expect_error "-o and --plot naming the same new file are refused" 2 \
	"^flashbench: --out=$TMP/o/x.txt and --plot=$TMP/o/./x.txt name the same file" \
	"$FB" -a sim:sd-4m -o "$TMP/o/x.txt" --plot "$TMP/o/./x.txt"
[ ! -e "$TMP/o/x.txt" ] && pass "refused -o and --plot create nothing" ||
	fail "refused -o and --plot create nothing" "$TMP/o/x.txt exists"
expect_error "-o and --preserve naming the same file are refused" 2 \
	"^flashbench: --out=$TMP/o/j and --preserve=$TMP/o/j name the same file" \
	"$FB" -O -o "$TMP/o/j" --preserve="$TMP/o/j" "$img"
zero_img && pass "a refused -o with --preserve writes nothing to the device" ||
	fail "a refused -o with --preserve writes nothing to the device" "the image changed"

# a FIFO that nobody reads is refused at once, not waited on; so is a named
# FIFO as --analyze's input (a <(command) pipe is read as usual)
mkfifo "$TMP/lonely"
expect_error "-o into a FIFO nobody reads is refused" 2 \
	"^flashbench: --out=$TMP/lonely is a FIFO that nobody reads: start its reader first" \
	timeout 60 "$FB" -a sim:sd-4m -o "$TMP/lonely"
expect_error "--analyze of a named FIFO is refused" 2 "^flashbench: --analyze=$TMP/lonely is a named FIFO" \
	timeout 60 "$FB" --analyze "$TMP/lonely"
if "$FB" --analyze <(cat "$TMP/o/u.json") > "$TMP/subst.out" 2> "$TMP/err" && grep -q "read 16 align rows" "$TMP/subst.out"; then
	pass "--analyze reads a <(command) pipe"
else
	fail "--analyze reads a <(command) pipe" "$(cat "$TMP/err")"
fi
# a reader that holds the FIFO but does not read: a signal ends the run,
# saying so (not "Interrupted system call")
# (a process that only waits shows whether this kernel says where processes wait)
tail -f /dev/null &
probe=$!
wait_for "a waiting process's wchan" 10 grep -q '[a-z]' "/proc/$probe/wchan" 2> /dev/null
shows_wchan=$?
kill "$probe"
wait "$probe" 2> /dev/null
if [ "$shows_wchan" = 0 ]; then
	exec 3<> "$TMP/lonely"
	"$FB" -s --scatter-order 14 -b 512 sim:sd-4m -o "$TMP/lonely" 2> "$TMP/stuck.err" 3<&- &
	pid=$!
	if wait_for "the run to wait for its reader" 60 grep -Eq 'poll|pipe' "/proc/$pid/wchan" 2> "$TMP/werr"; then
		kill -TERM "$pid"
		wait "$pid"
		rc=$?
		# the lines it says went out are those the FIFO holds, whole
		got=$(python3 -c "import os, sys
os.set_blocking(3, False)
data = b''
while True:
    try:
        chunk = os.read(3, 65536)
    except BlockingIOError:
        break
    if not chunk:
        break
    data += chunk
print(data.count(b'\\n'))" 2> /dev/null)
		if [ "$rc" = 143 ] && [ "$(tail -1 "$TMP/stuck.err")" = "flashbench: stopped by a signal (SIGTERM) while writing the results to $TMP/lonely: $got lines of them went out, the rest did not; nothing was written to sim:sd-4m" ]; then
			pass "a run stopped while its FIFO is full names the signal, the lines that went out and the device untouched"
		else
			fail "a run stopped while its FIFO is full names the signal, the lines that went out and the device untouched" "exit $rc, $got lines: $(cat "$TMP/stuck.err")"
		fi
	else
		kill -KILL "$pid"
		wait "$pid"
		fail "a run stopped while its FIFO is full says it was stopped by a signal" "$(cat "$TMP/werr")"
	fi
	exec 3<&-
else
	skip "a run stopped while its FIFO is full says it was stopped by a signal" "/proc/PID/wchan does not tell where a process waits"
fi

# every JSON document says its format first ("format": N, as smartctl's
# json_format_version); a later format is refused by the readers, naming
# the field's place (F: this flashbench's format, lib/version.h)
F=$(sed -n 's/^#define FLASHBENCH_JSON_FORMAT //p' lib/version.h)
L=$((F + 1))
JP=${FB%/flashbench}/tests/jsonpath
bad=""
for run in "-a sim:sd-4m" "-O sim:sd-4m" "--auto sim:usb-12m" "--analyze tests/real/seed-001-sandisk-cf-32g.txt"; do
	# shellcheck disable=SC2086 # the options
	"$FB" $run --json > "$TMP/f.json" 2> /dev/null
	[ "$(sed -n 2p "$TMP/f.json")" = "  \"format\": $F," ] && [ "$("$JP" format < "$TMP/f.json")" = "$F" ] ||
		bad="$bad $run: $(sed -n 2p "$TMP/f.json");"
done
"$FB" --auto --json sim:sd-4m > "$TMP/a.json" 2> /dev/null
"$FB" --compare --json "$TMP/a.json" "$TMP/a.json" > "$TMP/f.json" 2> /dev/null
[ "$("$JP" format < "$TMP/f.json")" = "$F" ] || bad="$bad --compare;"
[ -z "$bad" ] && pass "JSON: every document starts with \"format\": N" || fail "JSON: every document starts with \"format\": N" "$bad"
sed "s/^  \"format\": $F,/  \"format\": $L,/" "$TMP/a.json" > "$TMP/later.json"
expect_error "JSON: --analyze refuses a later format" 2 \
	"^flashbench: $TMP/later.json:2:13: written in JSON format $L, and this flashbench \(.*\) reads formats up to $F: read it with a newer flashbench\$" \
	"$FB" --analyze "$TMP/later.json"
expect_error "JSON: --compare refuses a later format" 2 "later.json:2:13: written in JSON format $L" \
	"$FB" --compare "$TMP/a.json" "$TMP/later.json"
# results saved before the field (format 0) are still read
sed "/^  \"format\": $F,\$/d" "$TMP/a.json" > "$TMP/older.json"
"$FB" --analyze "$TMP/older.json" > "$TMP/older.out" 2>&1 && grep -qE '^erase block size +4MiB' "$TMP/older.out" &&
	pass "JSON: a result without \"format\" (older) is still read" ||
	fail "JSON: a result without \"format\" (older) is still read" "$(head -3 "$TMP/older.out")"

# a format no flashbench writes (0, negative) is named as such; a huge
# one is a later format, not "not a whole number"
sed "s/^  \"format\": $F,/  \"format\": 0,/" "$TMP/a.json" > "$TMP/zero.json"
sed "s/^  \"format\": $F,/  \"format\": -1,/" "$TMP/a.json" > "$TMP/neg.json"
sed "s/^  \"format\": $F,/  \"format\": 99999999999999999999,/" "$TMP/a.json" > "$TMP/huge.json"
expect_error "JSON: format 0 is refused: no flashbench writes it" 2 "zero.json:2:13: field format is 0, which no flashbench writes" \
	"$FB" --analyze "$TMP/zero.json"
expect_error "JSON: format -1 is refused: no flashbench writes it" 2 "neg.json:2:13: field format is -1, which no flashbench writes" \
	"$FB" --analyze "$TMP/neg.json"
expect_error "JSON: a huge format is a later one" 2 "huge.json:2:13: written in JSON format 100000000000000000000, and" \
	"$FB" --analyze "$TMP/huge.json"

# a results file that cannot be written (here: too large for the file size
# limit) is named with what became of it: a new one was never made, an
# existing one was left as it was
rm -f "$TMP/nope.svg"
echo old > "$TMP/old.svg"
for f in nope old; do
	(trap '' XFSZ; ulimit -f 4; "$FB" -a sim:sd-4m --plot "$TMP/$f.svg" > /dev/null 2> "$TMP/$f.err")
done
if grep -qx "flashbench: --plot=$TMP/nope.svg: cannot write it: File too large (no file was made)" "$TMP/nope.err" &&
	[ ! -e "$TMP/nope.svg" ] && [ "$(cat "$TMP/old.svg")" = old ] &&
	grep -qx "flashbench: --plot=$TMP/old.svg: cannot write it: File too large (it was left as it was)" "$TMP/old.err"; then
	pass "a --plot that cannot be written: 'no file was made' for a new one, 'left as it was' for an old one"
else
	fail "a --plot that cannot be written: what became of it" "$(cat "$TMP/nope.err" "$TMP/old.err")"
fi

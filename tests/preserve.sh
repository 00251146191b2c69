# tests/preserve.sh — --preserve on real loop devices (needs root): every
# write test leaves every byte as it was; SIGKILL at each phase of a run
# followed by --restore, and SIGINT alone, always give the device back
# intact; damaged journals give back every good record, name what they could
# not, and are kept; only a torn last record is skipped; what is not a
# journal is never removed; the index of unfinished journals follows the
# medium under a new name; the journal refuses to go where it would do harm.
. tests/lib.sh

ALL="preserve: open-au|preserve: open-au random|preserve: find-fat|preserve: auto --write"
ALL="$ALL|preserve: SIGKILL then --restore|preserve: SIGINT restores by itself"
ALL="$ALL|restore: a bad middle record is named, the rest put back|restore: a bad first record header"
ALL="$ALL|restore: a record length over the limit, checksums valid|restore: a journal cut short"
ALL="$ALL|restore: torn last record|restore: twice (first)|restore: twice (second says the journal is gone)"
ALL="$ALL|restore: a FIFO is not a journal|restore: a directory is not a journal|restore: a short file is kept"
ALL="$ALL|restore: a character device is kept|restore: other data is kept"
ALL="$ALL|restore: nothing that is not a restored journal is removed"
ALL="$ALL|preserve: the index refuses a write test under a new name|restore: after the device node changed"
ALL="$ALL|restore: another medium is refused|restore: --device-changed restores after a warning"
ALL="$ALL|preserve: the index refuses while a journal is missing"
ALL="$ALL|preserve: refuses an unfinished journal|preserve: refuses a journal on tmpfs"
ALL="$ALL|preserve: refuses a journal without room"
ALL="$ALL|preserve: refuses a simulated device"
ALL="$ALL|restore: a record past the end names its range|restore: a record cut short without an index entry is kept|restore: overlapping records: the earliest wins"
ALL="$ALL|preserve: the index refuses the file behind a loop device|restore: through the file behind the loop device"
ALL="$ALL|preserve: the index refuses a loop device over the file|restore: through a loop device over the file"
ALL="$ALL|preserve: an existing file is not taken for a journal|preserve: /dev/null is not taken for a journal"
ALL="$ALL|preserve: a FIFO is not taken for a journal|preserve: a directory is not taken for a journal"
ALL="$ALL|preserve: the device itself is not taken for a journal|preserve: a dangling symlink is refused"
ALL="$ALL|preserve: refused journal paths are left as they were"
is_root || skip_all "needs root for loop devices"
command -v losetup > /dev/null || skip_all "losetup is not installed (util-linux)"


# random but repeatable contents
fill() { # fill FILE MIB SEED
	if command -v python3 > /dev/null; then
		python3 -c "
import random, sys
random.seed($3)
for i in range($2):
    sys.stdout.buffer.write(random.randbytes(1 << 20))" > "$1"
	else
		head -c $(($2 << 20)) /dev/urandom > "$1"
	fi
}
digest() { sha256sum < "$1" | cut -c1-16; }

cd "$TMP" || exit 1
fill small.img 64 1
attach small.img || skip_all "cannot attach a loop device here"
L=$DEV
ORIG=$(digest "$L")

# ------------------------------------------------------------ every test
kept() { # kept NAME ARGS...: a preserving run leaves the device unchanged
	local name=$1
	shift
	if ! "$FB" "$@" --preserve "$L" > out 2> err; then
		fail "$name" "$(tr '\n' ' ' < err)"
	elif [ "$(digest "$L")" != "$ORIG" ]; then
		fail "$name" "the device changed"
	elif ! grep -q "put back .* and verified" err || ls ./*.journal > /dev/null 2>&1; then
		fail "$name" "no restore reported, or a journal left: $(tr '\n' ' ' < err)"
	else
		pass "$name"
	fi
}
kept "preserve: open-au" -O -e 4M -b 256k --open-au-nr=3
kept "preserve: open-au random" -O -r -e 2M -b 128k
kept "preserve: find-fat" -f -e 1M -b 256k --fat-nr=4

fill big.img 320 2
attach big.img
LB=$DEV
BIG=$(digest "$LB")
# A loop device has no flash behind it: on a loaded machine the read phase
# may take noise for an erase block too large for --auto --write on 320 MiB,
# which then refuses before writing.  That is not what this test is about,
# so it says skipped (after checking nothing was written), never passed.
"$FB" -A --write --preserve="$TMP/auto.journal" "$LB" > out 2> err
rc=$?
if [ $rc = 0 ] && [ "$(digest "$LB")" = "$BIG" ] && grep -q "put back" err && [ ! -e "$TMP/auto.journal" ] &&
	grep -q '^written: ' out; then
	pass "preserve: auto --write"
elif [ $rc = 2 ] && grep -q 'too small for --auto --write' err && [ "$(digest "$LB")" = "$BIG" ] &&
	[ ! -e "$TMP/auto.journal" ]; then
	skip "preserve: auto --write" "the reads on this loop device showed a large erase block (noise on a loaded machine), so --auto --write refused; nothing was written"
else
	fail "preserve: auto --write" "status $rc: $(tail -3 err | tr '\n' ' ')"
fi

# ------------------------------------------------------------ fault injection
# Each trial stops a run at an event of its life, never after a time: its
# journal created, a first piece saved, everything saved (the "saved" line),
# the device changed (writing).  How fast the machine is only moves where in
# that phase the signal lands; every trial must end with the device as it was.
run_args=(-O -e 2M -b 2k --open-au-nr=2)
j=flashbench-$(basename "$L").journal
at16() { dd if="$L" iflag=direct bs=1M skip=16 count=1 status=none | sha256sum; }
ORIG16=$(at16)
jsize_ge() { [ -e "$j" ] && [ "$(stat -c %s "$j")" -ge "$1" ]; }
written() { [ "$(at16)" != "$ORIG16" ]; }
# event_or_end PID EVENT...: PID has ended, or EVENT happened
event_or_end() { local pid=$1; shift; ! kill -0 "$pid" 2> /dev/null || "$@"; }
EVENTS=("jsize_ge 512" "jsize_ge 1049120" "grep -q saved trial.err" "written")
trial() { # trial SIGNAL N: start a run, send SIGNAL at event N % 4
	local ev=${EVENTS[$(($2 % ${#EVENTS[@]}))]} pid
	"$FB" "${run_args[@]}" --preserve "$L" > /dev/null 2> trial.err &
	pid=$!
	# shellcheck disable=SC2086 # the event is a command and its arguments
	wait_for "$ev (trial $2)" 120 event_or_end "$pid" $ev
	kill -"$1" "$pid" 2> /dev/null
	wait "$pid"
}
trials=0 failures=0 restored=0
for i in $(seq 0 19); do
	trial KILL "$i" 2> /dev/null
	if [ -e "$j" ]; then
		"$FB" --restore "$j" "$L" > restore.out 2>&1 || echo "restore failed: $(cat restore.out)"
		restored=$((restored + 1))
	fi
	trials=$((trials + 1))
	[ "$(digest "$L")" = "$ORIG" ] || { failures=$((failures + 1)); echo "SIGKILL trial $i (${EVENTS[$((i % 4))]}): device differs"; }
done
echo "SIGKILL fault injection: $trials trials, $restored needed --restore, $failures failures"
[ $failures = 0 ] && pass "preserve: SIGKILL then --restore" || fail "preserve: SIGKILL then --restore" "$failures of $trials"

trials=0 failures=0
for i in $(seq 0 9); do
	trial INT "$i"
	rc=$?
	trials=$((trials + 1))
	if [ "$(digest "$L")" != "$ORIG" ] || ls ./*.journal "$FLASHBENCH_STATE_DIR"/*.entry > /dev/null 2>&1; then
		failures=$((failures + 1))
		echo "SIGINT trial $i: rc $rc, $(tr '\n' ' ' < trial.err)"
		rm -f ./*.journal "$FLASHBENCH_STATE_DIR"/*.entry
	elif [ $rc != 0 ] && ! grep -Eq "stopped by a signal.*; (the saved data were put back and verified|nothing needed putting back)$" trial.err; then
		failures=$((failures + 1))
		echo "SIGINT trial $i: rc $rc without the message: $(tr '\n' ' ' < trial.err)"
	elif [ $((i % 4)) = 3 ] && [ $rc != 0 ] && ! grep -q "put back .* and verified" trial.err; then
		# stopped once it had written: what it wrote over went back
		failures=$((failures + 1))
		echo "SIGINT trial $i: stopped after writing, but no put-back: $(tr '\n' ' ' < trial.err)"
	fi
done
echo "SIGINT fault injection: $trials trials, $failures failures"
[ $failures = 0 ] && pass "preserve: SIGINT restores by itself" || fail "preserve: SIGINT restores by itself" "$failures of $trials"

# ------------------------------------------------------------ damaged journals
# A run killed while it reads for ever after writing leaves a journal of 8
# records of 1 MiB (device bytes 8 to 16 MiB), all of them overwritten.
printf '%s\n' seq '  off 8M' '    len 1M' '      pattern 0x5a' '        off-linear 1M 8' '          write' \
	'  len 16M' '    repeat 1000000' '      read' > hold.fbp
head -c 8M /dev/zero | tr '\0' '\132' > z8
dd if="$L" iflag=direct of=orig.img bs=1M status=none
mib() { dd if="$1" iflag=direct bs=1M skip="$2" count=1 status=none | sha256sum; }
Z1=$(head -c 1M z8 | sha256sum)
regions() { # one letter per MiB 8..15: o as before, x overwritten, ? else
	local m s
	for m in 8 9 10 11 12 13 14 15; do
		s=$(mib "$L" $m)
		if [ "$s" = "$(mib orig.img $m)" ]; then printf o
		elif [ "$s" = "$Z1" ]; then printf x
		else printf '?'; fi
	done
}
overwritten_all() { [ "$(regions)" = xxxxxxxx ]; }
held() { # held JOURNAL [DEVICE]: leave a killed run's journal of 8 records
	local pid
	rm -f "$1"
	"$FB" --program hold.fbp --write --preserve="$1" "${2:-$L}" > /dev/null 2> held.err &
	pid=$!
	wait_for "the program's writes" 120 event_or_end "$pid" overwritten_all
	kill -KILL "$pid" 2> /dev/null
	wait "$pid" 2> /dev/null
	[ -s "$1" ] && overwritten_all
}
R() { echo $((512 + $1 * (1048576 + 32))); } # where record N starts
flip() { # flip FILE POS: invert one byte
	local b
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	# shellcheck disable=SC2059 # the format is the byte
	printf "$(printf '\\%03o' $((255 - b)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
# restore_case NAME JOURNAL STATUS PATTERN REGIONS [DEVICE]: --restore JOURNAL exits
# STATUS with one line matching PATTERN (stderr on failure, else stdout),
# (on DEVICE, default $L) leaves MiB 8..15 as REGIONS, and keeps the journal and its index entry
# unless it exits 0 (the index entry only without NO_ENTRY=1)
restore_case() {
	local name=$1 jr=$2 want=$3 pat=$4 reg=$5 rc got
	"$FB" --restore "$jr" "${6:-$L}" > out 2> err
	rc=$?
	got=$(regions)
	if [ $rc != "$want" ]; then fail "$name" "exit $rc, want $want: $(cat err)"
	elif [ "$want" != 0 ] && { [ "$(wc -l < err)" != 1 ] || ! grep -Eq -- "$pat" err; }; then
		fail "$name" "message '$(cat err)' does not match '$pat'"
	elif [ "$want" = 0 ] && ! grep -Eq -- "$pat" out; then fail "$name" "'$(cat out)' does not match '$pat'"
	elif [ "$got" != "$reg" ]; then fail "$name" "device MiB 8..15 are $got, want $reg"
	elif [ "$want" != 0 ] && { [ ! -s "$jr" ] ||
		{ [ -z "${NO_ENTRY:-}" ] && ! ls "$FLASHBENCH_STATE_DIR"/*.entry > /dev/null 2>&1; }; }; then
		fail "$name" "the journal or its index entry is gone"
	elif [ "$want" = 0 ] && [ -e "$jr" ]; then fail "$name" "the journal is still there"
	else pass "$name"; fi
}
setup() { # setup COPY: the device overwritten, the index as the run left it
	cp full.journal "$1"
	rm -rf "$FLASHBENCH_STATE_DIR" && cp -r state.saved "$FLASHBENCH_STATE_DIR"
	dd if=z8 of="$L" bs=1M seek=8 oflag=direct conv=notrunc status=none
}
DAMAGED="a bad middle record is named, the rest put back|a bad first record header|a journal cut short"
DAMAGED="$DAMAGED|a record length over the limit, checksums valid|torn last record|twice (first)"
DAMAGED="$DAMAGED|twice (second says the journal is gone)"
if held full.journal; then
	cp -r "$FLASHBENCH_STATE_DIR" state.saved
	setup mid.journal
	flip mid.journal $(($(R 2) + 32 + 100))
	restore_case "restore: a bad middle record is named, the rest put back" mid.journal 1 \
		"put back 7340032 bytes in 7 ranges and verified them, but could not restore bytes 10485760 to 11534335 \(the record's data checksum does not match\); the journal is kept" \
		ooxooooo
	setup first.journal
	flip first.journal $(($(R 0) + 8))
	restore_case "restore: a bad first record header" first.journal 1 \
		"could not restore an unknown range \(journal bytes 512 to 1049119: the record's header checksum does not match\)" \
		xooooooo
	setup len.journal
	CRC_PY='
import struct, sys
def crc32c(data):
    crc = 0xffffffff
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82f63b78 if crc & 1 else 0)
    return crc ^ 0xffffffff'
	# patch_field JOURNAL POS AT VALUE: the record header at POS gets the
	# 8-byte VALUE at byte AT (8: offset, 16: length), its checksum redone
	patch_field() {
		python3 -c "$CRC_PY"'
path, pos, at, value = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
with open(path, "r+b") as f:
    f.seek(pos)
    r = bytearray(f.read(32))
    r[at:at + 8] = struct.pack("<Q", value)
    r[28:32] = struct.pack("<I", crc32c(bytes(r[:28])))
    f.seek(pos)
    f.write(r)
' "$@"
	}
	if command -v python3 > /dev/null; then
		patch_field len.journal "$(R 3)" 16 $((2 << 20))   # 2 MiB: over the header limit
		restore_case "restore: a record length over the limit, checksums valid" len.journal 1 \
			"could not restore an unknown range \(journal bytes 3146336 to 4194943: the record's length or offset breaks the header's limits\)" \
			oooxoooo
	else
		skip "restore: a record length over the limit, checksums valid" "python3 is not installed"
	fi
	# a record whose intact header claims a range past the device's end:
	# named by that range, not as an unknown one
	setup past.journal
	if command -v python3 > /dev/null; then
		patch_field past.journal "$(R 3)" 8 $(((64 << 20) - 512))   # 1 MiB from 512 bytes before the end
		restore_case "restore: a record past the end names its range" past.journal 1 \
			"put back 7340032 bytes in 7 ranges and verified them, but could not restore bytes 67108352 to 68156927 \(the record's range ends past the end of the device\); the journal is kept" \
			oooxoooo
	else
		skip "restore: a record past the end names its range" "python3 is not installed"
	fi
	setup cut.journal
	truncate -s $(($(R 5) + 1000)) cut.journal
	restore_case "restore: a journal cut short" cut.journal 1 \
		"put back 5242880 bytes in 5 ranges .* could not restore the ranges of its last 3 records \(the journal was cut short: the index says 8 were saved\)" \
		oooooxxx
	# the state of a run killed while saving: the index still says 0 records
	setup torn.journal
	truncate -s $(($(R 5) + 1000)) torn.journal
	sed -i 's/^saved .*/saved 0 0/' "$FLASHBENCH_STATE_DIR"/*.entry
	restore_case "restore: torn last record" torn.journal 0 \
		"restored 5242880 bytes \(5MiB\) in 5 ranges .*journal removed" oooooxxx
	grep -q "last record was incomplete" out || fail "restore: torn last record" "no word on the torn record: $(cat out)"
	# cut inside its third record, with no index entry to say how many
	# records were synced: the cut record cannot be accounted for
	setup nocut.journal
	truncate -s $(($(R 2) + 1000)) nocut.journal
	rm -f "$FLASHBENCH_STATE_DIR"/*.entry
	NO_ENTRY=1 restore_case "restore: a record cut short without an index entry is kept" nocut.journal 1 \
		"put back 2097152 bytes in 2 ranges and verified them, but could not restore bytes 10485760 to 11534335 \(the journal ends inside its record: either the run was stopped while saving it, before overwriting it, or the journal was cut later and it is lost; without the journal's index entry this cannot be told\); the journal is kept" \
		ooxxxxxx
	# a hostile journal: the first record (the original MiB 8), then zeros
	# for the first 4 KiB of it
	setup overlap.journal
	rm -f "$FLASHBENCH_STATE_DIR"/*.entry
	if command -v python3 > /dev/null; then
		python3 -c "$CRC_PY"'
path, end = sys.argv[1], int(sys.argv[2])
with open(path, "r+b") as f:
    f.truncate(end)
    f.seek(0, 2)
    r = bytearray(struct.pack("<IIQQI", 0x52424621, crc32c(bytes(4096)), 8 << 20, 4096, 1))
    f.write(r + struct.pack("<I", crc32c(bytes(r))) + bytes(4096))
' overlap.journal "$(R 1)"
		NO_ENTRY=1 restore_case "restore: overlapping records: the earliest wins" overlap.journal 1 \
			"put back 1048576 bytes in 1 range and verified them, but could not restore bytes 8388608 to 8392703 from journal bytes $(R 1) to $(($(R 1) + 32 + 4096 - 1)) \(the record overlaps an earlier one, which holds the original data: not applied\); the journal is kept" \
			oxxxxxxx
	else
		skip "restore: overlapping records: the earliest wins" "python3 is not installed"
	fi
	setup twice.journal
	restore_case "restore: twice (first)" twice.journal 0 "restored 8388608 bytes \(8MiB\) in 8 ranges" oooooooo
	expect_error "restore: twice (second says the journal is gone)" 1 \
		"there is no journal twice.journal \(a journal is removed only once all its data are back and verified" \
		"$FB" --restore twice.journal "$L"
	[ "$(digest "$L")" = "$ORIG" ] || fail "restore: twice" "the device differs after restoring twice"
else
	IFS='|' read -ra names <<< "$DAMAGED"
	for t in "${names[@]}"; do fail "restore: $t" "could not make a journal: $(cat held.err)"; done
fi

# not journals: never deleted, never waited on
mkfifo fifo.journal
mkdir dir.journal
printf 'my notes\n' > notes.txt
head -c 600 /dev/urandom > junk.bin
mknod null.dev c 1 3
expect_error "restore: a FIFO is not a journal" 2 "fifo.journal is not a journal: it is a FIFO; nothing was done" \
	timeout 60 "$FB" --restore fifo.journal "$L"
expect_error "restore: a directory is not a journal" 2 "dir.journal is not a journal: it is a directory" \
	"$FB" --restore dir.journal "$L"
expect_error "restore: a short file is kept" 2 \
	"notes.txt is not a flashbench journal \(9 bytes, shorter than a journal header\); nothing was done and it is kept" \
	"$FB" --restore notes.txt "$L"
expect_error "restore: a character device is kept" 2 "null.dev is not a journal: it is a character device" \
	"$FB" --restore null.dev "$L"
expect_error "restore: other data is kept" 2 \
	"junk.bin is not a usable flashbench journal: it does not start with the journal magic" \
	"$FB" --restore junk.bin "$L"
if [ -p fifo.journal ] && [ -d dir.journal ] && [ "$(cat notes.txt)" = "my notes" ] && [ -c null.dev ] && [ -s junk.bin ]; then
	pass "restore: nothing that is not a restored journal is removed"
else
	fail "restore: nothing that is not a restored journal is removed" "$(ls -l)"
fi
[ "$(digest "$L")" = "$ORIG" ] || fail "restore: not journals" "the device changed"

# The device comes back under another name: the journal still fits it (a
# loop device's backing file names the medium), a write test under the new
# name is refused until it is restored, and another medium of the same size
# is refused unless --device-changed.
mkdir -p elsewhere
if held elsewhere/moved.journal; then
	cp elsewhere/moved.journal spare.journal
	cp small.img other.img   # another medium, same size, also overwritten
	detach "$L"
	attach small.img         # may take the freed name
	PLACEHOLDER=$DEV
	attach small.img
	L=$DEV
	detach "$PLACEHOLDER"
	expect_error "preserve: the index refuses a write test under a new name" 1 \
		"$L: an unfinished --preserve run saved data of this medium in $TMP/elsewhere/moved.journal; put it back first with: flashbench --restore $TMP/elsewhere/moved.journal $L" \
		"$FB" -O "$L"
	restore_case "restore: after the device node changed" elsewhere/moved.journal 0 \
		"restored 8388608 bytes \(8MiB\) in 8 ranges" oooooooo
	attach other.img
	LO=$DEV
	expect_error "restore: another medium is refused" 2 \
		"spare.journal was written for /dev/loop[0-9]+ \(medium=file:[0-9:]+;offset=0\), and $LO is not recognised as the same medium \(medium=file:[0-9:]+;offset=0\); nothing was done.  If it is \(a card back under a new name\), add --device-changed" \
		"$FB" --restore spare.journal "$LO"
	if "$FB" --restore spare.journal --device-changed "$LO" > out 2> err &&
		grep -q "warning: spare.journal was written for .* is taken for the same medium because of --device-changed" err &&
		[ "$(digest "$LO")" = "$ORIG" ] && [ ! -e spare.journal ]; then
		pass "restore: --device-changed restores after a warning"
	else
		fail "restore: --device-changed restores after a warning" "$(cat err)"
	fi
else
	for t in "preserve: the index refuses a write test under a new name" "restore: after the device node changed" \
		"restore: another medium is refused" "restore: --device-changed restores after a warning"; do
		fail "$t" "could not make a journal: $(cat held.err)"
	done
fi
if held elsewhere/lost.journal; then
	rm elsewhere/lost.journal
	expect_error "preserve: the index refuses while a journal is missing" 1 \
		"$L: an unfinished --preserve run saved data of this medium in $TMP/elsewhere/lost.journal, which is gone; restore it from where it is now \(flashbench --restore FILE $L\), or, if you are sure the data are back, remove $FLASHBENCH_STATE_DIR/[0-9a-f]+.entry" \
		"$FB" -f "$L"
	rm -f "$FLASHBENCH_STATE_DIR"/*.entry
	dd if=orig.img of="$L" bs=1M oflag=direct conv=notrunc status=none
else
	fail "preserve: the index refuses while a journal is missing" "could not make a journal: $(cat held.err)"
fi
[ "$(digest "$L")" = "$ORIG" ] || fail "preserve: the restore tests" "the device differs at the end"

# A file and the loop devices over it are one medium, whichever name the
# killed run used: a write test under the other name is refused, and
# --restore puts the data back through it.
refused_unchanged() { # refused_unchanged NAME JOURNAL DEVICE
	local before
	before=$(digest small.img)
	expect_error "$1" 1 \
		"^flashbench: $3: an unfinished --preserve run saved data of this medium in $TMP/$2; put it back first with: flashbench --restore $TMP/$2 $3" \
		"$FB" -O -e 4M "$3"
	[ "$(digest small.img)" = "$before" ] || fail "$1" "the refused run wrote"
}
if held behind.journal; then
	refused_unchanged "preserve: the index refuses the file behind a loop device" behind.journal "$TMP/small.img"
	restore_case "restore: through the file behind the loop device" behind.journal 0 \
		"restored 8388608 bytes \(8MiB\) in 8 ranges .* to $TMP/small.img" oooooooo "$TMP/small.img"
else
	fail "preserve: the index refuses the file behind a loop device" "could not make a journal: $(cat held.err)"
fi
if held over.journal "$TMP/small.img"; then
	refused_unchanged "preserve: the index refuses a loop device over the file" over.journal "$L"
	restore_case "restore: through a loop device over the file" over.journal 0 \
		"restored 8388608 bytes \(8MiB\) in 8 ranges .* to $L" oooooooo
else
	fail "preserve: the index refuses a loop device over the file" "could not make a journal: $(cat held.err)"
fi
[ "$(digest "$L")" = "$ORIG" ] || fail "preserve: loop and file" "the device differs at the end"

# ------------------------------------------------------------ refusals
# a journal of this medium at the default path (its header names it)
if [ -s full.journal ]; then
	cp full.journal "flashbench-$(basename "$L").journal"
	expect_error "preserve: refuses an unfinished journal" 1 \
		"unfinished run on $L; put it back first with: flashbench --restore flashbench-$(basename "$L").journal $L" \
		"$FB" -O "$L"
	rm -f "flashbench-$(basename "$L").journal"
else
	fail "preserve: refuses an unfinished journal" "no journal was made above"
fi

# --preserve=PATH where PATH exists and is no journal of ours: refused as
# such (status 2), left as it was, nothing written
ln -s "$TMP/nowhere/j" danglink
digest_before=$(digest "$L")
expect_error "preserve: an existing file is not taken for a journal" 2 \
	"^flashbench: --preserve=notes.txt exists and is a file, not a flashbench journal: --preserve writes a new file; name another path" \
	"$FB" -O --preserve=notes.txt "$L"
expect_error "preserve: /dev/null is not taken for a journal" 2 \
	"^flashbench: --preserve=/dev/null exists and is a character device, not a flashbench journal" \
	"$FB" -O --preserve=/dev/null "$L"
expect_error "preserve: a FIFO is not taken for a journal" 2 \
	"^flashbench: --preserve=fifo.journal exists and is a FIFO, not a flashbench journal" \
	timeout 60 "$FB" -O --preserve=fifo.journal "$L"
expect_error "preserve: a directory is not taken for a journal" 2 \
	"^flashbench: --preserve=dir.journal exists and is a directory, not a flashbench journal" \
	"$FB" -O --preserve=dir.journal "$L"
expect_error "preserve: the device itself is not taken for a journal" 2 \
	"^flashbench: --preserve=small.img is the device under test; name a new file on another disk" \
	"$FB" -O --preserve=small.img small.img
expect_error "preserve: a dangling symlink is refused" 2 \
	"^flashbench: --preserve=danglink is a dangling symlink: the journal is never created through a link" \
	"$FB" -O --preserve=danglink "$L"
if [ "$(cat notes.txt)" = "my notes" ] && [ -c /dev/null ] && [ -p fifo.journal ] && [ -d dir.journal ] &&
	[ -L danglink ] && [ ! -e "$TMP/nowhere" ] && [ "$(digest "$L")" = "$digest_before" ]; then
	pass "preserve: refused journal paths are left as they were"
else
	fail "preserve: refused journal paths are left as they were" "$(ls -l)"
fi

mkdir -p tiny
if mount -t tmpfs -o size=1m tmpfs tiny 2> /dev/null; then
	MNTS+=("$TMP/tiny")
	expect_error "preserve: refuses a journal on tmpfs" 2 \
		"the journal $TMP/tiny/j would be on tmpfs, which loses it in the power cut it is there for; put it on a disk \(--preserve=/path/on/disk/FILE\), or add --preserve-volatile to accept that" \
		"$FB" -O -e 4M --preserve="$TMP/tiny/j" "$L"
	expect_error "preserve: refuses a journal without room" 2 \
		"the file system of $TMP/tiny/j has room for [0-9]+ more bytes but the journal needs up to [0-9]+ more \(this run saves at most 8388608 bytes \(8MiB\)\)" \
		"$FB" -O -e 4M --preserve="$TMP/tiny/j" --preserve-volatile "$L"
else
	skip "preserve: refuses a journal on tmpfs" "cannot mount a small tmpfs here"
	skip "preserve: refuses a journal without room" "cannot mount a small tmpfs here"
fi

# (a journal on a partition of the device under test: tests/vm/disks.sh,
# in the lab, where the kernel scans loop partitions)
expect_error "preserve: refuses a simulated device" 2 "needs a real device" "$FB" -O --preserve sim:sd-4m

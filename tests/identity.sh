# tests/identity.sh — one name, one file (needs root): the device under
# test, an output and the medium's lock file are each looked up once, and
# what was checked is what is written.  Issue 19's hostile test h19b: a name
# flipped between a free image and one in use (hard links renamed over it,
# a symlink) while runs start; an output into the file behind a mounted loop
# device; an output symlink flipped onto the image under test; a lock file
# that is a hard link to another file; an image file tested beside a
# mounted window of itself; the journal's room said right; refusals that
# name the tool and action that was run.
. tests/lib.sh

ALL="identity: the device's name is looked up once|identity: erase looks the name up once"
ALL="$ALL|identity: --restore looks the name up once|identity: a name flipped onto a mounted image"
ALL="$ALL|identity: erase of a name flipped onto a loop over a mounted image"
ALL="$ALL|identity: erase advice names erasing|identity: --restore advice names --restore"
ALL="$ALL|identity: a lock file that is a hard link|identity: -o over the file behind a mounted loop"
ALL="$ALL|identity: --plot over a hard link to it|identity: -o over the file behind an idle loop"
ALL="$ALL|identity: -o over an image a program locks|identity: an -o symlink flipped onto the image under test"
ALL="$ALL|identity: the file beside a mounted window of it|identity: the file over a mounted window of it"
ALL="$ALL|identity: erase of the file beside a mounted window"
is_root || skip_all "needs root for loop devices and mounts"
for tool in losetup mkfs.ext4 e2fsck python3; do
	command -v $tool > /dev/null || skip_all "$tool is not installed"
done

cd "$TMP" || exit 1
digest() { sha256sum < "$1" | cut -c1-16; }
mounted() { mkdir -p "$2" && mount "$1" "$2" 2> /dev/null && MNTS+=("$TMP/$2"); }
# flip NAME SYMLINK|LINK A B: the adversary, in the background until the
# file stop.flip appears (or 10 minutes pass): NAME is made, over and over,
# a symlink to A then to B (SYMLINK), or a hard link of A then of B renamed
# over it (LINK, as `mv new.img card.img` does)
flip() {
	python3 -c '
import os, sys, time
name, kind, a, b = sys.argv[1:5]
end = time.monotonic() + 600
while not os.path.exists("stop.flip") and time.monotonic() < end:
	for i in range(200):
		for t in (a, b):
			tmp = name + ".flip"
			try:
				os.unlink(tmp)
			except FileNotFoundError:
				pass
			if kind == "SYMLINK":
				os.symlink(t, tmp)
			else:
				os.link(t, tmp)
			os.replace(tmp, name)
' "$@" &
	flipper=$!
}
unflip() { touch stop.flip; wait "$flipper"; rm -f stop.flip; }
unmount() { umount "$TMP/$1" && MNTS=("${MNTS[@]/$TMP\/$1/}"); }

# ------------------------------------------------------------ one lookup
# Every stat and open of the device goes through the descriptor of its one
# lookup: strace sees the name once (before: three opens and stats by name,
# each a chance for the name to reach another file).
# lookups FILE NAME: the system calls in strace log FILE that take NAME as a path
lookups() { grep -c "(AT_FDCWD, \"$2\"\|^[a-z0-9_]*(\"$2\"" "$1"; }
head -c 64M /dev/zero > free.img
if command -v strace > /dev/null; then
	strace -f -o trace -e trace=%file "$FB" -O -e 4M -c 1 "$TMP/free.img" > /dev/null 2>&1
	n=$(lookups trace "$TMP/free.img")
	if [ "$n" = 1 ]; then
		pass "identity: the device's name is looked up once"
	else
		fail "identity: the device's name is looked up once" "$n lookups: $(grep -F "$TMP/free.img" trace | cut -c1-80 | tr '\n' '|')"
	fi
else
	skip "identity: the device's name is looked up once" "strace is not installed"
fi

# ------------------------------------------------------------ races
# m.img holds a mounted ext4 with data on it; t.img is renamed, in turn, to
# be free.img and m.img (hard links: `mv new.img card.img`) while write runs
# start on it.  Each run either writes free.img or refuses: m.img's data and
# file system stay intact (before: about half the runs wrote into m.img).
truncate -s 64M m.img
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 m.img
attach m.img || skip_all "cannot attach a loop device here"
LM=$DEV
if mounted "$LM" mnt; then
	head -c 24M /dev/urandom > mnt/data
	sync
	want=$(digest mnt/data)
	ln -f free.img t.img
	flip t.img LINK free.img m.img
	ran=0 refused=0
	for _ in $(seq 1 30); do
		if "$FB" -O -e 1M -b 256k -c 1 --offset=16M t.img > /dev/null 2>> race.err; then
			ran=$((ran + 1))
		else
			refused=$((refused + 1))
		fi
	done
	unflip
	echo 3 > /proc/sys/vm/drop_caches
	got=$(digest mnt/data)
	unmount mnt
	if [ "$got" = "$want" ] && e2fsck -fn "$LM" > fsck.out 2>&1; then
		pass "identity: a name flipped onto a mounted image"
	else
		fail "identity: a name flipped onto a mounted image" "m.img was written while mounted ($ran ran, $refused refused; data $want -> $got; $(tail -2 fsck.out | tr '\n' ' '))"
	fi
else
	skip "identity: a name flipped onto a mounted image" "cannot mount ext4 from a loop device here"
fi

# erase: a symlink flipped between a loop over a free file and a second loop
# over the mounted image
truncate -s 64M m4.img
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 m4.img
attach m4.img
L1=$DEV
attach m4.img
L2=$DEV
attach free.img
LF=$DEV
if mounted "$L1" mnt4; then
	head -c 40M /dev/urandom > mnt4/data
	sync
	want=$(digest mnt4/data)
	flip e.sym SYMLINK "$LF" "$L2"
	if command -v strace > /dev/null; then
		ln -sfn "$LF" lf.sym
		strace -f -o etrace -e trace=%file "$ERASE" lf.sym 0 1M > /dev/null 2>&1
		n=$(lookups etrace lf.sym)
		if [ "$n" = 1 ]; then
			pass "identity: erase looks the name up once"
		else
			fail "identity: erase looks the name up once" "$n lookups"
		fi
	else
		skip "identity: erase looks the name up once" "strace is not installed"
	fi
	for _ in $(seq 1 30); do
		"$ERASE" e.sym 8M 48M > /dev/null 2>> erace.err
	done
	unflip
	expect_error "identity: erase advice names erasing" 1 \
		"^erase: $L2 is in use: $L1, a loop device over $TMP/m4.img, is mounted on $TMP/mnt4; unmount it before erasing$" \
		"$ERASE" "$L2" 0 1M
	echo 3 > /proc/sys/vm/drop_caches
	got=$(digest mnt4/data)
	unmount mnt4
	if [ "$got" = "$want" ] && e2fsck -fn "$L1" > fsck.out 2>&1; then
		pass "identity: erase of a name flipped onto a loop over a mounted image"
	else
		fail "identity: erase of a name flipped onto a loop over a mounted image" "the mounted image was discarded (data $want -> $got; $(tail -2 fsck.out | tr '\n' ' '))"
	fi
else
	skip "identity: erase of a name flipped onto a loop over a mounted image" "cannot mount ext4 here"
	skip "identity: erase looks the name up once" "cannot mount ext4 here"
	skip "identity: erase advice names erasing" "cannot mount ext4 here"
fi

# ------------------------------------------------------------ restore
# --restore through a second loop over an image while the first is mounted
# (refused before the journal is read)
truncate -s 64M r.img
mkfs.ext4 -q -F r.img
attach r.img
R1=$DEV
attach r.img
R2=$DEV
if mounted "$R1" mntr; then
	printf 'x' > fake.journal
	expect_error "identity: --restore advice names --restore" 1 \
		"^flashbench: $R2 is in use: $R1, a loop device over $TMP/r.img, is mounted on $TMP/mntr; unmount it before --restore$" \
		"$FB" --restore=fake.journal "$R2"
	if command -v strace > /dev/null; then
		ln -sfn "$R2" r2.sym
		strace -f -o rtrace -e trace=%file "$FB" --restore=fake.journal r2.sym > /dev/null 2>&1
		n=$(lookups rtrace r2.sym)
		if [ "$n" = 1 ]; then
			pass "identity: --restore looks the name up once"
		else
			fail "identity: --restore looks the name up once" "$n lookups"
		fi
	else
		skip "identity: --restore looks the name up once" "strace is not installed"
	fi
	unmount mntr
else
	skip "identity: --restore advice names --restore" "cannot mount ext4 here"
	skip "identity: --restore looks the name up once" "cannot mount ext4 here"
fi

# ------------------------------------------------------------ the lock file
# A hard link planted at the medium's lock file name: refused, the other
# file keeps its bytes (before: truncated, the pid written into it).
truncate -s 64M lk.img
echo "precious data line" > victim.txt
mkdir -p "$FLASHBENCH_STATE_DIR"
ln victim.txt "$FLASHBENCH_STATE_DIR/file-$(stat -c %d lk.img)-$(stat -c %i lk.img).lock"
expect_error "identity: a lock file that is a hard link" 1 \
	"^flashbench: cannot lock $FLASHBENCH_STATE_DIR/file-[0-9]+-[0-9]+\.lock: it has other names \(hard links\)" \
	"$FB" -O -e 1M -c 1 lk.img
[ "$(cat victim.txt)" = "precious data line" ] || fail "identity: a lock file that is a hard link" "victim.txt now holds $(od -c victim.txt | head -2)"

# ------------------------------------------------------------ outputs
# An output replaces a file: never one behind a loop device (mounted or
# not), nor one a program holds for writing (h19b S1: the 64 MiB image
# behind a mounted loop device was renamed away, its file system lost).
truncate -s 64M o1.img
mkfs.ext4 -q -F o1.img
attach o1.img
LO1=$DEV
ln -f o1.img o1.hard
ino=$(stat -c %i o1.img)
if mounted "$LO1" mnto; then
	expect_error "identity: -o over the file behind a mounted loop" 2 \
		"^flashbench: --out=o1.img is in use: $LO1, a loop device over $TMP/o1.img, is mounted on $TMP/mnto; name another file$" \
		"$FB" -a -c 1 sim:sd-4m -o o1.img
	expect_error "identity: --plot over a hard link to it" 2 \
		"^flashbench: --plot=o1.hard is in use: $LO1, a loop device over $TMP/o1.img, is mounted on $TMP/mnto" \
		"$FB" -a -c 1 sim:sd-4m --plot o1.hard
	unmount mnto
else
	skip "identity: -o over the file behind a mounted loop" "cannot mount ext4 here"
	skip "identity: --plot over a hard link to it" "cannot mount ext4 here"
fi
expect_error "identity: -o over the file behind an idle loop" 2 \
	"^flashbench: --out=o1.img is the file behind $LO1 \(a loop device\): the output would replace what it shows; name another file" \
	"$FB" -a -c 1 sim:sd-4m -o o1.img
[ "$(stat -c %i o1.img)" = "$ino" ] || fail "identity: -o over the file behind an idle loop" "o1.img was replaced"
truncate -s 16M vm.img
python3 -c "import fcntl, os, sys, signal
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.lockf(fd, fcntl.LOCK_EX)
open(sys.argv[2], 'w').write('held')
signal.pause()" vm.img vm.held &
holder=$!
if wait_for "python3 to lock vm.img" 60 grep -q held vm.held 2> /dev/null; then
	ino=$(stat -c %i vm.img)
	expect_error "identity: -o over an image a program locks" 2 \
		"^flashbench: --out=vm.img is in use: .*process $holder \(python3\)" "$FB" -a -c 1 sim:sd-4m -o vm.img
	[ "$(stat -c %i vm.img)" = "$ino" ] || fail "identity: -o over an image a program locks" "vm.img was replaced"
else
	fail "identity: -o over an image a program locks" "python3 could not lock vm.img"
fi
kill "$holder" 2> /dev/null
wait "$holder" 2> /dev/null

# An -o symlink flipped between a harmless file and the image behind the
# loop device under test while runs go on: the file replaced is the one
# checked, or none (h19b S2: the image was renamed away on the 5th try).
head -c 32M /dev/urandom > o5.img
attach o5.img
LO5=$DEV
echo x > ok.txt
ino=$(stat -c %i o5.img)
want=$(digest o5.img)
ln -sfn ok.txt r.sym
flip r.sym SYMLINK ok.txt o5.img
for _ in $(seq 1 40); do
	"$FB" -a -c 1 -b 1M "$LO5" -o r.sym > /dev/null 2>> o5.err
	[ "$(stat -c %i o5.img)" = "$ino" ] || break
done
unflip
if [ "$(stat -c %i o5.img)" = "$ino" ] && [ "$(digest o5.img)" = "$want" ]; then
	pass "identity: an -o symlink flipped onto the image under test"
else
	fail "identity: an -o symlink flipped onto the image under test" "o5.img was replaced: $(stat -c '%i %s' o5.img)"
fi

# ------------------------------------------------------------ windows
# One rule for a file and a loop window over it: what uses an alias whose
# window meets the bytes under test refuses a write, whichever name the
# run was given (h19b S7: b.img --offset=40M was refused while the loop
# window over the same bytes was allowed).
truncate -s 96M b.img
attach --sizelimit 32M b.img
B1=$DEV
attach --offset 32M b.img
B2=$DEV
if mkfs.ext4 -q -F "$B1" > /dev/null 2>&1 && mounted "$B1" mntb; then
	if "$FB" -O -e 4M -b 1M -c 1 --offset=40M b.img > out 2> err; then
		pass "identity: the file beside a mounted window of it"
	else
		fail "identity: the file beside a mounted window of it" "refused: $(cat err)"
	fi
	expect_error "identity: the file over a mounted window of it" 1 \
		"^flashbench: b.img is in use: $B1, a loop device over $TMP/b.img, is mounted on $TMP/mntb; unmount it before a write test" \
		"$FB" -O -e 4M -b 1M -c 1 --offset=16M b.img
	if "$ERASE" b.img 40M 4M > out 2> err || grep -q "is not a block device; discard needs one" err; then
		pass "identity: erase of the file beside a mounted window"
	else
		fail "identity: erase of the file beside a mounted window" "$(cat err)"
	fi
	unmount mntb
	if e2fsck -fn "$B1" > fsck.out 2>&1; then :; else
		fail "identity: the file beside a mounted window of it" "the mounted window was damaged: $(tail -2 fsck.out)"
	fi
else
	skip "identity: the file beside a mounted window of it" "cannot mount a loop window here"
	skip "identity: the file over a mounted window of it" "cannot mount a loop window here"
	skip "identity: erase of the file beside a mounted window" "cannot mount a loop window here"
fi

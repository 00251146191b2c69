# tests/vm/guest.sh — sourced by the lab's guest scripts (tests/vm/*.sh,
# after tests/lib.sh): what they share.  Each script sets ALL to every test
# it reports, then calls lab_begin:
#   LAB_LIST=1       print ALL's names, one a line, and exit (tests/lab.sh
#                    checks that the guest reported each exactly once)
#   LAB_SKIP=REASON  skip every test (the lab cannot run here)
lab_begin() {
	if [ -n "${LAB_LIST:-}" ]; then
		tr '|' '\n' <<< "$ALL"
		exit 0
	fi
	[ -z "${LAB_SKIP:-}" ] || skip_all "$LAB_SKIP"
	[ -n "${FLASHBENCH_LAB:-}" ] || skip_all "runs in the real-kernel lab's guest (tests/lab.sh boots it)"
	cd "$TMP" || exit 1
	printf '%s\n' seq '  off 16M' '    len 1M' '      pattern 0x5a' '        off-linear 1M 8' '          write' > w.fbp
}

# disk SERIAL: the guest's virtio disk the host gave that serial
# (-device virtio-blk-pci,serial=SERIAL); no udev here to name it
disk() {
	local b
	for b in /sys/block/vd*; do
		[ "$(cat "$b/serial" 2> /dev/null)" = "$1" ] && { echo "/dev/${b##*/}"; return 0; }
	done
	echo "no virtio disk with serial $1" >&2
	return 1
}

# The write modes, each refused on a device in use: NAME|ARGS (the device
# follows).  The program (lab_begin writes it) writes the 8 MiB from 16 MiB
# on, where -O writes.  --restore is refused before its journal is read (it
# names none that exists: a restore that got further would say so).  Every
# row of the mode table that writes, and every test kind that writes, is
# here (tests/lab.sh checks it against run/*.c and testkinds.c).
WRITE_MODES=("-O|-O" "-f|-f" "--auto --write|-A --write" "-C|-C" "--rating|-G"
	"--program --write|--program=$TMP/w.fbp --write" "--preserve|-O --preserve=$TMP/refused.journal"
	"--restore|--restore=$TMP/none.journal")
# writes DEV: the sectors the kernel wrote to DEV and discarded on it so
# far, and how many requests (its block-layer counters: every write to the
# disk, through a partition, a holder or the disk itself, is counted there)
writes() {
	local f
	read -ra f < "/sys/block/${1#/dev/}/stat"
	echo "${f[4]} ${f[6]} ${f[11]:-0} ${f[13]:-0}"
}
# refusals WHAT DEV PATTERN [MODE...]: each write mode (all, or those
# named) and erase on DEV exit 1 with one line matching "^(flashbench|erase):
# DEV is in use: PATTERN"; then the kernel wrote nothing to DEV and
# discarded nothing on it, and no journal was left
refusals() {
	local what=$1 dev=$2 pat=$3 before m name args
	shift 3
	before=$(writes "$dev")
	for m in "${WRITE_MODES[@]}"; do
		name=${m%%|*} args=${m#*|}
		[ $# = 0 ] || [[ " $* " == *" $name "* ]] || continue
		# shellcheck disable=SC2086 # the mode's words
		expect_error "$what: $name refused" 1 "^flashbench: $dev is in use: $pat" "$FB" $args "$dev"
	done
	expect_error "$what: erase refused" 1 "^erase: $dev is in use: $pat" "$ERASE" "$dev" 16M 8M
	if [ "$(writes "$dev")" = "$before" ] && ! ls ./*.journal "$TMP"/refused.journal > /dev/null 2>&1; then
		pass "$what: nothing written"
	else
		fail "$what: nothing written" "$dev's write counters went from $before to $(writes "$dev"), journals: $(ls ./*.journal 2> /dev/null)"
	fi
	lap "refusals: $what"
}
# refusal_names WHAT [MODE...]: the names refusals reports, for ALL
refusal_names() {
	local m what=$1
	shift
	for m in "${WRITE_MODES[@]}"; do
		[ $# = 0 ] || [[ " $* " == *" ${m%%|*} "* ]] || continue
		printf '%s|' "$what: ${m%%|*} refused"
	done
	printf '%s|%s' "$what: erase refused" "$what: nothing written"
}
# refusals_fail WHAT WHY [MODE...]: each test refusals WHAT would report
# fails with WHY (the setup it needs could not be made)
refusals_fail() {
	local IFS='|' t what=$1 why=$2
	shift 2
	for t in $(refusal_names "$what" "$@"); do fail "$t" "$why"; done
}
# digest FILE: as tests/lib.sh's, by MD5: under TCG SHA-256 takes 2.0 s for
# 64 MiB, MD5 0.5 s, and a changed byte is what is looked for, not an
# adversary
digest() { md5sum < "$1" | cut -d' ' -f1; }
# mkext4 DEV: ext4 with its inode tables and journal written now: the
# kernel's lazy initialisation would otherwise write them later, while a
# test compares the disk's bytes before and after
mkext4() { mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0,nodiscard "$1"; }
# lap WHAT: the seconds since the script began, on a line of its own (the
# lab's timings: doc/lab.md)
lap() { echo "lab: $1 at $SECONDS s"; }

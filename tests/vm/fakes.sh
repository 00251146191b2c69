# tests/vm/fakes.sh — in the lab's guest (tests/lab.sh): --capacity on
# fake cards made with device-mapper over one real disk (virtio, serial fk,
# 64 MiB of random bytes from the host): one that wraps around (two
# dm-linear segments onto the same 32 MiB; also over a loop device over a
# file), one that drops what lies past 32 MiB (dm-zero: reads zeros, writes
# vanish), one with a bad region that loses its writes (dm-flakey with
# drop_writes, 4 MiB at 40 MiB) and one with a region that fails every
# request (dm-error).  Each verdict is the right one, the disk under them
# holds every byte it held, and runs killed with SIGKILL at moments drawn
# at random along their journal (tests/lib.sh kill_trials), then
# --restore'd, give every byte back.
. tests/lib.sh
. tests/vm/guest.sh

ALL="capacity dm: a wrap-around fake|capacity dm: a fake that drops writes past 32MiB"
ALL="$ALL|capacity dm: a bad region that loses its writes|capacity dm: a region of I/O errors stops the check"
ALL="$ALL|capacity dm: the disk under the fakes is as it was"
ALL="$ALL|capacity dm: the wrap fake, SIGKILL then --restore|capacity dm: the drop fake, SIGKILL then --restore"
ALL="$ALL|capacity dm: the bad fake, SIGKILL then --restore"
ALL="$ALL|capacity loop: a wrap-around fake made with device-mapper|capacity loop: the fake, SIGKILL then --restore"
lab_begin

K=$(disk fk) || skip_all "the host gave no disk fk"
ORIG=$(digest "$K")
MiB=2048 # sectors
# shellcheck disable=SC2154 # the loop's own n
trap 'for n in wrap drop bad err fbfake; do dmsetup remove lab-$n 2> /dev/null; done; cleanup' EXIT
mkfake() { # NAME TABLE: /dev/mapper/lab-NAME, or a failure of every test of it
	printf '%b' "$2" | dmsetup create "lab-$1" 2> "dm-$1.err"
}
# capacity_is NAME DEV KIND CHECKS...: -C --json on DEV says KIND and each
# PATH=VALUE of the checks holds (tests/jsonpath); no journal is left (the
# disk under all of them is compared once they have run)
capacity_is() {
	local name=$1 dev=$2 kind=$3 c got why=
	shift 3
	"$FB" -C --json "$dev" > "c.json" 2> "c.err"
	got=$("$JP" verdict.kind < c.json 2> /dev/null)
	[ "$got" = "$kind" ] || why="verdict $got, want $kind ($(tail -1 c.err))"
	for c in "$@"; do
		[ -n "$why" ] || [ "$("$JP" "${c%%=*}" < c.json 2> /dev/null)" = "${c#*=}" ] ||
			why="${c%%=*} is $("$JP" "${c%%=*}" < c.json 2> /dev/null), want ${c#*=}"
	done
	[ -n "$why" ] || ! ls ./*.journal > /dev/null 2>&1 || why="a journal was left: $(ls ./*.journal)"
	if [ -z "$why" ]; then pass "$name"; else fail "$name" "$why"; fi
}

if mkfake wrap "0 $((32 * MiB)) linear $K 0\n$((32 * MiB)) $((32 * MiB)) linear $K 0\n"; then
	capacity_is "capacity dm: a wrap-around fake" /dev/mapper/lab-wrap wrap \
		usable.value=$((32 << 20)) edges.period=$((32 << 20))
else
	fail "capacity dm: a wrap-around fake" "dmsetup: $(cat dm-wrap.err)"
fi
if mkfake drop "0 $((32 * MiB)) linear $K 0\n$((32 * MiB)) $((32 * MiB)) zero\n"; then
	capacity_is "capacity dm: a fake that drops writes past 32MiB" /dev/mapper/lab-drop drop \
		usable.value=$((32 << 20)) edges.lost_from=$((32 << 20))
else
	fail "capacity dm: a fake that drops writes past 32MiB" "dmsetup: $(cat dm-drop.err)"
fi
# dm-flakey, never up (up 0 s, down 1 s), drops every write and reads what
# the disk held: flash that takes no writes
if mkfake bad "0 $((40 * MiB)) linear $K 0\n$((40 * MiB)) $((4 * MiB)) flakey $K $((40 * MiB)) 0 1 1 drop_writes\n$((44 * MiB)) $((20 * MiB)) linear $K $((44 * MiB))\n"; then
	capacity_is "capacity dm: a bad region that loses its writes" /dev/mapper/lab-bad bad \
		edges.lost_from=$((40 << 20)) usable.at_most=true
else
	fail "capacity dm: a bad region that loses its writes" "dmsetup: $(cat dm-bad.err)"
fi
# dm-error fails every request in 4 MiB at 40 MiB: the check stops there
# with the error and puts back what it changed
if mkfake err "0 $((40 * MiB)) linear $K 0\n$((40 * MiB)) $((4 * MiB)) error\n$((44 * MiB)) $((20 * MiB)) linear $K $((44 * MiB))\n"; then
	"$FB" -C /dev/mapper/lab-err > err.out 2> err.err
	rc=$? at=$(sed -n 's/.*cannot read [0-9]* bytes at \([0-9]*\): Input\/output error.*/\1/p' err.err | tail -1)
	if [ $rc = 1 ] && [ -n "$at" ] && [ "$at" -ge $((40 << 20)) ] && [ "$at" -lt $((44 << 20)) ] &&
		grep -q "the saved data were put back and verified" err.err &&
		! ls ./*.journal > /dev/null 2>&1; then
		pass "capacity dm: a region of I/O errors stops the check"
	else
		fail "capacity dm: a region of I/O errors stops the check" "exit $rc: $(tail -2 err.err | tr '\n' ' ')"
	fi
	dmsetup remove lab-err
else
	fail "capacity dm: a region of I/O errors stops the check" "dmsetup: $(cat dm-err.err)"
fi
if [ "$(digest "$K")" = "$ORIG" ]; then
	pass "capacity dm: the disk under the fakes is as it was"
else
	fail "capacity dm: the disk under the fakes is as it was" "its digest changed"
fi
lap "the verdicts"

RANDOM=28
for f in wrap drop bad; do
	if [ -b "/dev/mapper/lab-$f" ]; then
		kill_trials "capacity dm: the $f fake, SIGKILL then --restore" "/dev/mapper/lab-$f" "$K" "$ORIG" \
			"${LAB_TRIALS:-4}" --max-cache=32M
	else
		fail "capacity dm: the $f fake, SIGKILL then --restore" "no such fake"
	fi
	lap "the $f fake's trials"
done
for f in wrap drop bad; do dmsetup remove "lab-$f" 2> /dev/null; done

# ------------------------------------------------------------ from capacity_loop.sh
# (which skipped them on a kernel without device-mapper): a loop device over
# a file of 64 MiB of random bytes (fk's), its first half mapped twice
cat "$K" > card.img
attach card.img
L=$DEV LORIG=$(digest "$DEV")
half=$((32 << 20))
if printf '0 %d linear %s 0\n%d %d linear %s 0\n' $((half / 512)) "$L" $((half / 512)) $((half / 512)) "$L" |
	dmsetup create lab-fbfake; then
	F=/dev/mapper/lab-fbfake
	if "$FB" -C --json "$F" > fake.json 2> fake.err && grep -q '"kind": "wrap"' fake.json &&
		grep -q "\"period\": $half" fake.json && [ "$(digest "$L")" = "$LORIG" ]; then
		pass "capacity loop: a wrap-around fake made with device-mapper"
	else
		fail "capacity loop: a wrap-around fake made with device-mapper" "$(tail -2 fake.err | tr '\n' ' ') $(grep -m1 kind fake.json)"
	fi
	RANDOM=23
	kill_trials "capacity loop: the fake, SIGKILL then --restore" "$F" "$L" "$LORIG" "${LAB_TRIALS:-4}" --max-cache=32M
	dmsetup remove lab-fbfake
else
	fail "capacity loop: a wrap-around fake made with device-mapper" "dmsetup create failed"
	fail "capacity loop: the fake, SIGKILL then --restore" "dmsetup create failed"
fi

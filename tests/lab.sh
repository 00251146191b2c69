# tests/lab.sh — the real-kernel lab (doc/lab.md): what this host's kernel
# cannot build (device-mapper, md, an SD host, USB, partitions of loop
# devices) runs under Debian's stock kernel in QEMU (tests/vm/lab), in two
# boots side by side, each running a group of the guest scripts tests/vm/*.sh:
#   disks  disks.sh, fakes.sh: virtio disks part, dm, md1, md2 (64 MiB,
#          blank) and fk (64 MiB of random bytes)
#   cards  cards.sh, simcard.sh: an SD card (64 MiB) on sdhci-pci, USB
#          sticks u1 (64 MiB), u2 (16 MiB) behind a hub on xHCI and u3
#          (32 MiB) on EHCI, and sim:usb-12m served by tests/nbdsim at
#          scales 0, 2 and 6 as virtio disks sim0, sim2, sim6
# Every test a guest script names in its ALL is reported exactly once (a
# test the guest never reached fails, naming why).  Where QEMU, a static
# busybox or Debian's kernel package cannot be had, every test says SKIP
# with the reason.  Runs once per make check, with the plain build.
. tests/lib.sh
SRC=$PWD

SCRIPTS="disks fakes cards simcard"
# the tests of the host's own, on the images it gave the guests
HOST_TESTS=("lab: the host's image under the fakes is as it was" "lab: the SD card's image is as it was after --rating"
	"lab: a checkout under /tmp is the guest's tree")
plain_build_only

# The refusals (tests/vm/guest.sh's WRITE_MODES) try every mode that
# writes: each row of the mode table (run/*.c) whose flags say it writes,
# and each test kind (testkinds.c) that writes, by its letter or its name
writers=$(for f in run/*.c; do
	awk '/^const struct mode mode_[a-z_]+ = \{/ { inrow = 1; name = ""; letter = ""; w = 0 }
		inrow && match($0, /\.name = "[^"]*"/) { name = substr($0, RSTART + 9, RLENGTH - 10) }
		inrow && match($0, /\.letter = .[A-Za-z]./) { letter = substr($0, RSTART + 11, 1) }
		inrow && /MODE_WRITES/ { w = 1 }
		inrow && /^};/ { if (w) print name, (letter == "" ? "-" : letter); inrow = 0 }' "$f"
done
sed -nE 's/.*\{ \.name = "([a-z-]+)", \.letter = .(.).*\.writes = 1.*/\1 \2/p' testkinds.c)
# shellcheck source=tests/vm/guest.sh
words=$(. tests/vm/guest.sh && for m in "${WRITE_MODES[@]}"; do echo "${m#*|}"; done | tr ' ' '\n')
missing=""
while read -r name letter; do
	grep -qxE -- "--$name(=.*)?|-$letter" <<< "$words" || missing="$missing --$name"
done <<< "$writers"
if [ -n "${LAB_NESTED:-}" ]; then
	: # the run without QEMU below: its lines are the guests' tests only
elif [ "$(grep -c . <<< "$writers")" -ge 7 ] && [ -z "$missing" ]; then
	echo "lab: the modes that write:$(awk '{ printf " --%s", $1 }' <<< "$writers")"
	pass "lab: the refusals try every mode that writes"
else
	fail "lab: the refusals try every mode that writes" "not tried:${missing:- (found only: $writers)}"
fi
# Without QEMU (hidden from PATH: each PATH directory that holds it is
# replaced by a new one of symlinks to everything else there; nothing is
# ever removed), every test says SKIP with the reason, and nothing else is
# printed
if [ -z "${LAB_NESTED:-}" ]; then
	np='' i=0
	IFS=: read -ra dirs <<< "$PATH"
	for d in "${dirs[@]}"; do
		if [ -n "$d" ] && compgen -G "$d/qemu-system-*" > /dev/null; then
			i=$((i + 1))
			mkdir -p "$TMP/path$i"
			find "$d/" -mindepth 1 -maxdepth 1 ! -name 'qemu-system-*' -exec ln -s -t "$TMP/path$i" {} +
			d=$TMP/path$i
		fi
		np=${np:+$np:}$d
	done
	PATH=$np LAB_NESTED=1 bash tests/lab.sh > "$TMP/noqemu" 2>&1
	n=$(grep -c . "$TMP/noqemu") want=$(for s in $SCRIPTS; do LAB_LIST=1 bash "tests/vm/$s.sh"; done | grep -c .)
	want=$((want + ${#HOST_TESTS[@]}))
	if [ "$n" = "$want" ] && [ "$(grep -c '^SKIP .*: QEMU is not installed' "$TMP/noqemu")" = "$n" ]; then
		pass "lab: without QEMU every test says SKIP with the reason"
	else
		fail "lab: without QEMU every test says SKIP with the reason" "$n lines for $want tests: $(grep -v '^SKIP .*: QEMU is not installed' "$TMP/noqemu" | head -3 | tr '\n' ' ')"
	fi
fi
why=$(tests/vm/lab prepare 2>&1 > "$TMP/labdir")
rc=$?
if [ $rc != 0 ]; then
	[ $rc = 77 ] || why="tests/vm/lab prepare failed ($rc): $why"
	for s in $SCRIPTS; do LAB_SKIP=${why:-the lab cannot run here} bash "tests/vm/$s.sh"; done
	for t in "${HOST_TESTS[@]}"; do skip "$t" "${why:-the lab cannot run here}"; done
	exit 0
fi
export FLASHBENCH_LAB_DIR
FLASHBENCH_LAB_DIR=$(cat "$TMP/labdir")

# boot NAME SCRIPTS -- LAB-RUN-ARGS...: one boot running SCRIPTS in turn;
# their lines are printed, and each test of theirs reported exactly once
boot() {
	local name=$1 scripts=$2 s start=$SECONDS rc t
	shift 3
	# shellcheck disable=SC2016 # expanded in the guest
	tests/vm/lab run "$@" -- env FB="$FB" ERASE="$ERASE" bash -c \
		'for s; do t=$SECONDS; bash "tests/vm/$s.sh"; echo "lab: $s ended with status $? after $((SECONDS - t)) s"; done' guest $scripts \
		> "$TMP/$name.out" 2> "$TMP/$name.err"
	rc=$?
	cat "$TMP/$name.out"
	echo "boot $name ($scripts) took $((SECONDS - start)) s, status $rc"
	for s in $scripts; do
		while IFS= read -r t; do
			case $(grep -cxE "(PASS|FAIL|SKIP) $(sed 's/[][\.*^$(){}+?|/]/\\&/g' <<< "$t")(: .*)?" "$TMP/$name.out") in
			1) ;;
			0) fail "$t" "the guest never reported it (boot $name, status $rc: $(tail -3 "$TMP/$name.err" | tr '\n' ' '))" ;;
			*) fail "$t" "reported more than once (boot $name)" ;;
			esac
		done < <(LAB_LIST=1 bash "tests/vm/$s.sh")
	done
}
drive() { # ID FILE [SERIAL-DEVICE]: a raw image as a virtio disk with serial ID
	echo "-drive file=$2,format=raw,if=none,id=$1,cache=unsafe -device virtio-blk-pci,drive=$1,serial=$1"
}
cd "$TMP" || exit 1

# LAB_BOOTS="cards" boots only those (by hand: doc/lab.md)
want() { case " ${LAB_BOOTS:-disks cards} " in *" $1 "*) return 0 ;; esac; return 1; }

# The two boots run side by side (the cards boot mostly waits on the
# simulated card's served time); their lines are printed in this order.
NBD_PIDS=() BOOT_PIDS=()
trap 'kill "${BOOT_PIDS[@]}" "${NBD_PIDS[@]}" 2> /dev/null; cleanup' EXIT

# ------------------------------------------------------------ cards
if want cards; then
	head -c 64M /dev/urandom > sd.img
	sd=$(digest sd.img)
	truncate -s 64M u1.img
	truncate -s 16M u2.img
	truncate -s 32M u3.img
	for k in 0 2 6; do
		"${FB%/flashbench}/tests/nbdsim" "$TMP/sim$k.sock" usb-12m $k > "sim$k.ready" 2> "sim$k.log" &
		NBD_PIDS+=($!)
	done
	for k in 0 2 6; do wait_for "nbdsim $k" 30 grep -q ready "sim$k.ready"; done
	usb() { echo "-drive id=$1,if=none,format=raw,file=$TMP/$1.img -device usb-storage,bus=$2,port=$3,drive=$1,serial=$1"; }
	# shellcheck disable=SC2046 # the devices' words
	(cd "$SRC" && boot cards "cards simcard" -- --mod mmc_block,sdhci-pci,xhci-pci,ehci-pci,usb-storage,sd_mod \
		--timeout 480 -device sdhci-pci -drive id=sd0,if=none,format=raw,file="$TMP/sd.img" -device sd-card,drive=sd0 \
		-device qemu-xhci,id=xhci -device usb-hub,bus=xhci.0,port=1 $(usb u1 xhci.0 1.1) $(usb u2 xhci.0 1.2) \
		-device usb-ehci,id=ehci $(usb u3 ehci.0 1) \
		$(for k in 0 2 6; do echo "-drive file=nbd+unix:///card?socket=$TMP/sim$k.sock,format=raw,if=none,id=sim$k"
			echo "-device virtio-blk-pci,drive=sim$k,serial=sim$k"; done)) > cards.all 2>&1 &
	BOOT_PIDS+=($!)
fi

# ------------------------------------------------------------ disks
if want disks; then
	for d in part dm md1 md2; do truncate -s 64M "$d.img"; done
	head -c 64M /dev/urandom > fk.img
	fk=$(digest fk.img)
	# shellcheck disable=SC2046 # the drives' words
	(cd "$SRC" && boot disks "disks fakes" -- --mod dm-mod,dm-zero,dm-flakey,md-mod,raid1 --timeout 480 \
		$(for d in part dm md1 md2 fk; do drive $d "$TMP/$d.img"; done))
	if [ "$(digest fk.img)" = "$fk" ]; then
		pass "lab: the host's image under the fakes is as it was"
	else
		fail "lab: the host's image under the fakes is as it was" "its digest changed"
	fi
fi

# A checkout under /tmp (as another make check's may be): the guest sees
# it, not its own scratch disk mounted on /tmp over it.  The lab's two
# files copied under this test's directory make such a tree; the cache is
# this run's (FLASHBENCH_LAB_DIR).
mkdir -p tree/tests/vm && cp "$SRC/tests/vm/lab" "$SRC/tests/vm/init" tree/tests/vm/ && echo "$TMP" > tree/marker
got=$(cd tree && tests/vm/lab run --timeout 120 -- cat marker 2> "$TMP/tree.err")
if [ "$got" = "$TMP" ]; then
	pass "lab: a checkout under /tmp is the guest's tree"
else
	fail "lab: a checkout under /tmp is the guest's tree" "got '$got': $(tail -3 "$TMP/tree.err" | tr '\n' ' ')"
fi

if want cards; then
	wait "${BOOT_PIDS[@]}"
	cat cards.all
	kill "${NBD_PIDS[@]}" 2> /dev/null
	wait "${NBD_PIDS[@]}" 2> /dev/null
	cat sim2.log sim6.log | sed 's/^/host: /'
	if [ "$(digest sd.img)" = "$sd" ]; then
		pass "lab: the SD card's image is as it was after --rating"
	else
		fail "lab: the SD card's image is as it was after --rating" "its digest changed"
	fi
fi

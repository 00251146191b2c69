# tests/vm/cards.sh — in the lab's guest (tests/lab.sh): an SD card behind a
# real SD host driver (QEMU's sd-card on sdhci-pci: /dev/mmcblk0, 64 MiB)
# and USB sticks behind a real hub (qemu-xhci, usb-hub, usb-storage: serials
# u1 (64 MiB) and u2 (16 MiB) on the hub's ports 1 and 2, u3 (32 MiB) on an
# EHCI controller).  The card's own registers are in sysfs and say what the
# kernel's other files say (the CID's fields, the CSD's size, the SSR's AU
# size and the kernel's preferred erase size); --auto shows the card's
# identity and -a and --auto run through the mmc driver; the sticks'
# topology (bus, port path, speed, serial, the hub between) is in sysfs and
# the tool shows the stick's vendor and model; every write mode refuses a
# stick whose GPT partition is mounted (the most common real setup: -O
# /dev/sdb while /dev/sdb1 is mounted).
. tests/lib.sh
. tests/vm/guest.sh

ALL="sd card: the registers are in sysfs|sd card: the CID's fields are the kernel's"
ALL="$ALL|sd card: the CSD's size is the card's|sd card: no AU size in the SSR, the kernel's default erase size"
ALL="$ALL|sd card: --auto shows what the kernel shows|sd card: --auto decodes the registers as the kernel does"
ALL="$ALL|sd card: -a runs through the mmc driver|sd card: --rating on a card whose SD Status says nothing"
ALL="$ALL|usb: the sticks behind the hub|usb: the stick on another controller|usb: the tool shows the stick's vendor and model"
ALL="$ALL|usb: --rating on a stick that takes no discard|usb: erase on a stick that takes no discard says so"
ALL="$ALL|$(refusal_names "usb stick partition mounted")"
lab_begin

# bits HEX HI LO: bits HI..LO of a register given as hex, bit 0 the last
bits() {
	local hex=$1 hi=$2 lo=$3 n=$((${#1} * 4)) first last v
	first=$(((n - 1 - hi) / 4)) last=$(((n - 1 - lo) / 4))
	v=$((16#${hex:first:last - first + 1}))
	echo $(((v >> (lo - (n - 4 - 4 * last))) & ((1 << (hi - lo + 1)) - 1)))
}

# ------------------------------------------------------------ the SD card
S=/sys/block/mmcblk0/device
# sd_card: the SD card's tests, once it is there
sd_card() {
	local cid csd scr ssr pref oemid name want got bytes sectors au oem hwrev fwrev date kernel bad f why k
	read -r cid < $S/cid; read -r csd < $S/csd; read -r scr < $S/scr; read -r ssr < $S/ssr
	read -r pref < $S/preferred_erase_size; read -r oemid < $S/oemid
	if [[ $cid =~ ^[0-9a-f]{32}$ && $csd =~ ^[0-9a-f]{32}$ && $scr =~ ^[0-9a-f]{16}$ && $ssr =~ ^[0-9a-f]{128}$ &&
		$pref =~ ^[1-9][0-9]*$ ]]; then
		pass "sd card: the registers are in sysfs"
	else
		fail "sd card: the registers are in sysfs" "cid '$cid' csd '$csd' scr '$scr' ssr '$ssr' preferred_erase_size '$pref'"
	fi
	# the CID (SD spec, part 1, 5.2): MID, OID, PNM, PRV, PSN, MDT
	name=$(printf '%b' "$(sed 's/../\\x&/g' <<< "${cid:6:10}")")
	want="manfid 0x0000$(printf %02x "$(bits "$cid" 127 120)") oemid 0x${cid:2:4} name $name"
	want="$want hwrev 0x$(printf %x "$(bits "$cid" 63 60)") fwrev 0x$(printf %x "$(bits "$cid" 59 56)")"
	want="$want serial 0x${cid:18:8} date $(printf %02d/%04d "$(bits "$cid" 11 8)" $((2000 + $(bits "$cid" 19 12))))"
	got="manfid $(cat $S/manfid) oemid $(cat $S/oemid) name $(cat $S/name) hwrev $(cat $S/hwrev) fwrev $(cat $S/fwrev)"
	got="$got serial $(cat $S/serial) date $(cat $S/date)"
	if [ "$got" = "$want" ]; then
		pass "sd card: the CID's fields are the kernel's"
	else
		fail "sd card: the CID's fields are the kernel's" "sysfs: $got; decoded from cid $cid: $want"
	fi
	# the CSD (5.3): version 1.0 gives (C_SIZE+1) << (C_SIZE_MULT+2) blocks of
	# 2^READ_BL_LEN bytes, version 2.0 (C_SIZE+1) x 512 KiB
	if [ "$(bits "$csd" 127 126)" = 0 ]; then
		bytes=$((($(bits "$csd" 73 62) + 1) << ($(bits "$csd" 49 47) + 2 + $(bits "$csd" 83 80))))
	else
		bytes=$((($(bits "$csd" 69 48) + 1) << 19))
	fi
	read -r sectors < /sys/block/mmcblk0/size
	if [ "$bytes" = $((sectors * 512)) ] && [ "$bytes" = $((64 << 20)) ]; then
		pass "sd card: the CSD's size is the card's"
	else
		fail "sd card: the CSD's size is the card's" "csd $csd gives $bytes bytes; the kernel says $((sectors * 512)); the image has $((64 << 20))"
	fi
	# the SSR's AU_SIZE (4.10.2.4, bits 431..428) is 0 on QEMU's card: the
	# kernel then takes its default for the card's size (512 KiB under 128 MiB)
	au=$(bits "$ssr" 431 428)
	if [ "$au" = 0 ] && [ "$pref" = $((512 << 10)) ]; then
		pass "sd card: no AU size in the SSR, the kernel's default erase size"
	else
		fail "sd card: no AU size in the SSR, the kernel's default erase size" "AU_SIZE $au, preferred_erase_size $pref"
	fi
	# what flashbench decodes from the registers (dev/sdreg.c) against what the
	# kernel's own decoder shows beside them in sysfs
	oem=$(printf '%b' "$(sed 's/../\\x&/g' <<< "${oemid:2}")")
	hwrev=$(cat $S/hwrev) fwrev=$(cat $S/fwrev) date=$(cat $S/date)
	kernel="manufacturer_id $(($(cat $S/manfid))) oem $oem product $(cat $S/name) revision $((hwrev)).$((fwrev))"
	kernel="$kernel serial $(($(cat $S/serial))) date ${date#*/}-${date%/*} cid $cid csd $csd capacity $((sectors * 512))"
	kernel="$kernel scr $scr ssr $ssr claims null au 0 preferred_erase_size $pref"
	if timeout 120 "$FB" -A --json /dev/mmcblk0 > sd.json 2> sd.err; then
		bad=
		for f in serial name oemid manfid date erase_size preferred_erase_size type; do
			[ "$("$JP" "device.$f" < sd.json 2> /dev/null)" = "$(cat $S/$f)" ] || bad="$bad $f"
		done
		if [ -z "$bad" ]; then
			pass "sd card: --auto shows what the kernel shows"
		else
			fail "sd card: --auto shows what the kernel shows" "these differ from sysfs:$bad"
		fi
		got=
		for f in manufacturer_id oem product revision serial date cid csd capacity scr ssr claims au preferred_erase_size; do
			got="$got $f $("$JP" "device.card.$f" < sd.json 2>&1)"
		done
		if [ "${got# }" = "$kernel" ]; then
			pass "sd card: --auto decodes the registers as the kernel does"
		else
			fail "sd card: --auto decodes the registers as the kernel does" "flashbench:${got}; the kernel: $kernel"
		fi
	else
		fail "sd card: --auto shows what the kernel shows" "--auto failed: $(tail -2 sd.err)"
		fail "sd card: --auto decodes the registers as the kernel does" "--auto failed"
	fi
	if timeout 120 "$FB" -a -c 2 /dev/mmcblk0 > sd.align 2> sd.err && [ "$(grep -c '^align [0-9]*	pre ' sd.align)" -ge 5 ]; then
		pass "sd card: -a runs through the mmc driver"
	else
		fail "sd card: -a runs through the mmc driver" "$(tail -2 sd.err) $(head -2 sd.align)"
	fi
	# --rating writes (every range saved first and put back: the host compares
	# the card's image afterwards); QEMU's card states no mark and no AU, so
	# every family is tried from its lowest mark up; its timing is QEMU's, so
	# which marks it meets is not looked at, only that each family has a verdict
	if timeout 300 "$FB" -G /dev/mmcblk0 > sd.rating 2> sd.err; then
		want="    card: .* \(manufacturer ID 0x$(printf %02x $(($(cat $S/manfid))))\), OEM \"$oem\", product \"$(cat $S/name)\""
		want="$want rev $((hwrev)).$((fwrev)), serial $(cat $S/serial), made $date"
		why=
		unwrap < sd.rating | grep -qxE "$want" || why="no line '$want'"
		grep -qx '    card: its SD Status says nothing (all zero)' sd.rating || why="$why; no blank SD Status in the heading"
		grep -q "^the card's SD Status: it says nothing (all zero);" sd.rating || why="$why; the SD Status is not said to be blank"
		for k in C U V A; do grep -qE "^$k[0-9]+ +(meets|fails|untestable) " sd.rating || why="$why; no verdict for the $k marks"; done
		grep -qE '^flashbench: --rating: put back [0-9]+ bytes .* and verified them' sd.err || why="$why; nothing said put back"
		! ls ./*.journal > /dev/null 2>&1 || why="$why; a journal was left: $(ls ./*.journal)"
		if [ -z "$why" ]; then
			pass "sd card: --rating on a card whose SD Status says nothing"
		else
			fail "sd card: --rating on a card whose SD Status says nothing" "${why#; }: $(head -14 sd.rating | tr '\n' '|')"
		fi
	else
		fail "sd card: --rating on a card whose SD Status says nothing" "exit $?: $(tail -2 sd.err | tr '\n' ' ')"
	fi
}
if wait_for "the SD card" 30 test -b /dev/mmcblk0; then
	sd_card
else
	IFS='|' read -ra names <<< "$ALL"
	for t in "${names[@]}"; do
		[[ $t != "sd card: "* ]] || fail "$t" "no SD card appeared (mmc_block, sdhci-pci): $(ls /sys/block | tr '\n' ' ')"
	done
fi
lap "the SD card"

# ------------------------------------------------------------ USB sticks
# stick SERIAL: STICK, the disk of the USB stick with that serial, and U,
# its USB device's sysfs directory
stick() {
	local b d
	for b in /sys/block/sd*; do
		d=$(readlink -f "$b")
		while [ -n "$d" ] && [ ! -f "$d/busnum" ]; do d=${d%/*}; done
		[ -n "$d" ] && [ "$(cat "$d/serial" 2> /dev/null)" = "$1" ] && { U=$d STICK=/dev/${b##*/}; return 0; }
	done
	return 1
}
usb_facts() { # DIR: "bus N devpath P speed S serial X" of a USB device
	echo "bus $(cat "$1/busnum") devpath $(cat "$1/devpath") speed $(cat "$1/speed") serial $(cat "$1/serial" 2> /dev/null)"
}
if wait_for "stick u1" 60 stick u1 && wait_for "stick u2" 30 stick u2 && wait_for "stick u3" 30 stick u3; then
	stick u1 && U1=$STICK u1=$U && stick u2 && u2=$U && stick u3 && U3=$STICK u3=$U
	hub=${u1%/*} bus=$(cat "$u1/busnum")
	got="$(usb_facts "$u1"); $(usb_facts "$u2"); hub $(cat "$hub/devpath") class $(cat "$hub/bDeviceClass") $(cat "$hub/product")"
	want="bus $bus devpath 1.1 speed 12 serial u1; bus $bus devpath 1.2 speed 12 serial u2; hub 1 class 09 QEMU USB Hub"
	if [ "$got" = "$want" ] && [ "${u2%/*}" = "$hub" ] && [[ $(readlink -f /sys/block/${U1#/dev/}) == */usb$bus/$bus-1/$bus-1.1/* ]]; then
		pass "usb: the sticks behind the hub"
	else
		fail "usb: the sticks behind the hub" "got: $got; want: $want"
	fi
	got=$(usb_facts "$u3")
	if [ "$got" = "bus $(cat "$u3/busnum") devpath 1 speed 480 serial u3" ] && [ "$(cat "$u3/busnum")" != "$bus" ] &&
		[ "$(cat "${u3%/*}/product")" = "EHCI Host Controller" ]; then
		pass "usb: the stick on another controller"
	else
		fail "usb: the stick on another controller" "got: $got under $(cat "${u3%/*}/product")"
	fi
	# what the tool shows of a stick today (in every mode's --json and
	# --auto's heading): SCSI's vendor and model; not the USB serial, port
	# path or speed
	if timeout 120 "$FB" -a -c 1 --json "$U3" > u3.json 2> u3.err && [ "$("$JP" device.vendor < u3.json)" = QEMU ] &&
		[ "$("$JP" device.model < u3.json)" = "QEMU HARDDISK" ]; then
		pass "usb: the tool shows the stick's vendor and model"
	else
		fail "usb: the tool shows the stick's vendor and model" "$(tail -1 u3.err) $(grep -A12 '"device"' u3.json | tr -s ' \n' ' ')"
	fi
	lap "the sticks"
	# --rating on a stick, whose queue takes no discard (usb-storage: its
	# discard_max_bytes is 0): rated, its AUs not freed, every byte put back
	read -r max < "/sys/block/${U1#/dev/}/queue/discard_max_bytes"
	before=$(digest "$U1")
	timeout 300 "$FB" -G --json "$U1" > u1.json 2> u1.err
	rc=$? got=$("$JP" measured.discarded < u1.json 2>&1)
	if [ $rc = 0 ] && [ "$max" = 0 ] && [ "$got" = false ] && [ "$(digest "$U1")" = "$before" ]; then
		pass "usb: --rating on a stick that takes no discard"
	else
		fail "usb: --rating on a stick that takes no discard" \
			"exit $rc, discard_max_bytes $max, discarded '$got': $(tail -1 u1.err)"
	fi
	expect_error "usb: erase on a stick that takes no discard says so" 1 \
		"^erase: $U1 takes no discard \(its queue's discard_max_bytes is 0" "$ERASE" "$U1" 16M 1M
	lap "--rating on a stick"
	# a GPT partition over the ranges the modes write, mounted
	printf 'label: gpt\nstart=2048, type=linux\n' | sfdisk -q "$U1" 2> gpt.err
	mkdir -p st
	if wait_for "${U1}1" 10 test -b "${U1}1" && mkext4 "${U1}1" && mount "${U1}1" st; then
		MNTS+=("$TMP/st")
		refusals "usb stick partition mounted" "$U1" "${U1}1, a partition of $U1, is mounted on $TMP/st; unmount it"
	else
		refusals_fail "usb stick partition mounted" "could not partition, format and mount $U1: $(cat gpt.err)"
	fi
else
	for t in "usb: the sticks behind the hub" "usb: the stick on another controller" \
		"usb: the tool shows the stick's vendor and model" "usb: --rating on a stick that takes no discard" \
		"usb: erase on a stick that takes no discard says so"; do
		fail "$t" "the three sticks did not appear: $(ls /sys/block)"
	done
	refusals_fail "usb stick partition mounted" "no stick u1"
fi

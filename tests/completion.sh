# tests/completion.sh — the bash completion (completion.bash) against
# --help -v: every option, which ones take an argument, the sim: presets; the
# arguments (sizes, files, .fbp and .svg files), block devices from a made-up
# sysfs (whole disks first), and the scripts' options against their --help.
. tests/lib.sh
# shellcheck source=../completion.bash
. ./completion.bash

# comp FUNCTION LINE: what completing at the end of LINE offers, one a line
comp() {
	local words
	COMP_LINE=$2 COMP_POINT=${#2} COMPREPLY=()
	read -ra words <<< "$COMP_LINE"
	[[ $COMP_LINE == *' ' ]] && words+=("")
	COMP_WORDS=("${words[@]}") COMP_CWORD=$((${#words[@]} - 1))
	"$1" "${words[0]}" "${words[COMP_CWORD]}" "${words[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}"
}
# same NAME WANT GOT: two lists, compared as sets
same() {
	local want got
	want=$(printf '%s\n' "$2" | sort -u) got=$(printf '%s\n' "$3" | sort -u)
	if [ "$want" = "$got" ]; then
		pass "$1"
	else
		fail "$1" "$(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | tr '\n' ' ')"
	fi
}

help=$("$FB" --help -v)
optlines=$(echo "$help" | grep -E '^ {2,6}-')
same "completion: every option of --help, no other" \
	"$(echo "$optlines" | grep -oE -- '(^ +|, )--?[A-Za-z0-9][a-z0-9-]*' | sed 's/^[ ,]*//')" \
	"$(comp _flashbench "$FB -" | sed 's/=$//')"
same "completion: --options with an argument end in '=' (optional ones both ways)" \
	"$(echo "$optlines" | grep -oE -- '--[a-z0-9-]+\[?=' | sed 's/\[//'; echo "$optlines" | grep -oE -- '--[a-z0-9-]+\[=' | sed 's/\[=//')" \
	"$(comp _flashbench "$FB --" | grep -E "=\$|^($(echo "$optlines" | grep -oE -- '--[a-z0-9-]+\[=' | sed 's/\[=//' | paste -sd'|'))\$")"
same "completion: the sim: presets of --help" \
	"$(echo "$help" | grep -oE '^ +sim:[a-z0-9-]+ ' | sed 's/^ *sim://; s/ $//')" \
	"$(comp _flashbench "$FB -a sim:")"
same "completion: sim:u finds usb-12m" "usb-12m" "$(comp _flashbench "$FB -a sim:u")"

same "completion: -b offers sizes" "512 1k 4k 16k 64k 128k 1M 1.5M 4M 8M 12M 16M" \
	"$(comp _flashbench "$FB -b " | tr '\n' ' ' | sed 's/ $//')"
same "completion: --erasesize=1 offers sizes after the '='" "$(printf '%s\n' 1k 16k 128k 1M 1.5M 12M 16M)" \
	"$(comp _flashbench "$FB -a --erasesize=1")"
mkdir -p "$TMP/f/sub"
: > "$TMP/f/a.svg"
: > "$TMP/f/b.txt"
: > "$TMP/f/c.fbp"
same "completion: -o completes any file" "$(printf '%s\n' "$TMP/f/a.svg" "$TMP/f/b.txt" "$TMP/f/c.fbp" "$TMP/f/sub")" \
	"$(comp _flashbench "$FB -a -o $TMP/f/")"
same "completion: --plot= offers .svg files and directories" "$(printf '%s\n' "$TMP/f/a.svg" "$TMP/f/sub")" \
	"$(comp _flashbench "$FB -a --plot=$TMP/f/")"
same "completion: --plot FILE (a word of its own) offers .svg files and directories" \
	"$(printf '%s\n' "$TMP/f/a.svg" "$TMP/f/sub")" "$(comp _flashbench "$FB -a --plot $TMP/f/")"
same "completion: -o FILE after a long option's value" "$(printf '%s\n' "$TMP/f/a.svg" "$TMP/f/b.txt" "$TMP/f/c.fbp" "$TMP/f/sub")" \
	"$(comp _flashbench "$FB -a --out $TMP/f/")"
same "completion: --program= offers .fbp files and directories" "$(printf '%s\n' "$TMP/f/c.fbp" "$TMP/f/sub")" \
	"$(comp _flashbench "$FB --program=$TMP/f/")"
same "completion: the example programs" "scripts/programs/align.fbp" \
	"$(comp _flashbench "$FB --program=scripts/programs/al")"
same "completion: a device may be a file" "$TMP/f/b.txt" "$(comp _flashbench "$FB -a $TMP/f/b")"

# a made-up sysfs: disks with partitions, an unattached loop device, eMMC
# boot areas, a CD and zram (neither offered)
sys=$TMP/sys
for d in sda:100 sda/sda1:50 sda/sda2:50 mmcblk0:64 mmcblk0/mmcblk0p1:60 mmcblk0boot0:4 nvme0n1:900 \
	nvme0n1/nvme0n1p1:800 loop0:0 loop3:8 zram0:9 sr0:2; do
	mkdir -p "$sys/block/${d%:*}"
	echo "${d#*:}" > "$sys/block/${d%:*}/size"
	case $d in */*) : > "$sys/block/${d%:*}/partition" ;; esac
done
_flashbench_sysfs=$sys
got=$(comp _flashbench "$FB -a /dev/" | tr '\n' ' ')
want="/dev/loop3 /dev/mmcblk0 /dev/nvme0n1 /dev/sda /dev/mmcblk0p1 /dev/nvme0n1p1 /dev/sda1 /dev/sda2 "
[ "$got" = "$want" ] && pass "completion: block devices, whole disks first" ||
	fail "completion: block devices, whole disks first" "got '$got', want '$want'"
same "completion: /dev/s finds SCSI/USB disks and partitions" "$(printf '%s\n' /dev/sda /dev/sda1 /dev/sda2)" \
	"$(comp _flashbench "$FB -A --write /dev/s")"
same "completion: flashbench-erase takes a device first" "$(printf '%s\n' /dev/mmcblk0 /dev/mmcblk0p1)" \
	"$(comp _flashbench_erase "flashbench-erase /dev/mm")"
same "completion: flashbench-erase has nothing for START" "" "$(comp _flashbench_erase "flashbench-erase /dev/sda ")"
same "completion: flashbench-report takes a device" "/dev/nvme0n1 /dev/nvme0n1p1" \
	"$(comp _flashbench_script "flashbench-report --write /dev/nv" | tr '\n' ' ' | sed 's/ $//')"

# each mode offers only what it takes
export FLASHBENCH=$FB
same "completion: --compare offers files, no device or preset" "$(printf '%s\n' "$TMP/f/a.svg" "$TMP/f/b.txt" "$TMP/f/c.fbp" "$TMP/f/sub")" \
	"$(comp _flashbench "$FB --compare $TMP/f/")"
same "completion: --analyze offers no sim: preset" "" "$(comp _flashbench "$FB --analyze sim:")"
same "completion: --compare and --analyze offer no device or preset, only files" "" \
	"$( (comp _flashbench "$FB --compare "; comp _flashbench "$FB --analyze ") | grep -E "^(sim:|/dev/)")"
same "completion: -a -b leaves out 512 (-a needs two sectors)" "1k 4k 16k 64k 128k 1M 1.5M 4M 8M 12M 16M" \
	"$(comp _flashbench "$FB -a -b " | tr '\n' ' ' | sed 's/ $//')"
same "completion: -O -b keeps 512" "512 1k 4k 16k 64k 128k 1M 1.5M 4M 8M 12M 16M" \
	"$(comp _flashbench "$FB -O -b " | tr '\n' ' ' | sed 's/ $//')"
same "completion: nothing after the device" "" "$(comp _flashbench "$FB -a --json sim:sd-4m /dev/")"
same "completion: nothing after the device, even after an option with a value" "" \
	"$(comp _flashbench "$FB -a -b 1k sim:sd-4m --plot x.svg sim:")"
same "completion: flashbench-report offers the sim: presets" "$(comp _flashbench "$FB -a sim:")" \
	"$(comp _flashbench_script "flashbench-report sim:")"
same "completion: flashbench-open-au-sweep: presets after -n N, nothing after the device" \
	"$(comp _flashbench "$FB -a sim:") |" \
	"$(comp _flashbench_script "flashbench-open-au-sweep -n 8 -e 4M sim:") |$(comp _flashbench_script "flashbench-open-au-sweep -n 8 sim:sd-4m /dev/")"
same "completion: the same devices for flashbench, flashbench-erase and flashbench-report" \
	"$(comp _flashbench "$FB -a /dev/") $(comp _flashbench "$FB -a /dev/")" \
	"$(comp _flashbench_erase "flashbench-erase /dev/") $(comp _flashbench_script "flashbench-report /dev/")"

for s in report open-au-sweep; do
	# every option the completion offers is in the script's --help, and every
	# option on its usage or option lines is offered
	offered=$(comp _flashbench_script "flashbench-$s -")
	text=$(bash "scripts/$s.sh" --help)
	listed=$(echo "$text" | grep -E '^Usage:|^ +-' | grep -oE -- '(^|[[ ,])--?[a-z][a-z-]*' | sed 's/^[[ ,]*//')
	bad=""
	for o in $offered; do
		case $o in -h | --help) ;; *) echo "$text" | grep -qE -- "(^|[^a-z-])$o([^a-z-]|$)" || bad="$bad $o" ;; esac
	done
	for o in $listed; do
		echo "$offered" | grep -qxF -- "$o" || bad="$bad missing:$o"
	done
	[ -n "$offered" ] && [ -z "$bad" ] && pass "completion: flashbench-$s options match its --help" ||
		fail "completion: flashbench-$s options match its --help" "$bad"
done

# as installed (make install's files), through bash-completion's on-demand
# loader, which sources the file inside a function
if [ ! -r /usr/share/bash-completion/bash_completion ]; then
	skip "completion: through bash-completion's loader" "bash-completion is not installed (.ci/run installs it)"
elif ! (unset MAKEFLAGS MFLAGS MAKELEVEL; make -s install PREFIX=/usr DESTDIR="$TMP/inst") > "$TMP/inst.log" 2>&1; then
	fail "completion: through bash-completion's loader" "make install failed: $(tail -2 "$TMP/inst.log")"
else
	bad=""
	for s in report open-au-sweep; do
		got=$(complete_loaded "$TMP/inst/usr/share" "flashbench-$s --" | sort | tr '\n' ' ')
		want=$(comp _flashbench_script "flashbench-$s --" | sort | tr '\n' ' ')
		[ -n "$want" ] && [ "$got" = "$want" ] || bad="$bad flashbench-$s: '$got', sourced: '$want';"
	done
	got=$(complete_loaded "$TMP/inst/usr/share" "$FB -a --plot $TMP/f/" | sort | tr '\n' ' ')
	[ "$got" = "$TMP/f/a.svg $TMP/f/sub " ] || bad="$bad --plot: '$got';"
	got=$(complete_loaded "$TMP/inst/usr/share" "$FB --blocksize=1" | tr '\n' ' ')
	[ "$got" = "1k 16k 128k 1M 1.5M 12M 16M " ] || bad="$bad --blocksize=1: '$got';"
	[ -z "$bad" ] && pass "completion: through bash-completion's loader" || fail "completion: through bash-completion's loader" "$bad"
fi

regs=$(complete -p 2> /dev/null | grep -oE 'flashbench(-erase|-report|-open-au-sweep)?$' | sort | tr '\n' ' ')
[ "$regs" = "flashbench flashbench-erase flashbench-open-au-sweep flashbench-report " ] &&
	pass "completion: registered for the four commands" || fail "completion: registered for the four commands" "$regs"

if command -v shellcheck > /dev/null; then
	shellcheck -s bash completion.bash > "$TMP/sc" 2>&1 && pass "completion.bash is shellcheck-clean" ||
		fail "completion.bash is shellcheck-clean" "$(head -5 "$TMP/sc" | tr '\n' ' ')"
else
	skip "completion.bash is shellcheck-clean" "shellcheck is not installed"
fi

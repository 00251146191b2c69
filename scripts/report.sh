#!/usr/bin/env bash
# report.sh — a plain-text report of a card, ready to paste into a mailing
# list post: what the system knows of the device, then flashbench --auto.
set -u

usage() {
	cat <<USAGE
Usage: report.sh [--write] [--preserve] DEVICE
Print a report on DEVICE ready to paste into a mail: date, kernel, the
device's identity from sysfs (vendor, model, and for SD/MMC cards name,
oemid, manfid, date, serial, erase_size, preferred_erase_size), its size,
and the output of "flashbench --auto".  Read-only unless --write is given
(which DESTROYS data; add --preserve to keep it).
The flashbench binary is \$FLASHBENCH, else flashbench from PATH.
USAGE
}

FB=${FLASHBENCH:-flashbench}
args=()
while [ $# -gt 0 ]; do
	case $1 in
	--write | --preserve) args+=("$1"); shift ;;
	-h | --help) usage; exit 0 ;;
	-*) echo "report.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
if [ $# -ne 1 ]; then
	echo "report.sh: name one device (see --help)" >&2
	exit 2
fi
dev=$1

echo "flashbench report: $dev"
echo "date:       $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "kernel:     $(uname -srm)"
echo "flashbench: $("$FB" --version)"
if [ -b "$dev" ]; then
	name=$(basename "$(readlink -f "$dev")")
	sys=/sys/class/block/$name
	[ -e "$sys/partition" ] && sys=$(readlink -f "$sys/..")
	echo "size:       $(($(cat "$sys/size") * 512)) bytes"
	for f in vendor model name oemid manfid date serial erase_size preferred_erase_size; do
		[ -r "$sys/device/$f" ] && printf '%-11s %s\n' "$f:" "$(tr -d '\n' < "$sys/device/$f")"
	done
fi
echo
"$FB" --auto "${args[@]}" "$dev"

#!/usr/bin/env bash
# report.sh (installed as flashbench-report) — a plain-text report of a
# card, ready to paste into a mailing list post: what the system knows of
# the device, then flashbench --auto.
set -u
lib=$(dirname "$(readlink -f "$0")")/lib.sh
# shellcheck source=scripts/lib.sh
. "$lib" || exit 1

usage() {
	cat <<USAGE
Usage: $me [--write] [--preserve] DEVICE
       $me --help | --version
Print a report on DEVICE ready to paste into a mail: date, kernel, the
device's identity from sysfs (vendor, model, and for SD/MMC cards name,
oemid, manfid, date, serial, erase_size, preferred_erase_size), its size,
and the output of "flashbench --auto".  Read-only unless --write is given
(which DESTROYS data; add --preserve to keep it).  Ctrl-C, or SIGTERM or
SIGHUP to the script, is passed on to flashbench, which stops at its next
request, puts back what --preserve saved and prints what it finished; the
exit status is then 130/143/129.
The flashbench it runs is \$FLASHBENCH, else the one installed beside it (in
the source: the one built there), else flashbench from PATH; one that does not
answer --version as this flashbench does (the classic tool) is refused.
USAGE
}

args=()
while [ $# -gt 0 ]; do
	case $1 in
	--write | --preserve) args+=("$1"); shift ;;
	*) break ;;
	esac
done
device "$@"
check_fb

echo "flashbench report: $dev"
echo "date:       $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "kernel:     $(uname -srm)"
echo "flashbench: $("$FB" --version) ($FB)"
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
# a signal goes on to flashbench, which stops, puts back what --preserve
# saved and prints the findings it finished; then the script ends by it
run_fb "$FB" --auto "${args[@]}" "$dev"
rc=$?
stop_if_caught
exit "$rc"

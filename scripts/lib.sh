# lib.sh — what the flashbench scripts share (sourced, not run): the name
# they were called by (report.sh in the source tree, flashbench-report when
# installed), the flashbench they run, and the checks of their arguments.
# Installed as $(DATADIR)/lib.sh; `make install` writes that path into the
# installed scripts.
# shellcheck shell=bash disable=SC2034

me=${0##*/}
FB=${FLASHBENCH:-flashbench}
# the version of the scripts: flashbench's, kept equal to lib/version.h
# (tests/scripts.sh checks it)
version=0.2.0

# bad MESSAGE...: a usage error: one line on stderr, exit status 2
bad() {
	echo "$me: $*" >&2
	exit 2
}

# device ARG...: the arguments left after a script's own options: -h or
# --help prints its usage (the script's usage function), --version its
# version, any other option is unknown, else exactly one DEVICE, put in $dev
device() {
	case ${1-} in
	-h | --help) usage; exit 0 ;;
	--version) echo "$me (flashbench) $version"; exit 0 ;;
	-*) bad "unknown option '$1' (see --help)" ;;
	esac
	[ $# -eq 1 ] || bad "name one device (see --help)"
	dev=$1
}

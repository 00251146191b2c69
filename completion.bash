# completion.bash — bash completion for flashbench, flashbench-erase,
# flashbench-report and flashbench-open-au-sweep.  Installed as
# /usr/share/bash-completion/completions/flashbench (bash-completion loads it
# on first use; or source it).  flashbench's options, their arguments and
# the sim: presets are read from `flashbench --help -v` (every option) the
# first time (per binary), so the completion follows the option table;
# tests/completion.sh checks it against that help.  Devices: whole disks first, then partitions.

# bash-completion's loader sources this file inside a function: every
# variable is declared global (-g), or it would vanish when that returns
declare -g _flashbench_sysfs=/sys
declare -gA _flashbench_script_opts

# _flashbench_learn CMD: options and presets from CMD --help -v, into
# _flashbench_opts (words), _flashbench_arg[OPTION]=KIND (SIZE, N, FILE, ...,
# "?KIND" when the argument is optional) and _flashbench_presets.
_flashbench_learn() {
	local cmd=$1 line short long arg
	[ "${_flashbench_cmd-}" = "$cmd" ] && return
	_flashbench_cmd=$cmd _flashbench_opts=() _flashbench_presets=()
	declare -gA _flashbench_arg=()
	while IFS= read -r line; do
		if [[ $line =~ ^\ {2,6}(-([A-Za-z0-9]),\ +)?(--[a-z0-9][a-z0-9-]*)(\[?=([A-Za-z.]+)\]?)? ]]; then
			short=${BASH_REMATCH[2]:+-${BASH_REMATCH[2]}} long=${BASH_REMATCH[3]} arg=${BASH_REMATCH[5]}
			[[ ${BASH_REMATCH[4]} == \[* ]] && arg="?$arg"
			_flashbench_opts+=("$long" ${short:+"$short"})
			if [ -n "$arg" ]; then
				_flashbench_arg[$long]=$arg
				[ -n "$short" ] && _flashbench_arg[$short]=$arg
			fi
		elif [[ $line =~ ^\ +(sim:[A-Za-z0-9_-]+)\  ]]; then
			_flashbench_presets+=("${BASH_REMATCH[1]}")
		fi
	done < <(LC_ALL=C "$cmd" --help -v 2> /dev/null)
}

# _flashbench_devices PREFIX: block devices named /dev/PREFIX*, SD/MMC,
# SCSI/USB, virtio, NVMe and attached loop devices; whole disks first.
_flashbench_devices() {
	local cur=$1 sys d n disks=() parts=()
	for sys in "$_flashbench_sysfs"/block/*; do
		n=${sys##*/}
		case $n in sd* | vd* | mmcblk* | nvme* | loop*) ;; *) continue ;; esac
		[[ $n == mmcblk*rpmb || $n == mmcblk*boot* ]] && continue
		[ "$(cat "$sys/size" 2> /dev/null)" -gt 0 ] 2> /dev/null || continue
		disks+=("/dev/$n")
		for d in "$sys/$n"*; do
			[ -e "$d/partition" ] && parts+=("/dev/${d##*/}")
		done
	done
	for d in "${disks[@]}" "${parts[@]}"; do
		[[ $d == "$cur"* ]] && printf '%s\n' "$d"
	done
}

# _flashbench_reply WORD CANDIDATE...: the candidates that start with WORD,
# cut where bash splits the word (after its last ':' or '=').
_flashbench_reply() {
	local word=$1 cut c
	shift
	cut=${word%"${word##*[:=]}"}
	for c in "$@"; do
		[[ $c == "$word"* ]] && COMPREPLY+=("${c#"$cut"}")
	done
}

_flashbench_files() { # WORD [GLOB]: file names (matching GLOB) and directories
	local word=${1#*=} f
	while IFS= read -r f; do
		# shellcheck disable=SC2053 # $2 is a glob
		if [ -d "$f" ] || [ -z "${2-}" ] || [[ $f == $2 ]]; then
			COMPREPLY+=("$f")
		fi
	done < <(compgen -f -- "$word")
	compopt -o filenames 2> /dev/null # bash marks directories with '/'
}

# The word under the cursor up to the cursor, and the word before it, with
# ':' and '=' kept (bash splits words there): into word and prev.
_flashbench_words() {
	local line=${COMP_LINE:0:COMP_POINT}
	word=${line##*[[:space:]]}
	line=${line%"$word"}
	line=${line%"${line##*[![:space:]]}"}
	prev=${line##*[[:space:]]}
}

# _flashbench_chosen [OPTION...]: what the words before the cursor chose
# (the line up to it, split at blanks, option values skipped: those of the
# OPTIONs given, else of flashbench's options that take one): into mode
# (align, files for --analyze and --compare, or "") and given (how many
# devices or files are named).
_flashbench_chosen() {
	local line=${COMP_LINE:0:COMP_POINT} w i kind valued=" $* "
	local -a ws
	read -ra ws <<< "$line"
	[[ $line == *[[:space:]] ]] || unset 'ws[${#ws[@]}-1]'
	mode='' given=0
	for ((i = 1; i < ${#ws[@]}; i++)); do
		w=${ws[i]}
		case $w in
		-a | --align) mode=align ;;
		--analyze | --analyze=* | --compare) mode=files ;;
		esac
		if [[ $w == -* ]]; then
			if [ $# -gt 0 ]; then
				[[ $valued == *" $w "* ]] && kind=VALUE || kind=''
			else
				kind=${_flashbench_arg[${w%%=*}]-}
			fi
			[[ $w != *=* && -n $kind && $kind != \?* ]] && i=$((i + 1)) # its value is the next word
		else
			given=$((given + 1))
		fi
	done
}

_flashbench_value() { # KIND WORD [OPTION]: complete an option's argument
	local kind=${1#\?} word=$2 pre="" s sizes=() mode='' given
	[[ $word == --*=* ]] && pre=${word%%=*}=
	case $kind in
	SIZE)
		[[ ${3-} == -b || ${3-} == --blocksize ]] && _flashbench_chosen
		for s in 512 1k 4k 16k 64k 128k 1M 1.5M 4M 8M 12M 16M; do
			# -a reads across boundaries inside a block: at least two sectors
			[[ $mode == align && $s == 512 ]] || sizes+=("$pre$s")
		done
		_flashbench_reply "$word" "${sizes[@]}" ;;
	FILE.svg) _flashbench_files "$word" '*.svg' ;;
	FILE)
		if [ "${3-}" = --program ]; then
			_flashbench_files "$word" '*.fbp'
		else
			_flashbench_files "$word"
		fi ;;
	*) ;; # numbers: nothing to offer
	esac
}

_flashbench() {
	local word prev opt kind
	COMPREPLY=()
	_flashbench_learn "$1"
	_flashbench_words
	if [[ $word == --*=* ]]; then # --option=VALUE
		opt=${word%%=*}
		kind=${_flashbench_arg[$opt]-}
		[ -n "$kind" ] && _flashbench_value "$kind" "$word" "$opt"
		return
	fi
	kind=${_flashbench_arg[$prev]-}
	if [[ -n $kind && $kind != \?* ]]; then # -b SIZE, -o FILE, --plot FILE.svg
		_flashbench_value "$kind" "$word" "$prev"
		return
	fi
	if [[ $word == -* ]]; then
		local o opts=()
		for o in "${_flashbench_opts[@]}"; do
			kind=${_flashbench_arg[$o]-}
			if [[ $o == --* && $kind == \?* ]]; then
				opts+=("$o" "$o=")
			elif [[ $o == --* && -n $kind ]]; then
				opts+=("$o=")
			else
				opts+=("$o")
			fi
		done
		_flashbench_reply "$word" "${opts[@]}"
		[[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace 2> /dev/null
		return
	fi
	local mode given
	_flashbench_chosen
	if [ "$mode" = files ]; then # --analyze and --compare read files, never a device
		_flashbench_files "$word"
		return
	fi
	[ "$given" -eq 0 ] || return # one device, and it is named
	if [[ $word == sim:* ]]; then
		_flashbench_reply "$word" "${_flashbench_presets[@]}"
		return
	fi
	compopt -o nosort 2> /dev/null
	mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(_flashbench_devices "$word")
	_flashbench_reply "$word" "${_flashbench_presets[@]}"
	[[ $word == /dev/* ]] || _flashbench_files "$word"
}

# flashbench-erase DEVICE START LENGTH
_flashbench_erase() {
	local word prev
	COMPREPLY=()
	_flashbench_words
	if [ "$prev" = "$1" ] || [ "$prev" = "${1##*/}" ]; then
		compopt -o nosort 2> /dev/null
		mapfile -t COMPREPLY < <(_flashbench_devices "$word")
		[[ $word == /dev/* ]] || _flashbench_files "$word"
	fi
}

# the scripts' options (tests/completion.sh checks them against their --help)
_flashbench_script_opts=(
	[report]="--write --preserve --help -h --version"
	[open-au-sweep]="-e -b -n --linear --random --preserve --help -h --version"
)
# the scripts: an option, then a device
_flashbench_script() {
	local word prev name=${1##*/}
	COMPREPLY=()
	_flashbench_words
	case $prev in
	-e | -b) _flashbench_value SIZE "$word"; return ;;
	-n) return ;;
	esac
	if [[ $word == -* ]]; then
		name=${name#flashbench-}
		# shellcheck disable=SC2086 # a list of words
		_flashbench_reply "$word" ${_flashbench_script_opts[${name%.sh}]-}
		return
	fi
	# one device, as flashbench takes it (a sim: preset too)
	_flashbench_learn "${FLASHBENCH:-flashbench}"
	local mode given
	_flashbench_chosen -e -b -n
	[ "$given" -eq 0 ] || return
	if [[ $word == sim:* ]]; then
		_flashbench_reply "$word" "${_flashbench_presets[@]}"
		return
	fi
	compopt -o nosort 2> /dev/null
	mapfile -t COMPREPLY < <(_flashbench_devices "$word")
	_flashbench_reply "$word" "${_flashbench_presets[@]}"
	[[ $word == /dev/* ]] || _flashbench_files "$word"
}

complete -F _flashbench flashbench
complete -F _flashbench_erase flashbench-erase
complete -F _flashbench_script flashbench-report flashbench-open-au-sweep

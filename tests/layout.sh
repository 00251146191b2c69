#!/usr/bin/env bash
# tests/layout.sh — the include rule of the source tree (HACKING.md, "Layout"):
# a file includes only headers of its own part, of parts below it, and of
# lib/.  The parts, highest first (data flows from the bottom up):
#   cli      flashbench.c, erase.c, options.c/h, testkinds.c/h, modes.c/h
#   run      run/      (one file per mode)
#   report   report/
#   saved    saved/
#   auto     auto/
#   guard    guard/    } side by side: neither includes the other
#   prog     prog/     }
#   vm       vm.c, vm.h
#   dev      dev.c, dev.h, dev/
#   lib      lib/ (includes nothing outside lib/)
# Only "quoted" includes are checked (system headers are <...>).  The calls
# run the same way (check_calls): from the object files of a build (the one
# $FB is in), every symbol an object uses that another part defines is an
# edge, and none may go to a part above (or beside) its own; and a device
# layer (guard/layer.c: dev.c calls it back through its dev_ops) reaches
# nothing above the device, so no call cycle between parts can hide behind
# includes that look right.
set -u
cd "$(dirname "$0")/.." || exit 2

# rank of each part: a file may include a header of rank lower than its own,
# or of its own part
rank() {
	case $1 in
	cli) echo 9 ;; run) echo 8 ;; report) echo 7 ;; saved) echo 6 ;; auto) echo 5 ;;
	guard | prog) echo 4 ;; vm) echo 3 ;; dev) echo 2 ;; lib) echo 1 ;;
	*) echo 0 ;;
	esac
}

# the part of a path (a file, or what an #include names)
part() {
	case $1 in
	flashbench.c | erase.c | options.[ch] | testkinds.[ch] | modes.[ch]) echo cli ;;
	vm.[ch]) echo vm ;;
	dev.[ch] | dev/*) echo dev ;;
	lib/* | run/* | report/* | saved/* | auto/* | guard/* | prog/*) echo "${1%%/*}" ;;
	*) echo unknown ;;
	esac
}

# check_tree DIR: one line "FILE: includes HEADER (PART above PART)" per
# include against the flow, or per include naming no part; returns 1 if any
check_tree() {
	local dir=$1 f inc from to bad=0
	while IFS= read -r f; do
		from=$(part "$f")
		if [ "$from" = unknown ]; then
			echo "$f: a source file outside every part (put it in a part's folder)"
			bad=1
			continue
		fi
		while IFS= read -r inc; do
			to=$(part "$inc")
			if [ "$to" = unknown ]; then
				echo "$f: includes \"$inc\", which names no part (includes read \"PART/FILE.h\")"
				bad=1
			elif [ "$to" != "$from" ] && [ "$(rank "$to")" -ge "$(rank "$from")" ]; then
				echo "$f: includes \"$inc\" ($to is not below $from)"
				bad=1
			fi
		done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$dir/$f")
	done < <(cd "$dir" && find . -path ./tests -prune -o -path ./build -prune -o -path ./bench -prune -o \
		-path ./.git -prune -o -type f \( -name '*.c' -o -name '*.h' \) -print | sed 's|^\./||' | LC_ALL=C sort)
	return $bad
}

# the checker itself finds what it must: a tree with one include of each
# wrong kind
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lib" "$tmp/report" "$tmp/prog" "$tmp/guard" "$tmp/auto" "$tmp/run"
printf '#include "lib/units.h"\n#include "auto/analyze.h"\n' > "$tmp/report/ok.c"
printf '#include "lib/err.h"\n#include "vm.h"\n' > "$tmp/lib/bad.c"
printf '#include "testkinds.h"\n' > "$tmp/report/bad.c"
printf '#include "guard/safety.h"\n' > "$tmp/prog/bad.c"
printf '#include "units.h"\n' > "$tmp/auto/bad.c"
printf '#include "vm.h"\n' > "$tmp/loose.c"
printf '#include "report/plot.h"\n#include "modes.h"\n' > "$tmp/run/bad.c"
want='auto/bad.c: includes "units.h", which names no part (includes read "PART/FILE.h")
lib/bad.c: includes "vm.h" (vm is not below lib)
loose.c: a source file outside every part (put it in a part'"'"'s folder)
prog/bad.c: includes "guard/safety.h" (guard is not below prog)
report/bad.c: includes "testkinds.h" (cli is not below report)
run/bad.c: includes "modes.h" (cli is not below run)'
got=$(check_tree "$tmp")
if [ "$got" = "$want" ]; then
	echo "PASS layout: the include check finds each kind of wrong include in a planted tree"
else
	echo "FAIL layout: the include check on a planted tree said:"
	printf '%s\n' "$got" | sed 's/^/    /'
fi

# objects DIR: the objects of a build under DIR (not the tests', nor another
# build's), one path a line
objects() {
	(cd "$1" && find . -path ./tests -prune -o -path ./bench -prune -o -path ./build -prune -o -name '*.o' \
		-print | sed 's|^\./||' | LC_ALL=C sort)
}

# check_calls DIR SRC: the calls between the parts of the objects under DIR
# (their paths name their parts as the sources' do).  One line per call to a
# part not below the caller's: "OBJ calls SYMBOL, defined in DEF (PART is not
# below PART)".  A device layer (a file of SRC outside dev/ that includes
# dev/dev_impl.h: the device calls it back through its dev_ops) runs below
# the VM: what it reaches, through its own part, must be the device or below;
# one line per call that is not.  Returns 1 if any.
check_calls() {
	local dir=$1 src=$2 bad=0 obj sym def from to f layer own o e p
	local -A where=() calls=() seen=()
	local -a queue
	while read -r obj sym; do
		where[$sym]=$obj
	done < <(objects "$dir" | (cd "$dir" && xargs -r nm -A -g --defined-only 2> /dev/null) |
		awk '{ sub(/:.*/, "", $1); print $1, $NF }')
	while read -r obj sym; do
		def=${where[$sym]-}
		[ -n "$def" ] || continue
		calls[$obj]+=" $def:$sym"
		from=$(part "${obj%.o}.c") to=$(part "${def%.o}.c")
		[ "$from" = unknown ] || [ "$to" = unknown ] || [ "$to" = "$from" ] && continue
		if [ "$(rank "$to")" -ge "$(rank "$from")" ]; then
			echo "$obj calls $sym, defined in $def ($to is not below $from)"
			bad=1
		fi
	done < <(objects "$dir" | (cd "$dir" && xargs -r nm -A -u 2> /dev/null) |
		awk '{ sub(/:.*/, "", $1); print $1, $NF }')
	while IFS= read -r f; do
		layer=${f%.c}.o own=$(part "$f")
		[ "$own" = dev ] && continue
		seen=([$layer]=1) queue=("$layer")
		for ((i = 0; i < ${#queue[@]}; i++)); do
			o=${queue[$i]}
			for e in ${calls[$o]-}; do
				def=${e%%:*} sym=${e#*:} p=$(part "${def%.o}.c")
				if [ "$p" = "$own" ]; then
					[ -n "${seen[$def]-}" ] || { seen[$def]=1; queue+=("$def"); }
				elif [ "$p" != unknown ] && [ "$(rank "$p")" -gt "$(rank dev)" ]; then
					echo "$layer is a device layer (dev calls it back), and through $o it calls $sym, defined in $def ($p is above dev)"
					bad=1
				fi
			done
		done
	done < <(cd "$src" && grep -rl --include='*.c' '^#[[:space:]]*include[[:space:]]*"dev/dev_impl.h"' . |
		sed 's|^\./||' | LC_ALL=C sort)
	return $bad
}

# the call check finds what is planted in a tree of objects: a cycle through
# a device layer (the VM calls the device, which calls its layer back, whose
# journal calls the VM, as the preserve layer's once did), a call up and a
# call to the part beside
mkdir -p "$tmp/calls/dev" "$tmp/calls/guard" "$tmp/calls/prog"
: > "$tmp/calls/dev/dev_impl.h"
printf 'int dev_go(void);\nint vm_plan_it(void) { return 1; }\nint vm_go(void) { return dev_go(); }\n' \
	> "$tmp/calls/vm.c"
printf 'int dev_go(void) { return 0; }\n' > "$tmp/calls/dev/d.c"
printf 'int vm_go(void);\nint dev_up(void) { return vm_go(); }\n' > "$tmp/calls/dev/up.c"
printf '#include "dev/dev_impl.h"\nint save_go(void);\nint dev_go(void);\nint layer_go(void) { return save_go() + dev_go(); }\n' \
	> "$tmp/calls/guard/layer.c"
printf 'int vm_plan_it(void);\nint save_go(void) { return vm_plan_it(); }\n' > "$tmp/calls/guard/save.c"
printf 'int save_go(void);\nint prog_go(void) { return save_go(); }\n' > "$tmp/calls/prog/p.c"
if ! command -v nm > /dev/null || ! command -v "${CC:-cc}" > /dev/null; then
	echo "SKIP layout: the call check: no nm or C compiler here"
else
	for f in vm dev/d dev/up guard/layer guard/save prog/p; do
		"${CC:-cc}" -I "$tmp/calls" -c -o "$tmp/calls/$f.o" "$tmp/calls/$f.c"
	done
	want='dev/up.o calls vm_go, defined in vm.o (vm is not below dev)
prog/p.o calls save_go, defined in guard/save.o (guard is not below prog)
guard/layer.o is a device layer (dev calls it back), and through guard/save.o it calls vm_plan_it, defined in vm.o (vm is above dev)'
	got=$(check_calls "$tmp/calls" "$tmp/calls")
	if [ "$got" = "$want" ]; then
		echo "PASS layout: the call check finds a planted cycle through a device layer, a call up and one beside"
	else
		echo "FAIL layout: the call check on planted objects said:"
		printf '%s\n' "$got" | sed 's/^/    /'
	fi
	build=$(dirname "${FB:-$PWD/flashbench}")
	if [ ! -f "$build/vm.o" ] || [ ! -f "$build/dev.o" ]; then
		echo "SKIP layout: the call check of the build: no objects beside $build/flashbench"
	elif got=$(check_calls "$build" .); then
		echo "PASS layout: every call between parts runs with the flow, and device layers reach nothing above the device ($build)"
	else
		echo "FAIL layout: calls against the flow (HACKING.md, \"Layout\"):"
		printf '%s\n' "$got" | sed 's/^/    /'
	fi
fi

# the real tree
if got=$(check_tree .); then
	echo "PASS layout: every include runs with the flow (own part, parts below, lib/)"
else
	echo "FAIL layout: includes against the flow (HACKING.md, \"Layout\"):"
	printf '%s\n' "$got" | sed 's/^/    /'
fi

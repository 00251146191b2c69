#!/usr/bin/env bash
# tests/layout.sh — the include rule of the source tree (HACKING.md, "Layout"):
# a file includes only headers of its own part, of parts below it, and of
# lib/.  The parts, highest first (data flows from the bottom up):
#   cli      flashbench.c, erase.c, options.c/h, testkinds.c/h
#   report   report/
#   saved    saved/
#   auto     auto/
#   guard    guard/    } side by side: neither includes the other
#   prog     prog/     }
#   vm       vm.c, vm.h
#   dev      dev.c, dev.h, dev/
#   lib      lib/ (includes nothing outside lib/)
# Only "quoted" includes are checked (system headers are <...>).
set -u
cd "$(dirname "$0")/.." || exit 2

# rank of each part: a file may include a header of rank lower than its own,
# or of its own part
rank() {
	case $1 in
	cli) echo 8 ;; report) echo 7 ;; saved) echo 6 ;; auto) echo 5 ;;
	guard | prog) echo 4 ;; vm) echo 3 ;; dev) echo 2 ;; lib) echo 1 ;;
	*) echo 0 ;;
	esac
}

# the part of a path (a file, or what an #include names)
part() {
	case $1 in
	flashbench.c | erase.c | options.[ch] | testkinds.[ch]) echo cli ;;
	vm.[ch]) echo vm ;;
	dev.[ch] | dev/*) echo dev ;;
	lib/* | report/* | saved/* | auto/* | guard/* | prog/*) echo "${1%%/*}" ;;
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
mkdir -p "$tmp/lib" "$tmp/report" "$tmp/prog" "$tmp/guard" "$tmp/auto"
printf '#include "lib/units.h"\n#include "auto/analyze.h"\n' > "$tmp/report/ok.c"
printf '#include "lib/err.h"\n#include "vm.h"\n' > "$tmp/lib/bad.c"
printf '#include "testkinds.h"\n' > "$tmp/report/bad.c"
printf '#include "guard/safety.h"\n' > "$tmp/prog/bad.c"
printf '#include "units.h"\n' > "$tmp/auto/bad.c"
printf '#include "vm.h"\n' > "$tmp/loose.c"
want='auto/bad.c: includes "units.h", which names no part (includes read "PART/FILE.h")
lib/bad.c: includes "vm.h" (vm is not below lib)
loose.c: a source file outside every part (put it in a part'"'"'s folder)
prog/bad.c: includes "guard/safety.h" (guard is not below prog)
report/bad.c: includes "testkinds.h" (cli is not below report)'
got=$(check_tree "$tmp")
if [ "$got" = "$want" ]; then
	echo "PASS layout: the include check finds each kind of wrong include in a planted tree"
else
	echo "FAIL layout: the include check on a planted tree said:"
	printf '%s\n' "$got" | sed 's/^/    /'
fi

# the real tree
if got=$(check_tree .); then
	echo "PASS layout: every include runs with the flow (own part, parts below, lib/)"
else
	echo "FAIL layout: includes against the flow (HACKING.md, \"Layout\"):"
	printf '%s\n' "$got" | sed 's/^/    /'
fi

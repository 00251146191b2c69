# tests/zoolib.sh — scoring for the zoos (tests/zoo.sh, tests/zoo_hostile.sh):
# runs --auto --write --json on a simulated card and compares EVERY finding
# with the model's true geometry.  A finding is right when its value is the
# truth ("at least N" when the truth is N or more, "N or less" when it is N or
# less); wrong when determined with another value; "not determined" is
# neither (it counts against the accuracy, never as wrong).  Counts are kept
# per finding and per confidence level (the calibration table).
# Needs FB and TMP (tests/lib.sh).
JP=${FB%/flashbench}/tests/jsonpath
FINDINGS="page erase_block min_write open_linear open_random fat_area"
declare -A Z_RIGHT Z_TOTAL C_RIGHT C_WRONG
Z_ND=0 Z_MISSES=""
zoo_reset() {
	local k
	for k in $FINDINGS; do Z_RIGHT[$k]=0; Z_TOTAL[$k]=0; done
	for k in high medium low none; do C_RIGHT[$k]=0; C_WRONG[$k]=0; done
	Z_ND=0 Z_MISSES=""
}

# to_bytes 12K -> 12288
to_bytes() { echo $(( $(echo "$1" | sed 's/K$/*1024/; s/M$/*1048576/; s/G$/*1073741824/') )); }

# pick sets P to one of its arguments (no subshell: bash reseeds RANDOM there)
pick() { local a=("$@"); P=${a[RANDOM % ${#a[@]}]}; }

# fit_page ERASE PAGE PLANES: sets P to PAGE in bytes, halved until
# P x PLANES divides the erase block
fit_page() {
	local e
	e=$(to_bytes "$1") P=$(to_bytes "$2")
	while [ $((e % (P * $3))) -ne 0 ]; do P=$((P / 2)); done
}

# score_model SPEC: runs the model; adds to the counts; sets Z_LAST to the
# misses of this model ("" when every finding is right)
score_model() {
	local spec=$1 kv k v
	local erase=4M page=8K planes=2 open=2 random=1 fat=0 minwrite=32K
	for kv in ${spec//,/ }; do
		k=${kv%%=*} v=${kv#*=}
		case $k in erase|page|planes|open|random|fat|minwrite) printf -v "$k" %s "$v" ;; esac
	done
	local -A want=([page]=$(( $(to_bytes "$page") * planes )) [erase_block]=$(to_bytes "$erase")
		[min_write]=$(to_bytes "$minwrite") [open_linear]=$open [open_random]=$random [fat_area]=$fat)
	Z_LAST=""
	if ! "$FB" -A --write --json "sim:size=${ZOO_SIZE:-8G},$spec" > "$TMP/z.json" 2> "$TMP/z.err"; then
		Z_LAST=" run failed: $(head -1 "$TMP/z.err")"
		for k in $FINDINGS; do Z_TOTAL[$k]=$((Z_TOTAL[$k] + 1)); done
		Z_MISSES="$Z_MISSES$spec:$Z_LAST"$'\n'
		return
	fi
	local paths=() out
	for k in $FINDINGS; do
		paths+=("findings.$k.determined" "findings.$k.value" "findings.$k.confidence" "findings.$k.at_least"
			"findings.$k.at_most")
	done
	mapfile -t out < <("$JP" "${paths[@]}" < "$TMP/z.json" 2> /dev/null)
	local i=0 det val conf atl atm ok
	for k in $FINDINGS; do
		det=${out[i]} val=${out[i + 1]} conf=${out[i + 2]} atl=${out[i + 3]} atm=${out[i + 4]}
		i=$((i + 5))
		Z_TOTAL[$k]=$((Z_TOTAL[$k] + 1))
		if [ "$det" != true ]; then
			Z_ND=$((Z_ND + 1))
			Z_LAST="$Z_LAST $k=?(want ${want[$k]})"
			continue
		fi
		ok=0
		if [ "$val" = "${want[$k]}" ]; then ok=1
		elif [ "$atl" = true ] && [ "${want[$k]}" -ge "$val" ]; then ok=1
		elif [ "$atm" = true ] && [ "${want[$k]}" -le "$val" ]; then ok=1
		fi
		if [ $ok = 1 ]; then
			Z_RIGHT[$k]=$((Z_RIGHT[$k] + 1)); C_RIGHT[$conf]=$((C_RIGHT[$conf] + 1))
		else
			C_WRONG[$conf]=$((C_WRONG[$conf] + 1))
			Z_LAST="$Z_LAST $k=$val@$conf(want ${want[$k]})"
		fi
	done
	[ -z "$Z_LAST" ] || Z_MISSES="$Z_MISSES$spec:$Z_LAST"$'\n'
}

# zoo_report NAME: per-finding accuracy and the calibration table; sets
# Z_SUM_RIGHT, Z_SUM_TOTAL and Z_HIGH_WRONG
zoo_report() {
	local k
	Z_SUM_RIGHT=0 Z_SUM_TOTAL=0
	echo "$1: per finding (right of total)"
	for k in $FINDINGS; do
		printf '    %-12s %3d of %3d\n' "$k" "${Z_RIGHT[$k]}" "${Z_TOTAL[$k]}"
		Z_SUM_RIGHT=$((Z_SUM_RIGHT + Z_RIGHT[$k])) Z_SUM_TOTAL=$((Z_SUM_TOTAL + Z_TOTAL[$k]))
	done
	echo "$1: calibration (confidence: right, wrong); not determined: $Z_ND"
	for k in high medium low; do printf '    %-7s %4d right %4d wrong\n' "$k" "${C_RIGHT[$k]}" "${C_WRONG[$k]}"; done
	Z_HIGH_WRONG=${C_WRONG[high]}
	echo "$1: $Z_SUM_RIGHT of $Z_SUM_TOTAL findings right ($((Z_SUM_RIGHT * 1000 / Z_SUM_TOTAL / 10)).$((Z_SUM_RIGHT * 1000 / Z_SUM_TOTAL % 10))%)"
	[ -z "$Z_MISSES" ] || printf '%s' "$Z_MISSES" | sed "s/^/$1 miss: /"
}

# zoo_verdict NAME PERCENT: the report, then PASS/FAIL lines: at least
# PERCENT of all findings right, none wrong at high confidence
zoo_verdict() {
	zoo_report "$1"
	if [ $((Z_SUM_RIGHT * 100)) -ge $((Z_SUM_TOTAL * $2)) ]; then
		pass "$1: at least $2% of findings right ($Z_SUM_RIGHT of $Z_SUM_TOTAL)"
	else
		fail "$1: at least $2% of findings right" "$Z_SUM_RIGHT of $Z_SUM_TOTAL"
	fi
	if [ "$Z_HIGH_WRONG" = 0 ]; then
		pass "$1: no finding at high confidence is wrong"
	else
		fail "$1: no finding at high confidence is wrong" "$Z_HIGH_WRONG wrong at high"
	fi
}

# tests/zoolib.sh — scoring for the zoos (tests/zoo.sh, tests/zoo_hostile.sh):
# runs --auto --write --json on a simulated card and compares EVERY finding
# with the model's true geometry.  A finding is right when its value is the
# truth ("at least N" when the truth is N or more, "N or less" when it is N or
# less); wrong when determined with another value; "not determined" is
# neither (it counts against the accuracy, never as wrong).  Counts are kept
# per finding and per confidence level (the calibration table).
# Every run must also keep to the bounds it announced (bytes written and
# device time, JSON cost.bound_bytes and cost.bound_ns; the time is the
# tests' and the quick capacity check's, cost.capacity_check_ns);
# ZOO_COST_LOG=FILE appends one line per model: class, device seconds (the
# check's included), bytes written, the bounds, the spec.  ZOO_SEED=N (default 0) draws other models and noise:
# the zoo scripts add it to their generators' seeds.
# Needs FB and TMP (tests/lib.sh).
JP=${FB%/flashbench}/tests/jsonpath
FINDINGS="page erase_block min_write open_linear open_random fat_area"
ZOO_SEED=${ZOO_SEED:-0}
declare -A Z_RIGHT Z_TOTAL C_RIGHT C_WRONG
Z_ND=0 Z_MISSES="" Z_CLASS=model Z_OVER="" Z_SSD_BAD=""
zoo_reset() {
	local k
	for k in $FINDINGS; do Z_RIGHT[$k]=0; Z_TOTAL[$k]=0; done
	for k in high medium low none; do C_RIGHT[$k]=0; C_WRONG[$k]=0; done
	Z_ND=0 Z_MISSES="" Z_OVER="" Z_SSD_BAD=""
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

# zoo_cost: checks the run in $TMP/z.json against the bounds it announced
# and logs its cost (ZOO_COST_LOG); sets Z_NS and Z_BYTES
zoo_cost() {
	local spec=$1 c
	mapfile -t c < <("$JP" cost.device_ns cost.bytes_written cost.capacity_check_ns < "$TMP/z.json" 2> /dev/null)
	# the quick capacity check's time is apart from the tests' but inside the bound
	Z_NS=$(awk -v a="${c[0]:-0}" -v b="${c[2]:-0}" 'BEGIN { printf "%.0f", a + (b == "null" ? 0 : b) }')
	Z_BYTES=${c[1]:-0}
	mapfile -t c < <("$JP" cost.bound_bytes cost.bound_ns < "$TMP/z.json" 2> /dev/null)
	local bb=${c[0]:-} bn=${c[1]:-}
	bn=${bn%.*}
	if [ -n "$bb" ] && [ "$bb" != null ] && [ "$Z_BYTES" -gt "$bb" ]; then
		Z_OVER="$Z_OVER$spec: wrote $Z_BYTES bytes, announced $bb"$'\n'
	fi
	if [ -n "$bn" ] && [ "$bn" != null ] && [ "${Z_NS:-0}" -gt "$bn" ]; then
		Z_OVER="$Z_OVER$spec: took $Z_NS ns of device time, announced $bn"$'\n'
	fi
	[ -z "${ZOO_COST_LOG:-}" ] || printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$Z_CLASS" \
		"$(awk -v n="${Z_NS:-0}" 'BEGIN { printf "%.1f", n / 1e9 }')" "$Z_BYTES" "${bb:--}" "${bn:--}" "$spec" \
		>> "$ZOO_COST_LOG"
}

# score_ssd SPEC: an SSD-like model (no flash-like penalty anywhere): right
# when the run says so (JSON verdict.kind "ssd-like") and claims no
# geometry, in at most 60 s of device time and 128 MiB written (each of
# its findings counts as right, else as not determined)
score_ssd() {
	local spec=$1 out k
	Z_LAST=""
	"$FB" -A --write --json "sim:size=${ZOO_SIZE:-8G},$spec" > "$TMP/z.json" 2> "$TMP/z.err" ||
		Z_LAST=" run failed: $(head -1 "$TMP/z.err")"
	zoo_cost "$spec"
	mapfile -t out < <("$JP" verdict.kind findings.page.determined findings.erase_block.determined \
		< "$TMP/z.json" 2> /dev/null)
	[ "${out[0]:-}" = ssd-like ] || Z_LAST="$Z_LAST verdict=${out[0]:-none}"
	[ "${out[1]:-}" != true ] && [ "${out[2]:-}" != true ] || Z_LAST="$Z_LAST geometry claimed"
	[ "${Z_NS:-0}" -le 60000000000 ] || Z_LAST="$Z_LAST took $((Z_NS / 1000000000))s"
	[ "$Z_BYTES" -le $((128 << 20)) ] || Z_LAST="$Z_LAST wrote $((Z_BYTES >> 20))MiB"
	for k in $FINDINGS; do
		Z_TOTAL[$k]=$((Z_TOTAL[$k] + 1))
		if [ -z "$Z_LAST" ]; then Z_RIGHT[$k]=$((Z_RIGHT[$k] + 1)); else Z_ND=$((Z_ND + 1)); fi
	done
	[ -z "$Z_LAST" ] || { Z_MISSES="$Z_MISSES$spec:$Z_LAST"$'\n'; Z_SSD_BAD="$Z_SSD_BAD$spec:$Z_LAST"$'\n'; }
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
		zoo_cost "$spec"
		for k in $FINDINGS; do Z_TOTAL[$k]=$((Z_TOTAL[$k] + 1)); done
		Z_MISSES="$Z_MISSES$spec:$Z_LAST"$'\n'
		return
	fi
	local paths=() out
	for k in $FINDINGS; do
		paths+=("findings.$k.determined" "findings.$k.value" "findings.$k.confidence" "findings.$k.at_least"
			"findings.$k.at_most")
	done
	zoo_cost "$spec"
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
	if [ -z "$Z_OVER" ]; then
		pass "$1: no run wrote more or took longer than it announced"
	else
		fail "$1: no run wrote more or took longer than it announced" "$(printf '%s' "$Z_OVER" | head -3 | tr '\n' ';')"
	fi
}

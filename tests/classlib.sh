# tests/classlib.sh — scoring of --analyze on generated tables of known
# geometry (tests/tablegen), for tests/analyze_classes.sh and
# bench/confidence.  A finding is right when its value is the truth ("at
# least N" when the truth is N or more, "N or less" when it is N or less);
# for a start slower at every chunk size any FAT claim but 0 is wrong;
# "not determined" is neither.  CLASS_LOG=FILE appends one line per
# determined finding: set, finding, confidence, right or wrong, class, seed
# (the calibration table adds them up).  Needs FB and TMP (tests/lib.sh).
JP=${FB%/flashbench}/tests/jsonpath
declare -A K_RIGHT K_WRONG K_ND
CLASS_MISSES=""

# class_keys CLASS: the findings a class has a truth for
class_keys() {
	case $1 in
	align) echo "page erase_block" ;;
	sweep) echo "open_linear open_random" ;;
	fat) echo "fat_area" ;;
	esac
}

# class_score SET CLASS SEED: generates the table, analyses it, counts each
# finding (K_RIGHT, K_WRONG, K_ND keyed "CLASS.KEY.CONF"); sets C_LAST to
# the wrong ones of this table ("" when none)
class_score() {
	local set=$1 class=$2 seed=$3 k want got conf lo hi ok paths=() out i=0
	C_LAST=""
	bash tests/tablegen "$class" "$seed" > "$TMP/gen.txt"
	for k in $(class_keys "$class"); do
		paths+=("findings.$k.value" "findings.$k.confidence" "findings.$k.at_least" "findings.$k.at_most")
	done
	mapfile -t out < <("$FB" --analyze --json "$TMP/gen.txt" 2> /dev/null | "$JP" "${paths[@]}" 2> /dev/null)
	for k in $(class_keys "$class"); do
		want=$(head -1 "$TMP/gen.txt" | tr ' ' '\n' | sed -n "s/^$k=//p")
		got=${out[i]:-null} conf=${out[i + 1]:-none} lo=${out[i + 2]:-false} hi=${out[i + 3]:-false}
		i=$((i + 4))
		if [ "$got" = null ]; then
			K_ND[$class.$k]=$((${K_ND[$class.$k]:-0} + 1))
			continue
		fi
		ok=0
		if [ "$want" = slower ]; then [ "$got" = 0 ] && ok=1
		elif [ "$got" = "$want" ]; then ok=1
		elif [ "$lo" = true ] && [ "$want" -ge "$got" ]; then ok=1
		elif [ "$hi" = true ] && [ "$want" -le "$got" ]; then ok=1
		fi
		if [ $ok = 1 ]; then
			K_RIGHT[$class.$k.$conf]=$((${K_RIGHT[$class.$k.$conf]:-0} + 1))
		else
			K_WRONG[$class.$k.$conf]=$((${K_WRONG[$class.$k.$conf]:-0} + 1))
			C_LAST="$C_LAST $k=$got@$conf(want $want)"
		fi
		[ -z "${CLASS_LOG:-}" ] || printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$set" "$k" "$conf" \
			"$([ $ok = 1 ] && echo right || echo wrong)" "$class" "$seed" >> "$CLASS_LOG"
	done
	[ -z "$C_LAST" ] || CLASS_MISSES="$CLASS_MISSES$set $class $seed:$C_LAST"$'\n'
}

# class_count CLASS KEY CONF [right|wrong|nd]: a tally (nd ignores CONF)
class_count() {
	case $4 in
	right) echo "${K_RIGHT[$1.$2.$3]:-0}" ;;
	wrong) echo "${K_WRONG[$1.$2.$3]:-0}" ;;
	nd) echo "${K_ND[$1.$2]:-0}" ;;
	esac
}

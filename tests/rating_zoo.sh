# tests/rating_zoo.sh — the rating zoo: flashbench --rating on simulated
# cards whose truth follows from their keys (sim_truth: tests/simtruth): honest
# cards of each mark, cards that lie (U3 falling to 12.5 MB/s past its
# pSLC, A2 with 300 write IOPS, C10 with 400 ms garbage-collection stalls,
# V30 fast only in the first 4 MiB of each AU, U1 with a 290 ms write, an
# A2 with no command queue, a label claiming more than the card), hosts
# that limit (a USB reader's single queue, a USB 2 link), a card whose
# host shows no SD Status (the label's marks, and none at all), each with
# and without measurement noise.  Scored per verdict against the truth:
#  - a mark the card breaks is never "meets"; a claimed mark it breaks is
#    "fails" with the figure the truth names;
#  - a mark it keeps is never "fails" at high;
#  - "untestable" exactly where the simulated host limits the mark;
#  - the bytes written stay within those announced, and the default check
#    (the recording apart) of the 32 GB card at 20 MB/s within 90 s.
# A table of the score and of what each card cost ends the run.
. tests/lib.sh
ST=${FB%/flashbench}/tests/simtruth
JP=${FB%/flashbench}/tests/jsonpath
cd "$TMP" || exit 1
[ -x "$ST" ] || { fail "rating zoo" "$ST missing (make tests/simtruth)"; exit 0; }

# CARD|--claim (the label, if any)|what it is
ZOO="rating-c10||keeps C10
rating-u1||keeps C10 U1 V10
rating-u3||keeps C10 U3 V30
rating-v60||keeps C10 U3 V60
rating-a1||keeps A1
rating-a2||keeps A2
rating-a2,hostqd=1||A2 on a USB reader (one command at a time)
rating-u3,link=20M,hostqd=1||U3 V30 behind a USB 2 link
rating-u3,ssr=none|--claim=C10,U3,V30|no SD Status shown: the label's marks
rating-u1,ssr=none||no SD Status, no label: each family from its lowest mark
rating-lie-u3-cache||U3 falling to 12.5 MB/s past its pSLC
rating-lie-a2||A2 with 300 write IOPS
rating-a2,cq=0||A2 with no command queue
rating-lie-c10-gc||C10 with 400 ms GC stalls
rating-lie-v30-su||V30 fast only in each AU's first 4 MiB
rating-lie-u1-busy||U1 with a 290 ms write
rating-c10|--claim=C10,U3,V30|a label claiming more than the card"

right=0 wrong=0 misses=0 cards=0 over=0 slow=0
declare -A KIND
COSTS=""
score() { # score SPEC LABEL: one run scored against the truth
	local spec=$1 label=$2 name mark verdict conf figure truth tfig host line
	if ! "$FB" --rating --json $label "sim:$spec" > r.json 2> r.err; then
		fail "rating zoo: $spec $label" "the run failed: $(tail -1 r.err)"
		return
	fi
	"$ST" "sim:$spec" > truth.txt
	cards=$((cards + 1))
	local n i
	n=$("$JP" 'marks#' < r.json 2> /dev/null || echo 0)
	mapfile -t M < <(for ((i = 0; i < n; i++)); do
		"$JP" "marks.$i.mark" "marks.$i.verdict" "marks.$i.confidence" "marks.$i.figure" "marks.$i.by_ssr" \
			"marks.$i.by_label" < r.json | tr '\n' ' '; echo; done)
	[ "$n" -gt 0 ] || { wrong=$((wrong + 1)); echo "no verdict: $spec $label"; }
	for line in "${M[@]}"; do
		read -r mark verdict conf figure by_ssr by_label <<< "$line"
		read -r _ truth tfig _ host < <(grep "^$mark " truth.txt)
		name="$spec $label $mark: $verdict ($conf)"
		if [ "$host" = host ]; then
			if [ "$verdict" = untestable ]; then right=$((right + 1)); KIND[untestable]=$((${KIND[untestable]:-0} + 1))
			else wrong=$((wrong + 1)); echo "WRONG $name: the host limits it (untestable)"; fi
		elif [ "$verdict" = untestable ]; then
			wrong=$((wrong + 1)); echo "WRONG $name: the host can show it"
		elif [ "$truth" = breaks ]; then
			if [ "$verdict" = meets ]; then
				wrong=$((wrong + 1)); echo "WRONG $name: the card breaks it ($tfig)"
			elif [ "$figure" != "$tfig" ]; then
				wrong=$((wrong + 1)); echo "WRONG $name: figure $figure, the truth $tfig"
			else
				right=$((right + 1)); KIND[fails]=$((${KIND[fails]:-0} + 1))
			fi
		else
			if [ "$verdict" = meets ]; then right=$((right + 1)); KIND[meets]=$((${KIND[meets]:-0} + 1))
			elif [ "$conf" = high ]; then wrong=$((wrong + 1)); echo "WRONG $name: the card keeps it"
			else misses=$((misses + 1)); echo "miss: $name: the card keeps it"; fi
		fi
	done
	# a claimed mark the card breaks must have its verdict (fails)
	for mark in $("$JP" card.claims card.label < r.json 2> /dev/null | tr ' ' '\n' | grep -v null); do
		read -r _ truth _ _ host < <(grep "^$mark " truth.txt)
		if [ "$truth" = breaks ] && [ "$host" != host ] &&
			! printf '%s\n' "${M[@]}" | grep -q "^$mark fails "; then
			wrong=$((wrong + 1)); echo "WRONG $spec $label: claims $mark, breaks it, and no 'fails'"
		fi
	done
	local dev sus bytes most
	mapfile -t c < <("$JP" cost.device_ns cost.sustained_ns cost.bytes_written cost.most_written < r.json)
	dev=${c[0]} sus=${c[1]} bytes=${c[2]} most=${c[3]}
	[ "$bytes" -le "$most" ] || { over=$((over + 1)); echo "over: $spec: wrote $bytes, announced $most"; }
	case $spec in rating-u1) [ $((dev - sus)) -le 90000000000 ] || slow=$((slow + 1)) ;; esac
	COSTS="$COSTS$(awk -v d="$dev" -v s="$sus" -v b="$bytes" -v x="$spec $label" \
		'BEGIN { printf "%6.1f s %6.1f s %8.2f GiB  %s", (d - s) / 1e9, s / 1e9, b / 2^30, x }')"$'\n'
}

NOISE=", ,noise=0.02,seed=7"
case $FB in */build/*) NOISE=" " ;; esac # the sanitizer build: once each
while IFS='|' read -r card label what; do
	for noise in $NOISE; do
		noise=${noise# }
		score "$card$noise" "$label"
	done
done <<< "$ZOO"

# the formats: the text report (golden, its wall time left out), the
# --summary line, the plot's three panels
cd "$OLDPWD" || exit 1
golden "rating: the text report of a C10 card that stalls (golden)" rating-lie-c10-gc.out \
	sh -c "'$FB' --rating sim:rating-lie-c10-gc 2> /dev/null | sed 's/, took [^ ]*$//'"
golden "rating: --summary of the zoo's liars (golden)" rating-summary.out sh -c "for c in rating-lie-u3-cache \
	rating-lie-a2 rating-lie-c10-gc rating-lie-v30-su rating-lie-u1-busy 'rating-a2,hostqd=1'; do '$FB' -G --summary sim:\$c; done 2> /dev/null"
cd "$TMP" || exit 1
if "$FB" --rating --plot="$TMP/r.svg" sim:rating-lie-u3-cache > /dev/null 2>&1 && grep -q '^<svg' "$TMP/r.svg" &&
	grep -q 'write speed of each sub-unit' "$TMP/r.svg" && grep -q 'write speed over time' "$TMP/r.svg" &&
	grep -q 'random 4KiB requests per second' "$TMP/r.svg"; then
	pass "rating: --plot draws the sub-units across the card, the recording over time, the IOPS"
else
	fail "rating: --plot draws the sub-units across the card, the recording over time, the IOPS" "$(head -c 200 "$TMP/r.svg" 2> /dev/null)"
fi
[ "$(awk '{ if (length($0) > 80) n++ } END { print n + 0 }' <("$FB" --rating sim:rating-lie-u3-cache 2> /dev/null | tail -n +2))" = 0 ] &&
	pass "rating: the text report fits 80 columns" || fail "rating: the text report fits 80 columns" "longer lines"

[ "$wrong" = 0 ] && pass "rating zoo: no verdict contradicts the card's truth ($right right, $misses medium/low misses, $cards runs)" ||
	fail "rating zoo: no verdict contradicts the card's truth" "$wrong wrong of $((right + wrong + misses))"
[ "$over" = 0 ] && pass "rating zoo: every run wrote no more than it announced" ||
	fail "rating zoo: every run wrote no more than it announced" "$over over"
[ "$slow" = 0 ] && pass "rating zoo: the default check of a 32GB card at 20MB/s takes under 90s of device time" ||
	fail "rating zoo: the default check of a 32GB card at 20MB/s takes under 90s of device time" "$slow over"
echo "score: ${KIND[meets]:-0} meets, ${KIND[fails]:-0} fails with the right figure, ${KIND[untestable]:-0} untestable where the host limits, $misses misses, $wrong wrong"
echo "cost (device time without the recording, the recording, written):"
printf '%s' "$COSTS"

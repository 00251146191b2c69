# tests/rating_cli.sh — flashbench --rating's command line: its refusals
# (one line, status 2, nothing written or printed on stdout), the
# announcement before the first write (three lines), -G and -e, --claim
# beside the SD Status in --json (one entry per mark, named, with its
# verdict), the card's registers decoded in the headings of --rating,
# --auto and --capacity and their --json and --summary.  All on sims:
# about 2 s.
. tests/lib.sh
cd "$TMP" || exit 1

expect_error "rating: a --claim word that is no mark" 2 "^flashbench: --claim: 'UHS-I' is no mark" \
	"$FB" --rating --claim=C10,UHS-I sim:rating-u3
expect_error "rating: --claim goes with --rating only" 2 "option '--claim' does not apply to --align \(it goes with --rating\)" \
	"$FB" -a --claim=C10 sim:sd-4m
expect_error "rating: --sustained below 64MiB" 2 "^flashbench: --sustained=1M: less than 64MiB" \
	"$FB" --rating --sustained=1M sim:rating-u3
expect_error "rating: --sustained not whole 4MiB" 2 "^flashbench: --sustained=65M: not a multiple of 4MiB" \
	"$FB" --rating --sustained=65M sim:rating-u3
expect_error "rating: --sustained over half the device" 2 "^flashbench: --sustained=12GiB is more than half of" \
	"$FB" --rating --sustained=12G sim:rating-c10
expect_error "rating: a device below 64MiB" 2 "has 33554432 bytes: --rating checks devices of 64MiB or more" \
	"$FB" --rating sim:size=32M,erase=1M
expect_error "rating: --summary without --json" 2 "^flashbench: --summary goes with --auto, --capacity or --rating, without --json" \
	"$FB" --rating --summary --json sim:rating-u3
expect_error "rating: the test kinds' options are refused" 2 "option '--blocksize' does not apply to --rating" \
	"$FB" --rating -b 1M sim:rating-u3

# -G, -e, --claim; the announcement; --json's marks
if "$FB" -G -e 8M --claim=C10,U3,V60 --json sim:rating-u3 > r.json 2> r.err; then
	mapfile -t v < <("$JP" measured.au measured.au_from card.claims card.label device.card.claims 'marks#' < r.json)
	marks=$(for ((i = 0; i < v[5]; i++)); do "$JP" "marks.$i.mark" "marks.$i.verdict" "marks.$i.by_ssr" "marks.$i.by_label" < r.json | tr '\n' ' '; echo; done)
	want="C10 meets true true
U3 meets true true
V60 fails false true
V30 meets true false"
	if [ "${v[0]}" = 8388608 ] && [ "${v[1]}" = -e ] && [ "${v[2]}" = "C10 U3 V30" ] && [ "${v[3]}" = "C10 U3 V60" ] &&
		[ "${v[4]}" = "C10 U3 V30" ] && [ "$(echo "$marks" | sed 's/ $//')" = "$want" ]; then
		pass "rating: -G, -e and --claim beside the SD Status: one entry per mark, named, with its verdict"
	else
		fail "rating: -G, -e and --claim beside the SD Status: one entry per mark, named, with its verdict" "${v[*]} / $marks"
	fi
	if [ "$(wc -l < r.err)" = 3 ] && awk 'length > 80 { exit 1 }' r.err &&
		grep -qx 'flashbench: --rating writes up to 1.27GiB (32 AUs of 8MiB, a 1GiB recording)' r.err &&
		grep -qx "flashbench: nothing is saved: a simulated card holds no user's data" r.err &&
		grep -qE '^flashbench: bound: at most [0-9.]+s of device time \(about [0-9.]+s at 20MB/s\)$' r.err; then
		pass "rating: three lines before the first write: what, the journal, the time"
	else
		fail "rating: three lines before the first write: what, the journal, the time" "$(cat r.err)"
	fi
else
	fail "rating: -G, -e and --claim beside the SD Status: one entry per mark, named, with its verdict" "$(tail -1 r.err)"
	fail "rating: three lines before the first write: what, the journal, the time" "the run failed"
fi

# the card's word in every mode's heading, JSON and summary line
"$FB" --auto sim:rating-a2 2> /dev/null | unwrap > auto.txt
"$FB" --capacity --json sim:rating-a2 > cap.json 2> /dev/null
"$FB" --auto --summary sim:rating-a2 > sum.txt 2> /dev/null
if grep -qx '    card: its SD Status claims C10 U3 V30 A2, AU 4MiB (video 8MiB), a command queue, a cache' auto.txt &&
	grep -qx '    the card says: an AU of 4MiB (its SD Status), agrees' auto.txt &&
	[ "$("$JP" device.card.claims device.card.au device.card.command_queue < cap.json | tr '\n' ' ')" = "C10 U3 V30 A2 4194304 2 " ] &&
	grep -q '^| sim:rating-a2 | 64GiB | flash | 4MiB ' sum.txt; then
	pass "rating: the SD Status decoded in --auto's heading (its AU beside the erase block), --capacity's JSON, --summary"
else
	fail "rating: the SD Status decoded in --auto's heading (its AU beside the erase block), --capacity's JSON, --summary" \
		"$(grep card auto.txt) / $("$JP" device.card < cap.json 2>&1)"
fi
# a card that shows no registers adds nothing to the heading
"$FB" --auto sim:sd-4m > plain.txt 2> /dev/null
grep -q 'card:' plain.txt && fail "rating: no card lines for a card that shows nothing" "$(grep card: plain.txt)" ||
	pass "rating: no card lines for a card that shows nothing"

# tests/plot.sh — --plot writes self-contained SVG charts that parse as XML,
# mark what they should, and render (with rsvg-convert, where installed).
. tests/lib.sh

xml_ok() { # xml_ok FILE: well-formed XML (python3), or "skip"
	command -v python3 > /dev/null || { echo skip; return; }
	python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" "$1" 2> /dev/null && echo ok || echo bad
}

plot() { # plot NAME FILE PATTERNS... -- ARGS...
	local name=$1 file=$TMP/$2 pats=() p bad="" x
	shift 2
	while [ "$1" != -- ]; do pats+=("$1"); shift; done
	shift
	if ! "$FB" "$@" --plot "$file" > /dev/null 2> "$TMP/err"; then
		fail "$name" "$(cat "$TMP/err")"
		return
	fi
	for p in "<svg xmlns=\"http://www.w3.org/2000/svg\"" "</svg>" "${pats[@]}"; do
		grep -qF -- "$p" "$file" || bad="$bad missing '$p';"
	done
	grep -qE '(href|<script|@import|url\()' "$file" && bad="$bad refers to something outside;"
	x=$(xml_ok "$file")
	[ "$x" = bad ] && bad="$bad not well-formed XML;"
	if [ -n "$bad" ]; then fail "$name" "$bad"; else pass "$name"; fi
}
plot "plot: align marks page and erase steps" a.svg "page (read unit) 16KiB" "step at 4MiB (erase block?)" \
	"alignment of the boundary" "extra time to read across it" "<polyline" -- -a -b 1k sim:sd-4m
plot "plot: align of a 12MiB stick marks its 4MiB step" u.svg "step at 4MiB" -- -a -b 1k sim:usb-12m
plot "plot: auto marks the erase block found" auto.svg "erase block 12MiB" "page (read unit) 16KiB" -- -A sim:usb-12m
plot "plot: scatter" s.svg "offset (MiB)" "<circle" -- -s --scatter-order=6 sim:sd-4m,noise=0.05
plot "plot: open-au" o.svg "chunk size (log scale)" "4 erase blocks, random" "write throughput" -- \
	-O -r --open-au-nr=4 sim:sd-4m
plot "plot: find-fat, one line per erase block" f.svg "erase block 0" "erase block 5" -- -f sim:sd-4m
plot "plot: interval" i.svg "stride (log scale)" -- -i sim:sd-4m
plot "plot: a program with a classic format" p.svg "page (read unit) 16KiB" -- \
	--program scripts/programs/align.fbp -b 1k sim:sd-4m
case $(xml_ok "$TMP/a.svg") in
ok) pass "plot: XML parsed by python3" ;;
skip) skip "plot: XML parsed by python3" "python3 is not installed" ;;
*) fail "plot: XML parsed by python3" "a.svg is not well-formed" ;;
esac

if command -v rsvg-convert > /dev/null; then
	if rsvg-convert "$TMP/a.svg" -o "$TMP/a.png" 2> "$TMP/err" &&
		[ "$(head -c 8 "$TMP/a.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		[ "$(stat -c %s "$TMP/a.png")" -gt 10000 ]; then
		pass "plot: renders to PNG"
	else
		fail "plot: renders to PNG" "$(cat "$TMP/err")"
	fi
else
	skip "plot: renders to PNG" "rsvg-convert is not installed (Debian package librsvg2-bin)"
fi

cat > "$TMP/tree.fbp" <<'PROG'
len 4k keep
  read
PROG
expect_error "plot: a tree program has no chart" 2 "the 'tree' format has none" "$FB" --program "$TMP/tree.fbp" --plot "$TMP/t.svg" sim:sd-4m
[ ! -e "$TMP/t.svg" ] && pass "plot: no file left behind on error" || fail "plot: no file left behind on error" "t.svg exists"
plot "plot: read-speed" r.svg "request size (log scale)" "read throughput (log scale)" ">read-speed<" -- -R sim:sd-4m

# tests/terminal.sh — flashbench in a real terminal (tmux), as a user
# meets it: Ctrl-C on a run leaves the rows it measured on the screen, says
# what it stopped, and the shell sees status 130; the progress line is
# drawn in place while the rows scroll past it, and cleared at the end;
# Tab completes through bash-completion's loader as installed (make
# install), --plot <Tab> offering .svg files.  Every step waits for what
# the screen shows, never for a time.
. tests/lib.sh

ALL="terminal: Ctrl-C keeps the rows, says so, status 130|terminal: the progress line is drawn in place and cleared|terminal: Ctrl-C in an open-au sweep prints the summary so far, status 130|terminal: Tab completes the scripts' options through bash-completion|terminal: --plot <Tab> offers .svg files"
ALL="$ALL|terminal 80x24: one progress line, redrawn in place, for every mode that has one"
command -v tmux > /dev/null || skip_all "tmux is not installed (.ci/run installs it)"

T=(tmux -L "flashbench-test-$$" -f /dev/null)
trap '"${T[@]}" kill-server 2> /dev/null; cleanup' EXIT
screen() { "${T[@]}" capture-pane -p -J -t t -S -200; }
shows() { screen | grep -q -- "$1"; }
keys() { "${T[@]}" send-keys -t t "$@"; }
# a plain bash in a terminal of 200 x 50, PS1 "$ "
"${T[@]}" new-session -d -s t -x 200 -y 50 "env -i HOME=$TMP HISTFILE=/dev/null TERM=screen PATH=$PATH PS1='$ ' bash --norc --noprofile" ||
	skip_all "tmux cannot start a session here"
wait_for "the shell's prompt" 30 shows '^\$ ' || skip_all "the shell in tmux shows no prompt"

# a long run whose first rows come at once (row N reads 2^N blocks 20
# times): on a sparse file about a minute, on a simulated card 10 s
printf '%s\n' 'format interval' 'unit-halve 1G 512 keep' '  len 512' '    off-span 1G' '      repeat 20' \
	'        read' > "$TMP/long.fbp"
dev=sim:sd-4m
truncate -s 2G "$TMP/sparse.img" 2> /dev/null && "$FB" -a -c 1 "$TMP/sparse.img" > /dev/null 2>&1 && dev=sparse.img
keys "cd $TMP && clear" Enter
keys "$FB --program long.fbp $dev" Enter
# (a command killed by SIGINT ends the shell's command line: bash asks for
# the status on a line of its own, as a user would)
if wait_for "a first row on the screen" 120 shows '^interval 1GiB' &&
	wait_for "the progress line" 120 shows 'flashbench: --program: .*requests), ' &&
	keys C-c && wait_for "the prompt" 120 shows '^flashbench: stopped' &&
	keys "echo status=\$?" Enter && wait_for "the status" 30 shows '^status='; then
	rows=$(screen | grep -c '^interval ')
	if shows '^status=130$' && shows "^flashbench: stopped by a signal (SIGINT) after $rows complete rows; the rest were not measured; nothing was written to .*$"; then
		pass "terminal: Ctrl-C keeps the rows, says so, status 130"
	else
		fail "terminal: Ctrl-C keeps the rows, says so, status 130" "$(screen | grep -v '^interval' | tail -5 | tr '\n' '|')"
	fi
	# each row on a line of its own: the progress line was cleared before
	# each row and at the end
	if [ "$(screen | grep -c 'requests)')" = 0 ] && [ "$(screen | grep '^interval' | grep -vcE '^interval [0-9.]+[KMG]?i?B +[0-9.]+[KMG]?/s +min [^ ]+ +avg [^ ]+ +max [^ ]+$')" = 0 ]; then
		pass "terminal: the progress line is drawn in place and cleared"
	else
		fail "terminal: the progress line is drawn in place and cleared" "$(screen | grep 'requests)' | head -2 | tr '\n' '|')"
	fi
else
	keys C-c
	fail "terminal: Ctrl-C keeps the rows, says so, status 130" "$(screen | tail -5 | tr '\n' '|')"
	skip "terminal: the progress line is drawn in place and cleared" "the run did not get that far"
fi

# An open-au sweep stopped with Ctrl-C: the summary of what it measured.
# Its flashbench is one that waits for the signal after the third linear
# table (as a slow card would keep writing).  The wrapper ends by any
# signal it gets, also one that came while its flashbench was finishing
# (bash runs the trap once that has ended), and waits in a builtin, so no
# process of its own can miss the signal: a wrapper that exec'd a waiting
# program after a signal had come waited for ever.
mkfifo "$TMP/never"
cat > "$TMP/fb-waits" <<WRAP
#!/bin/bash
trap 'exit 130' INT TERM HUP
"$FB" "\$@" || exit
case " \$* " in *" --open-au-nr=3 "*) while :; do read -rt 0.1 <> "$TMP/never"; done ;; esac
WRAP
chmod +x "$TMP/fb-waits"
keys "clear" Enter
keys "FLASHBENCH=$TMP/fb-waits $PWD/scripts/open-au-sweep.sh -e 12M -b 96k sim:usb-12m 2> /dev/null" Enter
third_table() { screen | grep -A12 -- '--open-au-nr=3 ' | grep -q '^96KiB'; }
if wait_for "the third table" 120 third_table &&
	keys C-c && wait_for "the summary" 60 shows '^== summary for sim:usb-12m' &&
	keys "echo status=\$?" Enter && wait_for "the status" 30 shows '^status='; then
	if shows '^== stopped by a signal (SIGINT): what the sweep measured so far$' && shows '^open erase blocks, linear ' &&
		shows '^status=130$'; then
		pass "terminal: Ctrl-C in an open-au sweep prints the summary so far, status 130"
	else
		fail "terminal: Ctrl-C in an open-au sweep prints the summary so far, status 130" "$(screen | tail -8 | tr '\n' '|')"
	fi
else
	keys C-c
	fail "terminal: Ctrl-C in an open-au sweep prints the summary so far, status 130" "$(screen | tail -6 | tr '\n' '|')"
fi

# In an 80x24 terminal every mode's progress line is redrawn in place: once
# it has been redrawn (its text changed), the pane shows exactly one
# progress line, of at most 80 columns, not a trail of wrapped or stale
# ones.  The simulated cards take real time per request (twall=), so the
# line shows (after 2 s) while their device time is still the sim's.
T80=(tmux -L "flashbench-test80-$$" -f /dev/null)
trap '"${T[@]}" kill-server 2> /dev/null; "${T80[@]}" kill-server 2> /dev/null; cleanup' EXIT
"${T80[@]}" new-session -d -s p -x 80 -y 24 "env -i HOME=$TMP HISTFILE=/dev/null TERM=screen PATH=$PATH PS1='$ ' FLASHBENCH_STATE_DIR=$FLASHBENCH_STATE_DIR bash --norc --noprofile"
# (not joined: a line that wrapped shows as the two it became)
pane() { "${T80[@]}" capture-pane -p -t p; }
progress_lines() { pane | grep -E '^flashbench: --[a-z-]+( [0-9]+/[0-9]+)?: '; }
# one progress line, and it has been redrawn since the first capture
redrawn() { [ "$(progress_lines | wc -l)" = 1 ] && [ "$(progress_lines)" != "$first" ]; }
bad80=""
wait_for "the 80x24 shell's prompt" 30 eval 'pane | grep -qE "^\\$ ?$"' || bad80="no prompt in the 80x24 terminal"
for run in "-O -e 4M -b 64k --open-au-nr=2 sim:sd-4m,twall=10ms" "-f -b 64k sim:sd-4m,twall=10ms" \
	"--auto sim:sd-4m,twall=2ms" "--auto --write sim:usb-12m,twall=2ms" "-C sim:fake-drop,twall=3ms" \
	"--rating sim:rating-u3,twall=3ms" "--program $TMP/long.fbp sim:sd-4m,twall=1ms"; do
	[ -z "$bad80" ] || break
	"${T80[@]}" send-keys -t p "cd $TMP && clear" Enter
	"${T80[@]}" send-keys -t p "$FB $run > /dev/null" Enter
	if ! wait_for "a progress line of $run" 60 eval '[ -n "$(progress_lines)" ]'; then
		bad80="$bad80 [$run] no progress line: $(pane | grep -v '^$' | tail -3 | tr '\n' '|');"
	else
		first=$(progress_lines | head -1)
		wait_for "a redraw of $run" 60 redrawn ||
			bad80="$bad80 [$run] $(progress_lines | wc -l) progress lines: $(progress_lines | tr '\n' '|');"
		[ "$(progress_lines | LC_ALL=C.UTF-8 wc -L)" -le 80 ] || bad80="$bad80 [$run] wider than 80;"
	fi
	"${T80[@]}" send-keys -t p C-c
	wait_for "the prompt after $run" 60 eval 'pane | grep -qE "^\\$ ?$"' || bad80="$bad80 [$run] no prompt after C-c;"
done
[ -z "$bad80" ] && pass "terminal 80x24: one progress line, redrawn in place, for every mode that has one" ||
	fail "terminal 80x24: one progress line, redrawn in place, for every mode that has one" "$bad80"
"${T80[@]}" kill-server 2> /dev/null

# Tab, as installed: bash-completion loads the file on first use
if [ ! -r /usr/share/bash-completion/bash_completion ]; then
	skip "terminal: Tab completes the scripts' options through bash-completion" "bash-completion is not installed"
	skip "terminal: --plot <Tab> offers .svg files" "bash-completion is not installed"
elif ! (unset MAKEFLAGS MFLAGS MAKELEVEL; make -s install PREFIX=/usr DESTDIR="$TMP/inst") > "$TMP/inst.log" 2>&1; then
	fail "terminal: Tab completes the scripts' options through bash-completion" "make install: $(tail -2 "$TMP/inst.log")"
else
	mkdir -p "$TMP/pl"
	: > "$TMP/pl/chart.svg"
	: > "$TMP/pl/notes.txt"
	keys "clear; export XDG_DATA_DIRS=$TMP/inst/usr/share PATH=$TMP/inst/usr/bin:\$PATH; . /usr/share/bash-completion/bash_completion" Enter
	keys "echo ready" Enter
	wait_for "bash-completion loaded" 30 shows '^ready$'
	keys "clear" Enter
	keys "flashbench-report --" Tab Tab
	if wait_for "the scripts' options" 30 shows -- '--version' && shows -- '--preserve' && shows -- '--write'; then
		pass "terminal: Tab completes the scripts' options through bash-completion"
	else
		fail "terminal: Tab completes the scripts' options through bash-completion" "$(screen | tail -4 | tr '\n' '|')"
	fi
	keys C-c "clear" Enter
	keys "flashbench -a sim:sd-4m --plot $TMP/pl/" Tab
	if wait_for "the .svg file" 30 shows "--plot $TMP/pl/chart.svg" && ! shows notes.txt; then
		pass "terminal: --plot <Tab> offers .svg files"
	else
		fail "terminal: --plot <Tab> offers .svg files" "$(screen | tail -3 | tr '\n' '|')"
	fi
	keys C-c
fi

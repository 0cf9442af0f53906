# Driving perf's terminal browsers in tmux; sourced after common.sh.
# The browser runs in the pane of a private tmux server, $bin/perf is the
# perf that runs there.

command -v tmux > /dev/null 2>&1 ||
	skip "tmux not installed: the browser needs a terminal to be driven in"

tmux_sock=$tmpdir/tmux.sock
in_tmux() {
	tmux -S "$tmux_sock" "$@"
}
tui_cleanup() {
	in_tmux kill-server 2> /dev/null
	rm -rf "$tmpdir"
}
trap tui_cleanup EXIT
in_tmux new-session -d -x 160 -y 40 "env PS1='$ ' sh" ||
	fail "tmux could not start"

pane() {
	in_tmux capture-pane -p -t 0
}

# Wait (60 s at most) until the screen has a line matching $1 (grep -E);
# $2 says what was expected.
wait_for() {
	i=0
	while ! pane | grep -Eq -- "$1"; do
		i=$((i + 1))
		[ $i -le 300 ] || fail "$2: the screen is
$(pane)"
		sleep 0.2
	done
}

# Wait (60 s at most) until no line of the screen matches $1 (grep -E).
wait_gone() {
	i=0
	while pane | grep -Eq -- "$1"; do
		i=$((i + 1))
		[ $i -le 300 ] || fail "$2: the screen is
$(pane)"
		sleep 0.2
	done
}

# Start 'perf $@' in the pane; its exit status goes to $tmpdir/rc, its
# stderr to $tmpdir/perf.err, the terminal settings before and after to
# stty.before and stty.after.
start_perf() {
	rm -f "$tmpdir/rc" "$tmpdir/stty.after"
	in_tmux send-keys -t 0 "clear; stty -g > $tmpdir/stty.before; $bin/perf $* 2> $tmpdir/perf.err; echo \$? > $tmpdir/rc; stty -g > $tmpdir/stty.after" Enter
}

# perf left on $1 (what was pressed): exit status 0, the terminal as it
# was, the alternate screen off, and nothing of the browser (a line
# matching $2) left on the screen.
# Wait (60 s at most) until perf ended, on $1 (what was pressed).
wait_ended() {
	i=0
	while [ ! -s "$tmpdir/stty.after" ]; do
		i=$((i + 1))
		[ $i -le 300 ] || fail "perf did not end on $1: $(pane)"
		sleep 0.2
	done
}

wait_exit() {
	wait_ended "$1"
	[ "$(cat "$tmpdir/rc")" = 0 ] ||
		fail "perf exited $(cat "$tmpdir/rc") on $1: $(cat "$tmpdir/perf.err")"
	cmp -s "$tmpdir/stty.before" "$tmpdir/stty.after" ||
		fail "the terminal was left changed after $1: $(diff "$tmpdir/stty.before" "$tmpdir/stty.after")"
	[ "$(in_tmux display -p -t 0 '#{alternate_on}')" = 0 ] ||
		fail "the alternate screen is still on after $1"
	! pane | grep -Eq "$2" ||
		fail "the browser is still on the screen after $1: $(pane)"
}

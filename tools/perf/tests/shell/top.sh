#!/bin/sh
# perf top: the hot function of a running workload within 3 refreshes, in a terminal (tmux) and piped
. "$(dirname "$0")/lib/common.sh"
need_root
need_sampling
note_linux_perf

copy_workload_binaries
"$tmpdir/bin/perf" test -w cpuloop 120 > /dev/null 2>&1 &
wl=$!
tmux_sock=
cleanup() {
	kill "$wl" 2>/dev/null
	[ -n "$tmux_sock" ] && tmux -S "$tmux_sock" kill-server 2>/dev/null
	wait "$wl" 2>/dev/null
}
trap cleanup EXIT

# The profile's screens: each starts with the PerfTop line.
screens() {
	awk -v n="$2" '/PerfTop:/ { s++ } s >= 1 && s <= n' "$1"
}

# The first row of each of the first $2 screens of file $1, without
# a terminal's colours and carriage returns.
first_rows() {
	esc=$(printf '\033')
	sed -e "s/$esc\[[0-9;]*[A-Za-z]//g" -e 's/\r$//' "$1" | awk -v n="$2" '
		/PerfTop:/ { s++; want = 1; next }
		s > n { exit }
		want && /^ +[0-9]+\.[0-9]+%/ { print; want = 0 }'
}

# Wait (60 s at most) until file $1 holds $2 screens.
wait_screens() {
	i=0
	while n=$(grep -c 'PerfTop:' "$1" 2>/dev/null); [ "${n:-0}" -lt "$2" ]; do
		i=$((i + 1))
		[ $i -le 300 ] || fail "no $2 refreshes in 60 s: $(cat "$1" "$tmpdir/top.err" 2>/dev/null | tail -n 20)"
		sleep 0.2
	done
}

# Piped: the screens follow one another in the file.  The workload's
# hot function is the first row of one of the first three.  -E 2 bounds
# the rows of a screen (the workload has three hot functions).
"$PERF" top -d 1 -E 2 -p "$wl" < /dev/null > "$tmpdir/top.out" 2> "$tmpdir/top.err" &
top=$!
wait_screens "$tmpdir/top.out" 3
kill -INT "$top"
wait "$top"
rc=$?
[ $rc = 0 ] || fail "perf top exited $rc on SIGINT: $(cat "$tmpdir/top.err")"
first_rows "$tmpdir/top.out" 3 | grep -q '\[\.\] workload_hot_a$' ||
	fail "workload_hot_a not first in 3 refreshes: $(screens "$tmpdir/top.out" 3)"
# The header names the event and the target.
grep -q "PerfTop: .* irqs/sec  kernel: *[0-9.]*%  exact: .*Hz .*],  (target_pid: $wl)" \
	"$tmpdir/top.out" || fail "bad header: $(grep -m1 PerfTop "$tmpdir/top.out")"
# Its rows are perf report's: "  pct%  dso  [.] symbol".
grep -Eq '^ +[0-9]+\.[0-9]+%  perf +\[\.\] workload_hot_a$' "$tmpdir/top.out" ||
	fail "no report-style row: $(screens "$tmpdir/top.out" 1)"
rows=$(awk '/PerfTop:/ { if (n > max) max = n; n = 0 }
	/^ +[0-9]+\.[0-9]+%/ { n++ } END { if (n > max) max = n; print max + 0 }' "$tmpdir/top.out")
[ "$rows" = 2 ] || fail "-E 2: a screen of $rows rows: $(screens "$tmpdir/top.out" 3)"

# Errors: perf record's reason, then a non-zero exit.
"$PERF" top -p 2147483647 < /dev/null > "$tmpdir/top.out" 2> "$tmpdir/top.err" &&
	fail "perf top on a process that does not exist exited 0"
grep -q 'perf top: perf record' "$tmpdir/top.err" ||
	fail "no reason for the failed start: $(cat "$tmpdir/top.err")"
for bad in "--tui" "-d 0" "-s nosuchkey" "ls" "-p 1 -t 1"; do
	# shellcheck disable=SC2086
	"$PERF" top $bad < /dev/null > /dev/null 2> "$tmpdir/top.err"
	rc=$?
	[ $rc = 129 ] || fail "perf top $bad exited $rc, not 129"
	grep -q 'Error:' "$tmpdir/top.err" || fail "perf top $bad: no error said"
done

# In a terminal (tmux): screens redrawn in place, 'q' quits at once and
# leaves the terminal as it was.
command -v tmux > /dev/null 2>&1 || {
	echo "tmux not installed: the terminal half is not run"
	exit 0
}
in_tmux() {
	tmux -S "$tmux_sock" "$@"
}
# A server of its own for each run: a server that is still going away
# would turn the next client down.
run_in_tmux() {
	[ -n "$tmux_sock" ] && in_tmux kill-server 2> /dev/null
	tmux_sock="$tmpdir/tmux.$2"
	: > "$tmpdir/tmux.log"
	in_tmux new-session -d -x 150 -y 40 \
		"$1 2> $tmpdir/top.err; echo \$? > $tmpdir/rc; stty -a > $tmpdir/stty.after; sleep 60" ||
		fail "tmux could not start"
	in_tmux pipe-pane -t 0 "cat >> $tmpdir/tmux.log"
}
run_in_tmux "stty -a > $tmpdir/stty.before; $PERF top -d 1 -p $wl" ours
wait_screens "$tmpdir/tmux.log" 3
in_tmux capture-pane -p -t 0 > "$tmpdir/pane"
grep -q 'workload_hot_a' "$tmpdir/pane" || fail "the screen shows no workload_hot_a: $(cat "$tmpdir/pane")"
[ "$(grep -c 'PerfTop:' "$tmpdir/pane")" = 1 ] ||
	fail "the screen is not redrawn in place: $(cat "$tmpdir/pane")"
first_rows "$tmpdir/tmux.log" 3 | grep -q '\[\.\] workload_hot_a' ||
	fail "workload_hot_a not first in 3 refreshes: $(cat "$tmpdir/pane")"
in_tmux send-keys -t 0 q
i=0
while [ ! -s "$tmpdir/stty.after" ]; do
	i=$((i + 1))
	[ $i -le 100 ] || fail "'q' did not quit: $(in_tmux capture-pane -p -t 0)"
	sleep 0.2
done
[ "$(cat "$tmpdir/rc")" = 0 ] || fail "perf top exited $(cat "$tmpdir/rc") on 'q': $(cat "$tmpdir/top.err")"
cmp -s "$tmpdir/stty.before" "$tmpdir/stty.after" ||
	fail "the terminal was left changed: $(diff "$tmpdir/stty.before" "$tmpdir/stty.after")"

# Linux perf top, in the same terminal on the same workload, puts the
# same function first.
if have_linux_perf; then
	run_in_tmux "$LINUX_PERF top --stdio -d 1 -p $wl" linux
	wait_screens "$tmpdir/tmux.log" 3
	in_tmux send-keys -t 0 q
	first_rows "$tmpdir/tmux.log" 3 | grep -q '\[\.\] workload_hot_a' ||
		fail "Linux perf top disagrees: $(in_tmux capture-pane -p -t 0)"
fi
exit 0

#!/bin/sh
# perf sched record/timehist of a ping-pong: each thread's wakeups, waits, delays, run time and stacks
. "$(dirname "$0")/lib/common.sh"
need_root
need_tracepoint sched sched_switch
need_tracepoint_counters sched sched_switch

# Two threads pass a token through pipes ROUNDS times: each hand-over
# wakes the thread that waits for it, on whatever backend records.  The
# workload runs from a copy named pingpong, told apart from any other
# perf on the machine by that name.
ROUNDS=200
mkdir "$tmpdir/bin"
cp "$PERF" "$tmpdir/bin/pingpong"
[ -f "$(dirname "$PERF")/libperf-hot.so" ] &&
	cp "$(dirname "$PERF")/libperf-hot.so" "$tmpdir/bin/"
wl="$tmpdir/bin/pingpong test -w threads 1 $ROUNDS"
"$PERF" sched record -v -q -o "$tmpdir/pp.data" -- $wl 2>"$tmpdir/record.err" ||
	fail "perf sched record failed: $(cat "$tmpdir/record.err")"
if on_counter_backend; then
	grep -q 'Using perf_counter_open' "$tmpdir/record.err" ||
		fail "the recording did not use perf_counter_open: $(cat "$tmpdir/record.err")"
fi
"$PERF" sched timehist -i "$tmpdir/pp.data" -w > "$tmpdir/w.txt" 2>"$tmpdir/th.err" ||
	fail "perf sched timehist -w failed: $(cat "$tmpdir/th.err")"
"$PERF" sched timehist -i "$tmpdir/pp.data" -s > "$tmpdir/s.txt" 2>"$tmpdir/th.err" ||
	fail "perf sched timehist -s failed: $(cat "$tmpdir/th.err")"

# The workload's two threads in timehist output $1: pingpong[TID/PID]
# (its main thread shows as pingpong[PID]).
pingpong_threads() {
	threads=$(grep -o 'pingpong\[[0-9]*/[0-9]*\]' "$1" | sort -u)
	[ "$(echo "$threads" | grep -c .)" = 2 ] ||
		fail "expected the two ping-pong threads in $(basename "$1"), found: $threads"
	echo "$threads"
}

threads=$(pingpong_threads "$tmpdir/w.txt") || { echo "$threads"; exit 1; }
"$PERF" script -i "$tmpdir/pp.data" 2>/dev/null | grep 'sched_switch:' > "$tmpdir/switches.txt"

all_woken=0
measured=0
for t in $threads; do
	# Per thread: switch-out lines (wait, delay, run time) and wakeups.
	awk -v t="$t" '
		$3 == t && $4 ~ /^[0-9]+\.[0-9]+$/ {
			outs++; wait += $4; delay += $5; run += $6
		}
		$(NF - 1) == "awakened:" && $NF == t { woken++ }
		END { printf "%d %d %.3f %.3f %.3f\n", outs, woken, wait, delay, run }
	' "$tmpdir/w.txt" > "$tmpdir/stats"
	read -r outs woken wait delay run < "$tmpdir/stats"
	echo "$t: $outs switches, $woken wakeups, wait $wait ms, delay $delay ms, run $run ms"
	# A thread leaves the CPU in every round: it blocks in read() until
	# the other writes, or was preempted before.  A block ends in a
	# wakeup, a preemption does not; each wakeup is then a delay until
	# it runs.
	[ "$outs" -ge $((ROUNDS / 2)) ] || fail "$t left the CPU $outs times in $ROUNDS rounds"
	all_woken=$((all_woken + woken))
	# A wait ends at the switch that puts the thread back on a CPU.
	# Some kernels record no event in a CPU's idle task (seen on 6.18
	# under a hypervisor, where CPU 1 never shows prev_comm=swapper, with
	# Linux perf too): a thread that only ever comes back from idle there
	# has no recorded end to its waits, and timehist shows none.
	tid=${t#*[}
	tid=${tid%%/*}
	ins=$(grep -c "next_pid=$tid " "$tmpdir/switches.txt")
	echo "$t: $ins recorded switch-ins"
	# Delays are printed in whole microseconds: a fast machine with an
	# idle CPU may run every woken thread within one.
	if [ "$ins" -ge $((ROUNDS / 4)) ]; then
		awk -v w="$wait" -v d="$delay" 'BEGIN { exit !(w + d > 0) }' ||
			fail "$t: no time waiting in $ins recorded switch-ins"
		measured=$((measured + 1))
	fi
	awk -v r="$run" 'BEGIN { exit !(r > 0) }' || fail "$t: no run time"
	# The summary counts the same switch-ins.
	sched_in=$(awk -v t="$t" '$1 == t { print $3; exit }' "$tmpdir/s.txt")
	[ "$sched_in" = "$outs" ] ||
		fail "$t: the summary counts ${sched_in:-no} switch-ins, the lines $outs"
done
# Which thread blocks depends on the scheduler: when both share a CPU,
# the one that writes may be preempted by the one it woke, runnable,
# round after round, and then only the other is woken.  But a token
# cannot come back before it went: in most rounds one of the two waits
# for it in read(), and is woken.
[ "$all_woken" -ge $((ROUNDS / 2)) ] ||
	fail "the two threads were woken $all_woken times in $ROUNDS rounds"
# Two threads that share a CPU switch to each other, recorded in the
# context of the one that leaves; two on different CPUs come back from
# idle, recorded on at least one of them.
[ "$measured" -ge 1 ] ||
	fail "neither thread's switch-ins were recorded: $(grep -c . "$tmpdir/switches.txt") switches"

# With -g, each switch shows the stack the thread left the CPU with,
# kernel frames first: most switches come from a system call (the read
# of the pipe, or the way back from the write), and some from pipe_read.
"$PERF" sched record -g -q -o "$tmpdir/g.data" -- $wl 2>"$tmpdir/record.err" ||
	fail "perf sched record -g failed: $(cat "$tmpdir/record.err")"
"$PERF" sched timehist -i "$tmpdir/g.data" > "$tmpdir/g.txt" 2>"$tmpdir/th.err" ||
	fail "perf sched timehist of -g failed: $(cat "$tmpdir/th.err")"
threads=$(pingpong_threads "$tmpdir/g.txt") || { echo "$threads"; exit 1; }
for t in $threads; do
	awk -v t="$t" '
		$3 == t && $4 ~ /^[0-9]+\.[0-9]+$/ {
			outs++
			if (/do_syscall_64/) sys++
			if (/pipe_read <- /) reads++
		}
		END { printf "%d %d %d\n", outs, sys, reads }
	' "$tmpdir/g.txt" > "$tmpdir/stats"
	read -r outs sys reads < "$tmpdir/stats"
	echo "$t: $outs switches, $sys from a system call, $reads in pipe_read"
	[ "$sys" -ge $((outs / 2)) ] && [ "$reads" -ge 1 ] ||
		fail "$t: too few kernel stacks: $(grep -F "$t" "$tmpdir/g.txt" | head -n 3)"
done
echo ok

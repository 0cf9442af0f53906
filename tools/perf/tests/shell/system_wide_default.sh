#!/bin/sh
# perf record, stat and trace without a command or target: the whole system until SIGINT
. "$(dirname "$0")/lib/common.sh"
need_root
need_sampling
need_tracepoint raw_syscalls sys_enter
need_tracepoint_counters raw_syscalls sys_enter
note_linux_perf

# Another process, one perf does not start: a copy of perf named sysbusy
# making system calls, told apart by its name.
mkdir "$tmpdir/bin"
cp "$PERF" "$tmpdir/bin/sysbusy"
[ -f "$(dirname "$PERF")/libperf-hot.so" ] &&
	cp "$(dirname "$PERF")/libperf-hot.so" "$tmpdir/bin/"
# $1 calls (default 2000: some ms).
busy() {
	"$tmpdir/bin/sysbusy" test -w syscalls "${1:-2000}" 0 0 > /dev/null
}

# Run "perf $@" in the background, keep sysbusy busy until the file $1
# shows the pattern $2 (at most 60 s), then stop perf with SIGINT as
# Ctrl-C would; its status goes to $tmpdir/rc.
until_seen_then_int() {
	file=$1 pattern=$2
	shift 2
	"$PERF" "$@" 2>"$tmpdir/err" &
	pid=$!
	n=0
	until grep -q "$pattern" "$file" 2>/dev/null; do
		n=$((n + 1))
		[ $n -le 300 ] || { kill -INT $pid; wait $pid; fail "perf $*: no '$pattern' in $file within 60 s: $(cat "$tmpdir/err")"; }
		busy
		sleep 0.2
	done
	busy "${busy_calls:-}"
	kill -INT $pid
	wait $pid
	echo $? > "$tmpdir/rc"
}

# perf record: the samples of sysbusy, in a file report reads.  The
# file shows its header at once; then sysbusy runs for some 50 ms of
# CPU time: 2000 calls ran for about 1 ms, which a sample every ms of
# CPU time missed once in a while.
busy_calls=200000
until_seen_then_int "$tmpdir/rec.data" . record -q -e cpu-clock -F 1000 \
	-o "$tmpdir/rec.data"
busy_calls=
[ "$(cat "$tmpdir/rc")" = 0 ] || fail "perf record exited $(cat "$tmpdir/rc"): $(cat "$tmpdir/err")"
"$PERF" report -i "$tmpdir/rec.data" --stdio --sort comm > "$tmpdir/report" 2>&1 ||
	fail "perf report exited $?: $(cat "$tmpdir/report")"
grep -q ' sysbusy$' "$tmpdir/report" ||
	fail "perf record with no command did not sample sysbusy: $(grep '%' "$tmpdir/report")"

# perf trace: sysbusy's calls, then the summary on SIGINT.
until_seen_then_int "$tmpdir/trace.out" 'sysbusy/' trace -S -e getppid \
	-o "$tmpdir/trace.out"
[ "$(cat "$tmpdir/rc")" = 0 ] || fail "perf trace exited $(cat "$tmpdir/rc"): $(cat "$tmpdir/err")"
grep -q '^ sysbusy ([0-9]*), ' "$tmpdir/trace.out" ||
	fail "perf trace: no summary of sysbusy: $(tail -n 5 "$tmpdir/trace.out")"

# perf stat: the system-wide header, as Linux perf prints it.  -v says
# which backend it uses once it is set up, however slowly it starts.
"$PERF" stat -v -e task-clock -o "$tmpdir/stat.out" 2>"$tmpdir/err" &
pid=$!
n=0
until grep -q '^Using ' "$tmpdir/err" 2>/dev/null; do
	n=$((n + 1))
	[ $n -le 600 ] || fail "perf stat did not start within 60 s: $(cat "$tmpdir/err")"
	sleep 0.1
done
busy
sleep 0.5
kill -INT $pid
wait $pid || fail "perf stat exited $?: $(cat "$tmpdir/err")"
grep -q "Performance counter stats for 'system wide':" "$tmpdir/stat.out" ||
	fail "perf stat: not system-wide: $(cat "$tmpdir/stat.out")"
awk '$2 == "msec" && $3 == "task-clock" { found = $1 > 0 } END { exit !found }' \
	"$tmpdir/stat.out" || fail "perf stat: no task-clock: $(cat "$tmpdir/stat.out")"
if have_linux_perf; then
	$LINUX_PERF stat -e task-clock -o "$tmpdir/linux.out" 2>/dev/null &
	pid=$!
	sleep 0.5
	kill -INT $pid
	wait $pid
	[ "$(grep 'Performance counter stats' "$tmpdir/linux.out")" = \
	  "$(grep 'Performance counter stats' "$tmpdir/stat.out")" ] ||
		fail "the header differs from Linux perf's: $(grep 'Performance' "$tmpdir/linux.out")"
fi
echo ok

#!/bin/sh
# perf trace: -e with exclusions and globs, --duration, --failure, --comm, -p, -S
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
need_trace

N=200 M=20 K=30
$PERF trace record -q -o "$tmpdir/rec.data" -- $PERF test -w syscalls $N $M $K ||
	fail "perf trace record exited $?"

# Exclusion: everything but getppid.
$PERF trace -s -e '!getppid' -i "$tmpdir/rec.data" -o "$tmpdir/ex"
[ -z "$(summary_row "$tmpdir/ex" getppid)" ] || fail "!getppid still counted getppid"
[ "$(summary_row "$tmpdir/ex" write)" = "$K 0" ] || fail "!getppid lost the writes"

# A glob: only getppid and getpid (the workload makes getppid; an ASan
# build of it also calls getpid).
$PERF trace -e 'getp*' -i "$tmpdir/rec.data" -o "$tmpdir/glob"
[ "$(grep -c ' getppid() ' "$tmpdir/glob")" = $N ] || fail "-e 'getp*': $(grep -c ' getppid() ' "$tmpdir/glob") getppid lines"
[ "$(grep -Evc ' getp?pid\(\) ' "$tmpdir/glob")" = 0 ] || fail "-e 'getp*' let other calls through"

# --failure: the M failing opens and what else failed, nothing that succeeded.
$PERF trace --failure -i "$tmpdir/rec.data" -o "$tmpdir/fail"
[ "$(grep -c 'openat(.*= -1 ENOENT' "$tmpdir/fail")" -ge $M ] || fail "--failure lost the failing opens"
! grep -q '= [0-9]' "$tmpdir/fail" || fail "--failure shows calls that succeeded"

# --comm: a name that is not there shows nothing; perf's shows all.
$PERF trace --comm nosuch -i "$tmpdir/rec.data" -o "$tmpdir/comm0"
[ ! -s "$tmpdir/comm0" ] || fail "--comm nosuch printed lines"
$PERF trace --comm perf -e getppid -i "$tmpdir/rec.data" -o "$tmpdir/comm1"
[ "$(wc -l < "$tmpdir/comm1")" = $N ] || fail "--comm perf: $(wc -l < "$tmpdir/comm1") lines"

# -S: the lines, then the summary.
$PERF trace -S -e getppid -i "$tmpdir/rec.data" -o "$tmpdir/with"
[ "$(grep -c ' getppid() ' "$tmpdir/with")" = $N ] && grep -q 'Summary of events' "$tmpdir/with" &&
	[ "$(summary_row "$tmpdir/with" getppid)" = "$N 0" ] || fail "-S: $(cat "$tmpdir/with")"

# --duration: only the sleep, which takes 200 ms.
$PERF trace --duration 100 -o "$tmpdir/dur" -- sleep 0.2 || fail "perf trace exited $?"
[ "$(wc -l < "$tmpdir/dur")" = 1 ] && grep -q 'sleep(' "$tmpdir/dur" ||
	fail "--duration 100: $(cat "$tmpdir/dur")"
awk '{ d = $2; sub(/^\(/, "", d); if (d + 0 < 100) exit 1 }' "$tmpdir/dur" ||
	fail "--duration 100 showed a shorter call: $(cat "$tmpdir/dur")"

# -p: attach to a running workload (not our child), then release it.
N=555
pid=$(start_waiting_syscalls $N)
[ -n "$pid" ] || fail "the workload did not start"
$PERF trace -s -p "$pid" -o "$tmpdir/attach" &
trace_pid=$!
# Its recorder, a child process, enables the counters once it has read
# the task's mappings from /proc, and then waits for records in poll(2)
# (syscall 7, a timeout of 100 or 5 ms, not the -1 of waiting to write).
i=0
until sed -n "s|^\([0-9]*\) (perf) . $trace_pid .*|/proc/\1/syscall|p" /proc/[0-9]*/stat 2>/dev/null |
	xargs cat 2>/dev/null | awk '$1 == 7 && $4 != "0xffffffffffffffff" { ok = 1 } END { exit !ok }'; do
	i=$((i + 1))
	[ $i -gt 1500 ] && fail "perf trace -p did not start recording"
	sleep 0.02
done
kill -USR1 "$pid"
wait $trace_pid || fail "perf trace -p exited $?"
[ "$(summary_row "$tmpdir/attach" getppid)" = "$N 0" ] ||
	fail "-p: getppid '$(summary_row "$tmpdir/attach" getppid)', want '$N 0'"
echo "filters and -p agree with the workload"

#!/bin/sh
# perf stat: software events print, task-clock agrees with /usr/bin/time
. "$(dirname "$0")/lib/common.sh"
[ -x /usr/bin/time ] || skip "/usr/bin/time missing (Debian package 'time')"

ev=task-clock,context-switches,page-faults,cpu-clock
$PERF stat -o "$tmpdir/human" -e $ev -- sleep 0.2 || fail "perf stat failed"
for e in task-clock context-switches page-faults cpu-clock; do
	grep -q " $e " "$tmpdir/human" || fail "$e missing from: $(cat "$tmpdir/human")"
done
grep -q "seconds time elapsed" "$tmpdir/human" || fail "no elapsed time"

# A CPU-bound command: task-clock counts /usr/bin/time and the command
# it runs; /usr/bin/time measures the command's user+sys CPU time alone.
# perf stat's own start-up is outside both, however slow the machine.
# task-clock is at least the command's time (10 ms resolution) and at
# most 20% more, and what /usr/bin/time itself takes to run a command
# that does nothing (its exec and wait: far more under the debug
# kernel on an emulated CPU), and 30 ms.
$PERF stat -x, -o "$tmpdir/csv0" -e task-clock -- \
	/usr/bin/time -f "%U %S" -o "$tmpdir/time0" true || fail "time true failed"
own=$(csv_value "$tmpdir/csv0" task-clock)
$PERF stat -x, -o "$tmpdir/csv" -e task-clock -- \
	/usr/bin/time -f "%U %S" -o "$tmpdir/time" \
	$PERF test -w cpuloop 0.5 || fail "cpuloop run failed"
msec=$(csv_value "$tmpdir/csv" task-clock)
cpu=$(awk '{ printf "%d", ($1 + $2) * 1000 }' "$tmpdir/time")
echo "task-clock ${msec} ms, /usr/bin/time user+sys ${cpu} ms, /usr/bin/time alone ${own} ms"
awk -v t="$msec" -v c="$cpu" -v o="$own" \
	'BEGIN { exit !(c > 100 && t >= c - 20 && t <= c * 1.2 + o + 30) }' ||
	fail "task-clock ${msec} ms not plausible against ${cpu} ms CPU time"

#!/bin/sh
# perf record --tod: time of day within 1 ms of what the workload logged,
# in perf script, perf sched timehist and perf report -D; points in the
# data; Linux perf reads the files
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
. "$(dirname "$0")/lib/tod.sh"
need_trace
need_tracepoint sched sched_switch

data=$tmpdir/tod.data
$PERF sched record -q --tod -e raw_syscalls:sys_enter -o "$data" -- \
	$PERF test -w clock-marks 3 >"$tmpdir/marks" ||
	fail "perf sched record --tod exited $?"
pid=$(awk '/^pid/ { print $2 }' "$tmpdir/marks")
[ -n "$pid" ] || fail "the workload said no pid: $(cat "$tmpdir/marks")"

# perf script: the time of day goes before the time, as -F +tod puts it.
$PERF script -i "$data" --pid "$pid" >"$tmpdir/script" ||
	fail "perf script exited $?"
grep ' NR 39 ' "$tmpdir/script" | awk '{ print $5 }' >"$tmpdir/script.tod"
tod_times "$tmpdir/script.tod" 1 . >"$tmpdir/script.times"
tod_check "$tmpdir/script.times" "$tmpdir/marks" 1 3 1 "perf script getpid"
$PERF script -i "$data" --no-tod --pid "$pid" | grep -q '[0-9]:[0-9][0-9]:[0-9]' &&
	fail "perf script --no-tod still shows the time of day"

# perf sched timehist: the task leaves the CPU inside each mark (its sleep).
$PERF sched timehist -i "$data" -p "$pid" >"$tmpdir/timehist" 2>/dev/null ||
	fail "perf sched timehist exited $?"
tod_times "$tmpdir/timehist" 1 "^[0-9][0-9]:" >"$tmpdir/timehist.times"
# A mark may have no switch: on an emulated CPU, its 100 us sleep can
# end before the task leaves the CPU (the debug kernel's run once had
# none in a mark, the nearest switch 34.7 ms off, while the getpid above
# was within 1 ms).  A wrong time of day would move every switch off
# every mark: one mark with its switch inside, within 1 ms, is asked.
tod_check_some "$tmpdir/timehist.times" "$tmpdir/marks" 1 3 1 "perf sched timehist"
$PERF sched timehist -i "$data" --no-tod -p "$pid" 2>/dev/null |
	grep -q '^[0-9][0-9]:' && fail "timehist --no-tod shows the time of day"

# perf report -D: the points, one a second, and a time of day per sample.
$PERF report -D -i "$data" >"$tmpdir/dump" || fail "perf report -D exited $?"
points=$(grep -c 'PERF_RECORD_EVENT_TYPE tod point' "$tmpdir/dump")
echo "perf report -D: $points correlation points"
[ "$points" -ge 3 ] || fail "$points correlation points in a 3 s recording"
grep -q '^\.\.\. time of day: ' "$tmpdir/dump" || fail "no time of day in -D"

# Asked for where there is no reference: said, and a failure.
$PERF sched record -q -o "$tmpdir/plain.data" -- true || fail "perf sched record exited $?"
if $PERF sched timehist --tod -i "$tmpdir/plain.data" >/dev/null 2>"$tmpdir/err"; then
	fail "timehist --tod without a reference succeeded"
fi
grep -q 'no time-of-day reference' "$tmpdir/err" || fail "unclear error: $(cat "$tmpdir/err")"

# Linux perf reads the file, the points included, and its -F tod (the
# start reference alone) is ours with --tod=start, to the microsecond.
if have_linux_perf; then
	f=comm,tid,tod,time,event
	$LINUX_PERF script -i "$data" -F $f >"$tmpdir/linux" 2>"$tmpdir/linux.err" ||
		fail "Linux perf script exited $?: $(cat "$tmpdir/linux.err")"
	$PERF script -i "$data" -F $f --tod=start >"$tmpdir/ours" ||
		fail "perf script --tod=start exited $?"
	[ -s "$tmpdir/ours" ] || fail "no lines"
	cmp -s "$tmpdir/linux" "$tmpdir/ours" ||
		fail "-F $f differs from Linux perf: $(diff "$tmpdir/linux" "$tmpdir/ours" | head -5)"
	$PERF record -q --tod -o - -- true 2>/dev/null >"$tmpdir/pipe.data" ||
		fail "perf record --tod -o - exited $?"
	$LINUX_PERF script -i - <"$tmpdir/pipe.data" >/dev/null 2>"$tmpdir/linux.err" ||
		fail "Linux perf script on the pipe exited $?: $(cat "$tmpdir/linux.err")"
	grep -qi 'fail\|error' "$tmpdir/linux.err" &&
		fail "Linux perf script complained: $(cat "$tmpdir/linux.err")"
fi
exit 0

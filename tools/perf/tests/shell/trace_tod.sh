#!/bin/sh
# perf trace -TT: time of day of a syscall within 1 ms of the workload's clock
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
. "$(dirname "$0")/lib/tod.sh"
need_trace

# The getpid lines of perf trace output $1 against the mark in $2.
check_tod() {
	tod_times "$1" 1 " getpid\\(" >"$1.times"
	tod_check "$1.times" "$2" 1 1 1 "$3"
}

$PERF trace -TT -e getpid -o "$tmpdir/live" -- $PERF test -w syscalls --mark 0 0 0 >"$tmpdir/mark" ||
	fail "perf trace exited $?"
check_tod "$tmpdir/live" "$tmpdir/mark" live

$PERF trace record -q -o "$tmpdir/rec.data" -- $PERF test -w syscalls --mark 0 0 0 >"$tmpdir/mark2" ||
	fail "perf trace record exited $?"
$PERF trace -TT -e getpid -i "$tmpdir/rec.data" -o "$tmpdir/replay" ||
	fail "perf trace -i exited $?"
check_tod "$tmpdir/replay" "$tmpdir/mark2" replay

# A recording without a clock reference cannot give the time of day.
$PERF record -q -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -o "$tmpdir/noclock.data" -- true ||
	fail "perf record exited $?"
if $PERF trace -TT -i "$tmpdir/noclock.data" >/dev/null 2>"$tmpdir/err"; then
	fail "-TT on a file without CLOCK_DATA succeeded"
fi
grep -q 'no time-of-day reference' "$tmpdir/err" || fail "unclear error: $(cat "$tmpdir/err")"

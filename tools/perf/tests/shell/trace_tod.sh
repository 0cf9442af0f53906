#!/bin/sh
# perf trace -TT: time of day of a syscall within 2 ms of the workload's clock
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
need_trace
export TZ=UTC

# perf's HH:MM:SS.uuuuuu of the getpid line in $1 within 2 ms of the
# workload's clock: of "mark BEFORE AFTER" in $2, the times it read just
# before and after that call, at any time of the day (midnight wraps).
check_tod() {
	tod=$(awk '/ getpid\(/ { print $1; exit }' "$1")
	mark=$(awk '/^mark / { print $2, $3; exit }' "$2")
	[ -n "$tod" ] && [ -n "$mark" ] || fail "$3: no getpid line or mark: $(cat "$1" "$2")"
	awk -v tod="$tod" -v mark="$mark" -v what="$3" 'BEGIN {
		split(tod, t, ":")
		split(mark, m, " ")
		ours = t[1] * 3600 + t[2] * 60 + t[3]
		before = m[1] % 86400
		after = before + (m[2] - m[1])
		d = 0
		if (ours < before) d = ours - before
		if (ours > after) d = ours - after
		if (d > 43200) d -= 86400
		if (d < -43200) d += 86400
		printf "%s: perf trace %s, workload %.6f..%.6f: %.3f ms outside\n", what, tod, before, after, d * 1000
		exit (d < -0.002 || d > 0.002)
	}' || fail "$3: more than 2 ms apart"
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

#!/bin/sh
# perf stat: exact getppid count of a workload, with 'syscalls:*', and with -p
. "$(dirname "$0")/lib/common.sh"
need_root
need_tracepoint syscalls sys_enter_getppid
need_tracepoint_counters syscalls sys_enter_getppid

N=1000
$PERF stat -x, -o "$tmpdir/out" -e syscalls:sys_enter_getppid -- \
	$PERF test -w syscalls $N 0 0 || fail "perf stat exited $?"
v=$(csv_value "$tmpdir/out" syscalls:sys_enter_getppid)
[ "$v" = "$N" ] || fail "counted '$v' getppid calls, the workload made $N"

# Every syscall tracepoint at once (some 700 counters): the same exact
# count on entry and on exit.
$PERF stat -x, -o "$tmpdir/all" -e 'syscalls:*' -- $PERF test -w syscalls $N 0 0 ||
	fail "perf stat -e 'syscalls:*' exited $?"
[ "$(grep -c ',syscalls:sys_enter_' "$tmpdir/all")" -ge 100 ] ||
	fail "'syscalls:*' counted few events: $(head -n 5 "$tmpdir/all")"
for ev in syscalls:sys_enter_getppid syscalls:sys_exit_getppid; do
	v=$(csv_value "$tmpdir/all" $ev)
	[ "$v" = "$N" ] || fail "with 'syscalls:*', $ev counted '$v', the workload made $N calls"
done

# Per process: attach to a running workload (not our child, so it is reaped
# by init and -p sees it exit), then release it.
N=777
pid=$(start_waiting_syscalls $N)
[ -n "$pid" ] || fail "the workload did not start"
$PERF stat -x, -o "$tmpdir/out2" -e syscalls:sys_enter_getppid -p "$pid" &
stat_pid=$!
# Give perf stat time to open its counters: poll for its fd on the event.
i=0
until [ "$(ls -l /proc/$stat_pid/fd 2>/dev/null | grep -c 'perf_event\|perf_counter')" -ge 1 ]; do
	i=$((i + 1))
	[ $i -gt 200 ] && fail "perf stat -p did not open its counter"
	sleep 0.02
done
kill -USR1 "$pid"
wait $stat_pid || fail "perf stat -p exited $?"
v=$(csv_value "$tmpdir/out2" syscalls:sys_enter_getppid)
[ "$v" = "$N" ] || fail "-p counted '$v' getppid calls, the workload made $N"
echo "counted $N and $v"

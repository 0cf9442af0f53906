#!/bin/sh
# perf stat on a kernel with perf_counter: the same workload counted
# through perf_counter_open and through the stock perf_event_open gives
# plausibly the same software counts, children included (inherit).
. "$(dirname "$0")/lib/common.sh"
[ -e /proc/sys/kernel/perf_counter_paranoid ] ||
	skip "this kernel has no perf_counter subsystem (runs under 'make vmcheck')"

ev=task-clock,context-switches,cpu-migrations,page-faults
# CPU time in perf's own process, then five sleeps in child processes:
# every sleep blocks at least once, every process faults its pages in.
work="$PERF test -w cpuloop 0.3; for i in 1 2 3 4 5; do sleep 0.01; done"

for backend in counter event; do
	PERF_BACKEND=$backend $PERF stat -v -x, -o "$tmpdir/$backend.csv" \
		-e $ev -- sh -c "$work" 2>"$tmpdir/$backend.err" ||
		fail "perf stat on $backend failed: $(cat "$tmpdir/$backend.err")"
done
expect_both_backends

for e in task-clock context-switches cpu-migrations page-faults; do
	ours=$(csv_value "$tmpdir/counter.csv" $e)
	stock=$(csv_value "$tmpdir/event.csv" $e)
	echo "$e: perf_counter_open $ours, perf_event_open $stock"
	case $ours in
	''|'<not'*) fail "$e not counted by perf_counter_open" ;;
	esac
	eval "ours_$(echo $e | tr - _)=\$ours stock_$(echo $e | tr - _)=\$stock"
done

# task-clock: the 0.3 s loop dominates both runs.
awk -v o="$ours_task_clock" -v s="$stock_task_clock" \
	'BEGIN { exit !(o >= 250 && o <= 2 * s && o >= s / 2) }' ||
	fail "task-clock $ours_task_clock ms against $stock_task_clock ms"
# page faults: the same programs fault in about the same pages.
awk -v o="$ours_page_faults" -v s="$stock_page_faults" \
	'BEGIN { exit !(o >= 100 && o <= 1.5 * s && o >= s / 1.5) }' ||
	fail "page-faults $ours_page_faults against $stock_page_faults"
# context switches: at least one per sleep, in child processes.
awk -v o="$ours_context_switches" 'BEGIN { exit !(o >= 5) }' ||
	fail "context-switches $ours_context_switches, expected at least 5"
awk -v o="$ours_cpu_migrations" -v s="$stock_cpu_migrations" \
	'BEGIN { exit !(o <= 10 + 5 * s) }' ||
	fail "cpu-migrations $ours_cpu_migrations against $stock_cpu_migrations"
echo "ok: perf_counter_open counts agree with perf_event_open"

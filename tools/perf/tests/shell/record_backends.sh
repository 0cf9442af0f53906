#!/bin/sh
# perf record -g on a kernel with perf_counter: the same top symbols and call chains through both backends
. "$(dirname "$0")/lib/common.sh"
[ -e /proc/sys/kernel/perf_counter_paranoid ] ||
	skip "this kernel has no perf_counter subsystem (runs under 'make vmcheck')"

mkdir "$tmpdir/bin"
cp "$PERF" "$(dirname "$PERF")/libperf-hot.so" "$tmpdir/bin/"

# The three hot functions in the order of their overhead in report $1.
hot_order() {
	grep -oE 'workload_hot_a|workload_hot_b|hot_lib_loop' "$1" | awk '!seen[$0]++' | tr '\n' ' '
}

for backend in counter event; do
	data=$tmpdir/$backend.data
	PERF_BACKEND=$backend $PERF record -v -q -g -e cpu-clock -F 1000 -o "$data" \
		-- "$tmpdir/bin/perf" test -w cpuloop 0.6 2>"$tmpdir/$backend.err" ||
		fail "perf record on $backend failed: $(cat "$tmpdir/$backend.err")"
	$PERF report -i "$data" --stdio --no-children -g none --sort sym \
		> "$tmpdir/$backend.txt" || fail "perf report of the $backend recording failed"
	$PERF report -i "$data" --stdio --no-children -g caller --sort sym \
		> "$tmpdir/$backend.graph" || fail "perf report -g of the $backend recording failed"
	echo "$backend: $(hot_order "$tmpdir/$backend.txt")"
done
grep -q 'Using perf_counter_open' "$tmpdir/counter.err" ||
	fail "the counter run did not use perf_counter_open: $(cat "$tmpdir/counter.err")"
grep -q 'Using perf_event_open' "$tmpdir/event.err" ||
	fail "the event run did not use perf_event_open: $(cat "$tmpdir/event.err")"

# workload_hot_a does twice the work of each other: it leads in both.
case $(hot_order "$tmpdir/counter.txt") in
'workload_hot_a '*) ;;
*) fail "perf_counter_open: workload_hot_a does not lead: $(head -20 "$tmpdir/counter.txt")" ;;
esac
[ "$(hot_order "$tmpdir/counter.txt" | wc -w)" = 3 ] ||
	fail "perf_counter_open: hot symbols missing: $(head -20 "$tmpdir/counter.txt")"
[ "$(hot_order "$tmpdir/event.txt" | cut -d' ' -f1)" = workload_hot_a ] ||
	fail "perf_event_open: workload_hot_a does not lead: $(head -20 "$tmpdir/event.txt")"

# The user call chains, by frame pointer, reach the workload's caller.
for backend in counter event; do
	grep -q 'workload_cpuloop' "$tmpdir/$backend.graph" ||
		fail "$backend: no call chain through workload_cpuloop: $(head -30 "$tmpdir/$backend.graph")"
done
echo ok

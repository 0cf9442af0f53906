#!/bin/sh
# FlameGraph's stackcollapse-perf.pl folds our perf script output as Linux perf's
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/script.sh"
need_root
need_linux_perf

# FlameGraph is not part of this tree: it is used where it is installed.
FLAMEGRAPH_DIR=${FLAMEGRAPH_DIR:-/work/shared/tools/flamegraph}
collapse=$FLAMEGRAPH_DIR/stackcollapse-perf.pl
[ -f "$collapse" ] ||
	skip "FlameGraph's stackcollapse-perf.pl not found at $collapse (set FLAMEGRAPH_DIR)"
command -v perl > /dev/null || skip "perl is not installed: stackcollapse-perf.pl cannot run"
script_workload

$LINUX_PERF record -q -e cpu-clock -F 2000 -g -o "$tmpdir/l.data" -- $wl 2>/dev/null ||
	fail "Linux perf record -g failed"
"$PERF" record -q -g -o "$tmpdir/o.data" -- $wl || fail "perf record -g failed"
if [ -d /sys/kernel/tracing/events/sched/sched_switch ] ||
   [ -d /sys/kernel/debug/tracing/events/sched/sched_switch ]; then
	$LINUX_PERF record -q -g -e sched:sched_switch -o "$tmpdir/t.data" \
		-- "$tmpdir/bin/perf" test -w sched 2 50 2>/dev/null ||
		fail "Linux perf record -g -e sched:sched_switch failed"
fi

for f in l o t; do
	[ -f "$tmpdir/$f.data" ] || continue
	"$PERF" script -i "$tmpdir/$f.data" > "$tmpdir/ours.out" ||
		fail "perf script failed on $f.data"
	"$LINUX_PERF" script -i "$tmpdir/$f.data" > "$tmpdir/linux.out" 2>/dev/null ||
		fail "Linux perf script failed on $f.data"
	perl "$collapse" "$tmpdir/ours.out" > "$tmpdir/ours.folded" 2> "$tmpdir/err" ||
		fail "stackcollapse-perf.pl failed on our output: $(head -3 "$tmpdir/err")"
	perl "$collapse" "$tmpdir/linux.out" > "$tmpdir/linux.folded" 2>/dev/null ||
		fail "stackcollapse-perf.pl failed on Linux perf's output"
	[ -s "$tmpdir/linux.folded" ] || fail "no stacks folded from $f.data"
	diff "$tmpdir/linux.folded" "$tmpdir/ours.folded" > "$tmpdir/diff" ||
		fail "folded stacks of $f.data differ: $(head -10 "$tmpdir/diff")"
	echo "$f.data: $(wc -l < "$tmpdir/ours.folded") folded stacks equal"
done
echo ok

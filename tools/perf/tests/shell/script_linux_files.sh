#!/bin/sh
# perf script prints what Linux perf script prints, on both tools' files
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/script.sh"
need_root
need_linux_perf
script_workload

# Theirs and ours, with and without call chains, and a pipe.
$LINUX_PERF record -q -e cpu-clock -F 2000 -o "$tmpdir/l.data" -- $wl 2>/dev/null ||
	fail "Linux perf record failed"
$LINUX_PERF record -q -e cpu-clock -F 2000 -g -o "$tmpdir/lg.data" -- $wl 2>/dev/null ||
	fail "Linux perf record -g failed"
$LINUX_PERF record -q -e cpu-clock -F 2000 -g -o - -- $wl > "$tmpdir/lp.data" 2>/dev/null ||
	fail "Linux perf record -o - failed"
"$PERF" record -q -o "$tmpdir/o.data" -- $wl || fail "perf record failed"
"$PERF" record -q -g -o "$tmpdir/og.data" -- $wl || fail "perf record -g failed"
"$PERF" record -q -g -o - -- $wl > "$tmpdir/op.data" || fail "perf record -o - failed"

for f in l lg lp o og op; do
	same_script "$tmpdir/$f.data"
	same_script "$tmpdir/$f.data" -F comm,tid,time,event,ip,sym,dso
done
# Side-band records, other layouts, and no call chains.
same_script "$tmpdir/lg.data" --show-task-events --show-mmap-events
same_script "$tmpdir/og.data" --show-task-events --show-mmap-events
same_script "$tmpdir/og.data" -G
same_script "$tmpdir/lg.data" --ns -F +pid,-period
same_script "$tmpdir/og.data" -F sw:ip,sym,symoff,dso,event,misc
same_script "$tmpdir/lg.data" --max-stack 3
# A pipe on standard input, without -i.
cat "$tmpdir/lp.data" | "$PERF" script > "$tmpdir/stdin.out" 2>&1 ||
	fail "perf script on a pipe exited $?: $(head -3 "$tmpdir/stdin.out")"
"$LINUX_PERF" script -i "$tmpdir/lp.data" > "$tmpdir/linux.out" 2>/dev/null
cmp -s "$tmpdir/stdin.out" "$tmpdir/linux.out" || fail "standard input: lines differ"

# A chain whose user part ends in a marker no kernel writes (-1, as a
# broken frame-pointer walk can leave): Linux perf shows none of it.
# The last entry of the fifth sample with a chain of 3 or more becomes
# all ones, found through the raw dump's offsets.
if command -v perl > /dev/null; then
	plant_bad_chain_marker "$tmpdir/og.data"
	same_script "$tmpdir/og.data"
else
	echo "perl is not installed: the chain with a bad marker is not checked"
fi

# Tracepoints: their fields as libtraceevent formats them.
if [ -d /sys/kernel/tracing/events/sched/sched_switch ] ||
   [ -d /sys/kernel/debug/tracing/events/sched/sched_switch ]; then
	$LINUX_PERF record -q -a -e sched:sched_switch -o "$tmpdir/lt.data" -- sleep 0.2 2>/dev/null ||
		fail "Linux perf record -e sched:sched_switch failed"
	$LINUX_PERF record -q -g -e sched:sched_switch -o "$tmpdir/ltg.data" \
		-- "$tmpdir/bin/perf" test -w sched 2 50 2>/dev/null ||
		fail "Linux perf record -g -e sched:sched_switch failed"
	"$PERF" record -q -a -e sched:sched_switch -o "$tmpdir/ot.data" -- sleep 0.2 ||
		fail "perf record -e sched:sched_switch failed"
	for f in lt ltg ot; do
		same_script "$tmpdir/$f.data"
		same_script "$tmpdir/$f.data" -F comm,tid,time,event,ip,sym,dso
	done
	same_script "$tmpdir/lt.data" --show-task-events -F trace:comm,pid,tid,cpu,time,trace
	same_script "$tmpdir/ltg.data" -F trace:comm,tid,event,trace
else
	echo "no sched:sched_switch tracepoint here: tracepoint files not compared"
fi
echo ok

#!/bin/sh
# perf trace record -a: not tracing itself, a small file; replay equals live
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
need_trace

# The whole system for a second: the recorder's own syscalls are
# filtered out in the kernel, so none are in the file.  The file holds
# the other tasks' calls and nothing else: at most 1 MiB of headers,
# formats and side-band plus 256 bytes per call record (a sys_enter
# record is 128 bytes), and under 64 MiB (about 1.2 MB on an idle
# machine, 18 MB while a kernel builds).
$PERF trace record -q -a -o "$tmpdir/all.data" -- sleep 1 &
rec=$!
wait $rec || fail "perf trace record -a exited $?"
size=$(wc -c < "$tmpdir/all.data")
$PERF trace -s -i "$tmpdir/all.data" -o "$tmpdir/all.sum" || fail "perf trace -s -i exited $?"
events=$(awk '/ events, / { n += $(NF - 2) } END { print n + 0 }' "$tmpdir/all.sum")
echo "perf trace record -a -- sleep 1: $size bytes, $events syscall records"
[ "$size" -lt 67108864 ] || fail "the file has $size bytes"
[ "$size" -le $((1048576 + 256 * events)) ] ||
	fail "$size bytes for $events syscall records: more than the calls"
$PERF trace -i "$tmpdir/all.data" -o "$tmpdir/all" || fail "perf trace -i exited $?"
grep -q ' sleep/[0-9]* ' "$tmpdir/all" || fail "sleep's syscalls are missing"
! grep -q "/$rec " "$tmpdir/all" || fail "the recorder ($rec) traced itself: $(grep "/$rec " "$tmpdir/all" | head -3)"

# Replay prints the lines live tracing prints: compared without time,
# duration, tid and addresses (which differ from run to run).
normalize() {
	sed -e 's/^ *[0-9.]* ([ 0-9.ms]*): //' -e 's|/[0-9]* | |' \
	    -e 's/0x[0-9a-f]*/ADDR/g' -e 's/  *$//' "$1"
}
sel='openat,write,close,read,getppid'
# A sanitizer build of the workload reads /proc/self/maps as it starts,
# and the length of that file differs from run to run.
under_sanitizer && sel='openat,write,close,getppid'
$PERF trace -e $sel --failure -o "$tmpdir/live" -- $PERF test -w syscalls 5 7 3 ||
	fail "perf trace exited $?"
$PERF trace -e $sel -o "$tmpdir/live.all" -- $PERF test -w syscalls 5 7 3
$PERF trace record -q -o "$tmpdir/rec.data" -- $PERF test -w syscalls 5 7 3 ||
	fail "perf trace record exited $?"
$PERF trace -e $sel --failure -i "$tmpdir/rec.data" -o "$tmpdir/replay"
[ "$(grep -c 'openat(dfd: CWD.*= -1 ENOENT' "$tmpdir/live")" -ge 7 ] ||
	fail "live --failure lines: $(cat "$tmpdir/live")"
normalize "$tmpdir/live" > "$tmpdir/live.n"
normalize "$tmpdir/replay" > "$tmpdir/replay.n"
diff -u "$tmpdir/live.n" "$tmpdir/replay.n" || fail "replay differs from live (--failure)"
$PERF trace -e $sel -i "$tmpdir/rec.data" -o "$tmpdir/replay.all"
normalize "$tmpdir/live.all" | sed 's/getppid() *= [0-9]*/getppid() = PPID/' > "$tmpdir/live.n"
normalize "$tmpdir/replay.all" | sed 's/getppid() *= [0-9]*/getppid() = PPID/' > "$tmpdir/replay.n"
diff -u "$tmpdir/live.n" "$tmpdir/replay.n" || fail "replay differs from live"
[ "$(grep -c 'getppid()' "$tmpdir/replay.n")" = 5 ] || fail "5 getppid lines expected"
echo "$(wc -l < "$tmpdir/live.n") lines equal"

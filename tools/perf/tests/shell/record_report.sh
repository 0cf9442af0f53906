#!/bin/sh
# perf record then perf report: hot functions, Linux perf reads our file
. "$(dirname "$0")/lib/common.sh"
need_sampling
need_root

# A private copy of the workload: a rebuild of perf meanwhile must not
# change the binary the recording refers to.
mkdir "$tmpdir/bin"
cp "$PERF" "$(dirname "$PERF")/libperf-hot.so" "$tmpdir/bin/"
data=$tmpdir/perf.data
$PERF record -q -e cpu-clock -F 2000 -g -o "$data" -- "$tmpdir/bin/perf" test -w cpuloop 0.5 ||
	fail "perf record failed"
$PERF report -i "$data" --stdio --no-children -g none --sort sym > "$tmpdir/r.txt" ||
	fail "perf report failed"
# workload_hot_a does twice the work of workload_hot_b and hot_lib_loop.
a=$(grep -n 'workload_hot_a' "$tmpdir/r.txt" | head -1 | cut -d: -f1)
b=$(grep -n 'workload_hot_b' "$tmpdir/r.txt" | head -1 | cut -d: -f1)
l=$(grep -n 'hot_lib_loop' "$tmpdir/r.txt" | head -1 | cut -d: -f1)
[ -n "$a" ] && [ -n "$b" ] && [ -n "$l" ] || fail "hot symbols missing: $(cat "$tmpdir/r.txt")"
[ "$a" -lt "$b" ] && [ "$a" -lt "$l" ] || fail "workload_hot_a is not the hottest"
# Start-up (exec, dynamic linking) takes a share that varies with the
# machine: compare workload_hot_a with the other two hot functions only.
pct() {
	grep "$1" "$tmpdir/r.txt" | head -1 | awk '{ print $1 + 0 }'
}
pa=$(pct workload_hot_a)
pb=$(pct workload_hot_b)
pl=$(pct hot_lib_loop)
awk -v a="$pa" -v b="$pb" -v l="$pl" 'BEGIN { s = 100 * a / (a + b + l); exit !(s > 35 && s < 65) }' ||
	fail "workload_hot_a at $pa% against $pb% and $pl%: expected about half of the three"
grep 'hot_lib_loop' "$tmpdir/r.txt" | grep -q '\[\.\]' || fail "library symbol not user level"

# Every sample of ours is one that Linux perf script sees.
ours=$($PERF report -i "$data" -D | grep -c 'PERF_RECORD_SAMPLE')
if [ -x "${LINUX_PERF:-/usr/bin/perf}" ]; then
	linux=$(${LINUX_PERF:-/usr/bin/perf} script -i "$data" -F tid 2> "$tmpdir/script.err" | wc -l)
	[ "$ours" = "$linux" ] || fail "our -D has $ours samples, Linux perf script $linux"
	[ -s "$tmpdir/script.err" ] && fail "Linux perf script warned: $(cat "$tmpdir/script.err")"
	same_report "$data" --sort comm,dso,sym -g none --no-children
	same_report "$data" --sort comm,dso,sym -g none --children
fi

# Pipe mode end to end.
$PERF record -q -e cpu-clock -F 1000 -o - -- $PERF test -w cpuloop 0.2 2>/dev/null |
	$PERF report -i - --stdio --sort sym > "$tmpdir/pipe.txt" 2>&1 || fail "pipe record|report failed"
grep -q workload_hot_a "$tmpdir/pipe.txt" || fail "pipe report lacks the hot symbol: $(head -30 "$tmpdir/pipe.txt")"
echo "ok: $ours samples"

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
$PERF record -q -e cpu-clock -F 2000 -g -o "$data" -- "$tmpdir/bin/perf" test -w cpuloop 0.5 times \
	2> "$tmpdir/rec.err" || fail "perf record failed: $(cat "$tmpdir/rec.err")"
$PERF report -i "$data" --stdio --no-children -g none --sort sym > "$tmpdir/r.txt" ||
	fail "perf report failed"
# workload_hot_a does twice the work of workload_hot_b and hot_lib_loop.
for f in workload_hot_a workload_hot_b hot_lib_loop; do
	grep -q "\] $f\$" "$tmpdir/r.txt" || fail "hot symbols missing: $(cat "$tmpdir/r.txt")"
done
# Each function's share of the three in the profile is its share of
# the CPU time the workload measured around the calls ("times"), within
# 10 points: about half for workload_hot_a.  Start-up (exec, dynamic
# linking) takes a share that varies with the machine: the three only.
# The measured shares, not a fixed 2:1:1: in the VM the guest's clocks
# run on while the emulator waits for the host, and charge that to the
# function the guest is in (a run once gave workload_hot_a 80%).
pct() {
	grep "$1" "$tmpdir/r.txt" | head -1 | awk '{ print $1 + 0 }'
}
spent() {
	sed -n "s/^cpuloop: CPU seconds: .*$1 \([0-9.]*\).*/\1/p" "$tmpdir/rec.err"
}
pa=$(pct workload_hot_a)
pb=$(pct workload_hot_b)
pl=$(pct hot_lib_loop)
ta=$(spent workload_hot_a)
tb=$(spent workload_hot_b)
tl=$(spent hot_lib_loop)
[ -n "$ta" ] && [ -n "$tb" ] && [ -n "$tl" ] ||
	fail "the workload did not say its CPU times: $(cat "$tmpdir/rec.err")"
# And the function that took the most CPU time, where it led the next
# by more than 10 points, is the hottest in the profile.
awk -v a="$pa" -v b="$pb" -v l="$pl" -v ta="$ta" -v tb="$tb" -v tl="$tl" 'BEGIN {
	p = a + b + l; t = ta + tb + tl
	split(a " " b " " l, pv, " ")
	split(ta " " tb " " tl, tv, " ")
	top = 1
	for (i = 1; i <= 3; i++) {
		ps[i] = 100 * pv[i] / p
		ts[i] = 100 * tv[i] / t
		if (ps[i] - ts[i] > 10 || ts[i] - ps[i] > 10)
			exit 1
		if (ts[i] > ts[top])
			top = i
	}
	for (i = 1; i <= 3; i++)
		if (i != top && ts[top] - ts[i] > 10 && ps[i] >= ps[top])
			exit 1
}' || fail "profile shares $pa% $pb% $pl% (workload_hot_a, workload_hot_b, hot_lib_loop), CPU time $ta $tb $tl s: not the same shares, or not the same hottest"
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

# /proc/kallsyms gives 1 KiB as its block size, the buffer stdio would
# pick: 5000 reads for its 120k lines.  Its reads ask for 64 KiB (the
# kernel gives a page or so to each).
command -v strace >/dev/null ||
	fail "strace is missing (scripts/install-deps installs it)"
$PERF record -q -a -e cpu-clock -F 1000 -o "$tmpdir/k.data" -- sleep 0.2 ||
	fail "perf record -a failed"
strace -e trace=openat,read,close -o "$tmpdir/k.strace" \
	$PERF report -i "$tmpdir/k.data" --stdio > /dev/null 2>&1 ||
	fail "perf report of a recording of all CPUs failed"
kreads=$(awk '
	/^openat\(.*"\/proc\/kallsyms"/ { fd = $NF; next }
	fd != "" && $0 ~ "^close\\(" fd "\\)" { fd = ""; next }
	fd != "" && $0 ~ "^read\\(" fd "," {
		n++
		size = $0
		sub(/\) *= .*$/, "", size)
		sub(/.*, /, "", size)
		if (size + 0 < 65536)
			small++
	}
	END { printf "%d %d\n", n, small }' "$tmpdir/k.strace")
set -- $kreads
[ "$1" -gt 0 ] || fail "perf report did not read /proc/kallsyms for a recording of all CPUs"
[ "$2" -eq 0 ] || fail "/proc/kallsyms read in $1 reads, $2 of them under 64 KiB"

# Pipe mode end to end.
$PERF record -q -e cpu-clock -F 1000 -o - -- $PERF test -w cpuloop 0.2 2>/dev/null |
	$PERF report -i - --stdio --sort sym > "$tmpdir/pipe.txt" 2>&1 || fail "pipe record|report failed"
grep -q workload_hot_a "$tmpdir/pipe.txt" || fail "pipe report lacks the hot symbol: $(head -30 "$tmpdir/pipe.txt")"
echo "ok: $ours samples"

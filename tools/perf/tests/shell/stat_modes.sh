#!/bin/sh
# perf stat: -a, -C, -A, -r, -I, -x, -o, groups
. "$(dirname "$0")/lib/common.sh"
need_root
note_linux_perf
ncpu=$(getconf _NPROCESSORS_ONLN)

# -a -A: one line per online CPU per event.
$PERF stat -a -A -x, -o "$tmpdir/a" -e cs,task-clock -- sleep 0.1 || fail "-a -A failed"
n=$(grep -c '^CPU[0-9]*,.*,cs,' "$tmpdir/a")
[ "$n" = "$ncpu" ] || fail "-A printed $n cs lines for $ncpu CPUs"

# -C 0: only CPU 0.
$PERF stat -C 0 -A -x, -o "$tmpdir/c" -e cs -- sleep 0.05 || fail "-C failed"
grep -q '^CPU0,' "$tmpdir/c" || fail "-C 0 has no CPU0 line"
[ "$(grep -c '^CPU' "$tmpdir/c")" = 1 ] || fail "-C 0 shows other CPUs"
$PERF stat -C 0-x -e cs -- true > /dev/null 2>&1 && fail "bad -C list accepted"

# -r 3: mean, the runs count and +- columns.
$PERF stat -r 3 -o "$tmpdir/r" -e task-clock -- sleep 0.02 || fail "-r failed"
grep -q "(3 runs)" "$tmpdir/r" || fail "no '(3 runs)' header"
grep -q "+-" "$tmpdir/r" || fail "no stddev"

# -r with a failing command still reports its status.
$PERF stat -r 2 -e task-clock -- sh -c 'exit 4' 2>/dev/null
[ $? = 4 ] || fail "-r lost the exit status"

# -I 100 over 350 ms of sleep: several interval lines per event, one per
# stamp.  How many depends on how late a slow machine (an emulated VM)
# wakes perf: at least two, and never more than the last stamp allows.
$PERF stat -I 100 -x, -o "$tmpdir/i" -e task-clock -- sleep 0.35 || fail "-I failed"
n=$(grep -c ',task-clock,' "$tmpdir/i")
last=$(awk -F, '$4 == "task-clock" { t = $1 } END { print t + 0 }' "$tmpdir/i")
[ "$n" -ge 2 ] || fail "-I 100 over 350 ms printed $n intervals"
awk -v n="$n" -v t="$last" 'BEGIN { exit !(n <= t / 0.1 + 1) }' ||
	fail "-I 100: $n intervals in $last s"
# Interval time stamps increase.
awk -F, '$3 == "msec" || $4 == "task-clock" { if ($1 + 0 <= last) exit 1; last = $1 + 0 }' "$tmpdir/i" ||
	fail "interval stamps not increasing"

# The heading of -I, and of -I -A with its CPU column, is Linux perf's.
if have_linux_perf; then
	for a in "" "-a -A"; do
		# shellcheck disable=SC2086
		ours=$($PERF stat -I 100 $a -e task-clock -- sleep 0.1 2>&1 | head -n 1)
		# shellcheck disable=SC2086
		theirs=$($LINUX_PERF stat -I 100 $a -e task-clock -- sleep 0.1 2>&1 | head -n 1)
		[ "$ours" = "$theirs" ] || fail "-I $a heading: '$ours', Linux perf's '$theirs'"
	done
fi

# Groups count together.
$PERF stat -x, -o "$tmpdir/g" -e '{task-clock,cs}' -- true || fail "group failed"
grep -q ',task-clock,' "$tmpdir/g" && grep -q ',cs,' "$tmpdir/g" || fail "group members missing"

# -o writes the file, not stderr.
$PERF stat -o "$tmpdir/o" -e task-clock -- true 2> "$tmpdir/err" || fail "-o failed"
grep -q task-clock "$tmpdir/o" || fail "-o file lacks counts"
grep -q task-clock "$tmpdir/err" && fail "counts also went to stderr"
echo ok

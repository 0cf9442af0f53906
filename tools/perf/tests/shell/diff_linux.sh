#!/bin/sh
# perf diff prints what Linux perf diff prints on the same pairs of files, both tools' recordings
. "$(dirname "$0")/lib/common.sh"
need_root
need_sampling
need_linux_perf

copy_workload_binaries
cpu="$tmpdir/bin/perf test -w cpuloop 0.3"
thr="$tmpdir/bin/perf test -w threads 2 2000"

# Two profiles unlike each other, recorded by each tool, and two of all
# CPUs (other tasks of the machine in them too).
for tool in linux ours; do
	rec=$PERF
	[ $tool = linux ] && rec=$LINUX_PERF
	$rec record -q -e cpu-clock -F 2000 -o "$tmpdir/$tool-cpu.data" -- $cpu 2>/dev/null &&
	$rec record -q -e cpu-clock -F 2000 -o "$tmpdir/$tool-thr.data" -- $thr 2>/dev/null &&
	$rec record -q -a -e cpu-clock -F 1000 -o "$tmpdir/$tool-a.data" -- $thr 2>/dev/null ||
		fail "$tool record failed"
done

same_diff() {
	"$PERF" diff "$@" > "$tmpdir/ours" 2> "$tmpdir/ours.err" ||
		fail "perf diff $* exited $?: $(cat "$tmpdir/ours.err")"
	$LINUX_PERF diff "$@" > "$tmpdir/linux" 2> /dev/null ||
		fail "Linux perf diff $* exited $?"
	# Samples where no symbol is known are one row per object, shown at
	# another of their addresses than Linux perf's (perf-diff.txt).
	sed -i -E 's/\[\.\] 0x[0-9a-f]{16}$/[.] 0xADDR/' "$tmpdir/ours" "$tmpdir/linux"
	diff -u "$tmpdir/linux" "$tmpdir/ours" || fail "perf diff $* differs from Linux perf's"
}

d=$tmpdir
same_diff "$d/linux-cpu.data" "$d/linux-thr.data"
same_diff "$d/linux-thr.data" "$d/linux-cpu.data"
same_diff "$d/ours-cpu.data" "$d/ours-thr.data"
same_diff "$d/linux-cpu.data" "$d/ours-cpu.data"
same_diff "$d/ours-cpu.data" "$d/ours-cpu.data"
grep -q '^ *[0-9.]*% *+0\.00%  perf *\[\.\] workload_hot_a$' "$tmpdir/ours" ||
	fail "a file against itself: $(head -n 8 "$tmpdir/ours")"
same_diff -s dso "$d/linux-cpu.data" "$d/ours-thr.data"
same_diff --dsos perf "$d/linux-cpu.data" "$d/linux-thr.data"
# All CPUs: the workload's entries (the other tasks' too with -s dso).
for pair in "linux-a ours-a" "ours-a linux-a" "linux-cpu ours-a"; do
	set -- $pair
	same_diff --comms perf "$d/$1.data" "$d/$2.data"
	same_diff -s comm,dso --comms perf "$d/$1.data" "$d/$2.data"
	same_diff -s dso "$d/$1.data" "$d/$2.data"
done
same_diff --comms perf --percentage relative "$d/linux-cpu.data" "$d/ours-thr.data"

# No file: perf.data.old against perf.data; one file: perf.data.old
# against it.
mkdir "$tmpdir/cwd"
cp "$d/ours-cpu.data" "$tmpdir/cwd/perf.data.old"
cp "$d/ours-thr.data" "$tmpdir/cwd/perf.data"
(cd "$tmpdir/cwd" && same_diff) || exit 1
(cd "$tmpdir/cwd" && same_diff "$d/linux-thr.data") || exit 1
grep -q '+[0-9.]*%  perf *\[\.\] ping_thread$' "$tmpdir/ours" ||
	fail "perf diff FILE: not perf.data.old against FILE: $(head -n 8 "$tmpdir/ours")"

# Errors: a missing file is named, a computation we do not make refused.
"$PERF" diff "$d/nosuch.data" "$d/ours-cpu.data" > /dev/null 2> "$tmpdir/err" &&
	fail "a missing file was compared"
grep -q "nosuch.data" "$tmpdir/err" || fail "the error does not name the file: $(cat "$tmpdir/err")"
"$PERF" diff -c ratio "$d/ours-cpu.data" "$d/ours-thr.data" > /dev/null 2>&1
[ $? = 129 ] || fail "-c ratio was accepted"
echo ok

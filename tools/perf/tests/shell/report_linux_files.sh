#!/bin/sh
# perf report on files Linux perf recorded equals Linux perf report
. "$(dirname "$0")/lib/common.sh"
need_root
need_linux_perf

# A private copy of the workload: a rebuild of perf meanwhile must not
# change the binary the recording refers to.
mkdir "$tmpdir/bin"
cp "$PERF" "$(dirname "$PERF")/libperf-hot.so" "$tmpdir/bin/"
wl="$tmpdir/bin/perf test -w cpuloop 0.3"
$LINUX_PERF record -q -e cpu-clock -F 2000 -o "$tmpdir/plain.data" -- $wl 2>/dev/null ||
	fail "Linux perf record failed"
$LINUX_PERF record -q -e cpu-clock -F 2000 -g -o "$tmpdir/g.data" -- $wl 2>/dev/null ||
	fail "Linux perf record -g failed"
$LINUX_PERF record -q -e cpu-clock -F 1000 -a -g -o "$tmpdir/a.data" -- $wl 2>/dev/null ||
	fail "Linux perf record -a failed"
$LINUX_PERF record -q -e cpu-clock -F 2000 -o - -- $wl > "$tmpdir/pipe.data" 2>/dev/null ||
	fail "Linux perf record -o - failed"

same_report "$tmpdir/plain.data" --sort comm,dso,sym
same_report "$tmpdir/plain.data" --sort dso,sym -n
same_report "$tmpdir/plain.data" --sort pid,sym
same_report "$tmpdir/g.data" --no-children -g none
same_report "$tmpdir/g.data" --children -g none
same_report "$tmpdir/g.data" --no-children --sort comm,dso,sym
same_report "$tmpdir/a.data" --sort comm,dso,sym -g none
same_report "$tmpdir/a.data" --sort cpu,comm -g none
same_report "$tmpdir/a.data" --children --sort comm,dso,sym -g none
# Pipe mode: both read it from stdin.
"$PERF" report -i - --stdio < "$tmpdir/pipe.data" > "$tmpdir/ours.txt" 2>&1 ||
	fail "our report on a pipe failed"
"$LINUX_PERF" report -i - --stdio < "$tmpdir/pipe.data" > "$tmpdir/linux.txt" 2>/dev/null
report_rows "$tmpdir/ours.txt" > "$tmpdir/o"
report_rows "$tmpdir/linux.txt" > "$tmpdir/l"
cmp -s "$tmpdir/o" "$tmpdir/l" || { diff "$tmpdir/l" "$tmpdir/o" | head; fail "pipe report differs"; }

# Two events: the whole output is Linux perf's, "# Total Lost Samples"
# once at the top, one section per event; only its closing tip is not.
$LINUX_PERF record -q -e cpu-clock,task-clock -F 1000 -o "$tmpdir/two.data" -- $wl \
	2>/dev/null || fail "Linux perf record of two events failed"
"$PERF" report -i "$tmpdir/two.data" --stdio > "$tmpdir/ours.txt" 2>&1 ||
	fail "our report of two events failed"
"$LINUX_PERF" report -i "$tmpdir/two.data" --stdio 2>/dev/null |
	awk '/^# \(Tip: / { tip = 1 } !tip' | sed '$ { /^#$/ d }' | sed '$ { /^$/ d }' > "$tmpdir/linux.txt"
grep -c 'Total Lost Samples' "$tmpdir/ours.txt" | grep -qx 1 ||
	fail "'Total Lost Samples' not once: $(grep -c 'Total Lost Samples' "$tmpdir/ours.txt")"
diff "$tmpdir/linux.txt" "$tmpdir/ours.txt" ||
	fail "the report of two events differs from Linux perf's"

# --group: a group's events side by side, on both tools' recordings of a
# group beside a lone event; members without an entry show 0.00%.
$LINUX_PERF record -q -e '{cpu-clock,page-faults}' -e task-clock -F 1000 \
	-o "$tmpdir/lgroup.data" -- $wl 2>/dev/null || fail "Linux perf record of a group failed"
"$PERF" record -q -e '{cpu-clock,page-faults}' -e task-clock -F 1000 \
	-o "$tmpdir/ogroup.data" -- $wl || fail "perf record of a group failed"
for f in lgroup ogroup; do
	same_report "$tmpdir/$f.data" --group
	grep -q "of events 'anon group { cpu-clock, page-faults }'" "$tmpdir/ours.txt" ||
		fail "--group: no group section: $(grep '# Samples' "$tmpdir/ours.txt")"
	same_report "$tmpdir/$f.data" --group -n -s dso,sym
	same_report "$tmpdir/$f.data" --group --comms perf --percent-limit 1
done
echo ok

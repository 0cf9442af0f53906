#!/bin/sh
# perf report sort keys by their Linux names equal Linux perf's: symbol, cpu, socket, dso_size, parent, trace, srcline, srcfile
. "$(dirname "$0")/lib/common.sh"
need_root
need_sampling
need_linux_perf

copy_workload_binaries
wl="$tmpdir/bin/perf test -w cpuloop 0.3"

# Both tools' recordings: one of a command (no CPU in the samples) and
# one of all CPUs (CPU and socket known) with call chains.
$LINUX_PERF record -q -e cpu-clock -F 2000 -g -o "$tmpdir/linux.data" -- $wl \
	2>/dev/null || fail "Linux perf record failed"
$LINUX_PERF record -q -a -e cpu-clock -F 2000 -g -o "$tmpdir/linux-a.data" -- $wl \
	2>/dev/null || fail "Linux perf record -a failed"
"$PERF" record -q -e cpu-clock -F 2000 -g -o "$tmpdir/ours.data" -- $wl ||
	fail "perf record failed"
"$PERF" record -q -a -e cpu-clock -F 2000 -g -o "$tmpdir/ours-a.data" -- $wl ||
	fail "perf record -a failed"

for f in linux ours linux-a ours-a; do
	data=$tmpdir/$f.data
	same_report "$data" --no-children -g none -s cpu
	same_report "$data" --no-children -g none -s socket
	same_report "$data" --no-children -g none -s cpu,socket,comm
	same_report "$data" --no-children -g none -s dso_size
	same_report "$data" --no-children -g none -s dso,dso_size
	same_report "$data" --no-children -g none -s parent
done
# Symbols with their parent, on the recordings of the workload alone:
# in those of all CPUs, Linux perf sometimes keeps samples of one
# function apart that we merge (see perf-report.txt).
for f in linux ours; do
	data=$tmpdir/$f.data
	same_report "$data" --no-children -g none -s sym -p 'workload_hot|hot_lib'
	same_report "$data" --children -g none -s dso,sym,parent -p '^workload_'
done
# A file without CPUs shows CPU -1 as Linux perf does.
our_report "$tmpdir/ours.data" --no-children -g none -s cpu
grep -Eq '^ +100\.00% +-001$' "$tmpdir/ours.txt" ||
	fail "-s cpu without CPUs: $(report_rows "$tmpdir/ours.txt")"

# "symbol" is "sym"; Linux perf adds IPC columns to it ("-" without
# branch stacks), which we leave out (perf-report.txt).
for f in linux ours; do
	"$PERF" report -i "$tmpdir/$f.data" --stdio --no-children -g none -s symbol \
		> "$tmpdir/ours.txt" 2>&1 || fail "perf report -s symbol exited $?"
	$LINUX_PERF report -i "$tmpdir/$f.data" --stdio --no-children -g none -s symbol \
		> "$tmpdir/linux.txt" 2>&1 || fail "Linux perf report -s symbol exited $?"
	report_rows "$tmpdir/linux.txt" | sed 's/ - -$//' > "$tmpdir/linux.rows"
	report_rows "$tmpdir/ours.txt" > "$tmpdir/ours.rows"
	grep -q workload_hot_a "$tmpdir/ours.rows" || fail "-s symbol: no workload_hot_a"
	diff -u "$tmpdir/linux.rows" "$tmpdir/ours.rows" || fail "-s symbol rows differ on $f.data"
done

# As same_report, with our rows cut to the width of Linux perf's: it
# cuts the trace and srcline text of entries it sized the column
# without (perf-report.txt).
same_cut_report() {
	file=$1
	shift
	"$PERF" report -i "$file" --stdio "$@" > "$tmpdir/ours.txt" 2> "$tmpdir/ours.err" ||
		fail "our report failed on $file ($*): $(cat "$tmpdir/ours.err")"
	$LINUX_PERF report -i "$file" --stdio "$@" > "$tmpdir/linux.txt" 2> "$tmpdir/linux.err" ||
		fail "Linux perf report failed on $file ($*): $(cat "$tmpdir/linux.err")"
	width=$(grep -m1 '^# \.' "$tmpdir/linux.txt" | awk '{ print length($0) }')
	[ -n "$width" ] || fail "Linux perf printed no column header for $file ($*)"
	report_rows "$tmpdir/linux.txt" > "$tmpdir/linux.rows"
	cut -c "1-$width" "$tmpdir/ours.txt" > "$tmpdir/ours.cut"
	report_rows "$tmpdir/ours.cut" > "$tmpdir/ours.rows"
	[ -s "$tmpdir/linux.rows" ] || fail "Linux perf printed no rows for $file ($*)"
	diff -u "$tmpdir/linux.rows" "$tmpdir/ours.rows" ||
		fail "rows differ on $file ($*)"
}

# srcline and srcfile: the workload's lines from its DWARF, and the
# kernel's "function+offset".  Only these objects: in the dynamic
# loader binutils' addr2line, which Linux perf asks, names other files
# (perf-report.txt).
for f in linux ours; do
	for keys in srcline srcfile dso,srcline sym,srcline sym,srcfile; do
		same_cut_report "$tmpdir/$f.data" --no-children -g none -s $keys \
			--dsos 'perf,libperf-hot.so,[kernel.kallsyms]'
	done
	grep -Eq '^ +[0-9.]+% +\[\.\] workload_hot_a +cpuloop\.c$' "$tmpdir/ours.txt" ||
		fail "-s sym,srcfile: no workload_hot_a in cpuloop.c: $(report_rows "$tmpdir/ours.txt")"
done

# trace: a tracepoint's formatted fields, on both tools' recordings.
if [ -d /sys/kernel/tracing/events/sched/sched_switch ] ||
   [ -d /sys/kernel/debug/tracing/events/sched/sched_switch ]; then
	$LINUX_PERF record -q -a -e sched:sched_switch -o "$tmpdir/linux-tp.data" \
		-- $wl 2>/dev/null || fail "Linux perf record -e sched:sched_switch failed"
	"$PERF" record -q -a -e sched:sched_switch -o "$tmpdir/ours-tp.data" -- $wl ||
		fail "perf record -e sched:sched_switch failed"
	for f in linux-tp ours-tp; do
		same_cut_report "$tmpdir/$f.data" -s trace
		same_cut_report "$tmpdir/$f.data" -s comm,trace
	done
	our_report "$tmpdir/ours-tp.data" -s comm,trace
	grep -q 'prev_comm=.* ==> next_comm=' "$tmpdir/ours.txt" ||
		fail "-s trace: no sched_switch fields: $(head -n 20 "$tmpdir/ours.txt")"
	# Each switch is printed to its end, never cut.
	cut=$(report_rows "$tmpdir/ours.txt" | grep -v ' next_prio=[0-9]*$' | head -n 3)
	[ -z "$cut" ] || fail "-s comm,trace cut a trace short: $cut"
	# Samples of no tracepoint have no trace output.
	same_report "$tmpdir/ours.data" --no-children -g none -s trace
fi

# pid names a task by its name after exec, on both tools' files: sh
# execs the workload, its samples before and after sit in one entry.
exec_wl="i=0; while [ \$i -lt 20000 ]; do i=\$((i + 1)); done; exec $wl"
$LINUX_PERF record -q -e cpu-clock -F 4000 -o "$tmpdir/linux-exec.data" -- \
	sh -c "$exec_wl" 2>/dev/null || fail "Linux perf record of an exec failed"
"$PERF" record -q -e cpu-clock -F 4000 -o "$tmpdir/ours-exec.data" -- \
	sh -c "$exec_wl" || fail "perf record of an exec failed"
for f in linux-exec ours-exec; do
	same_report "$tmpdir/$f.data" -s pid
	grep -Eq '^ +100\.00% +[0-9]+:perf$' "$tmpdir/ours.txt" ||
		fail "-s pid after exec: $(report_rows "$tmpdir/ours.txt")"
	same_report "$tmpdir/$f.data" -s comm,pid,dso
done

# A bad key names the keys there are.
"$PERF" report -i "$tmpdir/ours.data" --stdio -s nosuch > /dev/null 2> "$tmpdir/err" &&
	fail "-s nosuch was accepted"
grep -q "dso_size" "$tmpdir/err" || fail "the error does not list the keys: $(cat "$tmpdir/err")"
echo ok

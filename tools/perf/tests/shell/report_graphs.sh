#!/bin/sh
# perf report call graphs and filters equal Linux perf's on the same file
. "$(dirname "$0")/lib/common.sh"
need_root
need_linux_perf

# A private copy of the workload binaries: a rebuild of perf while the
# test runs must not change the symbols the file refers to.
mkdir "$tmpdir/bin"
cp "$PERF" "$(dirname "$PERF")/libperf-hot.so" "$tmpdir/bin/"
wl=$tmpdir/bin/perf
data=$tmpdir/g.data
$LINUX_PERF record -q -e cpu-clock -F 4000 -g -o "$data" -- \
	sh -c "$wl test -w cpuloop 0.3 & $wl test -w threads 2 2000; wait" 2>/dev/null ||
	fail "Linux perf record failed"

COMPARE_GRAPHS=1
same_report "$data" --no-children
same_report "$data" --children
# Of the two, the last one given wins.
same_report "$data" --children --no-children
same_report "$data" --no-children --children
same_report "$data" --no-children -G
same_report "$data" --children -g callee
same_report "$data" --no-children -g graph,0.1,callee
same_report "$data" --children -g caller,0.05
# -g alone is Linux perf's default display (graph,0.5,caller), and the
# value may follow -g as its own argument.
same_report "$data" --no-children -g
same_report "$data" -g --no-children
same_report "$data" --no-children -g callee
# -s starting with "sym", without -F: where an entry's graph follows one
# path from its root, Linux perf leaves that path's first frame out (it
# takes it for the entry's symbol: so it is in callee order).
same_report "$data" --no-children -s sym
same_report "$data" --children -s sym
same_report "$data" --no-children -g callee -s sym,dso
same_report "$data" --children -g callee -s sym
same_report "$data" --children -s dso,sym
# Folded: one "pct% a;b;c" line per path.
same_report "$data" --no-children -g folded
same_report "$data" --children -g folded,0.1,caller
same_report "$data" --no-children -g folded,0,callee
grep -Eq '^[0-9]+\.[0-9]+% [^ ]+;[^ ]+' "$tmpdir/ours.txt" ||
	fail "-g folded: no folded lines: $(head -n 20 "$tmpdir/ours.txt")"
COMPARE_GRAPHS=
same_report "$data" --no-children -g none --comms sh
# Relative: percentages and totals of what the filters show.
same_report "$data" --no-children -g none --comms sh --percentage relative
same_report "$data" --no-children -g none --dsos libperf-hot.so,libc.so.6 \
	--percentage relative
same_report "$data" --no-children -g none --percentage absolute --comms sh
same_report "$data" --children -g none --dsos libperf-hot.so,libc.so.6
pid=$($LINUX_PERF script -i "$data" -F pid 2>/dev/null | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
same_report "$data" --no-children -g none --pid "$pid"
tid=$($LINUX_PERF script -i "$data" -F tid 2>/dev/null | sort | uniq -c | sort -rn | awk 'NR == 2 { print $2 }')
same_report "$data" --no-children -g none --tid "$tid" --sort pid,sym
same_report "$data" --no-children -g none -n --percent-limit 2
# A time window: the middle third of the recording.
set -- $($LINUX_PERF script -i "$data" -F time 2>/dev/null | tr -d ':' | sort -n | sed -n '1p;$p')
win=$(awk -v a="$1" -v b="$2" 'BEGIN { d = (b - a) / 3; printf "%.6f,%.6f", a + d, a + 2 * d }')
same_report "$data" --no-children -g none --time "$win"
# -F: the columns in their order; with call chains the callers' entries
# (0.00%), as Linux perf.  Entries alike in every column (the callers'
# 0.00% among them) may come in another order: the lines are sorted.
# Linux perf 6.1 sometimes prints a caller frame at address 0 twice,
# "0.00% [.] 0000000000000000", and once with -v: a line repeated
# whole counts once.
same_fields() {
	"$PERF" report -i "$data" --stdio "$@" 2>&1 | grep -v '^#' | grep . |
		sed -e 's/  */ /g' -e 's/ *$//' | sort | uniq > "$tmpdir/ours.f"
	"$LINUX_PERF" report -i "$data" --stdio "$@" 2>/dev/null | grep -v '^#' | grep . |
		sed -e 's/  */ /g' -e 's/ *$//' | sort | uniq > "$tmpdir/linux.f"
	[ -s "$tmpdir/linux.f" ] || fail "Linux perf printed nothing with $*"
	if keys_merge_nosym_by_address "$@"; then
		same_nosym_samples "$data" "$@"
		drop_nosym_rows "$tmpdir/ours.f" "$tmpdir/linux.f"
	fi
	diff "$tmpdir/linux.f" "$tmpdir/ours.f" > "$tmpdir/f.diff" ||
		fail "report $* differs: $(head -n 20 "$tmpdir/f.diff")"
}
for f in overhead,sym overhead,sample,period,comm,dso comm,dso sample,sym dso,sym \
	 overhead,period; do
	same_fields -g none -F $f
done
# With graphs: branches of equal weight may come in another order.  The
# address-0 caller that Linux perf may print twice (above) counts once.
COMPARE_GRAPHS=1
UNIQ_ROWS=1
same_report "$data" -F overhead,sym
same_report "$data" -F overhead,sample,period,comm,dso
UNIQ_ROWS=
COMPARE_GRAPHS=
"$PERF" report -i "$data" --stdio -F overhead,sym -s comm > /dev/null 2>&1
[ $? = 129 ] || fail "-F with -s was accepted"

# Only user frames in call chains: no kernel frame in any graph line.
"$PERF" report -i "$data" --stdio --no-children --call-graph-frames user \
	--sort sym > "$tmpdir/user.txt" || fail "--call-graph-frames user failed"
grep -E '^ {12,}.*(entry_SYSCALL|do_syscall_64|asm_exc_page_fault)' "$tmpdir/user.txt" &&
	fail "kernel frames in a user-only call graph"
grep -q 'workload_hot_a' "$tmpdir/user.txt" || fail "user frames missing"
"$PERF" report -i "$data" --stdio --no-children --call-graph-frames kernel \
	--sort sym > "$tmpdir/kernel.txt" || fail "--call-graph-frames kernel failed"
grep -E '^ {12,}.*(cmd_test|__libc_start_call_main)' "$tmpdir/kernel.txt" &&
	fail "user frames in a kernel-only call graph"
# The short forms are the same options.
for m in user kernel; do
	"$PERF" report -i "$data" --stdio --no-children --$m-callchain \
		--sort sym > "$tmpdir/short.txt" || fail "--$m-callchain failed"
	cmp -s "$tmpdir/$m.txt" "$tmpdir/short.txt" ||
		fail "--$m-callchain differs from --call-graph-frames $m"
done
"$PERF" report -i "$data" --stdio --user-callchain --kernel-callchain > /dev/null 2>&1
[ $? = 129 ] || fail "--user-callchain with --kernel-callchain was accepted"
echo ok

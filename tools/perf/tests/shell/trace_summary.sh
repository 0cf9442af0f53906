#!/bin/sh
# perf trace -s: exact syscall counts of a workload, equal to strace -c -f
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
need_trace

N=1000 M=100 K=100
$PERF trace -s -o "$tmpdir/sum" -- $PERF test -w syscalls $N $M $K ||
	fail "perf trace exited $?"
cat "$tmpdir/sum"
[ "$(summary_row "$tmpdir/sum" getppid)" = "$N 0" ] ||
	fail "getppid: '$(summary_row "$tmpdir/sum" getppid)', want '$N 0'"
[ "$(summary_row "$tmpdir/sum" write)" = "$K 0" ] ||
	fail "write: '$(summary_row "$tmpdir/sum" write)', want '$K 0'"
# The dynamic loader's failed opens add to the workload's M (they
# depend on the system's library paths): at least M, and exactly M
# with the workload's one path, which the lines show by its address.
set -- $(summary_row "$tmpdir/sum" openat)
[ "${2:-0}" -ge "$M" ] || fail "openat errors: '${2:-}', want at least $M"
$PERF trace -e openat --failure -o "$tmpdir/opens" -- $PERF test -w syscalls 0 $M 0 ||
	fail "perf trace -e openat exited $?"
most=$(sed -n 's/.*filename: \(0x[0-9a-f]*\).*ENOENT.*/\1/p' "$tmpdir/opens" |
	sort | uniq -c | sort -rn | awk '{ print $1; exit }')
[ "$most" = "$M" ] || fail "failed opens of the missing path: '$most', want $M"

# As with Linux perf, the lines and the summary are on stderr: stdout is
# the traced program's.
$PERF trace -S -e getppid -- $PERF test -w syscalls --mark 3 0 0 \
	>"$tmpdir/stdout" 2>"$tmpdir/stderr" || fail "perf trace -S exited $?"
grep -q '^mark ' "$tmpdir/stdout" && [ "$(wc -l < "$tmpdir/stdout")" = 1 ] ||
	fail "stdout is not the workload's alone: $(head -n 3 "$tmpdir/stdout")"
[ "$(grep -c ' getppid() ' "$tmpdir/stderr")" -ge 3 ] &&
	grep -q 'Summary of events' "$tmpdir/stderr" ||
	fail "no lines and summary on stderr: $(head -n 5 "$tmpdir/stderr")"

# Replayed from a recording: the same table.
$PERF trace record -q -o "$tmpdir/rec.data" -- $PERF test -w syscalls $N $M $K ||
	fail "perf trace record exited $?"
$PERF trace -s -i "$tmpdir/rec.data" -o "$tmpdir/sum.i" ||
	fail "perf trace -i exited $?"
for sc in getppid write openat; do
	[ "$(summary_row "$tmpdir/sum.i" $sc)" = "$(summary_row "$tmpdir/sum" $sc)" ] ||
		fail "$sc replayed: '$(summary_row "$tmpdir/sum.i" $sc)', live '$(summary_row "$tmpdir/sum" $sc)'"
done

# A number no system call has: named syscall_NR in the lines and in the
# summary, where it sorts among the others (a tie of totals compares
# names).
U=5
$PERF trace -s -o "$tmpdir/unassigned" -- $PERF test -w syscalls 0 0 0 $U ||
	fail "perf trace of unassigned calls exited $?"
[ "$(summary_row "$tmpdir/unassigned" syscall_400)" = "$U $U" ] ||
	fail "syscall_400: '$(summary_row "$tmpdir/unassigned" syscall_400)', want '$U $U': $(cat "$tmpdir/unassigned")"
! grep -q '(null)' "$tmpdir/unassigned" || fail "a summary row without a name: $(cat "$tmpdir/unassigned")"
$PERF trace -o "$tmpdir/unassigned.lines" -- $PERF test -w syscalls 0 0 0 $U ||
	fail "perf trace of unassigned calls exited $?"
[ "$(grep -c 'syscall_400([^)]*) *= -1 ENOSYS' "$tmpdir/unassigned.lines")" = $U ] ||
	fail "expected $U lines 'syscall_400(...) = -1 ENOSYS': $(cat "$tmpdir/unassigned.lines")"

command -v strace >/dev/null ||
	fail "strace is missing (scripts/install-deps installs it)"
strace -c -f -o "$tmpdir/strace" $PERF test -w syscalls $N $M $K ||
	fail "strace exited $?"
for sc in getppid write openat; do
	[ "$(summary_row "$tmpdir/sum" $sc)" = "$(strace_row "$tmpdir/strace" $sc)" ] ||
		fail "$sc: perf trace '$(summary_row "$tmpdir/sum" $sc)', strace -c '$(strace_row "$tmpdir/strace" $sc)'"
done
echo "getppid, write, openat calls and errors equal N, K, M and strace -c"

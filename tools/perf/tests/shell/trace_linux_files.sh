#!/bin/sh
# perf trace -i reads Linux perf trace record files; Linux perf trace reads ours
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
need_trace
need_linux_perf

N=150 M=15 K=25
# Theirs: counts right, arguments named from this machine's formats.
$LINUX_PERF trace record -q -o "$tmpdir/linux.data" -- $PERF test -w syscalls $N $M $K \
	>/dev/null 2>"$tmpdir/rec.err" || fail "Linux perf trace record exited $?: $(cat "$tmpdir/rec.err")"
$PERF trace -s -i "$tmpdir/linux.data" -o "$tmpdir/sum" || fail "perf trace -s -i exited $?"
[ "$(summary_row "$tmpdir/sum" getppid)" = "$N 0" ] &&
	[ "$(summary_row "$tmpdir/sum" write)" = "$K 0" ] ||
	fail "counts of a Linux perf file: $(cat "$tmpdir/sum")"
$PERF trace -e write -i "$tmpdir/linux.data" -o "$tmpdir/lines"
[ "$(grep -c 'write(fd: [0-9]*, buf: 0x[0-9a-f]*, count: 1) *= 1$' "$tmpdir/lines")" = $K ] ||
	fail "write lines of a Linux perf file: $(head -3 "$tmpdir/lines")"

# Ours: Linux perf trace prints as many getppid and write calls.
$PERF trace record -q -o "$tmpdir/ours.data" -- $PERF test -w syscalls $N $M $K ||
	fail "perf trace record exited $?"
$LINUX_PERF trace -i "$tmpdir/ours.data" -o "$tmpdir/linux.out" 2>"$tmpdir/linux.err" ||
	fail "Linux perf trace -i exited $?: $(cat "$tmpdir/linux.err")"
[ "$(grep -c ' getppid()' "$tmpdir/linux.out")" = $N ] &&
	[ "$(grep -c ' write(' "$tmpdir/linux.out")" = $K ] ||
	fail "Linux perf trace on our file: $(grep -c ' getppid()' "$tmpdir/linux.out") getppid, $(grep -c ' write(' "$tmpdir/linux.out") write"

# The same lines, byte for byte, for calls both print alike: Linux perf
# cuts some pointers to 32 bits (filename of openat) and prints no value
# for getppid, so those are left out.  Linux perf trace -i ignores -e:
# its lines are chosen by name.
$PERF trace -e write,close,read,munmap -i "$tmpdir/ours.data" -o "$tmpdir/ours.lines"
grep -E ' (write|close|read|munmap)\(' "$tmpdir/linux.out" > "$tmpdir/linux.lines"
[ "$(wc -l < "$tmpdir/ours.lines")" -ge $K ] || fail "too few lines: $(cat "$tmpdir/ours.lines")"
diff -u "$tmpdir/linux.lines" "$tmpdir/ours.lines" || fail "lines differ from Linux perf trace's"
# The summary's layout is Linux perf's: the same column heads, and rows
# of as many fields.
$LINUX_PERF trace -s -i "$tmpdir/ours.data" > "$tmpdir/linux.sum" 2>&1 ||
	fail "Linux perf trace -s -i exited $?"
$PERF trace -s -i "$tmpdir/ours.data" > "$tmpdir/ours.sum" 2>&1 ||
	fail "perf trace -s -i exited $?"
grep -A 2 '^   syscall ' "$tmpdir/linux.sum" > "$tmpdir/linux.head"
grep -A 2 '^   syscall ' "$tmpdir/ours.sum" > "$tmpdir/ours.head"
[ -s "$tmpdir/linux.head" ] || fail "no summary from Linux perf: $(cat "$tmpdir/linux.sum")"
diff -u "$tmpdir/linux.head" "$tmpdir/ours.head" || fail "the summary's column heads differ"
fields() { awk '$1 == "getppid" { print NF }' "$1"; }
[ "$(fields "$tmpdir/ours.sum")" = "$(fields "$tmpdir/linux.sum")" ] ||
	fail "a summary row: $(grep getppid "$tmpdir/ours.sum"), Linux perf's: $(grep getppid "$tmpdir/linux.sum")"

echo "both read each other's files: $N getppid, $K write; $(wc -l < "$tmpdir/ours.lines") lines equal Linux perf's"

#!/bin/sh
# perf trace: a 32-bit task's syscalls named from the 32-bit table, live and replayed
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
need_trace
need_ia32

# getppid is 64 for a 32-bit task (semget in the 64-bit table), getpid
# 20 (writev): the names tell which table was used.
N=300 M=30 K=20
check_32bit() {
	[ "$(summary_row "$1" getppid)" = "$N 0" ] ||
		fail "$2: getppid '$(summary_row "$1" getppid)', want '$N 0': $(cat "$1")"
	# K writes and the one of the --mark line.
	[ "$(summary_row "$1" write)" = "$((K + 1)) 0" ] ||
		fail "$2: write '$(summary_row "$1" write)', want '$((K + 1)) 0'"
	set -- "$1" "$2" $(summary_row "$1" openat)
	[ "${4:-}" = "$M" ] || fail "$2: openat errors '${4:-}', want $M"
	[ "$(summary_row "$1" getpid)" = "1 0" ] ||
		fail "$2: the marked getpid is missing"
	! grep -q 'semget\|writev' "$1" || fail "$2: 64-bit names for a 32-bit task"
}

mkdir "$tmpdir/run"
cp "$syscalls32" "$tmpdir/run/syscalls-32"
$PERF trace -s -o "$tmpdir/live" -- "$tmpdir/run/syscalls-32" --mark $N $M $K >/dev/null ||
	fail "perf trace exited $?"
check_32bit "$tmpdir/live" live
$PERF trace -o "$tmpdir/lines" -e getpid -- "$tmpdir/run/syscalls-32" --mark 0 0 0 >/dev/null
grep -q 'syscalls-32/[0-9]* getpid() *= [1-9]' "$tmpdir/lines" ||
	fail "no getpid line: $(cat "$tmpdir/lines")"

$PERF trace record -q -o "$tmpdir/rec.data" -- "$tmpdir/run/syscalls-32" --mark $N $M $K >/dev/null ||
	fail "perf trace record exited $?"
$PERF trace -s -i "$tmpdir/rec.data" -o "$tmpdir/replay" || fail "perf trace -i exited $?"
check_32bit "$tmpdir/replay" replay

# Another machine: the executable is not where it was recorded, but
# under --symfs (a flat directory of files).  Without it the table is
# unknown, and 64-bit names show.
mv "$tmpdir/run" "$tmpdir/symfs"
$PERF trace -s -i "$tmpdir/rec.data" -o "$tmpdir/nosymfs"
grep -q semget "$tmpdir/nosymfs" || fail "without the executable, expected 64-bit names"
$PERF trace -s -i "$tmpdir/rec.data" --symfs "$tmpdir/symfs" -o "$tmpdir/symfs.out" ||
	fail "perf trace -i --symfs exited $?"
check_32bit "$tmpdir/symfs.out" "--symfs"
echo "32-bit getppid/getpid/openat/write named right live, replayed and under --symfs"

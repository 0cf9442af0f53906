# Helpers of the perf trace tests; sourced after common.sh.

# perf trace needs the raw_syscalls tracepoints, and counters on them.
need_trace() {
	need_root
	need_tracepoint raw_syscalls sys_enter
	need_tracepoint_counters raw_syscalls sys_enter
}

# "calls errors" of syscall $2 in the perf trace -s summary $1 (one
# thread), or nothing.
summary_row() {
	awk -v sc="$2" '$1 == sc && NF == 8 { print $2, $3; exit }' "$1"
}

# "calls errors" of syscall $2 in the strace -c table $1.
strace_row() {
	awk -v sc="$2" '$NF == sc { print $4, (NF == 6 ? $5 : 0); exit }' "$1"
}

# The 32-bit static build of the syscalls workload, beside perf.
syscalls32=$(cd "$(dirname "$0")/../.." && pwd)/syscalls-32

# Skip unless this kernel runs 32-bit programs.
need_ia32() {
	[ -x "$syscalls32" ] || fail "$syscalls32 missing: it is built with perf (gcc-multilib)"
	"$syscalls32" 0 0 0 2>/dev/null ||
		skip "this kernel cannot run 32-bit programs (no IA32 emulation); 'make vmcheck' runs this test in a kernel that can"
}

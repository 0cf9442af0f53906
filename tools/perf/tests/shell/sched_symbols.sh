#!/bin/sh
# perf sched timehist --kallsyms and --symfs resolve stacks as Linux perf does
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/sched.sh"
need_root
need_linux_perf
need_tracepoint sched sched_switch
command -v nm >/dev/null || skip "nm (binutils) missing: it lists the workload's symbols"
command -v taskset >/dev/null ||
	skip "taskset (util-linux) missing: it puts two workloads on one CPU"

# A build-id cache of the test's own, emptied below: Linux perf record
# fills it with the workload, where both tools would find it.
export HOME="$tmpdir/home" PERF_CONFIG=/dev/null
mkdir "$HOME" "$tmpdir/bin"
cp "$PERF" "$(dirname "$PERF")/libperf-hot.so" "$tmpdir/bin/"
bin="$tmpdir/bin/perf"
# Its symbols, and the PLT entries of the functions it imports.
nm "$bin" | awk 'NF == 3 { print $3 }
	NF == 2 && $1 == "U" { sub(/@.*/, "", $2); print $2 "@plt" }' |
	sort -u > "$tmpdir/names"
# The vdso is not a file under the symfs: ours reads this kernel's.
for f in clock_gettime gettimeofday time getcpu clock_getres; do
	echo "__vdso_$f"
done >> "$tmpdir/names"
grep -qx workload_hot_a "$tmpdir/names" || fail "nm lists no workload_hot_a in $bin"

# Two CPU-bound processes on one CPU: the scheduler switches them out
# while they run in user space, so their stacks reach into the binary.
# Niced, they leave the recorder time to keep up.  The sched workload
# adds sleeps in system calls and wakeups.
cat > "$tmpdir/wl.sh" <<EOF
nice -n 19 taskset -c 0 "$bin" test -w cpuloop 0.3 &
nice -n 19 taskset -c 0 "$bin" test -w cpuloop 0.3
"$bin" test -w sched 2 100
wait
EOF
$LINUX_PERF sched record -g -o "$tmpdir/lin.data" -- sh "$tmpdir/wl.sh" \
	>/dev/null 2>&1 || fail "Linux perf sched record -g failed"
"$PERF" sched record -q -g -o "$tmpdir/ours.data" -- sh "$tmpdir/wl.sh" \
	>/dev/null 2>"$tmpdir/record.err" ||
	{ cat "$tmpdir/record.err"; fail "perf sched record -g failed"; }

# The recorded binary now exists only as DIR/full/path under the symfs.
mkdir -p "$tmpdir/symfs$tmpdir/bin"
cp "$bin" "$tmpdir/symfs$tmpdir/bin/"
mv "$tmpdir/bin" "$tmpdir/moved"
rm -rf "$HOME/.debug"
symfs="$tmpdir/symfs"

# A copy of kallsyms with the kernel function most often in Linux perf's
# stacks renamed: a tool that read /proc/kallsyms instead would print
# the old name.
"$LINUX_PERF" sched timehist -i "$tmpdir/lin.data" > "$tmpdir/all.txt" 2>/dev/null ||
	fail "Linux perf sched timehist failed"
kfunc=$(grep -o '[^ ]* <- ' "$tmpdir/all.txt" | sed 's/ <- $//' |
	grep -v '^\[unknown\]$' | sort | uniq -c | sort -rn |
	awk '{ print $2; exit }')
[ -n "$kfunc" ] || fail "no kernel function in Linux perf's stacks"
awk -v n="$kfunc" 'NF == 3 && $3 == n { $3 = n "_in_copy"; found = 1 }
	{ print } END { exit !found }' /proc/kallsyms > "$tmpdir/kallsyms" ||
	fail "$kfunc is not in /proc/kallsyms"
kallsyms="$tmpdir/kallsyms"

# Functions only the workloads run: not cmd_test, which 'perf test'
# running this script runs too, from the binary's own path, which
# resolves (the recording is system-wide).
workload_syms='workload_hot_a|workload_hot_b|workload_cpuloop|workload_sched'

# compare FILE NAMES OPTIONS...: ours equals Linux perf's output; a frame
# Linux perf leaves unknown may be named by ours with a symbol in NAMES
# ("": by any).
compare() {
	file=$1
	names=$2
	shift 2
	name=$(basename "$file")
	"$PERF" sched timehist -i "$file" "$@" > "$tmpdir/ours.txt" 2> "$tmpdir/ours.err" ||
		{ cat "$tmpdir/ours.err"; fail "perf sched timehist $* on $name failed"; }
	"$LINUX_PERF" sched timehist -i "$file" "$@" > "$tmpdir/linux.txt" 2>/dev/null ||
		fail "Linux perf sched timehist $* on $name failed"
	[ -s "$tmpdir/linux.txt" ] || fail "Linux perf printed nothing for $* on $name"
	same_lines "$tmpdir/linux.txt" "$tmpdir/ours.txt" "$names" ||
		fail "timehist $* differs on $name"
}

has() {
	grep -qwF "$1" "$tmpdir/$2.txt" || fail "$3: no $1 in $2 output"
}

has_not() {
	! grep -qwF "$1" "$tmpdir/$2.txt" || fail "$3: $1 in $2 output"
}

for f in lin.data ours.data; do
	file="$tmpdir/$f"
	# Without --symfs the moved binary resolves nothing (libraries do).
	compare "$file" "" --max-stack 10
	! grep -qwE "$workload_syms" "$tmpdir/ours.txt" ||
		fail "$f: workload symbols resolved without the binary: $(grep -wE "$workload_syms" "$tmpdir/ours.txt" | head -n 3)"

	# The checks after each loop read the output of its last compare,
	# the one without further options.  The -S summary names no frames:
	# sched_timehist.sh compares it.  (Once, on a recording made under
	# load, Linux perf listed a task ":-1[-1/PID]" there that ours did
	# not.)
	for opts in -I "--max-stack 10" ""; do
		# shellcheck disable=SC2086 # opts is a list of options
		compare "$file" "" --kallsyms "$kallsyms" $opts
	done
	has "${kfunc}_in_copy" ours "$f --kallsyms"
	has "${kfunc}_in_copy" linux "$f --kallsyms"
	has_not "$kfunc" ours "$f --kallsyms"

	# --symfs alone: Linux perf reads no kernel symbols from this
	# machine then; the binary's symbols come from the symfs.
	for opts in -I "--max-stack 10" ""; do
		# shellcheck disable=SC2086
		compare "$file" "$tmpdir/names" --symfs "$symfs" $opts
	done
	grep -qwE "$workload_syms" "$tmpdir/ours.txt" ||
		fail "$f --symfs: no symbol of the workload binary resolved"
	has_not "$kfunc" ours "$f --symfs"

	compare "$file" "$tmpdir/names" --symfs "$symfs" --kallsyms "$kallsyms"
	grep -qwE "$workload_syms" "$tmpdir/ours.txt" ||
		fail "$f --symfs --kallsyms: no symbol of the workload binary resolved"
	has "${kfunc}_in_copy" ours "$f --symfs --kallsyms"
	compare "$file" "$tmpdir/names" --symfs "$symfs" --kallsyms "$kallsyms" \
		--max-stack 10 -I
done
echo ok

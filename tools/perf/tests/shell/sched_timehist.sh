#!/bin/sh
# perf sched record/timehist equal Linux perf's on both tools' files
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/sched.sh"
need_root
need_linux_perf
need_tracepoint sched sched_switch

# A private copy of the workload: a rebuild of perf meanwhile must not
# change the binary the recordings refer to.
mkdir "$tmpdir/bin"
cp "$PERF" "$tmpdir/bin/"
wl="$tmpdir/bin/perf test -w sched 4 150"

$LINUX_PERF sched record -o "$tmpdir/lin.data" -- $wl 2>/dev/null ||
	fail "Linux perf sched record failed"
$LINUX_PERF sched record -g -o "$tmpdir/lin-g.data" -- $wl 2>/dev/null ||
	fail "Linux perf sched record -g failed"
"$PERF" sched record -q -o "$tmpdir/ours.data" -- $wl ||
	fail "perf sched record failed"
"$PERF" sched record -q -g -o "$tmpdir/ours-g.data" -- $wl ||
	fail "perf sched record -g failed"

same_timehist() {
	file=$1
	shift
	"$PERF" sched timehist -i "$file" "$@" > "$tmpdir/ours.txt" 2> "$tmpdir/ours.err" ||
		{ cat "$tmpdir/ours.err"; fail "perf sched timehist $* on $(basename "$file") failed"; }
	"$LINUX_PERF" sched timehist -i "$file" "$@" > "$tmpdir/linux.txt" 2>/dev/null ||
		fail "Linux perf sched timehist $* on $(basename "$file") failed"
	[ -s "$tmpdir/linux.txt" ] || fail "Linux perf printed nothing for $* on $(basename "$file")"
	same_lines "$tmpdir/linux.txt" "$tmpdir/ours.txt" ||
		fail "timehist $* differs on $(basename "$file")"
}

# -I -S on files with call chains: Linux perf 6.1 prints the headers of
# "Idle stats by callchain" with empty lists; ours lists the stacks.
# The rest must be equal, and where a CPU's idle total in that section is
# not zero ours must have listed some stacks.  A machine kept busy by
# other work can leave both CPUs idle for no time at all.
same_idle_summary() {
	file=$1
	"$PERF" sched timehist -i "$file" -I -S > "$tmpdir/ours.txt" 2>/dev/null ||
		fail "perf sched timehist -I -S failed on $(basename "$file")"
	"$LINUX_PERF" sched timehist -i "$file" -I -S > "$tmpdir/linux.txt" 2>/dev/null ||
		fail "Linux perf sched timehist -I -S failed"
	awk '/^Idle stats by callchain:/ { s = 1 } /Total number/ { s = 0 }
	     s && /^ +[0-9]+\.[0-9][0-9][0-9] +[0-9]+  / { n++; next }
	     { print } END { print n + 0 > "/dev/stderr" }' "$tmpdir/ours.txt" \
		> "$tmpdir/ours-nochains.txt" 2> "$tmpdir/nchains"
	same_lines "$tmpdir/linux.txt" "$tmpdir/ours-nochains.txt" ||
		fail "timehist -I -S differs on $(basename "$file")"
	idle=$(awk '/^  CPU +[0-9]+: +[0-9.]+ +msec$/ && $3 > 0 { n++ }
		    END { print n + 0 }' "$tmpdir/linux.txt")
	chains=$(cat "$tmpdir/nchains")
	if [ "$idle" -gt 0 ] && [ "${chains:-0}" -eq 0 ]; then
		fail "no idle call chains listed for $(basename "$file")"
	fi
	if [ "$idle" -eq 0 ] && [ "${chains:-0}" -gt 0 ]; then
		fail "idle call chains listed for CPUs never idle in $(basename "$file")"
	fi
}

same_idle_summary "$tmpdir/lin-g.data"
same_idle_summary "$tmpdir/ours-g.data"

for f in lin.data lin-g.data ours.data ours-g.data; do
	file="$tmpdir/$f"
	# A thread of the workload, its process, and a window inside the run.
	"$LINUX_PERF" sched timehist -i "$file" > "$tmpdir/all.txt" 2>/dev/null
	task=$(grep -o 'perf\[[0-9]*/[0-9]*\]' "$tmpdir/all.txt" | head -n 1)
	[ -n "$task" ] || fail "no workload thread in the timehist of $f"
	tid=$(echo "$task" | sed 's/.*\[\([0-9]*\)\/.*/\1/')
	pid=$(echo "$task" | sed 's/.*\/\([0-9]*\)\]/\1/')
	lines=$(wc -l < "$tmpdir/all.txt")
	start=$(sed -n "$((lines / 4))p" "$tmpdir/all.txt" | awk '{ print $1 }')
	stop=$(sed -n "$((lines * 3 / 4))p" "$tmpdir/all.txt" | awk '{ print $1 }')

	same_timehist "$file"
	same_timehist "$file" -s
	same_timehist "$file" -S
	same_timehist "$file" -w
	same_timehist "$file" -M
	same_timehist "$file" -n
	same_timehist "$file" -V
	same_timehist "$file" -I
	case $f in
	*-g.data) ;;
	*) same_timehist "$file" -I -S ;;
	esac
	same_timehist "$file" --state
	same_timehist "$file" -S --state
	same_timehist "$file" -C 1
	same_timehist "$file" -S -C 0
	same_timehist "$file" --no-call-graph
	same_timehist "$file" --max-stack 2
	same_timehist "$file" --time "$start,$stop"
	same_timehist "$file" -S --time "$start,"
	same_timehist "$file" -S --time ",$stop"
	same_timehist "$file" -w --time "$start,$stop"
	same_timehist "$file" -p "$pid"
	same_timehist "$file" -t "$tid"
	same_timehist "$file" -S -p "$pid"
	same_timehist "$file" -s -t "$tid"
	same_timehist "$file" -w -M -p "$pid"
	same_timehist "$file" -V -n -M --state -S
done

# Read on one thread or with a reader thread: the same lines.
for f in lin.data ours-g.data; do
	for opts in "" "-s" "-w -M" "-V -n" "-S --state" "-I"; do
		PERF_READER_THREAD=0 "$PERF" sched timehist -i "$tmpdir/$f" $opts \
			> "$tmpdir/one.txt" 2>&1 ||
			fail "timehist $opts on $f failed on one thread"
		PERF_READER_THREAD=1 "$PERF" sched timehist -i "$tmpdir/$f" $opts \
			> "$tmpdir/two.txt" 2>&1 ||
			fail "timehist $opts on $f failed with a reader thread"
		cmp -s "$tmpdir/one.txt" "$tmpdir/two.txt" ||
			fail "timehist $opts on $f: other lines with a reader thread"
	done
done
echo ok

#!/bin/sh
# perf script: filters, -F errors, time of day, empty and cut-short files
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/script.sh"
need_root
need_linux_perf
script_workload

$LINUX_PERF record -q -e cpu-clock -F 2000 -a -g -o "$tmpdir/a.data" \
	-- $tmpdir/bin/perf test -w threads 2 20000 2>/dev/null ||
	fail "Linux perf record -a failed"
"$PERF" record -q -k monotonic -g -o "$tmpdir/k.data" -- $wl ||
	fail "perf record -k monotonic failed"

# The workload's pid and a thread of it, a time in the middle, a CPU.
"$PERF" script -i "$tmpdir/a.data" -F comm,pid,tid,time -G > "$tmpdir/all" ||
	fail "perf script -F comm,pid,tid,time failed"
ids=$(awk '$1 == "perf" { split($2, id, "/"); if (id[1] != id[2]) { print id[1], id[2]; exit } }' \
	"$tmpdir/all")
[ -n "$ids" ] || fail "no sample of a workload thread: $(head -3 "$tmpdir/all")"
pid=${ids% *} tid=${ids#* }
t1=$(awk 'NR == 10 { sub(":", "", $NF); print $NF }' "$tmpdir/all")
t2=$(awk -v n="$(wc -l < "$tmpdir/all")" 'NR == int(n / 2) { sub(":", "", $NF); print $NF }' \
	"$tmpdir/all")

# Each filter equals Linux perf's, and keeps something.
same_script "$tmpdir/a.data" --pid "$pid"
same_script "$tmpdir/a.data" --tid "$tid" -F comm,pid,tid,ip,sym
same_script "$tmpdir/a.data" --comm perf -G
same_script "$tmpdir/a.data" --cpu 0 -G
same_script "$tmpdir/a.data" --time "$t1,$t2" -G
same_script "$tmpdir/a.data" --time "$t1," -G
# -S: the two functions sampled most, as Linux perf names them (a fixed
# pair, say workload_threads_loop and __schedule, may have no sample).
syms=$($LINUX_PERF script -i "$tmpdir/a.data" -F ip,sym -G 2>/dev/null |
	awk '$2 != "" && $2 != "[unknown]" && $2 !~ /,/ { print $2 }' |
	sort | uniq -c | sort -rn | awk 'NR <= 2 { print $2 }' | paste -sd, -)
[ -n "$syms" ] || fail "no named function sampled in a.data"
same_script "$tmpdir/a.data" -S "$syms" -G
# Time of day from the clock data, in microseconds and nanoseconds.
same_script "$tmpdir/k.data" -F +tod
same_script "$tmpdir/k.data" -F +tod --ns -G
# The filters keep exactly the lines they name.
"$PERF" script -i "$tmpdir/a.data" -G --tid "$tid" -F tid > "$tmpdir/tid"
[ -s "$tmpdir/tid" ] && [ "$(sort -u "$tmpdir/tid" | tr -d ' ')" = "$tid" ] ||
	fail "--tid $tid kept other threads: $(sort -u "$tmpdir/tid" | head -3)"
"$PERF" script -i "$tmpdir/a.data" -G --cpu 1 -F cpu > "$tmpdir/cpu"
[ ! -s "$tmpdir/cpu" ] || [ "$(sort -u "$tmpdir/cpu" | tr -d " ")" = "[001]" ] ||
	fail "--cpu 1 kept other CPUs: $(sort -u "$tmpdir/cpu" | head -3)"

# -F errors: a clear message and a usage exit, nothing printed.
expect_error() {
	what=$1
	shift
	rc=0
	"$PERF" script "$@" > "$tmpdir/err.out" 2> "$tmpdir/err.err" || rc=$?
	[ "$rc" != 0 ] || fail "$what: exited 0"
	[ ! -s "$tmpdir/err.out" ] || fail "$what: printed lines: $(head -2 "$tmpdir/err.out")"
}
expect_error "unknown field" -i "$tmpdir/a.data" -F comm,nosuchfield
grep -q "unknown field 'nosuchfield'" "$tmpdir/err.err" ||
	fail "unknown field: $(head -2 "$tmpdir/err.err")"
expect_error "unknown type" -i "$tmpdir/a.data" -F bogus:comm
grep -q "bogus" "$tmpdir/err.err" || fail "unknown type: $(head -2 "$tmpdir/err.err")"
expect_error "+/- mixed with plain" -i "$tmpdir/a.data" -F comm,+tid
grep -q "mix" "$tmpdir/err.err" || fail "mixed list: $(head -2 "$tmpdir/err.err")"
expect_error "symoff without sym" -i "$tmpdir/a.data" -F comm,symoff
grep -q "symoff" "$tmpdir/err.err" || fail "symoff alone: $(head -2 "$tmpdir/err.err")"
"$LINUX_PERF" record -q -e cpu-clock -o "$tmpdir/nocpu.data" -- true 2>/dev/null ||
	fail "Linux perf record of true failed"
expect_error "cpu without CPU" -i "$tmpdir/nocpu.data" -F comm,cpu
grep -q "do not have CPU attribute" "$tmpdir/err.err" ||
	fail "cpu without CPU: $(head -2 "$tmpdir/err.err")"
expect_error "tod without clock data" -i "$tmpdir/a.data" -F +tod
grep -q "clock" "$tmpdir/err.err" || fail "tod: $(head -2 "$tmpdir/err.err")"

# An empty file: nothing to do, as perf report says it.
: > "$tmpdir/empty.data"
"$PERF" script -i "$tmpdir/empty.data" > "$tmpdir/out" 2> "$tmpdir/err" ||
	fail "empty file: exited $?"
grep -q "zero-sized file" "$tmpdir/err" || fail "empty file: $(cat "$tmpdir/err")"

# A file cut short: the lines before the cut, a warning, exit 0, as
# perf report does.  Each sample printed is one of the whole file's.
# Only the sample's own fields are compared: a COMM or MMAP record that
# the cut took away may be older than samples before the cut (rings
# are written one after the other), so their names may differ.
own=tid,time,event,ip
"$PERF" script -i "$tmpdir/a.data" -G -F $own > "$tmpdir/whole"
size=$(stat -c %s "$tmpdir/a.data")
head -c $((size / 2 + 13)) "$tmpdir/a.data" > "$tmpdir/cut.data"
"$PERF" script -i "$tmpdir/cut.data" -G -F $own > "$tmpdir/cut" 2> "$tmpdir/err" ||
	fail "cut-short file: exited $?: $(cat "$tmpdir/err")"
grep -q "^Warning:" "$tmpdir/err" || fail "cut-short file: no warning: $(cat "$tmpdir/err")"
[ -s "$tmpdir/cut" ] && [ "$(wc -l < "$tmpdir/cut")" -lt "$(wc -l < "$tmpdir/whole")" ] ||
	fail "cut-short file: $(wc -l < "$tmpdir/cut") of $(wc -l < "$tmpdir/whole") lines"
sort "$tmpdir/cut" > "$tmpdir/cut.s"
sort "$tmpdir/whole" > "$tmpdir/whole.s"
[ -z "$(comm -23 "$tmpdir/cut.s" "$tmpdir/whole.s")" ] ||
	fail "cut-short file: lines not in the whole file's output"
echo "filters equal Linux perf's; errors, empty and cut-short files handled"

# Kernel-only and user-only stacks: script splits each chain into its
# kernel frames and its user frames; timehist's stacks are the kernel
# part followed by the user part.
"$PERF" script -i "$tmpdir/k.data" > "$tmpdir/chains.all"
"$PERF" script -i "$tmpdir/k.data" --kernel-callchain > "$tmpdir/chains.k"
"$PERF" script -i "$tmpdir/k.data" --call-graph-frames=user > "$tmpdir/chains.u"
frames() { grep -c '^	' "$1"; }
nk=$(frames "$tmpdir/chains.k")
nu=$(frames "$tmpdir/chains.u")
[ "$nk" -gt 0 ] && [ "$nu" -gt 0 ] &&
	[ $((nk + nu)) -eq "$(frames "$tmpdir/chains.all")" ] ||
	fail "kernel ($nk) and user ($nu) frames do not add up to $(frames "$tmpdir/chains.all")"
# A kernel address has 16 hex digits; a user chain walked through code
# without frame pointers may hold 0xffffffff, a user frame all the same.
kaddr='^	 *ffffffff[0-9a-f]{8} '
grep '^	' "$tmpdir/chains.k" | grep -Eqv "$kaddr" && fail "--kernel-callchain kept a user frame"
grep '^	' "$tmpdir/chains.u" | grep -Eq "$kaddr" && fail "--user-callchain kept a kernel frame"
[ "$(grep -vc '^	' "$tmpdir/chains.k")" -eq "$(grep -vc '^	' "$tmpdir/chains.all")" ] ||
	fail "--kernel-callchain dropped sample lines"

if [ -d /sys/kernel/tracing/events/sched/sched_switch ] ||
   [ -d /sys/kernel/debug/tracing/events/sched/sched_switch ]; then
	"$PERF" sched record -q -g -o "$tmpdir/s.data" -- "$tmpdir/bin/perf" test -w sched 2 50 ||
		fail "perf sched record -g failed"
	for m in all kernel user; do
		"$PERF" sched timehist -i "$tmpdir/s.data" --max-stack 100 \
			--call-graph-frames=$m > "$tmpdir/th.$m" || fail "timehist --call-graph-frames=$m failed"
	done
	"$PERF" sched timehist -i "$tmpdir/s.data" --max-stack 100 --user-callchain > "$tmpdir/th.u2"
	cmp -s "$tmpdir/th.user" "$tmpdir/th.u2" || fail "--user-callchain differs from --call-graph-frames=user"
	paste -d '\n' "$tmpdir/th.all" "$tmpdir/th.kernel" "$tmpdir/th.user" | awk '
		NR % 3 == 1 { d = $0; next }
		NR % 3 == 2 { k = $0; sub(/ +$/, "", k); next }
		{
			u = $0; sub(/ +$/, "", u); n = split(u, w, " <- ")
			if (substr(d, 1, length(k)) != k) { print "kernel part is no prefix: " d; bad = 1 }
			if (n > 1 && substr(d, length(d) - length(w[n]) + 1) != w[n]) {
				print "user part does not end it: " d; bad = 1
			}
			if (d != k && d != $0) both++
		}
		END { if (!both) print "no stack had both parts"; exit bad || !both }' > "$tmpdir/th.bad" ||
		fail "timehist stacks do not split: $(head -3 "$tmpdir/th.bad")"
fi
echo "kernel-only and user-only stacks split call chains in script and timehist"

#!/bin/sh
# perf.data: our reader agrees with Linux perf, Linux perf reads our files
. "$(dirname "$0")/lib/common.sh"

LPERF=/usr/bin/perf
[ -x "$LPERF" ] || skip "Linux perf not installed (Debian package linux-perf)"

# Linux perf records the same workload in file mode, with call chains,
# and in pipe mode.
lrecord() {
	out=$1
	shift
	"$LPERF" record -q -e task-clock -c 100000 "$@" -- \
		"$PERF" test -w cpuloop 0.3 > "$out" 2> "$tmpdir/record.err"
}
lrecord /dev/null -o "$tmpdir/a.data" ||
	skip "Linux perf cannot record here: $(tail -1 "$tmpdir/record.err")"
lrecord /dev/null -g -o "$tmpdir/g.data" || fail "perf record -g failed"
lrecord "$tmpdir/a.pipe" -o - || fail "perf record -o - failed"

# The SAMPLE count of our raw dump's "Aggregated stats:" block.
our_samples() {
	"$PERF" test -w dump-data "$1" 2> "$tmpdir/dump.err" |
		awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }'
}

# Linux perf's: one line per sample without the call chains.
linux_samples() {
	"$LPERF" script -i "$1" -F ip --hide-call-graph 2> /dev/null | wc -l
}

check_count() {
	ours=$(our_samples "$1")
	theirs=$(linux_samples "$1")
	echo "$2: $ours samples read by us, $theirs by Linux perf"
	[ -s "$tmpdir/dump.err" ] && fail "$2: our reader warned: $(cat "$tmpdir/dump.err")"
	[ -n "$ours" ] && [ "$ours" -gt 0 ] && [ "$ours" -eq "$theirs" ] ||
		fail "$2: sample counts differ"
}

check_count "$tmpdir/a.data" "file"
check_count "$tmpdir/g.data" "file with call chains"
check_count "$tmpdir/a.pipe" "pipe"
ours=$("$PERF" test -w dump-data - < "$tmpdir/a.pipe" |
	awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }')
[ "$ours" -eq "$(linux_samples "$tmpdir/a.pipe")" ] ||
	fail "pipe on stdin: $ours samples"

# A tracepoint brings TRACING_DATA: a feature in a file, a record with a
# payload in a pipe.
dumps="a.data g.data a.pipe"
tp=/sys/kernel/tracing/events/sched/sched_switch
[ -d $tp ] || tp=/sys/kernel/debug/tracing/events/sched/sched_switch
if [ -d $tp ] &&
   "$LPERF" record -q -a -e sched:sched_switch -o "$tmpdir/t.data" -- sleep 0.1 2> /dev/null &&
   "$LPERF" record -q -a -e sched:sched_switch -o - -- sleep 0.1 > "$tmpdir/t.pipe" 2> /dev/null; then
	check_count "$tmpdir/t.data" "tracepoint file"
	check_count "$tmpdir/t.pipe" "tracepoint pipe"
	dumps="$dumps t.data t.pipe"
else
	echo "sched:sched_switch not recordable here: tracepoint files not compared"
fi

# The whole raw dump equals perf report -D, less what report adds from
# its symbol tables (thread and dso lines) and its "unhandled!" stubs.
report_only='^ \.\.\. thread:\|^ \.\.\.\.\.\. dso:\|^# To display\|^#$\|^: unhandled!$'
for f in $dumps; do
	"$LPERF" report -D -i "$tmpdir/$f" 2> /dev/null | grep -v "$report_only" |
		sed 's/: unhandled!$//' > "$tmpdir/linux.dump"
	"$PERF" test -w dump-data "$tmpdir/$f" > "$tmpdir/our.dump" 2>&1
	diff "$tmpdir/linux.dump" "$tmpdir/our.dump" > "$tmpdir/dump.diff" ||
		fail "$f: raw dump differs from perf report -D: $(head -20 "$tmpdir/dump.diff")"
done
echo "raw dumps equal perf report -D"

# perf report -D itself: the same lines, with the task and the object of
# each sample (the thread and dso lines).
for f in $dumps; do
	# Linux perf names the vdso by its temporary copy once it has
	# read its symbols (/tmp/perf-vdso.so-XXXXXX): [vdso] before that.
	"$LPERF" report -D -i "$tmpdir/$f" 2> /dev/null | grep -v '^# To display\|^#$\|^: unhandled!$' |
		sed -e 's/: unhandled!$//' -e 's|dso: /tmp/perf-vdso\.so-.*|dso: [vdso]|' \
		> "$tmpdir/linux.dump"
	[ "$f" = "${f%.pipe}" ] && in=$tmpdir/$f || in=-
	"$PERF" report -D -i "$in" < "$tmpdir/$f" 2>&1 | grep -v '^# To display\|^#$' > "$tmpdir/our.dump"
	grep -q '^ \.\.\.\.\.\. dso: ' "$tmpdir/our.dump" || fail "$f: report -D has no dso lines"
	diff "$tmpdir/linux.dump" "$tmpdir/our.dump" > "$tmpdir/dump.diff" ||
		fail "$f: perf report -D differs from Linux perf's: $(head -20 "$tmpdir/dump.diff")"
done
echo "perf report -D equals Linux perf's, thread and dso lines included"

# The header lines equal perf report --header-only (-I), less the BPF
# programs loaded at the time, which this perf does not decode.
for opt in "" -I; do
	"$LPERF" report --header-only $opt -i "$tmpdir/a.data" 2>&1 |
		grep -v '^# bpf_prog_info \|^# btf info ' > "$tmpdir/linux.hdr"
	"$PERF" test -w dump-data --header${opt:+-full} "$tmpdir/a.data" > "$tmpdir/our.hdr" 2>&1
	diff "$tmpdir/linux.hdr" "$tmpdir/our.hdr" > "$tmpdir/hdr.diff" ||
		fail "header $opt differs: $(cat "$tmpdir/hdr.diff")"
done
echo "headers equal perf report --header-only"

# Linux perf reads a file and a pipe that we wrote, without a word on
# stderr, and sees our system and our samples.
nr=200
"$PERF" test -w write-data "$tmpdir/ours.data" $nr || fail "write-data failed"
"$LPERF" report --header-only -i "$tmpdir/ours.data" > "$tmpdir/hdr" 2> "$tmpdir/err" ||
	fail "perf report --header-only failed: $(cat "$tmpdir/err")"
[ -s "$tmpdir/err" ] && fail "perf report --header-only warned: $(cat "$tmpdir/err")"
grep -qx "# hostname : $(uname -n)" "$tmpdir/hdr" || fail "hostname: $(cat "$tmpdir/hdr")"
grep -qx "# os release : $(uname -r)" "$tmpdir/hdr" || fail "os release"
grep -qx "# arch : $(uname -m)" "$tmpdir/hdr" || fail "arch"
grep -q "^# event : name = task-clock, , id = { 1000, 1001 }," "$tmpdir/hdr" ||
	fail "event line: $(grep '# event' "$tmpdir/hdr")"
"$LPERF" script -i "$tmpdir/ours.data" > "$tmpdir/script" 2> "$tmpdir/err" ||
	fail "perf script failed: $(cat "$tmpdir/err")"
[ -s "$tmpdir/err" ] && fail "perf script warned: $(cat "$tmpdir/err")"
[ "$(wc -l < "$tmpdir/script")" -eq $nr ] ||
	fail "perf script printed $(wc -l < "$tmpdir/script") samples, not $nr"
grep -q "workload_write_data" "$tmpdir/script" ||
	fail "perf script did not resolve our symbols: $(head -2 "$tmpdir/script")"
[ "$(our_samples "$tmpdir/ours.data")" -eq $nr ] || fail "our own file: sample count"

"$PERF" test -w write-data - $nr > "$tmpdir/ours.pipe" || fail "write-data - failed"
"$LPERF" script -i - < "$tmpdir/ours.pipe" > "$tmpdir/script" 2> "$tmpdir/err" ||
	fail "perf script on our pipe failed: $(cat "$tmpdir/err")"
[ -s "$tmpdir/err" ] && fail "perf script on our pipe warned: $(cat "$tmpdir/err")"
[ "$(wc -l < "$tmpdir/script")" -eq $nr ] ||
	fail "perf script on our pipe printed $(wc -l < "$tmpdir/script") samples"
echo "Linux perf reads our file and pipe: $nr samples each"
exit 0

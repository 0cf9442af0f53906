#!/bin/sh
# perf record --overwrite and --switch-output: dumps on SIGUSR2, size, time
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/sched.sh"
need_root
need_tracepoint sched sched_switch
need_sampling
note_linux_perf

# Markers: copies of our perf under names of their own, whose two
# threads hand a token back and forth, so that their sched_switch
# samples tell when they ran.  Not copies of sleep: in the VM that is
# busybox, which runs no applet under another name, and such a marker's
# one switch, at its exit, can come after the parent's wait returns and
# so after the dump that is to hold it.
mkdir "$tmpdir/bin"
for m in mark1 mark2 mark3 mark4 old new; do
	cp "$PERF" "$tmpdir/bin/$m"
done
cp "$PERF" "$tmpdir/bin/"
busy="$tmpdir/bin/perf test -w threads 2 3000"
page=$(getconf PAGESIZE)
ncpus=$(getconf _NPROCESSORS_ONLN)

mark() {
	"$tmpdir/bin/$1" test -w threads 1 20 ||
		fail "the marker $1 failed"
}

# Wait until perf record's stderr ($1) names $2 dumps.
wait_dumps() {
	n=0
	while [ "$(grep -c '^\[ perf record: Dump ' "$1")" -lt "$2" ]; do
		n=$((n + 1))
		[ $n -le 600 ] || fail "no dump $2 within 60 s: $(cat "$1")"
		sleep 0.1
	done
}

# The files of a recording into $1, in the order they were written.
dumps() {
	sed -n 's/^\[ perf record: Dump \(.*\) \]$/\1/p' "$1"
}

has_comm() {
	"$PERF" report -i "$1" --stdio --sort comm 2>/dev/null |
		awk -v c="$2" '$2 == c { f = 1 } END { exit !f }'
}

# The bytes of the SAMPLE records, from the "[0xSIZE]" of report -D.
# An awk function: the value of a "0x..." string.
awk_hex='
	function hex(s,   i, v) {
		v = 0
		for (i = 3; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}'

# A tiny ring may have lost a task's COMM record but kept its samples:
# look at the name inside the sched_switch records instead.
has_prev_comm() {
	"$PERF" script -i "$1" 2>/dev/null | grep -q "prev_comm=$2 "
}

linux_has_prev_comm() {
	"$LINUX_PERF" report -i "$1" --stdio 2>/dev/null | grep -q "prev_comm=$2 "
}

sample_bytes() {
	"$PERF" report -i "$1" -D 2>/dev/null | awk "$awk_hex"'
		$5 ~ /^PERF_RECORD_SAMPLE/ {
			s = $4; gsub(/[^0-9a-fx]/, "", s); n += hex(s)
		}
		END { print n + 0 }'
}

header_field() {
	"$PERF" report -i "$1" --header-only 2>/dev/null |
		sed -n "s/^# $2 *: *\([0-9.]*\).*/\1/p"
}

# Start "$@" in the background with stderr in $tmpdir/$1.err, wait for
# its output file $tmpdir/$1.data; the pid in $rec.
start_recording() {
	name=$1
	shift
	"$@" -o "$tmpdir/$name.data" 2> "$tmpdir/$name.err" &
	rec=$!
	wait_recording "$tmpdir/$name.data"
}

# Three markers, a SIGUSR2 after each, then SIGINT: four files, the
# ones of the signals first, the last at the end, as Linux perf does.
record_three() {
	tool=$1
	name=$2
	cd "$tmpdir" || fail "cd"
	start_recording "$name" "$tool" record --overwrite --switch-output \
		-m 256 -e sched:sched_switch -a
	for i in 1 2 3; do
		mark mark$i
		kill -USR2 $rec
		wait_dumps "$tmpdir/$name.err" $i
	done
	mark mark4
	kill -INT $rec
	# Linux perf exits 130, killed by the SIGINT it had caught.
	wait $rec || [ "$tool" = "$LINUX_PERF" ] ||
		fail "$tool record exited $? after SIGINT: $(cat "$tmpdir/$name.err")"
	[ "$(dumps "$tmpdir/$name.err" | wc -l)" = 4 ] ||
		fail "$tool: not 4 files: $(cat "$tmpdir/$name.err")"
	grep -q "dump data: Woken up" "$tmpdir/$name.err" ||
		fail "$tool: no 'dump data' line: $(cat "$tmpdir/$name.err")"
}

record_three "$PERF" rec-ours
lin_dumps=
if have_linux_perf; then
	record_three "$LINUX_PERF" rec-lin
	lin_dumps=$(dumps "$tmpdir/rec-lin.err")
fi
grep -Eq '/rec-ours\.data\.[0-9]{16} \]$' "$tmpdir/rec-ours.err" ||
	fail "dump names are not NAME.YYYYMMDDHHMMSScc: $(cat "$tmpdir/rec-ours.err")"
[ ! -e "$tmpdir/rec-ours.data" ] || fail "rec-ours.data left after the last dump"

# Both tools read every file of both tools, and agree on it.  By pid: a
# dump may hold samples of a task from before the COMM that names it,
# which Linux perf's comm column names after that COMM, ours not yet.
# Without Linux perf, our tools read our files.
for f in $(dumps "$tmpdir/rec-ours.err") $lin_dumps; do
	if have_linux_perf; then
		same_report "$f" --sort pid
	else
		our_report "$f" --sort pid
	fi
	"$PERF" sched timehist -i "$f" > "$tmpdir/th-ours.txt" 2> "$tmpdir/th.err" ||
		fail "our sched timehist on $f: $(cat "$tmpdir/th.err")"
	if have_linux_perf; then
		"$LINUX_PERF" sched timehist -i "$f" > "$tmpdir/th-lin.txt" 2> "$tmpdir/th.err" ||
			fail "Linux sched timehist on $f: $(cat "$tmpdir/th.err")"
		same_lines "$tmpdir/th-lin.txt" "$tmpdir/th-ours.txt" ||
			fail "sched timehist differs on $f"
	fi
done

# Each of our files holds what ran before its signal and nothing older
# than the previous one: mark<i> is in file i only, and the files follow
# one another in time.
i=0
prev_last=0
for f in $(dumps "$tmpdir/rec-ours.err"); do
	i=$((i + 1))
	has_comm "$f" mark$i || fail "file $i lacks mark$i, which ran just before its dump"
	for j in 1 2 3 4; do
		[ $j = $i ] && continue
		has_comm "$f" mark$j && fail "file $i holds mark$j, of another dump"
	done
	first=$(header_field "$f" "time of first sample")
	last=$(header_field "$f" "time of last sample")
	awk -v p="$prev_last" -v f="$first" 'BEGIN { exit !(p <= f) }' ||
		fail "file $i starts at $first, before the previous one ended ($prev_last)"
	prev_last=$last
done

# A tiny ring keeps only the newest records: a marker before much
# scheduling is gone, one after it is there, and no more samples than
# the rings can hold.
start_recording small "$PERF" record --overwrite --switch-output -m 2 \
	-e sched:sched_switch -a
mark old
$busy || fail "the busy workload failed"
mark new
kill -USR2 $rec
wait_dumps "$tmpdir/small.err" 1
kill -INT $rec
wait $rec
f=$(dumps "$tmpdir/small.err" | head -n 1)
has_prev_comm "$f" new || fail "the newest marker is missing from the dump"
has_prev_comm "$f" old && fail "the dump holds the old marker: the rings did not overwrite"
if have_linux_perf; then
	linux_has_prev_comm "$f" new || fail "Linux perf: the newest marker is missing from the dump"
	linux_has_prev_comm "$f" old && fail "Linux perf: the dump holds the old marker"
fi
bytes=$(sample_bytes "$f")
[ "$bytes" -gt 0 ] && [ "$bytes" -le $((ncpus * 2 * page)) ] ||
	fail "$bytes bytes of samples from $ncpus rings of $((2 * page)) bytes"

# The size trigger: every file but the last holds at least 1 MiB.
cd "$tmpdir" || fail "cd"
"$PERF" record --switch-output=1M -e sched:sched_switch -a -o size.data -- \
	$tmpdir/bin/perf test -w threads 2 8000 2> size.err ||
	fail "record --switch-output=1M failed: $(cat size.err)"
n=$(dumps size.err | wc -l)
[ "$n" -ge 3 ] || fail "only $n files with --switch-output=1M: $(cat size.err)"
for f in $(dumps size.err | head -n $((n - 1))); do
	size=$(header_field "$f" "data size")
	[ "$size" -ge 1048576 ] || fail "$f holds $size bytes, less than 1M"
	"$PERF" report -i "$f" --stdio > /dev/null 2>&1 || fail "our report cannot read $f"
	if have_linux_perf; then
		"$LINUX_PERF" report -i "$f" --stdio > /dev/null 2>&1 || fail "Linux perf cannot read $f"
	fi
done

# The time trigger, and --switch-max-files: five switches, three kept.
"$PERF" record --overwrite --switch-output=1s -e sched:sched_switch -a \
	-o time.data -- sleep 2.5 2> time.err || fail "record --switch-output=1s failed"
[ "$(dumps time.err | wc -l)" -ge 2 ] || fail "no switch in 2.5 s with 1s: $(cat time.err)"
start_recording max "$PERF" record --overwrite --switch-output \
	--switch-max-files=3 -e sched:sched_switch -a
for i in 1 2 3 4 5; do
	kill -USR2 $rec
	wait_dumps "$tmpdir/max.err" $i
done
kill -INT $rec
wait $rec
[ "$(ls "$tmpdir"/max.data.* | wc -l)" = 3 ] ||
	fail "--switch-max-files=3 kept: $(ls "$tmpdir"/max.data.*)"

# --tail-synthesize: the synthesized kernel mapping after the samples,
# by file offset (report -D shows records in time order).
kernel_map_after_samples() {
	"$PERF" report -i "$1" -D 2>/dev/null | awk "$awk_hex"'
		$5 ~ /^PERF_RECORD_SAMPLE/ && hex($3) > last { last = hex($3) }
		/PERF_RECORD_MMAP .*_text$/ { k = hex($3) }
		END { exit !(k > last && last > 0) }'
}
"$PERF" record -q --tail-synthesize -e sched:sched_switch -a -o tail.data -- \
	$busy || fail "record --tail-synthesize failed"
kernel_map_after_samples tail.data || fail "--tail-synthesize: side-band not at the end"
"$PERF" record -q -e sched:sched_switch -a -o head.data -- $busy
kernel_map_after_samples head.data && fail "side-band at the end without --tail-synthesize"
if have_linux_perf; then
	same_report tail.data --sort pid
else
	our_report tail.data --sort pid
fi

# --timestamp-filename alone: one file, renamed at the end.
"$PERF" record -q --timestamp-filename -e sched:sched_switch -a -o ts.data -- true
ls ts.data.* | grep -Eq '^ts\.data\.[0-9]{16}$' || fail "no ts.data.<timestamp>: $(ls)"

# SIGTERM leaves a finished file that both tools read without warning.
start_recording term "$PERF" record --overwrite -e sched:sched_switch -a
mark mark1
kill -TERM $rec
wait $rec || fail "record exited $? on SIGTERM"
"$PERF" report -i "$tmpdir/term.data" --stdio > /dev/null 2> "$tmpdir/term.oerr" ||
	fail "our report cannot read the interrupted file: $(cat "$tmpdir/term.oerr")"
grep -qi "warning\|not properly terminated" "$tmpdir/term.oerr" &&
	fail "our report warns: $(cat "$tmpdir/term.oerr")"
if have_linux_perf; then
	"$LINUX_PERF" report -i "$tmpdir/term.data" --stdio > /dev/null 2> "$tmpdir/term.lerr" ||
		fail "Linux perf cannot read the interrupted file"
	grep -qi "warning\|not properly terminated" "$tmpdir/term.lerr" &&
		fail "Linux perf warns: $(cat "$tmpdir/term.lerr")"
fi
has_comm "$tmpdir/term.data" mark1 || fail "the interrupted file lacks its last marker"

# Usage errors.
"$PERF" record --overwrite --switch-output=1M -a -- true > /dev/null 2>&1
[ $? = 129 ] || fail "--overwrite with a size trigger accepted"
"$PERF" record --switch-output -o - -a -- true > /dev/null 2>&1
[ $? = 129 ] || fail "--switch-output to a pipe accepted"
"$PERF" record --switch-output=3x -a -- true > /dev/null 2>&1
[ $? = 129 ] || fail "--switch-output=3x accepted"
echo ok

#!/bin/sh
# perf evlist and perf buildid-list print what Linux perf prints, on both tools' files
. "$(dirname "$0")/lib/common.sh"
need_root
need_sampling
need_linux_perf

copy_workload_binaries
wl="$tmpdir/bin/perf test -w cpuloop 0.1"

# Each tool records: call chains, two events, a group beside an event,
# a period instead of a frequency, and (with tracefs) a tracepoint.
files=
for tool in linux ours; do
	rec=$PERF
	[ $tool = linux ] && rec=$LINUX_PERF
	$rec record -q -e cpu-clock -g -o "$tmpdir/$tool-g.data" -- $wl 2>/dev/null &&
	$rec record -q -e cpu-clock,task-clock -o "$tmpdir/$tool-two.data" -- $wl 2>/dev/null &&
	$rec record -q -e '{cpu-clock,task-clock}' -e page-faults -o "$tmpdir/$tool-grp.data" \
		-- $wl 2>/dev/null &&
	$rec record -q -e cpu-clock -c 100000 -o "$tmpdir/$tool-c.data" -- $wl 2>/dev/null ||
		fail "$tool record failed"
	files="$files $tool-g $tool-two $tool-grp $tool-c"
	if [ -d /sys/kernel/tracing/events/sched/sched_switch ]; then
		$rec record -q -a -e sched:sched_switch -o "$tmpdir/$tool-tp.data" -- $wl \
			2>/dev/null || fail "$tool record -e sched:sched_switch failed"
		files="$files $tool-tp"
	fi
done

for f in $files; do
	for opts in "" -v -F -g --trace-fields; do
		# shellcheck disable=SC2086
		"$PERF" evlist -i "$tmpdir/$f.data" $opts > "$tmpdir/ours" 2>&1 ||
			fail "perf evlist $opts on $f exited $?: $(cat "$tmpdir/ours")"
		# shellcheck disable=SC2086
		$LINUX_PERF evlist -i "$tmpdir/$f.data" $opts > "$tmpdir/linux" 2>&1
		diff -u "$tmpdir/linux" "$tmpdir/ours" || fail "perf evlist $opts differs on $f"
	done
	for opts in "" -H; do
		# shellcheck disable=SC2086
		"$PERF" buildid-list -i "$tmpdir/$f.data" $opts > "$tmpdir/ours" 2>&1 ||
			fail "perf buildid-list $opts on $f exited $?: $(cat "$tmpdir/ours")"
		# shellcheck disable=SC2086
		# Linux perf -H adds the vdso, with no build id, by its
		# temporary copy when samples fell in it (perf-buildid-list.txt).
		$LINUX_PERF buildid-list -i "$tmpdir/$f.data" $opts 2>&1 |
			grep -v '^ *\/tmp\/perf-vdso\.so-' > "$tmpdir/linux"
		diff -u "$tmpdir/linux" "$tmpdir/ours" || fail "perf buildid-list $opts differs on $f"
	done
done
# Our record writes the group: -g shows it, as Linux perf shows its own.
"$PERF" evlist -g -i "$tmpdir/ours-grp.data" | grep -qx '{cpu-clock,task-clock}' ||
	fail "no group in our file: $("$PERF" evlist -g -i "$tmpdir/ours-grp.data")"
"$PERF" buildid-list -i "$tmpdir/ours-g.data" | grep -q " $tmpdir/bin/perf\$" ||
	fail "no build id of the workload"
[ "$("$PERF" buildid-list -k)" = "$($LINUX_PERF buildid-list -k)" ] ||
	fail "buildid-list -k: $("$PERF" buildid-list -k)"
# Errors: a missing file, -g with -v.
"$PERF" evlist -i "$tmpdir/nosuch.data" > "$tmpdir/err" 2>&1 && fail "a missing file was listed"
grep -q "nosuch.data" "$tmpdir/err" || fail "the error does not name the file: $(cat "$tmpdir/err")"
"$PERF" evlist -g -v -i "$tmpdir/ours-g.data" > /dev/null 2>&1
[ $? = 129 ] || fail "evlist -g -v was accepted"
echo ok

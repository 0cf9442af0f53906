#!/bin/sh
# perf list, help, version and command suggestions
. "$(dirname "$0")/lib/common.sh"

$PERF list > "$tmpdir/list" || fail "perf list failed"
for e in task-clock context-switches rNNN; do
	grep -q "^  $e" "$tmpdir/list" || fail "perf list lacks $e"
done
# Hardware and cache events are the ones the kernel can count (see
# list_hw.sh): the full list has the same ones as the filtered lists.
for kind in hw cache; do
	$PERF list $kind | grep '^  ' > "$tmpdir/$kind" || true
	grep "^  .*\[Hardware $([ $kind = cache ] && echo 'cache ')event\]" \
		"$tmpdir/list" > "$tmpdir/full-$kind" || true
	cmp -s "$tmpdir/$kind" "$tmpdir/full-$kind" ||
		fail "perf list and perf list $kind differ: $(diff "$tmpdir/$kind" "$tmpdir/full-$kind")"
done
$PERF list sw > "$tmpdir/sw"
grep -q "task-clock" "$tmpdir/sw" || fail "list sw lacks task-clock"
grep -q "cpu-cycles" "$tmpdir/sw" && fail "list sw shows hardware events"
if [ -d /sys/kernel/tracing/events/sched ]; then
	$PERF list 'sched:sched_sw*' > "$tmpdir/tp"
	grep -q "sched:sched_switch *\[Tracepoint event\]" "$tmpdir/tp" || fail "no sched_switch"
	grep -q "task-clock" "$tmpdir/tp" && fail "glob did not filter"
fi

$PERF --version | grep -Eq '^perf version [0-9]' || fail "--version"
# The build options in Linux perf's lines, with the features named as
# it names them; -vv is the same.
$PERF version --build-options > "$tmpdir/build" || fail "version --build-options exited $?"
$PERF -vv | cmp -s - "$tmpdir/build" || fail "perf -vv is not version --build-options"
line='^ *[a-z0-9_-]*: \[ (on |OFF) \]  # [A-Z_]*$'
[ "$(grep -Evc "$line" "$tmpdir/build")" = 1 ] ||
	fail "version --build-options: lines not in Linux perf's form: $(grep -Ev "$line" "$tmpdir/build")"
grep -Eq '^ +libelf: \[ on  \]  # HAVE_LIBELF_SUPPORT$' "$tmpdir/build" &&
	grep -Eq '^ +zstd: \[ on  \]' "$tmpdir/build" ||
	fail "version --build-options: libelf and zstd: $(cat "$tmpdir/build")"
if have_linux_perf; then
	# Where both name a feature, the lines have the same form.
	$LINUX_PERF version --build-options | grep -E "$line" |
		sed 's/\[.*\]/[]/' | sort > "$tmpdir/linux.build"
	sed 's/\[.*\]/[]/' "$tmpdir/build" | sort |
		comm -12 - "$tmpdir/linux.build" | grep -c libelf | grep -q 1 ||
		fail "libelf's line differs from Linux perf's: $(grep libelf "$tmpdir/linux.build")"
fi
$PERF help stat | grep -q -- "--repeat" || fail "help stat lacks the manual"
$PERF stat --help | grep -q "perf-stat" || fail "stat --help lacks the manual"
# --help anywhere among the options is the manual, as with Linux perf;
# -h is the short usage (exit 129), subcommands included.
for args in "sched --help" "sched timehist --help" "sched timehist -s --help" \
	    "record -a --help" "trace record --help"; do
	cmd=${args%% *}
	# shellcheck disable=SC2086
	$PERF $args > "$tmpdir/man" 2>&1 || fail "perf $args exited $?"
	grep -q "^perf-$cmd" "$tmpdir/man" ||
		fail "perf $args is not the manual: $(head -n 3 "$tmpdir/man")"
done
rc=0
$PERF sched -h > "$tmpdir/usage" 2>&1 || rc=$?
[ $rc = 129 ] || fail "perf sched -h exited $rc, not 129"
grep -q "Usage: perf sched" "$tmpdir/usage" && grep -q "or: perf sched timehist" "$tmpdir/usage" ||
	fail "perf sched -h does not list the subcommands: $(cat "$tmpdir/usage")"
rc=0
$PERF sched timehist -h > "$tmpdir/usage" 2>&1 || rc=$?
[ $rc = 129 ] && grep -q -- "--summary" "$tmpdir/usage" ||
	fail "perf sched timehist -h: rc $rc, $(head -n 3 "$tmpdir/usage")"

# Without -v, perf test prints its result lines and nothing else: what
# a unit test makes the tool print to stderr (here timehist refusing a
# file) stays in its log, shown on failure.
$PERF test sched-no-switch > "$tmpdir/test.out" 2>&1
[ "$(wc -l < "$tmpdir/test.out")" = 2 ] ||
	fail "perf test printed more than its result: $(cat "$tmpdir/test.out")"

$PERF stta > "$tmpdir/sugg" 2>&1 && fail "unknown command exited 0"
grep -q "Did you mean" "$tmpdir/sugg" && grep -q "stat" "$tmpdir/sugg" ||
	fail "no suggestion: $(cat "$tmpdir/sugg")"
echo ok

#!/bin/sh
# perf stat: unsupported events, bad names, exit status, missing command
. "$(dirname "$0")/lib/common.sh"

# A bad event name: non-zero exit and a message that names it.
$PERF stat -e no-such-event -- true > "$tmpdir/out" 2>&1 && fail "bad event accepted"
grep -q "no-such-event" "$tmpdir/out" || fail "message does not name the event: $(cat "$tmpdir/out")"

# The workload's exit status is passed through.
$PERF stat -e task-clock -- sh -c 'exit 3' 2>/dev/null
rc=$?
[ $rc = 3 ] || fail "exit status 3 came back as $rc"
$PERF stat -e task-clock -- sh -c 'kill -TERM $$' 2>/dev/null
rc=$?
[ $rc = 143 ] || fail "death by SIGTERM came back as $rc, not 143"

# A command that does not exist: 127 and a message.
$PERF stat -e task-clock -- /nonexistent/cmd > "$tmpdir/out" 2>&1
rc=$?
[ $rc = 127 ] || fail "missing command gave $rc"
grep -q "/nonexistent/cmd" "$tmpdir/out" || fail "no message naming the command"

# Options that do not go together are a usage error.
$PERF stat -e task-clock -p 1 -t 1 > /dev/null 2>&1
[ $? = 129 ] || fail "-p with -t should be a usage error (129)"

# An event this machine lacks: <not supported>, exit 0.
$PERF stat -e cycles,task-clock -o "$tmpdir/hw" -- true || fail "cycles run failed"
if grep -q "<not supported>.*cycles" "$tmpdir/hw"; then
	grep -q "task-clock" "$tmpdir/hw" || fail "other events lost"
	echo "cycles not supported here, reported as such"
else
	grep -Eq "^ +[0-9]+ +cycles" "$tmpdir/hw" || fail "cycles neither counted nor <not supported>: $(cat "$tmpdir/hw")"
	echo "cycles counted (this machine has a PMU)"
fi

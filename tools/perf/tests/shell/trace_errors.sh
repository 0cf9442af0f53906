#!/bin/sh
# perf trace: clear errors for bad options and files without syscalls
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"

# expect_error WHAT TEXT CMD...: CMD exits non-zero, stderr says TEXT.
expect_error() {
	what=$1 text=$2
	shift 2
	if "$@" >"$tmpdir/out" 2>"$tmpdir/err"; then
		fail "$what: succeeded"
	fi
	grep -q "$text" "$tmpdir/err" || fail "$what: no '$text' in: $(cat "$tmpdir/err")"
}

expect_error "bad syscall" "no syscall is named 'nosuchcall'" $PERF trace -e nosuchcall -- true
expect_error "bad duration" "duration needs milliseconds" $PERF trace --duration abc -- true
expect_error "-s and -S" "exclusive" $PERF trace -s -S -- true
expect_error "missing file" "nosuch.data" $PERF trace -i "$tmpdir/nosuch.data"
expect_error "-i and a command" "replays a file" $PERF trace -i x -- true

: > "$tmpdir/empty.data"
$PERF trace -i "$tmpdir/empty.data" 2>"$tmpdir/err" || fail "empty file: exit $?"
grep -q 'zero-sized file' "$tmpdir/err" || fail "empty file: $(cat "$tmpdir/err")"

need_root
# A user who may not read tracefs is told so, and no second message
# follows the recorder's.
if command -v setpriv >/dev/null && [ "$(stat -c %a "$(dirname "$(ls -d /sys/kernel/tracing/events /sys/kernel/debug/tracing/events 2>/dev/null | head -1)")")" = 700 ]; then
	expect_error "unprivileged" "readable by root only" \
		setpriv --reuid=65534 --regid=65534 --clear-groups $PERF trace -- true
	! grep -q 'zero-sized' "$tmpdir/err" || fail "a second message: $(cat "$tmpdir/err")"
fi
need_sampling
$PERF record -q -e cpu-clock -o "$tmpdir/cpu.data" -- true || fail "perf record exited $?"
expect_error "no syscalls in the file" "has no raw_syscalls:sys_enter and sys_exit events" \
	$PERF trace -i "$tmpdir/cpu.data"
grep -q "perf trace record" "$tmpdir/err" || fail "the error does not say how to record"
echo "errors are clear"

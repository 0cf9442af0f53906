#!/bin/sh
# perf sched: files without sched events and bad options get clear errors
. "$(dirname "$0")/lib/common.sh"

# A recording without tracepoints: the message says how to record them.
"$PERF" test -w write-data "$tmpdir/plain.data" 20 > /dev/null 2>&1 ||
	fail "could not write a test perf.data"
if "$PERF" sched timehist -i "$tmpdir/plain.data" > "$tmpdir/out" 2> "$tmpdir/err"; then
	fail "timehist on a file without sched events succeeded"
fi
grep -q "no tracing data" "$tmpdir/err" && grep -q "perf sched record" "$tmpdir/err" ||
	{ cat "$tmpdir/err"; fail "no message naming the missing events and how to record them"; }
[ -s "$tmpdir/out" ] && fail "lines printed for a file without sched events"

"$PERF" sched timehist -i "$tmpdir/missing.data" > /dev/null 2> "$tmpdir/err" &&
	fail "timehist on a missing file succeeded"
grep -q "missing.data" "$tmpdir/err" || fail "the missing file is not named"

# Each bad option is refused with a message about it.
check_bad() {
	want=$1
	shift
	"$PERF" sched timehist -i "$tmpdir/plain.data" "$@" > /dev/null 2> "$tmpdir/err" &&
		fail "timehist $* accepted"
	grep -q -- "$want" "$tmpdir/err" ||
		{ cat "$tmpdir/err"; fail "timehist $*: no message saying '$want'"; }
}
check_bad "mutually exclusive" -s -w
check_bad "bad --time 'x,y'" --time x,y
check_bad "bad cpu list 'a'" -C a
check_bad "bad pid list '1x'" -p 1x
check_bad "bad tid list '2-'" -t 2-
"$PERF" sched frobnicate > /dev/null 2> "$tmpdir/err" && fail "unknown subcommand accepted"
grep -q "timehist" "$tmpdir/err" || fail "unknown subcommand: the valid ones are not named"
echo ok

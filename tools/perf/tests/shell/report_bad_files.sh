#!/bin/sh
# perf report: empty, truncated and garbage files give clear errors
. "$(dirname "$0")/lib/common.sh"
need_sampling
need_root

: > "$tmpdir/empty.data"
$PERF report -i "$tmpdir/empty.data" --stdio > "$tmpdir/out" 2>&1
rc=$?
[ $rc = 0 ] || fail "zero-sized file exited $rc"
grep -q "zero-sized file ($tmpdir/empty.data), nothing to do!" "$tmpdir/out" ||
	fail "no zero-size message: $(cat "$tmpdir/out")"

head -c 4096 /dev/urandom > "$tmpdir/garbage.data"
$PERF report -i "$tmpdir/garbage.data" --stdio > "$tmpdir/out" 2>&1
rc=$?
[ $rc != 0 ] || fail "garbage file accepted"
[ $rc -lt 128 ] || fail "crashed on garbage (rc $rc)"
grep -qi "not a perf.data file\|magic" "$tmpdir/out" || fail "unclear message: $(cat "$tmpdir/out")"

$PERF record -q -e cpu-clock -F 2000 -o "$tmpdir/full.data" -- $PERF test -w cpuloop 0.2 ||
	fail "record failed"
size=$(stat -c %s "$tmpdir/full.data")
for cut in 8 100 200 1000 $((size / 2)) $((size - 40)); do
	[ "$cut" -lt "$size" ] || continue
	head -c "$cut" "$tmpdir/full.data" > "$tmpdir/cut.data"
	$PERF report -i "$tmpdir/cut.data" --stdio > "$tmpdir/out" 2>&1
	rc=$?
	[ $rc -lt 128 ] || fail "crashed on a file cut at $cut (rc $rc)"
	grep -qiE "truncated|offset|corrupt|invalid|not a perf.data|cut short" "$tmpdir/out" ||
		fail "cut at $cut: no clear message: $(tail -5 "$tmpdir/out")"
done
echo ok

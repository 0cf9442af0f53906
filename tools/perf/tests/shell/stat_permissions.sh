#!/bin/sh
# perf stat: an unprivileged user gets advice, not a bare EACCES
. "$(dirname "$0")/lib/common.sh"
need_root
command -v setpriv > /dev/null || skip "setpriv (util-linux) missing"
level=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)
[ -n "$level" ] && [ "$level" -ge 1 ] || skip "perf_event_paranoid is '$level': CPU-wide counting is allowed for everybody"
as_nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups"
$as_nobody true 2>/dev/null || skip "cannot switch to user nobody"
$as_nobody $PERF stat -a -e cs -- true > "$tmpdir/out" 2>&1 && fail "nobody counted system-wide"
grep -q "paranoid" "$tmpdir/out" || fail "no advice: $(cat "$tmpdir/out")"
grep -q "No permission" "$tmpdir/out" || fail "no permission message: $(cat "$tmpdir/out")"
# Counting one's own command is allowed.
$as_nobody $PERF stat -e task-clock:u -- true > "$tmpdir/own" 2>&1 || fail "own task refused: $(cat "$tmpdir/own")"
echo ok

#!/bin/sh
# perf record --tod under a clock that NTP slews and that is set: the
# correlation points keep the time of day within 1 ms, where the start
# reference alone drifts and misses the step (changes the system clock,
# so it runs only where PERF_TEST_CLOCK_WRITABLE=1: the test VM)
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
. "$(dirname "$0")/lib/tod.sh"
need_trace
[ "${PERF_TEST_CLOCK_WRITABLE:-0}" = 1 ] ||
	skip "it slews and sets the system clock: it runs in the test VM (PERF_TEST_CLOCK_WRITABLE=1)"

secs=${PERF_TEST_SLEW_SECONDS:-60}
step_at=$((secs * 2 / 3))
last=$((secs + 1))	# the step adds a mark half a second after it
$PERF trace record -q -o "$tmpdir/slew.data" -- \
	$PERF test -w clock-marks "$secs" 500 "$step_at" 2 >"$tmpdir/marks" ||
	fail "perf trace record exited $?"
grep -q '^step' "$tmpdir/marks" || fail "the clock was not set: $(cat "$tmpdir/marks")"
$PERF trace -TT -e getpid -i "$tmpdir/slew.data" -o "$tmpdir/follow" ||
	fail "perf trace -TT exited $?"
$PERF trace --tod=start -e getpid -i "$tmpdir/slew.data" -o "$tmpdir/start" ||
	fail "perf trace --tod=start exited $?"
tod_times "$tmpdir/follow" 1 " getpid\\(" >"$tmpdir/follow.times"
tod_times "$tmpdir/start" 1 " getpid\\(" >"$tmpdir/start.times"

tod_check "$tmpdir/follow.times" "$tmpdir/marks" 1 "$last" 1 "correlation points, 500 ppm slew and a +2 s step"
slewed=$(tod_worst "$tmpdir/start.times" "$tmpdir/marks" "$((step_at - 2))" "$step_at")
stepped=$(tod_worst "$tmpdir/start.times" "$tmpdir/marks" "$((step_at + 1))" "$last")
echo "the start reference alone: $slewed ms off before the step, $stepped ms after it"

# How far the event clock itself drifted from the time of day before the
# step, from the points: where it does not follow NTP (the perf clock
# on a stable TSC), about 0.5 ms a second, and the start reference alone
# must be off by that; where it does (CLOCK_MONOTONIC, or a perf clock
# that the kernel steers by the time of day), the slew cannot show.
$PERF report -D -i "$tmpdir/slew.data" | grep 'tod point:' >"$tmpdir/points"
drift=$(awk '/after the clock was set/ { exit }
	{
		for (i = 1; i < NF; i++)
			if ($i == "clock")
				clock = $(i + 1)
			else if ($i == "is")
				split($(i + 2), t, ":")
		tod = t[1] * 3600 + t[2] * 60 + t[3]
		if (!n++) { c0 = clock; t0 = tod }
	}
	END { printf "%.3f\n", ((tod - t0) - (clock - c0)) * 1000 }' "$tmpdir/points")
echo "the event clock drifted $drift ms from the time of day before the step"
if awk -v d="$drift" 'BEGIN { exit !(d > 5 || d < -5) }'; then
	awk -v s="$slewed" -v d="$drift" 'BEGIN { if (d < 0) d = -d; exit !(s > d - 2) }' ||
		fail "the start reference is off by $slewed ms only, where the clock drifted $drift ms"
else
	echo "the event clock follows NTP's frequency here: the slew shows in neither"
fi
awk -v s="$stepped" 'BEGIN { exit !(s > 1900) }' ||
	fail "the start reference missed the 2 s step by only $stepped ms"
exit 0

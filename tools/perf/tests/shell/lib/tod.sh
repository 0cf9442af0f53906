# Time-of-day checks shared by the shell tests; sourced, not run.
# Times are compared as seconds of the day (TZ=UTC), so that any time of
# the day works and midnight wraps.
export TZ=UTC

# The seconds of the day of the "HH:MM:SS.uuuuuu" in field $2 of the
# lines of $1 that match the regular expression $3, one a line.
tod_times() {
	awk -v f="$2" -v re="$3" '$0 ~ re {
		split($f, t, ":")
		printf "%.6f\n", t[1] * 3600 + t[2] * 60 + t[3]
	}' "$1"
}

# The largest distance, in ms, between the bracket of a mark of the
# workload ("mark BEFORE AFTER" lines of $2, counted from 1, those from
# $3 to $4) and the nearest time in $1 (tod_times): 0 when a time lies
# inside the bracket.  Prints "none" when there are no such marks.
# With $5 = best, the smallest such distance instead.
tod_worst() {
	awk -v from="$3" -v to="$4" -v want="${5:-worst}" '
	function dist(t, b, a,   d) {
		if (t >= b && t <= a)
			return 0
		d = t < b ? b - t : t - a
		return d > 43200 ? 86400 - d : d
	}
	FNR == NR { times[n++] = $1; next }
	$1 == "mark" {
		m++
		if (m < from || m > to)
			next
		b = $2 % 86400
		a = b + ($3 - $2)
		best = -1
		for (i = 0; i < n; i++) {
			d = dist(times[i], b, a)
			if (best < 0 || d < best)
				best = d
		}
		if (best < 0)
			best = 86400
		if (!seen || (want == "best" ? best < worst : best > worst))
			worst = best
		seen++
	}
	END {
		if (!seen)
			print "none"
		else
			printf "%.3f\n", worst * 1000
	}' "$1" "$2"
}

# Fail unless the marks $3..$4 of $2 all have a time in $1 within $5 ms;
# $6 names the check.
tod_check() {
	worst=$(tod_worst "$1" "$2" "$3" "$4")
	echo "$6: the worst of marks $3..$4 is $worst ms from its time of day"
	[ "$worst" != none ] || fail "$6: no marks"
	awk -v w="$worst" -v l="$5" 'BEGIN { exit !(w <= l) }' ||
		fail "$6: $worst ms is more than $5 ms"
}

# Pass when at least one of the marks $3..$4 of $2 has a time in $1
# within $5 ms: for events that a mark may lack (a 100 us sleep that
# ended before the task left the CPU makes no switch), while a wrong
# time of day would move every time off every mark.  $6 names it.
tod_check_some() {
	best=$(tod_worst "$1" "$2" "$3" "$4" best)
	echo "$6: the best of marks $3..$4 is $best ms from its time of day"
	[ "$best" != none ] || fail "$6: no marks"
	awk -v w="$best" -v l="$5" 'BEGIN { exit !(w <= l) }' ||
		fail "$6: $best ms is more than $5 ms, at the best of marks $3..$4"
}

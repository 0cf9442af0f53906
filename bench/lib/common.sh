# SPDX-License-Identifier: GPL-2.0
# Shared helpers for bench/*/run; sourced, not executed.
#
# After bench_init:
#   BENCH_TMP   a private temporary directory, removed on exit
#   BENCH_EXEC  the bench-exec helper (bench/lib/bench-exec.c), built there

bench_lib=$(cd "$(dirname "$0")/../lib" && pwd)

bench_cleanup() {
	[ -n "${BENCH_TMP:-}" ] && rm -rf "$BENCH_TMP"
}

# Create BENCH_TMP and compile bench-exec into it.
bench_init() {
	BENCH_TMP=$(mktemp -d "${TMPDIR:-/tmp}/perf-bench.XXXXXX") || exit 1
	trap bench_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	BENCH_EXEC=$BENCH_TMP/bench-exec
	if ! "${CC:-cc}" -O2 -Wall -o "$BENCH_EXEC" "$bench_lib/bench-exec.c" \
		-lm 2>"$BENCH_TMP/cc.log"; then
		cat "$BENCH_TMP/cc.log" >&2
		echo "bench: cannot compile $bench_lib/bench-exec.c with ${CC:-cc}" >&2
		exit 1
	fi
}

# bench_compile_loop TOP: compile TOP's tools/perf/util/*.c over and
# over (output discarded), as background load for a recording.  A file
# that fails to compile is passed over: under 'set -e' a failure would
# end the loop, and the recording would quietly lose its compiler
# samples (cc1's large symbol tables are what a report must read).
bench_compile_loop() {
	while :; do
		for f in "$1"/tools/perf/util/*.c; do
			cc -O2 -I"$1/include/uapi" -I"$1/tools/lib/perf/include" \
				-I"$1/tools/perf" -I/usr/include/traceevent \
				-D_GNU_SOURCE -c -o /dev/null "$f" >/dev/null 2>&1 || :
		done
	done
}

# bench_field FILE CMD_INDEX KEY: print KEY's value from bench-exec output.
bench_field() {
	awk -v c="cmd=$2" -v k="$3" '
		$1 == c {
			for (i = 2; i <= NF; i++) {
				split($i, kv, "=")
				if (kv[1] == k)
					print kv[2]
			}
		}' "$1"
}

# bench_ratio A B: print A/B with two decimals ("n/a" when B is 0).
bench_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (b + 0 == 0)
			print "n/a"
		else
			printf "%.2f\n", a / b
	}'
}

# bench_size_mb FILE: its size in whole MB (0 when absent).
bench_size_mb() {
	[ -f "$1" ] || { echo 0; return; }
	echo $(($(stat -c %s "$1") / 1048576))
}

# bench_record_size FILE MIN_MB SECS: record with the caller's
# record_once OUT SECS until FILE holds MIN_MB; each retry asks for the
# seconds the last one's rate needs, with a tenth more (a short first
# try measures the rate of a fast recorder).
bench_record_size() {
	file=$1
	min_mb=$2
	secs=$3
	mkdir -p "$(dirname "$file")"
	tries=0
	while :; do
		record_once "$file.tmp" "$secs" || return 1
		got=$(bench_size_mb "$file.tmp")
		[ "$got" -ge "$min_mb" ] && break
		tries=$((tries + 1))
		if [ "$tries" -ge 4 ]; then
			echo "bench: $got MB in $secs s, not the $min_mb MB asked for" >&2
			return 1
		fi
		[ "$got" -gt 0 ] || got=1
		secs=$((secs * min_mb * 11 / (got * 10) + 1))
	done
	mv "$file.tmp" "$file"
	rm -f "$file.tmp.old"	# Linux perf record's copy of the last try
}

# bench_row LABEL MB RESULT: one table row from bench-exec's RESULT for
# a run of ours (command 0) and Linux perf's (command 1) on a file of
# MB, kept for bench_summary and bench_scaling.
bench_row() {
	o_t=$(bench_field "$3" 0 mean_ns)
	l_t=$(bench_field "$3" 1 mean_ns)
	o_m=$(bench_field "$3" 0 maxrss_kb)
	l_m=$(bench_field "$3" 1 maxrss_kb)
	printf '  %-34s %10.3f %10.3f %8sx %10s %10s %8sx\n' "$1" \
		"$(awk -v n="$o_t" 'BEGIN { print n / 1e9 }')" \
		"$(awk -v n="$l_t" 'BEGIN { print n / 1e9 }')" \
		"$(bench_ratio "$l_t" "$o_t")" "$o_m" "$l_m" \
		"$(bench_ratio "$l_m" "$o_m")"
	echo "$2|$1|$o_t|$l_t|$o_m|$l_m" >> "$BENCH_TMP/rows"
}

bench_table_head() {
	printf '  %-34s %10s %10s %9s %10s %10s %9s\n' "mode" "ours s" \
		"linux s" "time" "ours KB" "linux KB" "RSS"
}

# bench_summary NAME: the summary line of every row.
bench_summary() {
	awk -F'|' -v name="$1" '{
		t = $3 > 0 ? sprintf("%.2f", $4 / $3) : "n/a"
		m = $5 > 0 ? sprintf("%.2f", $6 / $5) : "n/a"
		printf "%s: %s: time ratio (linux/ours) %sx, peak RSS ratio (linux/ours) %sx\n", name, $2, t, m
	}' "$BENCH_TMP/rows"
}

# bench_scaling MODE...: for each mode (the text of its labels after
# "N MB "), seconds and peak RSS MB per 100 MB of file at each size:
# flat columns scale linearly, rising ones worse.
bench_scaling() {
	echo "  scaling: per 100 MB of file"
	printf '  %-26s %8s %10s %10s %10s %10s\n' "mode" "file" "ours s" \
		"linux s" "ours MB" "linux MB"
	for mode in "$@"; do
		awk -F'|' -v mode="$mode" '{
			label = $2
			sub(/^[0-9]+ MB /, "", label)
			if (label != mode || $1 == 0)
				next
			f = 100 / $1
			printf "  %-26s %5d MB %10.3f %10.3f %10.1f %10.1f\n", mode, $1,
				$3 / 1e9 * f, $4 / 1e9 * f, $5 / 1024 * f, $6 / 1024 * f
		}' "$BENCH_TMP/rows"
	done
}

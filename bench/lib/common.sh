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

# Helpers shared by the shell tests; sourced, not run.
# Exit codes: 0 pass, 1 fail, 2 skip (the last line printed says why).

PERF=${PERF:-perf}

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "$*"
	exit 2
}

need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root (tracepoints and system-wide counting)"
}

need_tracepoint() {
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -d "$d/events/$1/$2" ] && return 0
	done
	skip "tracepoint $1:$2 not available (tracefs not mounted or kernel lacks it)"
}

# The value column of a CSV line from 'perf stat -x,' for event $2 in file $1.
csv_value() {
	awk -F, -v ev="$2" '$3 == ev { print $1; exit }' "$1"
}

tmpdir=$(mktemp -d)
trap 'rm -rf "$tmpdir"' EXIT

#!/bin/sh
# perf record -g on a kernel with perf_counter: the same top symbols and call chains through both backends
. "$(dirname "$0")/lib/common.sh"
[ -e /proc/sys/kernel/perf_counter_paranoid ] ||
	skip "this kernel has no perf_counter subsystem (runs under 'make vmcheck')"

mkdir "$tmpdir/bin"
cp "$PERF" "$(dirname "$PERF")/libperf-hot.so" "$tmpdir/bin/"

# The three hot functions in the order of their overhead in report $1.
hot_order() {
	grep -oE 'workload_hot_a|workload_hot_b|hot_lib_loop' "$1" | awk '!seen[$0]++' | tr '\n' ' '
}

for backend in counter event; do
	data=$tmpdir/$backend.data
	PERF_BACKEND=$backend $PERF record -v -q -g -e cpu-clock -F 1000 -o "$data" \
		-- "$tmpdir/bin/perf" test -w cpuloop 0.6 2>"$tmpdir/$backend.err" ||
		fail "perf record on $backend failed: $(cat "$tmpdir/$backend.err")"
	$PERF report -i "$data" --stdio --no-children -g none --sort sym \
		> "$tmpdir/$backend.txt" || fail "perf report of the $backend recording failed"
	$PERF report -i "$data" --stdio --no-children -g graph,10,caller --sort sym \
		> "$tmpdir/$backend.graph" || fail "perf report -g of the $backend recording failed"
	echo "$backend: $(hot_order "$tmpdir/$backend.txt")"
done
expect_both_backends

# workload_hot_a does twice the work of workload_hot_b, the same code in
# the same object: it has more samples in both.  (hot_lib_loop does
# as much as workload_hot_b, but in another object, whose code an
# emulated CPU may run at another speed: it once led under TCG.)
overhead() {
	awk -v sym="$2" '$2 == "[.]" && $3 == sym { sub(/%/, "", $1); print $1; exit }' "$1"
}
for backend in counter event; do
	[ "$(hot_order "$tmpdir/$backend.txt" | wc -w)" = 3 ] ||
		fail "$backend: hot symbols missing: $(head -20 "$tmpdir/$backend.txt")"
	a=$(overhead "$tmpdir/$backend.txt" workload_hot_a)
	b=$(overhead "$tmpdir/$backend.txt" workload_hot_b)
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > b) }' ||
		fail "$backend: workload_hot_a ($a%) not above workload_hot_b ($b%): $(head -20 "$tmpdir/$backend.txt")"
done

# The names in workload_hot_a's call chain (addresses and branches under
# 10% left out): user frames followed by frame pointer, the same through
# both backends.
chain_names() {
	awk '/\[\.\] workload_hot_a/ { on = 1; next } on && /^$/ { exit } on' "$1" |
		sed -E 's/[0-9.]+%//g; s/0x[0-9a-f]+//g' |
		grep -oE '[A-Za-z_][A-Za-z0-9_.]*' | sort -u | tr '\n' ' '
}
ours=$(chain_names "$tmpdir/counter.graph")
stock=$(chain_names "$tmpdir/event.graph")
echo "workload_hot_a called through: $ours (perf_event_open: $stock)"
[ "$(echo "$ours" | wc -w)" -ge 2 ] ||
	fail "perf_counter_open: no caller in workload_hot_a's chain: $(head -30 "$tmpdir/counter.graph")"
[ "$ours" = "$stock" ] || fail "the call chains of workload_hot_a differ between the backends"
echo ok

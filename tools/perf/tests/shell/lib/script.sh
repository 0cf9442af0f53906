# Helpers of the perf script shell tests; sourced after common.sh.

# A private copy of perf as the workload: a rebuild of perf meanwhile
# must not change the binary the recordings refer to.
script_workload() {
	mkdir -p "$tmpdir/bin"
	cp "$PERF" "$(dirname "$PERF")/libperf-hot.so" "$tmpdir/bin/"
	wl="$tmpdir/bin/perf test -w cpuloop 0.3"
}

# same_script FILE [OPTIONS]: our perf script and Linux perf script
# print the same lines, and exit alike.
same_script() {
	file=$1
	shift
	rc_ours=0
	rc_linux=0
	"$PERF" script -i "$file" "$@" > "$tmpdir/ours.out" 2> "$tmpdir/ours.err" ||
		rc_ours=$?
	"$LINUX_PERF" script -i "$file" "$@" > "$tmpdir/linux.out" 2> "$tmpdir/linux.err" ||
		rc_linux=$?
	[ "$rc_ours" = 0 ] || fail "perf script $* on $file exited $rc_ours: $(head -3 "$tmpdir/ours.err")"
	[ "$rc_linux" = 0 ] || fail "Linux perf script $* on $file exited $rc_linux: $(head -3 "$tmpdir/linux.err")"
	[ -s "$tmpdir/linux.out" ] || fail "Linux perf script printed nothing for $file ($*)"
	if ! cmp -s "$tmpdir/linux.out" "$tmpdir/ours.out"; then
		echo "perf script differs on $(basename "$file") with: $*"
		diff "$tmpdir/linux.out" "$tmpdir/ours.out" | head -20
		fail "lines differ from Linux perf script's"
	fi
	echo "$(basename "$file") $*: $(wc -l < "$tmpdir/ours.out") lines equal"
}

#!/bin/sh
# perf list hw, cache: an event shown exactly when stat counts it
. "$(dirname "$0")/lib/common.sh"

# Every generic hardware event, and every generic cache event by the
# names perf list gives them (L1-icache is not written, iTLB and the
# branch unit are only read).
hw="cpu-cycles instructions cache-references cache-misses \
branch-instructions branch-misses bus-cycles stalled-cycles-frontend \
stalled-cycles-backend ref-cycles"
cache=
for c in L1-dcache L1-icache LLC dTLB iTLB branch node; do
	case $c in
	L1-icache) ops="load prefetch" ;;
	iTLB | branch) ops=load ;;
	*) ops="load store prefetch" ;;
	esac
	for op in $ops; do
		case $op in
		prefetch) plural=prefetches ;;
		*) plural=${op}s ;;
		esac
		cache="$cache $c-$plural $c-$op-misses"
	done
done

$PERF list hw > "$tmpdir/hw" || fail "perf list hw failed"
$PERF list cache > "$tmpdir/cache" || fail "perf list cache failed"
grep -q "^List of pre-defined events" "$tmpdir/hw" || fail "perf list hw printed no header"

# Each listed line is one of the names above, of its kind.
check_kind() {
	awk -v kind="$2" '/^  / && $0 !~ "\\[" kind "\\]$" { print; bad = 1 }
		END { exit bad }' "$1" || fail "perf list $3 shows other kinds of events"
	for e in $(awk '/^  / { print $1 }' "$1"); do
		case " $4 " in
		*" $e "*) ;;
		*) fail "perf list $3 shows '$e', which is not a generic $3 event" ;;
		esac
	done
}
check_kind "$tmpdir/hw" "Hardware event" hw "$hw"
check_kind "$tmpdir/cache" "Hardware cache event" cache "$cache"

# perf stat opens the event its own way (inherited, on a child, kernel
# mode included when allowed): a listed event counts there, an event
# left out is <not supported> there.
listed=0
for e in $hw $cache; do
	if grep -hq "^  $e " "$tmpdir/hw" "$tmpdir/cache"; then
		shown=1
		listed=$((listed + 1))
	else
		shown=0
	fi
	$PERF stat -x, -o "$tmpdir/stat.csv" -e "$e" -- true 2> "$tmpdir/stat.err" ||
		fail "perf stat -e $e failed: $(cat "$tmpdir/stat.err")"
	value=$(csv_value "$tmpdir/stat.csv" "$e")
	[ -n "$value" ] || fail "perf stat -e $e printed no line for it: $(cat "$tmpdir/stat.csv")"
	if [ $shown = 1 ]; then
		[ "$value" != "<not supported>" ] ||
			fail "perf list shows $e, but perf stat says <not supported>"
	else
		[ "$value" = "<not supported>" ] ||
			fail "perf list leaves out $e, but perf stat counts it: $value"
	fi
done
# shellcheck disable=SC2086
set -- $hw $cache
echo "ok: $listed of $# hardware and cache events listed, each as perf stat sees it"

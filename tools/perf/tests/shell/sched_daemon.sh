#!/bin/sh
# perf sched daemon: window, memory bound, -C, -K, signals, errors
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/sched.sh"
need_root
need_tracepoint sched sched_switch
note_linux_perf

# Markers: copies of perf under names timehist shows as the task names.
mkdir "$tmpdir/bin"
for m in markold marknew; do
	cp "$PERF" "$tmpdir/bin/$m"
done

# start_daemon NAME ARGS...: perf sched daemon ARGS in the background,
# log in $tmpdir/NAME.log; returns once its pid file exists, which it
# writes when it records.
# A failed check leaves no daemon behind (it would hold perf test's pipe).
daemons=
trap 'kill $daemons 2>/dev/null; rm -rf "$tmpdir"' EXIT

start_daemon() {
	name=$1
	shift
	"$PERF" sched daemon "$@" --pid-file "$tmpdir/$name.pid" \
		2> "$tmpdir/$name.log" &
	eval "job_$name=$!"
	daemons="$daemons $!"
	n=0
	while [ ! -s "$tmpdir/$name.pid" ]; do
		n=$((n + 1))
		if [ $n -gt 600 ] || ! kill -0 $! 2>/dev/null; then
			cat "$tmpdir/$name.log"
			fail "perf sched daemon $* did not start"
		fi
		sleep 0.1
	done
}

# dump NAME: SIGHUP, then the path of the file its log line names.
dump() {
	before=$(grep -c ': wrote ' "$tmpdir/$1.log")
	kill -HUP "$(cat "$tmpdir/$1.pid")"
	n=0
	while [ "$(grep -c ': wrote ' "$tmpdir/$1.log")" -le "$before" ]; do
		n=$((n + 1))
		[ $n -le 600 ] || fail "no dump within 60 s: $(cat "$tmpdir/$1.log")"
		sleep 0.1
	done
	grep ': wrote ' "$tmpdir/$1.log" | tail -n 1 |
		sed 's/.*: wrote \([^:]*\): .*/\1/'
}

# stop NAME: SIGTERM; exit status 0, pid file gone, no dump written.
stop() {
	files=$(ls "$tmpdir/$1" | wc -l)
	kill -TERM "$(cat "$tmpdir/$1.pid")"
	eval "wait \$job_$1"
	rc=$?
	[ $rc -eq 0 ] || fail "SIGTERM: exit status $rc, not 0: $(tail -n 2 "$tmpdir/$1.log")"
	[ ! -e "$tmpdir/$1.pid" ] || fail "the pid file is left after SIGTERM"
	[ "$(ls "$tmpdir/$1" | wc -l)" -eq "$files" ] ||
		fail "SIGTERM wrote a dump"
	grep -q 'stopped by' "$tmpdir/$1.log" || fail "no closing line in the log"
}

# both_timehist FILE: ours and Linux perf's equal (Linux perf leaves
# user-space frames unknown, and shows the perf clock: --no-tod); Linux
# perf's in $tmpdir/timehist.txt, or ours without Linux perf.
both_timehist() {
	"$PERF" sched timehist --no-tod -i "$1" > "$tmpdir/ours.txt" 2> "$tmpdir/ours.err" ||
		fail "our timehist cannot read $1: $(head -n 3 "$tmpdir/ours.err")"
	[ -s "$tmpdir/ours.txt" ] || fail "our timehist printed nothing for $1"
	if ! have_linux_perf; then
		cp "$tmpdir/ours.txt" "$tmpdir/timehist.txt"
		return
	fi
	"$LINUX_PERF" sched timehist -i "$1" > "$tmpdir/timehist.txt" 2> "$tmpdir/linux.err" ||
		fail "Linux perf sched timehist cannot read $1: $(head -n 3 "$tmpdir/linux.err")"
	[ -s "$tmpdir/timehist.txt" ] || fail "Linux perf printed nothing for $1"
	same_lines "$tmpdir/timehist.txt" "$tmpdir/ours.txt" ||
		fail "timehist differs on $1"
}

# 1. The window: a marker run 4 s before SIGHUP is out of a 3 s window,
# one run just before it is in, and the records span at most 3 s.
start_daemon win -g --seconds 3 -o "$tmpdir/win"
"$tmpdir/bin/markold" test -w sched 2 20 > /dev/null
sleep 4
"$tmpdir/bin/marknew" test -w sched 2 20 > /dev/null
file=$(dump win)
[ -s "$file" ] || fail "the dump $file is missing"
case $file in
"$tmpdir/win/perf.data."[0-9]*) ;;
*) fail "the dump is not DIR/perf.data.<time>: $file" ;;
esac
both_timehist "$file"
grep -q ' marknew\[' "$tmpdir/timehist.txt" ||
	fail "the marker run just before SIGHUP is missing: the dump stops short of the signal (the daemon's log: $(tail -n 4 "$tmpdir/win.log"); timehist's last lines: $(tail -n 3 "$tmpdir/timehist.txt"))"
grep -q ' markold\[' "$tmpdir/timehist.txt" &&
	fail "a marker run 4 s before SIGHUP is in a 3 s window"
span=$(awk '$1 ~ /^[0-9]+\.[0-9]+$/ { if (!n++) f = $1; l = $1 }
	    END { printf "%.6f", l - f }' "$tmpdir/timehist.txt")
awk -v s="$span" 'BEGIN { exit !(s > 0 && s <= 3) }' ||
	fail "the switches span $span s, not within the 3 s window"
# Dumps carry time-of-day correlation points, and show the time of day.
points=$("$PERF" report -D -i "$file" | grep -c 'PERF_RECORD_EVENT_TYPE tod point')
[ "$points" -ge 3 ] || fail "$points correlation points in a dump of 3 s and more"
"$PERF" sched timehist -i "$file" 2>/dev/null | grep -q '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9]* \[' ||
	fail "the dump's timehist does not show the time of day"
grep -q "wrote $file: [1-9][0-9]* events, [0-3]\.[0-9]* seconds" "$tmpdir/win.log" ||
	fail "no log line naming the file, its events and seconds: $(cat "$tmpdir/win.log")"
stop win

# 2. -C: the same records in at most a fifth of the bytes per event,
# with the COMPRESSED feature, read by both tools.
start_daemon raw -g --seconds 2 -o "$tmpdir/raw"
start_daemon zst -g -C --seconds 2 -o "$tmpdir/zst"
"$PERF" test -w sched 4 300 > /dev/null
rawf=$(dump raw)
zstf=$(dump zst)
per_event() {
	n=$(grep "wrote $1: " "$2" | sed 's/.*: \([0-9]*\) events.*/\1/')
	[ "${n:-0}" -gt 0 ] || fail "no events in $1"
	echo $(($(stat -c %s "$1") / n))
}
rawb=$(per_event "$rawf" "$tmpdir/raw.log")
zstb=$(per_event "$zstf" "$tmpdir/zst.log")
[ $((zstb * 5)) -le "$rawb" ] ||
	fail "-C: $zstb bytes an event against $rawb uncompressed, less than 5x smaller"
if have_linux_perf; then
	"$LINUX_PERF" report --header-only -i "$zstf" 2>/dev/null |
		grep -q '^# compressed : Zstd, level = 1, ratio = [1-9]' ||
		fail "Linux perf does not show the COMPRESSED feature of $zstf"
fi
"$PERF" report --header-only -i "$zstf" 2>/dev/null |
	grep -q '^# compressed : Zstd, level = 1, ratio = [1-9]' ||
	fail "perf report --header-only does not show the COMPRESSED feature"
both_timehist "$zstf"
stop raw
stop zst

# 3. Memory: a 4 MiB store under a load that records far more than the
# stated bound (--max-size + 16 MiB) stays within it.
start_daemon mem -g --seconds 60 --max-size 4M -o "$tmpdir/mem"
chunk_kib=$(sed -n 's/.*(chunks of \([0-9]*\) KiB).*/\1/p' "$tmpdir/mem.log")
bound_kib=$((4096 + 16384))
dropped=0
i=0
while [ $((dropped * chunk_kib)) -lt $((2 * bound_kib)) ]; do
	i=$((i + 1))
	[ $i -le 50 ] || fail "the load never filled the store: $(tail -n 1 "$tmpdir/mem.log")"
	"$PERF" test -w sched 4 2000 > /dev/null
	dump mem > /dev/null
	dropped=$(tail -n 1 "$tmpdir/mem.log" |
		  sed -n 's/.* \([0-9]*\) chunks dropped for --max-size.*/\1/p')
done
hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$(cat "$tmpdir/mem.pid")/status")
if under_sanitizer; then
	echo "peak RSS $hwm KiB not held to the bound: a sanitizer build's shadow memory and quarantine are not the daemon's"
else
	[ "$hwm" -le "$bound_kib" ] ||
		fail "peak RSS $hwm KiB above the bound of $bound_kib KiB after $((dropped * chunk_kib)) KiB dropped"
fi
tail -n 1 "$tmpdir/mem.log" | grep -q 'store [0-9]* of 4096 KiB' ||
	fail "the log does not show the store within 4096 KiB: $(tail -n 1 "$tmpdir/mem.log")"
stop mem

# 4. -K: the KVM events in the dump, or a clear refusal without them.
# (The guest time table of such a dump: perf test sched-daemon-kvm.)
if [ -d /sys/kernel/tracing/events/kvm/kvm_entry ]; then
	start_daemon kvm -K --seconds 2 -o "$tmpdir/kvm"
	file=$(dump kvm)
	"$PERF" report --header-only -i "$file" 2>/dev/null |
		grep -q '^# event : name = kvm:kvm_exit,' ||
		fail "-K: no kvm:kvm_exit in the dump's events (our header)"
	if have_linux_perf; then
		"$LINUX_PERF" evlist -i "$file" 2>/dev/null | grep -q '^kvm:kvm_exit$' ||
			fail "-K: no kvm:kvm_exit in the dump's events"
	fi
	"$PERF" sched timehist -i "$file" > /dev/null 2>&1 ||
		fail "-K: our timehist cannot read the dump"
	stop kvm
else
	"$PERF" sched daemon -K -o "$tmpdir/kvm" 2> "$tmpdir/err" &&
		fail "-K started without the kvm tracepoints"
	grep -q 'kvm:kvm_entry' "$tmpdir/err" || fail "-K: unclear error: $(cat "$tmpdir/err")"
fi

# 5. Errors name what is wrong.
touch "$tmpdir/notadir"
"$PERF" sched daemon -o "$tmpdir/notadir" 2> "$tmpdir/err"
rc=$?
[ $rc -ne 0 ] || fail "a file as the output directory was taken"
grep -q "'$tmpdir/notadir'" "$tmpdir/err" ||
	fail "the error does not name the directory: $(cat "$tmpdir/err")"
"$PERF" sched daemon > /dev/null 2>&1
[ $? -eq 129 ] || fail "no -o: not a usage error"
if command -v setpriv > /dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	shared=$(mktemp -d /tmp/perf-daemon-XXXXXX)
	cp "$PERF" "$shared/perf"
	chmod 755 "$shared" "$shared/perf"
	mkdir "$shared/ro" "$shared/rw"
	chmod 555 "$shared/ro"
	chmod 777 "$shared/rw"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$shared/perf" sched daemon -o "$shared/ro" 2> "$tmpdir/err"
	rc=$?
	grep -q "cannot write to the output directory '$shared/ro'" "$tmpdir/err"
	named=$?
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$shared/perf" sched daemon -o "$shared/rw" 2> "$tmpdir/err2"
	rc2=$?
	rm -rf "$shared"
	if [ $rc -eq 0 ] || [ $named -ne 0 ]; then
		fail "an unwritable directory: exit $rc, $(cat "$tmpdir/err")"
	fi
	if [ $rc2 -eq 0 ] || ! grep -Eqi 'permission|paranoid|root' "$tmpdir/err2"; then
		fail "without privileges: exit $rc2, $(cat "$tmpdir/err2")"
	fi
fi
echo ok

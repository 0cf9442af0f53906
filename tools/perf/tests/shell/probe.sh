#!/bin/sh
# perf probe: uprobes on global, local, versioned functions counted exactly; arguments, $retval; errors
. "$(dirname "$0")/lib/common.sh"

need_root
dir=$(cd "$(dirname "$PERF")" && pwd)
WL=$dir/probe-wl
LIB=$dir/libprobe-wl.so
STRIPPED=$dir/probe-wl-stripped
for f in "$WL" "$LIB" "$STRIPPED"; do
	[ -e "$f" ] || fail "$f missing: build it with 'make -C tools/perf'"
done

tracefs=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -d "$d/events" ] && tracefs=$d && break
done
[ -n "$tracefs" ] || skip "tracefs is not mounted"
[ -e "$tracefs/uprobe_events" ] || skip "this kernel has no uprobes ($tracefs/uprobe_events missing)"

G=probe_probe_wl
GL=probe_libprobe_wl
N=7

del_ours() {
	$PERF probe -q -d "$G:*" 2>/dev/null
	$PERF probe -q -d "$GL:*" 2>/dev/null
	$PERF probe -q -d 'probe:ppid_*' 2>/dev/null
}

cleanup() {
	del_ours
	umount "$tmpdir/ro" 2>/dev/null
	rm -rf "$tmpdir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Leftovers of an interrupted run would change the names we get.
del_ours
cat "$tracefs/uprobe_events" > "$tmpdir/before"
cp "$tmpdir/before" "$tmpdir/initial"

# Fails unless uprobe_events is as it was before the test: a failed
# command must leave no probe behind.
# (Read through cat: tracefs files have size 0, which cmp believes.)
same_events() {
	cat "$tracefs/uprobe_events" > "$tmpdir/now"
	cmp -s "$tmpdir/now" "$tmpdir/before" ||
		fail "$1 changed uprobe_events: $(diff "$tmpdir/before" "$tmpdir/now")"
}

# A command that must fail, saying $1.
expect_error() {
	msg=$1
	shift
	"$@" > "$tmpdir/err" 2>&1 && fail "'$*' succeeded"
	grep -qF -- "$msg" "$tmpdir/err" ||
		fail "'$*' did not say '$msg': $(cat "$tmpdir/err")"
	same_events "'$*'"
}

# The two static probe_wl_local: an ambiguous name, listed with the
# address and source file of each; the addresses place the probes.
expect_error "2 functions in $WL are named 'probe_wl_local'" \
	$PERF probe -x "$WL" probe_wl_local
addr_a=$(awk '/probe_wl_local \(local\) in .*probe-a\.c/ { print $1 }' "$tmpdir/err")
addr_b=$(awk '/probe_wl_local \(local\) in .*probe-b\.c/ { print $1 }' "$tmpdir/err")
[ -n "$addr_a" ] && [ -n "$addr_b" ] && [ "$addr_a" != "$addr_b" ] ||
	fail "the candidates do not name probe-a.c and probe-b.c: $(cat "$tmpdir/err")"

# One add with Linux perf's report of it.
$PERF probe -x "$WL" probe_wl_global > "$tmpdir/out" 2>&1 ||
	fail "adding probe_wl_global failed: $(cat "$tmpdir/out")"
printf '%s\n' "Added new event:" \
	"  $G:probe_wl_global (on probe_wl_global in $WL)" "" \
	"You can now use it in all perf tools, such as:" "" \
	"	perf record -e $G:probe_wl_global -aR sleep 1" "" > "$tmpdir/expect"
cmp -s "$tmpdir/out" "$tmpdir/expect" ||
	fail "the report of the add differs: $(diff "$tmpdir/expect" "$tmpdir/out")"

$PERF probe -q -x "$WL" -a 'probe_wl_args n s:string' \
	-a 'probe_wl_args%return $retval' -a 'probe_wl_many g' \
	-a "la=$addr_a" -a "lb=$addr_b" > "$tmpdir/out" 2>&1 ||
	fail "adding the probes failed: $(cat "$tmpdir/out")"
$PERF probe -q -x "$LIB" -a 'probe_wl_version@@PROBE_WL_2' \
	-a 'old=probe_wl_version@PROBE_WL_1 x' > "$tmpdir/out" 2>&1 ||
	fail "adding the library probes failed: $(cat "$tmpdir/out")"

# The stack argument: at the entry, 8 bytes above the return address.
grep -qF "$G/probe_wl_many $WL:" "$tracefs/uprobe_events" &&
	grep -q "probe_wl_many .* g=+8(%sp):s64" "$tracefs/uprobe_events" ||
	fail "probe_wl_many's g is not fetched from +8(%sp): $(cat "$tracefs/uprobe_events")"

$PERF probe -l > "$tmpdir/list" || fail "perf probe -l failed"
grep -qF "  $G:probe_wl_args       (on probe_wl_args in $WL with n s_string)" "$tmpdir/list" ||
	grep -qF "$G:probe_wl_args (on probe_wl_args in $WL with n s_string)" "$tmpdir/list" ||
	fail "-l does not show probe_wl_args: $(cat "$tmpdir/list")"
grep -qF "$GL:old" "$tmpdir/list" || fail "-l does not show $GL:old"
# A probe whose object is gone since: listed by its offset, no complaint.
cp "$WL" "$tmpdir/gone-wl"
$PERF probe -q -x "$tmpdir/gone-wl" -a gone=probe_wl_global > "$tmpdir/out" 2>&1 ||
	fail "adding a probe on a copy failed: $(cat "$tmpdir/out")"
rm "$tmpdir/gone-wl"
$PERF probe -l > "$tmpdir/list" 2> "$tmpdir/list.err" ||
	fail "perf probe -l failed with an object gone: $(cat "$tmpdir/list.err")"
$PERF probe -q -d probe_gone_wl:gone
[ -s "$tmpdir/list.err" ] && fail "-l complained of the object gone: $(cat "$tmpdir/list.err")"
grep -Eq "^  probe_gone_wl:gone +\(on 0x[0-9a-f]+ in $tmpdir/gone-wl\)$" "$tmpdir/list" ||
	fail "-l does not show the probe on the object gone: $(cat "$tmpdir/list")"

# Exact call counts (probe-main.c's table).
events="$G:probe_wl_global $G:probe_wl_args $G:probe_wl_args__return $G:probe_wl_many $G:la $G:lb $GL:probe_wl_version $GL:old"
ev_opts=
for e in $events; do
	ev_opts="$ev_opts -e $e"
done
# shellcheck disable=SC2086
$PERF stat -x, -o "$tmpdir/stat" $ev_opts -- "$WL" $N > /dev/null ||
	fail "perf stat failed: $(cat "$tmpdir/stat")"
check_count() {
	v=$(csv_value "$tmpdir/stat" "$1")
	[ "$v" = "$2" ] || fail "$1 counted '$v', not $2: $(cat "$tmpdir/stat")"
}
check_count $G:probe_wl_global $N
check_count $G:probe_wl_args $N
check_count $G:probe_wl_args__return $N
check_count $G:probe_wl_many $N
check_count $G:la $N
check_count $G:lb $((2 * N))
check_count $GL:probe_wl_version $N
check_count $GL:old $((3 * N))

# Arguments and return values as perf script formats them.
$PERF record -q -o "$tmpdir/perf.data" -e $G:probe_wl_args \
	-e $G:probe_wl_args__return -e $G:probe_wl_many -e $GL:old \
	-- "$WL" 3 > /dev/null 2>&1 || fail "perf record failed"
$PERF script -i "$tmpdir/perf.data" > "$tmpdir/script" 2>&1 ||
	fail "perf script failed: $(cat "$tmpdir/script")"
for i in 0 1 2; do
	grep -q "$G:probe_wl_args: ([0-9a-f]*) n=$i s_string=\"probe-wl-str\"$" "$tmpdir/script" ||
		fail "no probe_wl_args line with n=$i and the string: $(cat "$tmpdir/script")"
	grep -q "$G:probe_wl_args__return: ([0-9a-f]* <- [0-9a-f]*) arg1=$((2 * i))$" "$tmpdir/script" ||
		fail "no return of $((2 * i)) from probe_wl_args: $(cat "$tmpdir/script")"
	grep -q "$G:probe_wl_many: ([0-9a-f]*) g=$((1000 + i))$" "$tmpdir/script" ||
		fail "no probe_wl_many line with g=$((1000 + i)): $(cat "$tmpdir/script")"
	grep -q "$GL:old: ([0-9a-f]*) x=$i$" "$tmpdir/script" ||
		fail "no old-version line with x=$i: $(cat "$tmpdir/script")"
done
[ "$(grep -c "$G:probe_wl_args:" "$tmpdir/script")" = 3 ] ||
	fail "probe_wl_args not seen 3 times: $(cat "$tmpdir/script")"
[ "$(grep -c "$GL:old:" "$tmpdir/script")" = 9 ] ||
	fail "the old version not seen 9 times: $(cat "$tmpdir/script")"

# perf trace -e: the probes as events, their fields as Linux perf trace
# prints them (zeros left out), alone and beside the syscalls.
$PERF trace -e $G:probe_wl_args,$G:probe_wl_args__return -- "$WL" 3 \
	> "$tmpdir/trace" 2>&1 || fail "perf trace -e failed: $(cat "$tmpdir/trace")"
for i in 0 1 2; do
	n=$([ $i = 0 ] || echo "n: $i, ")
	r=$([ $i = 0 ] || echo "arg1: $((2 * i))")
	grep -Eq "^ +[0-9]+\.[0-9]{3} probe-wl/[0-9]+ $G:probe_wl_args\(__probe_ip: [0-9]+, ${n}s_string: \"probe-wl-str\"\)$" "$tmpdir/trace" ||
		fail "perf trace: no probe_wl_args with n=$i: $(cat "$tmpdir/trace")"
	grep -Eq "^ +[0-9]+\.[0-9]{3} probe-wl/[0-9]+ $G:probe_wl_args__return\(__probe_func: [0-9]+, __probe_ret_ip: [0-9]+(, )?$r\)$" "$tmpdir/trace" ||
		fail "perf trace: no return of $((2 * i)): $(cat "$tmpdir/trace")"
done
$PERF trace -e $G:probe_wl_args,write -- "$WL" 1 > "$tmpdir/trace2" 2>&1 ||
	fail "perf trace -e with a syscall failed"
grep -Eq '^ +[0-9.]+ \(         \): probe-wl/[0-9]+ '"$G"':probe_wl_args\(' "$tmpdir/trace2" &&
	grep -Eq '^ +[0-9.]+ \( *[0-9.]+ ms\): probe-wl/[0-9]+ write\(' "$tmpdir/trace2" ||
	fail "perf trace -e with a syscall: $(cat "$tmpdir/trace2")"
grep -q getppid "$tmpdir/trace2" && fail "perf trace -e showed a syscall not named"
# The same lines as Linux perf trace's, but for the pid and addresses.
if have_linux_perf; then
	norm() {
		sed -E -e 's/^ +[0-9.]+ //' -e 's|/[0-9]+ | |' -e 's/: [0-9]{6,}/: ADDR/g' "$1"
	}
	"$LINUX_PERF" trace -e $G:probe_wl_args,$G:probe_wl_args__return -- "$WL" 3 \
		> "$tmpdir/ltrace" 2>&1 || fail "Linux perf trace -e failed"
	grep -v "^[0-9]*$" "$tmpdir/trace" | norm /dev/stdin > "$tmpdir/trace.n"
	grep -v "^[0-9]*$" "$tmpdir/ltrace" | norm /dev/stdin > "$tmpdir/ltrace.n"
	cmp -s "$tmpdir/trace.n" "$tmpdir/ltrace.n" ||
		fail "perf trace -e differs from Linux perf's: $(diff "$tmpdir/ltrace.n" "$tmpdir/trace.n")"
fi

# A taken name: refused, with the ways out; -f adds a duplicate.
cat "$tracefs/uprobe_events" > "$tmpdir/before"
expect_error "event $G:probe_wl_global already exists" \
	$PERF probe -x "$WL" probe_wl_global
grep -q -- "-f" "$tmpdir/err" || fail "no -f in: $(cat "$tmpdir/err")"
$PERF probe -q -f -x "$WL" probe_wl_global || fail "-f did not add a duplicate"
grep -q "^p:$G/probe_wl_global_1 " "$tracefs/uprobe_events" ||
	fail "the duplicate is not probe_wl_global_1: $(cat "$tracefs/uprobe_events")"
$PERF probe -q -d "$G:probe_wl_global_1" || fail "deleting the duplicate failed"
same_events "the duplicate's add and delete"

# Errors: each names the cause, exits non-zero and adds nothing.
expect_error "has no function 'probe_wl_globl': did you mean probe_wl_global" \
	$PERF probe -x "$WL" probe_wl_globl
expect_error "$STRIPPED is stripped" $PERF probe -x "$STRIPPED" probe_wl_args
grep -q "by address" "$tmpdir/err" || fail "no hint of the address form: $(cat "$tmpdir/err")"
expect_error "$STRIPPED has no debug information (DWARF), which 'n' needs" \
	$PERF probe -x "$STRIPPED" "$addr_a n"
expect_error "probe_wl_args has no parameter or variable 'nosuch'" \
	$PERF probe -x "$WL" 'probe_wl_args nosuch'
expect_error "2 functions in $LIB are named 'probe_wl_version'" \
	$PERF probe -x "$LIB" probe_wl_version
grep -q "probe_wl_version@PROBE_WL_1" "$tmpdir/err" &&
	grep -q "probe_wl_version@@PROBE_WL_2" "$tmpdir/err" ||
	fail "the candidates do not show their versions: $(cat "$tmpdir/err")"
expect_error "has no probe_wl_version of version @@PROBE_WL_1" \
	$PERF probe -x "$LIB" 'probe_wl_version@@PROBE_WL_1'
expect_error "\$retval is there only on return" \
	$PERF probe -x "$WL" 'probe_wl_args $retval'

# A tracefs without uprobe_events: a kernel without uprobes.
mkdir -p "$tmpdir/fake/events"
PERF_TRACEFS=$tmpdir/fake expect_error "has no uprobe_events: this kernel was built without CONFIG_UPROBE_EVENTS" \
	$PERF probe -x "$WL" probe_wl_global

# A tracefs that cannot be written.
mkdir -p "$tmpdir/ro"
if mount -t tmpfs none "$tmpdir/ro" 2>/dev/null; then
	mkdir "$tmpdir/ro/events" && : > "$tmpdir/ro/uprobe_events" &&
		mount -o remount,ro "$tmpdir/ro" || fail "cannot set up a read-only tracefs stand-in"
	PERF_TRACEFS=$tmpdir/ro expect_error "cannot write $tmpdir/ro/uprobe_events: Read-only file system" \
		$PERF probe -x "$WL" probe_wl_global
else
	echo "no tmpfs mount here: the read-only tracefs case is left out"
fi

# No tracefs at all: both places covered, and no right to mount one.
# util-linux's setpriv by its path: busybox runs its own applet (which
# lacks --bounding-set) for a bare name.
setpriv_bin=$(command -v setpriv)
if unshare -m true 2>/dev/null && [ -n "$setpriv_bin" ] &&
	"$setpriv_bin" --help 2>&1 | grep -q -- --bounding-set; then
	unshare -m "$(command -v sh)" -c 'mount -t tmpfs none /sys/kernel/tracing &&
		mount -t tmpfs none /sys/kernel/debug &&
		exec "$0" --bounding-set -sys_admin "$@"' "$setpriv_bin" \
		$PERF probe -x "$WL" probe_wl_global > "$tmpdir/err" 2>&1 &&
		fail "probe added without tracefs"
	grep -q "tracefs is not mounted" "$tmpdir/err" ||
		fail "no tracefs not said: $(cat "$tmpdir/err")"
	same_events "the no-tracefs case"
else
	echo "no unshare/setpriv here: the unmounted tracefs case is left out"
fi

# The listings.
$PERF probe -x "$WL" -V probe_wl_args > "$tmpdir/vars" || fail "-V failed"
grep -q "	int	n$" "$tmpdir/vars" && grep -q "	const char\*	s$" "$tmpdir/vars" ||
	fail "-V does not show n and s: $(cat "$tmpdir/vars")"
$PERF probe -x "$WL" -F 'probe_wl_*' > "$tmpdir/funcs" || fail "-F failed"
printf '%s\n' probe_wl_args probe_wl_call_a probe_wl_call_b probe_wl_global \
	probe_wl_local probe_wl_many > "$tmpdir/expect"
cmp -s "$tmpdir/funcs" "$tmpdir/expect" ||
	fail "-F lists: $(cat "$tmpdir/funcs")"
# -L reads the source where it was built (not copied into the VM).
if [ -r "$(dirname "$0")/../probe/probe-main.c" ]; then
	$PERF probe -x "$WL" -L probe_wl_args > "$tmpdir/lines" || fail "-L failed"
	grep -q "^<probe_wl_args@.*probe-main.c:0>$" "$tmpdir/lines" &&
		grep -q "^ *[0-9][0-9]*[[:space:]]*return 2 \* n;" "$tmpdir/lines" ||
		fail "-L does not show probe_wl_args: $(cat "$tmpdir/lines")"
else
	$PERF probe -x "$WL" -L probe_wl_args > "$tmpdir/lines" 2>&1 &&
		fail "-L without the source succeeded: $(cat "$tmpdir/lines")"
	grep -q "cannot open the source of probe_wl_args" "$tmpdir/lines" ||
		fail "-L without the source: $(cat "$tmpdir/lines")"
	echo "the workload's source is not here: -L checked for its error only"
fi

# Delete by glob: everything the test added goes, and a glob that hits
# nothing is an error.
$PERF probe -d "$G:*" > "$tmpdir/out" 2>&1 || fail "-d failed: $(cat "$tmpdir/out")"
grep -q "^Removed event: $G:probe_wl_args$" "$tmpdir/out" ||
	fail "-d did not report its removals: $(cat "$tmpdir/out")"
$PERF probe -q -d "$GL:*" || fail "-d of the library probes failed"
cp "$tmpdir/initial" "$tmpdir/before"
same_events "deleting the test's probes"
expect_error "\"$G:*\" does not hit any event" $PERF probe -d "$G:*"
# --target-ns: a workload only a private mount namespace has (a tmpfs
# there), probed from outside and counted exactly when run inside.
if unshare -m true 2>/dev/null && command -v nsenter > /dev/null; then
	ns=$tmpdir/ns
	mkdir "$ns"
	unshare -m "$(command -v sh)" -c "mount -t tmpfs none $ns && cp $WL $LIB $ns/ &&
		touch $ns/ready && exec sleep 60" &
	holder=$!
	i=0
	while [ ! -e "/proc/$holder/root$ns/ready" ]; do
		i=$((i + 1))
		[ $i -le 100 ] || fail "the private namespace did not get ready"
		sleep 0.1
	done
	[ -e "$ns/probe-wl" ] && fail "the namespace's tmpfs shows outside it"
	expect_error "process $holder sees no $ns/nothing" \
		$PERF probe --target-ns "$holder" -x "$ns/nothing" probe_wl_global
	$PERF probe -q --target-ns "$holder" -x "$ns/probe-wl" 'nsg=probe_wl_global' ||
		fail "--target-ns failed"
	$PERF stat -x, -o "$tmpdir/stat" -e $G:nsg -- \
		nsenter -t "$holder" -m -- "$ns/probe-wl" $N > /dev/null ||
		fail "perf stat in the namespace failed: $(cat "$tmpdir/stat")"
	check_count $G:nsg $N
	$PERF probe -q -d $G:nsg || fail "-d of the namespace's probe failed"
	kill "$holder"
	wait "$holder" 2>/dev/null
	same_events "the --target-ns probe"
else
	echo "no unshare or nsenter here: --target-ns is left out"
fi

# Kernel probes, where the kernel has them (our kernel in the VM does):
# the exact getppid calls of the syscalls workload, on entry and return.
if [ -w "$tracefs/kprobe_events" ] && grep -q ' __x64_sys_getppid$' /proc/kallsyms; then
	cat "$tracefs/kprobe_events" > "$tmpdir/kbefore"
	$PERF probe -q -d 'probe:ppid_*' 2>/dev/null
	$PERF probe -q -a 'ppid_in=__x64_sys_getppid' -a 'ppid_out=__x64_sys_getppid%return $retval' ||
		fail "kprobes on __x64_sys_getppid failed"
	grep -q '^p:probe/ppid_in __x64_sys_getppid' "$tracefs/kprobe_events" &&
		grep -q '^r[0-9]*:probe/ppid_out __x64_sys_getppid' "$tracefs/kprobe_events" ||
		fail "kprobe_events: $(cat "$tracefs/kprobe_events")"
	$PERF stat -x, -o "$tmpdir/kstat" -e probe:ppid_in,probe:ppid_out -- \
		$PERF test -w syscalls 500 0 0 || fail "perf stat of the kprobes failed"
	for ev in probe:ppid_in probe:ppid_out; do
		v=$(csv_value "$tmpdir/kstat" $ev)
		[ "$v" = 500 ] || fail "$ev counted '$v', the workload made 500 getppid calls"
	done
	# $retval: the parent's pid, which the workload's getppid returns;
	# the shell forks it (a command follows) and says its own pid.
	$PERF record -q -e probe:ppid_out -o "$tmpdir/k.data" -- \
		sh -c "$PERF test -w syscalls 3 0 0; echo \$\$ > $tmpdir/sh.pid" ||
		fail "perf record of the return kprobe failed"
	$PERF script -i "$tmpdir/k.data" -F trace > "$tmpdir/k.txt" ||
		fail "perf script of the return kprobe failed"
	# (the shell's own getppid, for $PPID, returns perf's pid)
	want=$(printf '0x%x' "$(cat "$tmpdir/sh.pid")")
	[ "$(grep -c " arg1=$want$" "$tmpdir/k.txt")" = 3 ] ||
		fail "not 3 returns with \$retval $want, the workload's parent: $(cat "$tmpdir/k.txt")"
	$PERF probe -q -d 'probe:ppid_*' || fail "-d of the kprobes failed"
	cat "$tracefs/kprobe_events" > "$tmpdir/know"
	cmp -s "$tmpdir/kbefore" "$tmpdir/know" ||
		fail "kprobes left behind: $(cat "$tmpdir/know")"
	echo "kprobes: exact counts on entry and return"
else
	echo "no writable kprobe_events or no __x64_sys_getppid here: the kernel probes are left out"
fi
echo "perf probe: counts, arguments, return values and errors as expected"

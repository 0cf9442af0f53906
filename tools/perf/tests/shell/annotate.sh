#!/bin/sh
# perf annotate --stdio: samples on the hot loop's instructions, as Linux perf annotate shows them
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/annotate.sh"
need_root
need_sampling
note_linux_perf
command -v objdump > /dev/null || skip "objdump missing (binutils): perf annotate disassembles with it"

copy_workload_binaries
ours=$tmpdir/ours.data
$PERF record -q -e cpu-clock -F 4000 -o "$ours" -- "$tmpdir/bin/perf" test -w cpuloop 0.5 ||
	fail "perf record failed"

# annotate FILE SYMBOL OBJECT MIN OUT: SYMBOL's annotation into OUT, with
# the title of OBJECT's code and at least MIN instructions.
annotate() {
	$PERF annotate -i "$1" --stdio "$2" > "$5" 2> "$5.err" ||
		fail "perf annotate $2 failed on $1: $(cat "$5.err")"
	head -n 1 "$5" | grep -Eq "^ Percent \|	Source code & Disassembly of $3 for cpu-clock \([0-9]+ samples, percent: local period\)$" ||
		fail "bad title of $2: $(head -n 2 "$5")"
	[ "$(insns "$5" | wc -l)" -ge "$4" ] ||
		fail "no instructions of $2: $(cat "$5")"
}

check_hot_loop() {
	annotate "$1" workload_hot_a perf 5 "$tmpdir/a.txt"
	share=$(insns "$tmpdir/a.txt" | loop_share)
	awk -v s="$share" 'BEGIN { exit !(s >= 90) }' ||
		fail "$share% of workload_hot_a's samples in its loop, expected at least 90%: $(cat "$tmpdir/a.txt")"
	# The percentages are of the symbol's samples: they add up to 100.
	insns "$tmpdir/a.txt" | awk '{ s += $1 } END { exit !(s > 99.8 && s < 100.2) }' ||
		fail "the percentages do not add up to 100: $(cat "$tmpdir/a.txt")"
	# -n: the samples, which add up to the title's count.
	$PERF annotate -i "$1" --stdio -n workload_hot_a > "$tmpdir/n.txt" ||
		fail "perf annotate -n failed"
	title=$(head -n 1 "$tmpdir/n.txt" | sed -E 's/.*\(([0-9]+) samples.*/\1/')
	sum=$(insns "$tmpdir/n.txt" | awk '{ s += $1 } END { print s }')
	[ "$title" = "$sum" ] || fail "-n: the instructions hold $sum samples, the title says $title"
	# Source lines with the line numbers of the workload's source.
	line=$(grep -n 'workload_sink += i ^ (i >> 3);' "$(dirname "$0")/../workloads/cpuloop.c" | head -n 1 | cut -d: -f1)
	if [ -n "$line" ] && grep -q 'workload_sink +=' "$tmpdir/a.txt"; then
		grep -Eq "^         : $line +workload_sink \+= i \^ \(i >> 3\);$" "$tmpdir/a.txt" ||
			fail "the source line is not numbered $line: $(grep 'workload_sink +=' "$tmpdir/a.txt")"
		$PERF annotate -i "$1" --stdio --no-source workload_hot_a > "$tmpdir/ns.txt" ||
			fail "--no-source failed"
		grep -q 'workload_sink +=' "$tmpdir/ns.txt" && fail "--no-source shows source lines"
		[ "$(insns "$tmpdir/ns.txt")" = "$(insns "$tmpdir/a.txt")" ] ||
			fail "--no-source changed the instructions"
	fi
	echo "ok: $1: $share% of workload_hot_a's samples in its loop"
}

# Title and instruction lines of every annotation, one annotation a
# line, as both tools print them (Linux perf numbers the other lines
# otherwise, and orders symbols of equal samples its own way; see the
# manual).  The sample counts must still come hottest first.
# Where our file has no build id of the vdso, Linux perf 6.1 annotates
# its vdso code as "perf-vdso.so-XXXXXX", with the samples on none of
# the instructions, which its own report and script leave unresolved:
# then the vdso's annotations are left out on both sides.
annotations() {
	grep -E '^ +[0-9]+\.[0-9]+ : +[0-9a-f]+: | Percent \|' "$1" |
		awk '/ Percent \|/ && NR > 1 { print "" } { printf "%s|", $0 } END { print "" }' |
		grep -Ev "^ Percent \|	Source code & Disassembly of (perf-vdso\.so-${2:+|$2})"
}

same_annotate() {
	$PERF annotate -i "$1" --stdio > "$tmpdir/ours.txt" 2> /dev/null ||
		fail "perf annotate failed on $1"
	"$LINUX_PERF" annotate -i "$1" --stdio > "$tmpdir/linux.txt" 2> /dev/null
	grep -q "${2:-workload_hot_a>:\$}" "$tmpdir/linux.txt" ||
		fail "Linux perf annotated nothing of $1: $(head "$tmpdir/linux.txt")"
	unnamed_vdso='perf-vdso\.so-'
	grep -q "Disassembly of $unnamed_vdso" "$tmpdir/linux.txt" || unnamed_vdso=
	annotations "$tmpdir/ours.txt" "${unnamed_vdso:+\[vdso\] }" | sort > "$tmpdir/ours.ann"
	annotations "$tmpdir/linux.txt" "${unnamed_vdso:+\[vdso\] }" | sort > "$tmpdir/linux.ann"
	cmp -s "$tmpdir/ours.ann" "$tmpdir/linux.ann" ||
		fail "annotations differ from Linux perf's on $1: $(diff "$tmpdir/linux.ann" "$tmpdir/ours.ann" | cut -c 1-300 | head -n 20)"
	grep 'Percent |' "$tmpdir/ours.txt" | sed -E 's/.*\(([0-9]+) samples.*/\1/' > "$tmpdir/counts"
	sort -rn "$tmpdir/counts" | cmp -s - "$tmpdir/counts" ||
		fail "annotations not hottest first: $(tr '\n' ' ' < "$tmpdir/counts")"
	echo "ok: $(wc -l < "$tmpdir/ours.ann") annotations of $1 as Linux perf's"
}

check_hot_loop "$ours"
if have_linux_perf; then
	linux=$tmpdir/linux.data
	"$LINUX_PERF" record -q -e cpu-clock -F 4000 -o "$linux" -- "$tmpdir/bin/perf" test -w cpuloop 0.5 \
		> /dev/null 2>&1 || fail "Linux perf record failed"
	check_hot_loop "$linux"
	same_annotate "$ours"
	same_annotate "$linux"
fi

# The vdso's code: from the build-id cache's copy of the recorded image,
# or this process's own when the recording's is not there (the same
# kernel, as here).  objdump runs in a child, which must be able to
# open what it is given.
check_vdso() {
	annotate "$1" __vdso_clock_gettime '\[vdso\]' 3 "$tmpdir/v.txt"
	echo "ok: $1: the vdso's __vdso_clock_gettime annotated"
}
vdso=$tmpdir/vdso.data
$PERF record -q -e cpu-clock -F 4000 -o "$vdso" -- "$tmpdir/bin/perf" test -w clock-reads 0.3 ||
	fail "perf record of clock-reads failed"
check_vdso "$vdso"
if have_linux_perf; then
	"$LINUX_PERF" record -q -e cpu-clock -F 4000 -o "$tmpdir/linux-vdso.data" -- \
		"$tmpdir/bin/perf" test -w clock-reads 0.3 > /dev/null 2>&1 ||
		fail "Linux perf record of clock-reads failed"
	check_vdso "$tmpdir/linux-vdso.data"
	# Linux perf has no build id of the vdso in our files (see
	# perf-record.txt), so it does not name its code there.
	same_annotate "$vdso" 'workload_clock_reads>:$'
	same_annotate "$tmpdir/linux-vdso.data" '<__vdso_clock_gettime@@LINUX_2.6>:$'
fi

# Errors: a clear reason and a non-zero exit.
expect_error() {
	pattern=$1
	shift
	$PERF annotate "$@" > "$tmpdir/e.out" 2> "$tmpdir/e.err" &&
		fail "perf annotate $* succeeded: $(cat "$tmpdir/e.out")"
	grep -q "$pattern" "$tmpdir/e.err" ||
		fail "perf annotate $*: expected '$pattern', got: $(cat "$tmpdir/e.err")"
}
expect_error "no samples in a symbol named 'no_such_symbol'" -i "$ours" --stdio no_such_symbol
expect_error "not found (install binutils, or give --objdump)" -i "$ours" --stdio \
	--objdump "$tmpdir/no-objdump" workload_hot_a
expect_error "cannot open $tmpdir/none.data" -i "$tmpdir/none.data" --stdio
expect_error "one symbol at most" -i "$ours" --stdio workload_hot_a workload_hot_b
# The object gone (and no build-id cache): its symbols are not known.
mv "$tmpdir/bin/perf" "$tmpdir/bin/perf.moved"
mkdir "$tmpdir/home"
HOME=$tmpdir/home expect_error "no samples in any symbol of perf" -i "$ours" --stdio -d perf
mv "$tmpdir/bin/perf.moved" "$tmpdir/bin/perf"
# -d keeps the symbols of the objects named.
$PERF annotate -i "$ours" --stdio -d libperf-hot.so > "$tmpdir/d.txt" || fail "-d failed"
[ "$(grep -c 'Percent |' "$tmpdir/d.txt")" -ge 1 ] &&
	! grep 'Percent |' "$tmpdir/d.txt" | grep -vq 'Disassembly of libperf-hot.so for' ||
	fail "-d libperf-hot.so: $(grep 'Percent |' "$tmpdir/d.txt")"
echo "ok: errors"

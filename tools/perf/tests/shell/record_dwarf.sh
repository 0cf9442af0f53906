#!/bin/sh
# --call-graph dwarf: user call chains unwound from the CFI of code built without frame pointers
. "$(dirname "$0")/lib/common.sh"
need_sampling
note_linux_perf

# cfi-wl (tests/dwarf) is built -O2 -fomit-frame-pointer and runs two
# known paths, through itself, its library and libc's qsort():
#   main -> unwind_spin_outer -> unwind_lib_spin
#   main -> unwind_sort_outer -> unwind_lib_sort -> qsort -> unwind_compare
# A private copy: a rebuild must not change what the files refer to.
mkdir "$tmpdir/bin"
src=$(dirname "$PERF")
cp "$src/cfi-wl" "$src/libcfi-wl.so" "$tmpdir/bin/" ||
	fail "the workload cfi-wl is not built beside perf"
wl=$tmpdir/bin/cfi-wl

ours=$tmpdir/ours.data
# Rings of 8 MiB hold the whole run (some 8 KiB a sample): under the
# debug kernel in a busy VM, perf once drained the default rings too
# late (24 LOST records), and the share of samples walked by compiled
# rules checked next fell to 30%.
if ! "$PERF" record -q -m 2048 -e cpu-clock -F 2000 --call-graph dwarf -o "$ours" \
	-- "$wl" 0.5 2>"$tmpdir/rec.err"; then
	on_counter_backend &&
		skip "this kernel's perf_counter cannot sample user registers and stacks yet: $(head -n 1 "$tmpdir/rec.err")"
	fail "record --call-graph dwarf failed: $(cat "$tmpdir/rec.err")"
fi

# Both paths whole, leaf first, from the folded call graph of the hot
# leaves (callee order: the leaf, its callers, main last).
folded() {
	"$PERF" report -i "$1" --stdio --no-children -g folded,0,callee \
		--sort sym 2>"$tmpdir/rep.err" | grep -v '^#' > "$tmpdir/folded.txt" ||
		fail "report -g folded failed on $1: $(cat "$tmpdir/rep.err")"
}
spin_path='unwind_lib_spin;unwind_spin_outer[^;]*;main;'
# libc's own frames between qsort and the comparison may have no symbol
# (a libc without its local symbols): any frames there.
sort_path='unwind_compare;([^;]*;)*[^;]*qsort[^;]*;unwind_lib_sort;unwind_sort_outer[^;]*;main;'
has_paths() {
	grep -Eq "$spin_path" "$tmpdir/folded.txt" &&
		grep -Eq "$sort_path" "$tmpdir/folded.txt"
}
# The compiled CFI rules (util/cfi-rules.c) give the frames libdwfl gives
# (PERF_UNWIND=dwfl walks with libdwfl alone): every sample the same,
# and at least $2 percent of the samples the rules are for walked by
# them alone, or the comparison would prove nothing.  Where a frame past
# the first has no CFI (ld.so's _start, which ends the chain of every
# sample of the loader's start-up), the rules step by frame pointer as
# libdwfl does; they leave to libdwfl a first frame without CFI, whose
# failure libdwfl tells.
# The samples of FILE at code without CFI, as PERF_UNWIND=stats counts.
no_cfi() {
	PERF_UNWIND=stats "$PERF" script -i "$1" -F ip 2>&1 > /dev/null |
		sed -n 's/^unwind: .*, \([0-9]*\) at code without CFI$/\1/p'
}

same_as_dwfl() {
	PERF_UNWIND=stats "$PERF" script -i "$1" -F tid,ip,sym,dso \
		> "$tmpdir/rules.script" 2>"$tmpdir/rules.err" ||
		fail "script failed on $1: $(cat "$tmpdir/rules.err")"
	PERF_UNWIND=dwfl "$PERF" script -i "$1" -F tid,ip,sym,dso \
		> "$tmpdir/dwfl.script" 2>/dev/null ||
		fail "script with PERF_UNWIND=dwfl failed on $1"
	cmp -s "$tmpdir/rules.script" "$tmpdir/dwfl.script" ||
		fail "compiled CFI rules and libdwfl disagree on $1: $(diff "$tmpdir/dwfl.script" "$tmpdir/rules.script" | head -n 20)"
	# Of the samples walked at all: not those outside any map, with a
	# stack size that lied or with nothing of the stack copied (the
	# kernel could not read the page: frequent under the debug kernel);
	# and not those that met code without CFI.
	set -- "$2" $(sed -n 's/^unwind: \([0-9]*\) samples .*, \([0-9]*\) walked by compiled rules, \([0-9]*\) unmapped, \([0-9]*\) bad, \([0-9]*\) empty, \([0-9]*\) at code without CFI$/\1 \2 \3 \4 \5 \6/p' "$tmpdir/rules.err")
	[ $# = 7 ] || fail "no unwind counts: $(cat "$tmpdir/rules.err")"
	walked=$(($2 - $4 - $5 - $6 - $7))
	[ "$1" = 0 ] || { [ "$walked" -gt 0 ] && [ $(($3 * 100)) -ge $((walked * $1)) ]; } ||
		fail "fewer than $1% of the $walked samples with CFI walked by compiled rules: $(cat "$tmpdir/rules.err")"
}

same_as_dwfl "$ours" 90

# Each process's Dwfl keeps the unwinder's entry for the process as
# its callbacks' argument.  The table of those entries grew (past 32
# processes) by moving them, and libdwfl went on reading the freed
# ones: chains cut short, a crash on a big system-wide file, a use
# after free under the sanitizers.  Forty processes, each walked by
# libdwfl alone (PERF_UNWIND=dwfl), must give what the rules give.
# Their samples in the loader's start-up end at ld.so's _start, which
# has no CFI: the rules' steps by frame pointer there are checked
# against libdwfl's too.
"$PERF" record -q -e page-faults -c 10 --call-graph dwarf,2048 \
	-o "$tmpdir/procs.data" -- sh -c \
	'i=0; while [ $i -lt 40 ]; do "$0" 0; i=$((i + 1)); done' "$wl" \
	2>"$tmpdir/rec.err" ||
	fail "record of forty processes failed: $(cat "$tmpdir/rec.err")"
pids=$("$PERF" script -i "$tmpdir/procs.data" -F pid 2>/dev/null | sort -u | wc -l)
[ "$pids" -gt 32 ] ||
	fail "samples of $pids processes: too few to grow the unwinder's table"
same_as_dwfl "$tmpdir/procs.data" 0
fp_steps=$(sed -n 's/^unwind: \([0-9]*\) frames stepped by frame pointer.*/\1/p' \
	"$tmpdir/rules.err")
[ "${fp_steps:-0}" -gt 0 ] ||
	fail "no frame stepped by frame pointer in forty start-ups: $(cat "$tmpdir/rules.err")"

folded "$ours"
has_paths || fail "the known call paths are not in the report: $(head -n 20 "$tmpdir/folded.txt")"
# Nearly every sample is unwound to main.
total=$(grep -c . "$tmpdir/folded.txt")
[ "$total" -gt 0 ] || fail "no call graph lines"
# Samples at code without CFI (the first instructions of the dynamic
# loader) are rare; more than 1% that fail means the unwinder does.
set -- $(sed -n 's/^Warning: \([0-9]*\) of \([0-9]*\) samples with a user stack.*/\1 \2/p' "$tmpdir/rep.err")
[ $# = 0 ] || [ $(($1 * 100)) -le "$2" ] ||
	fail "unwinding failed on a good recording: $(cat "$tmpdir/rep.err")"

# libdwfl looks one frame ahead (whether the caller is a signal frame)
# before it hands a frame over, so an object must be known to it before
# that.  It was not: in the first sample of a process whose walk met an
# object not seen yet, libdwfl went on by frame pointer, and where that
# held an outer frame (ld.so's dl_main at start-up), frames were
# skipped.  A uprobe on unwind_lib_mark (called once, first) makes such
# a sample: unwind_nofp_mid, in the program, keeps unwind_fp_outer's
# frame pointer, which skips unwind_fp_outer.
mark_path='unwind_lib_mark;unwind_nofp_mid;unwind_fp_outer;main;'
if [ "$(id -u)" = 0 ] && { [ -w /sys/kernel/tracing/uprobe_events ] ||
	[ -w /sys/kernel/debug/tracing/uprobe_events ]; }; then
	# A uprobe in $1 at $2 (NAME=WHERE) as event $3, recorded with
	# DWARF call chains of one run of the workload into $4.
	record_uprobe() {
		"$PERF" probe -q -x "$1" -a "$2" ||
			fail "perf probe -x $1 -a $2 failed"
		"$PERF" record -q -e "$3" --call-graph dwarf -o "$4" \
			-- "$wl" 0 2>"$tmpdir/rec.err"
		rc=$?
		"$PERF" probe -q -d "$3"
		[ $rc = 0 ] || fail "record of the uprobe $3 failed: $(cat "$tmpdir/rec.err")"
	}
	record_uprobe "$tmpdir/bin/libcfi-wl.so" dwarf_mark=unwind_lib_mark \
		probe_libcfi_wl:dwarf_mark "$tmpdir/uprobe.data"
	for how in stats dwfl; do
		PERF_UNWIND=$how "$PERF" report -i "$tmpdir/uprobe.data" --stdio \
			--no-children -g folded,0,callee --sort sym 2>/dev/null |
			grep -E '^[0-9.]+% ' > "$tmpdir/folded.txt"
		grep -Eq "^100.00% $mark_path" "$tmpdir/folded.txt" ||
			fail "PERF_UNWIND=$how: the uprobe's sample is not $mark_path: $(cat "$tmpdir/folded.txt")"
	done
	# A sample at the entry point of the dynamic loader (what the
	# kernel's work of an exec is sampled at) has no caller: its one
	# frame is the whole chain, not a walk that failed.
	ldso=/lib64/ld-linux-x86-64.so.2
	entry=$(od -An -tx8 -j24 -N8 "$ldso" | tr -d ' ')
	record_uprobe "$ldso" "dwarf_entry=0x$entry" \
		probe_ld_linux_x86_64:dwarf_entry "$tmpdir/entry.data"
	"$PERF" report -i "$tmpdir/entry.data" --stdio --no-children \
		> "$tmpdir/entry.txt" 2>&1 || fail "report of the entry sample failed"
	grep -q '^# Samples: 1 ' "$tmpdir/entry.txt" ||
		fail "no sample at $ldso's entry: $(grep '^# Samples' "$tmpdir/entry.txt")"
	grep -q 'could not be unwound' "$tmpdir/entry.txt" &&
		fail "the sample at $ldso's entry counted as an unwinding failure: $(head -n 2 "$tmpdir/entry.txt")"
else
	echo "not root or no uprobe_events: the walk of a first sample across objects is not checked"
fi

# An exec keeps the pid: a shell loop sampled first, then, in the same
# process, the workload.  Without address randomization both images load
# at the same addresses, so the unwinder must see that the objects it
# learnt before the exec are gone (it did not: 208 of 507 samples broke).
if setarch "$(uname -m)" -R true 2>/dev/null; then
	"$PERF" record -q -e cpu-clock -F 2000 --call-graph dwarf -o "$tmpdir/exec.data" -- \
		setarch "$(uname -m)" -R sh -c \
		'i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done; exec "$0" 0.4' "$wl" \
		2>/dev/null || fail "record of the exec workload failed"
	folded "$tmpdir/exec.data"
	has_paths || fail "the known paths broke after an exec: $(head -n 10 "$tmpdir/folded.txt")"
else
	echo "setarch -R cannot turn address randomization off here: the same-address exec is not checked"
fi

# Frame pointers on the same code: the chains are broken, the check
# above would fail.
fp=$tmpdir/fp.data
"$PERF" record -q -e cpu-clock -F 2000 -g -o "$fp" -- "$wl" 0.5 2>/dev/null ||
	fail "record -g failed"
folded "$fp"
has_paths && fail "frame pointers gave the whole paths: the check proves nothing"

# .debug_frame in a separate debug file: libcfi-wl-df.so is the library
# built without .eh_frame for its code, its CFI only in the file its
# .gnu_debuglink names.  Without that file the walk stops in the
# library; beside the library, or under --symfs only, it goes through.
df=$tmpdir/df
mkdir "$df"
cp "$src/cfi-wl" "$df/"
cp "$src/libcfi-wl-df.so" "$df/libcfi-wl.so"
"$PERF" record -q -e cpu-clock -F 2000 --call-graph dwarf -o "$tmpdir/df.data" \
	-- "$df/cfi-wl" 0.5 2>/dev/null || fail "record of the .debug_frame workload failed"
folded "$tmpdir/df.data"
grep -Eq "$spin_path" "$tmpdir/folded.txt" &&
	fail "unwound through the library without its debug file: the check proves nothing"
no_cfi_without=$(no_cfi "$tmpdir/df.data")
cp "$src/libcfi-wl-df.debug" "$df/"
# The rules are compiled from .debug_frame too, once per object, where
# libdwfl reads the debug file again in each process: with the file,
# the library's code is no longer "code without CFI" (the dynamic
# loader's first instructions still are: a tenth of the samples under
# emulation, more than half under the debug kernel).  Without the
# rules from .debug_frame the two counts are the same.
same_as_dwfl "$tmpdir/df.data" 90
no_cfi_with=$(no_cfi "$tmpdir/df.data")
[ -n "$no_cfi_without" ] && [ -n "$no_cfi_with" ] &&
	[ "$no_cfi_with" -lt "$no_cfi_without" ] ||
	fail ".debug_frame not compiled into rules: samples at code without CFI: $no_cfi_without without the debug file, $no_cfi_with with it"
folded "$tmpdir/df.data"
grep -Eq "$spin_path" "$tmpdir/folded.txt" ||
	fail ".debug_frame of the debug file beside the library not used: $(head -n 5 "$tmpdir/folded.txt")"
symfs=$tmpdir/symfs
mkdir -p "$symfs$df"
mv "$df/libcfi-wl-df.debug" "$df/cfi-wl" "$df/libcfi-wl.so" "$symfs$df/"
"$PERF" report -i "$tmpdir/df.data" --stdio --no-children -g folded,0,callee \
	--sort sym --symfs "$symfs" 2>/dev/null > "$tmpdir/folded.txt" ||
	fail "report --symfs failed"
grep -Eq 'unwind_lib_spin;unwind_spin_outer[^;]*;main' "$tmpdir/folded.txt" ||
	fail ".debug_frame under --symfs not used: $(grep unwind_lib_spin "$tmpdir/folded.txt" | head -n 3)"

# -g takes its mode from the perf config, as in Linux perf:
# call-graph.record-mode, and call-graph.dump-size for dwarf.
printf '[call-graph]\n\trecord-mode = dwarf\n\tdump-size = 4096\n' > "$tmpdir/perfconfig"
PERF_CONFIG=$tmpdir/perfconfig "$PERF" record -q -g -o "$tmpdir/cfg.data" -- true ||
	fail "record -g with call-graph.record-mode = dwarf failed"
"$PERF" report -i "$tmpdir/cfg.data" --header-only | grep '^# event :' |
	grep -q 'REGS_USER|STACK_USER.*sample_stack_user = 4096' ||
	fail "-g did not record dwarf with 4096 bytes of stack: $("$PERF" report -i "$tmpdir/cfg.data" --header-only | grep '^# event :')"

# perf sched timehist too: where the workload was preempted, its user
# frames after the kernel's (Linux perf 6.1's timehist shows the kernel
# frames only).  Two copies on one CPU preempt each other.
if { [ -d /sys/kernel/tracing/events/sched/sched_switch ] ||
     [ -d /sys/kernel/debug/tracing/events/sched/sched_switch ]; } &&
   command -v taskset > /dev/null; then
	"$PERF" record -q -e sched:sched_switch --call-graph dwarf \
		-o "$tmpdir/sched.data" -- taskset -c 0 sh -c \
		'"$0" 0.3 & "$0" 0.3; wait' "$wl" 2>"$tmpdir/sched.err" ||
		fail "record -e sched:sched_switch --call-graph dwarf failed: $(cat "$tmpdir/sched.err")"
	"$PERF" sched timehist -i "$tmpdir/sched.data" > "$tmpdir/timehist.txt" 2>&1 ||
		fail "sched timehist failed: $(head -n 3 "$tmpdir/timehist.txt")"
	grep -q 'cfi-wl.* <- unwind_' "$tmpdir/timehist.txt" ||
		fail "timehist shows no unwound frame of the workload: $(grep cfi-wl "$tmpdir/timehist.txt" | head -n 3)"
else
	echo "no sched:sched_switch tracepoint or no taskset: timehist's unwinding is not checked"
fi

# Where frame pointers give whole chains, the kernel's walk of them and
# the CFI give the same frames.  cfi-wl-fp is the workload built -O0
# with a frame in every function (at -O2 GCC sets up no frame in a leaf,
# and the frame-pointer chain of unwind_lib_spin lacks its caller, as it
# does for every -fomit-frame-pointer build).  Its spin loop's chains up
# to main, and the first caller of unwind_compare (in libc, whose code
# keeps no frame pointer past that; its function where libc has
# symbols), are compared; a path must have at
# least 1% of the samples: the rare sample in a prologue has no frame yet.
fp_paths() {
	"$PERF" report -i "$1" --stdio --no-children -g folded,0,callee \
		--sort sym 2>/dev/null | awk '
		/^[0-9.]+% unwind_lib_spin;/ { p = $2; sub(/;main;.*/, ";main", p) }
		/^[0-9.]+% unwind_compare;/ {
			split($2, f, ";")
			# A libc without symbols: the address, which the
			# kernel keeps as returned to, and DWARF less one.
			if (f[2] ~ /^0x[0-9a-f]+$/)
				f[2] = "(no symbol)"
			p = f[1] ";" f[2]
		}
		/^[0-9.]+% / && p != "" { sum[p] += $1; p = "" }
		END { for (p in sum) if (sum[p] >= 1) print p }' | sort
}
cp "$src/cfi-wl-fp" "$src/libcfi-wl-fp.so" "$tmpdir/bin/" ||
	fail "the workload cfi-wl-fp is not built beside perf"
"$PERF" record -q -e cpu-clock -F 2000 -g -o "$tmpdir/fp.data" \
	-- "$tmpdir/bin/cfi-wl-fp" 0.5 2>/dev/null || fail "record -g of cfi-wl-fp failed"
"$PERF" record -q -e cpu-clock -F 2000 --call-graph dwarf -o "$tmpdir/fpdw.data" \
	-- "$tmpdir/bin/cfi-wl-fp" 0.5 2>/dev/null ||
	fail "record --call-graph dwarf of cfi-wl-fp failed"
fp_paths "$tmpdir/fp.data" > "$tmpdir/fp.paths"
fp_paths "$tmpdir/fpdw.data" > "$tmpdir/fpdw.paths"
grep -qx 'unwind_lib_spin;unwind_spin_outer;main' "$tmpdir/fp.paths" ||
	fail "no whole frame-pointer chain of the spin loop: $(cat "$tmpdir/fp.paths")"
cmp -s "$tmpdir/fp.paths" "$tmpdir/fpdw.paths" ||
	fail "frame-pointer and DWARF chains differ: $(diff "$tmpdir/fp.paths" "$tmpdir/fpdw.paths")"

# A 32-bit task (PERF_SAMPLE_REGS_ABI_32): its registers in i386
# numbering, 4-byte stack words.  cfi-wl-32 is the workload linked
# static, library and libc in it.  Linux perf 6.1 with libunwind cannot
# unwind these ("target platform=x86 is not supported"): no comparison.
cp "$src/cfi-wl-32" "$tmpdir/bin/" || fail "the workload cfi-wl-32 is not built beside perf"
# A kernel without IA32 emulation cannot run it (126: not executable):
# 'make vmcheck' runs this part in a kernel that can.
"$tmpdir/bin/cfi-wl-32" 0 > /dev/null 2>&1
if [ $? = 126 ]; then
	echo "this kernel cannot run 32-bit programs (no IA32 emulation): the 32-bit part is left out"
else
	"$PERF" record -q -e cpu-clock -F 2000 --call-graph dwarf -o "$tmpdir/32.data" \
		-- "$tmpdir/bin/cfi-wl-32" 0.5 2>/dev/null || fail "record of the 32-bit workload failed"
	"$PERF" script -i "$tmpdir/32.data" -F uregs > "$tmpdir/32.regs" 2>&1 ||
		fail "script -F uregs failed: $(head -n 3 "$tmpdir/32.regs")"
	grep -q '^ *ABI:1 ' "$tmpdir/32.regs" ||
		fail "no sample of the 32-bit task has the 32-bit register ABI: $(sort "$tmpdir/32.regs" | cut -c1-40 | uniq -c | head -n 5)"
	folded "$tmpdir/32.data"
	has_paths ||
		fail "the known call paths of the 32-bit task are not whole: $(head -n 8 "$tmpdir/folded.txt")"
	same_as_dwfl "$tmpdir/32.data" 0
fi

# perf script shows the unwound frames too, the leaf first.
"$PERF" script -i "$ours" -F ip,sym > "$tmpdir/script.txt" 2>"$tmpdir/script.err" ||
	fail "script failed: $(cat "$tmpdir/script.err")"
grep -A2 'unwind_lib_spin$' "$tmpdir/script.txt" | grep -q 'unwind_spin_outer' ||
	fail "script: no unwind_spin_outer under unwind_lib_spin"

# A stack copy whose size says more than it has is not unwound, with one
# warning and a count; a copy cut short ends the chain early, no crash.
# A sample's dyn_size is its last 8 bytes (nothing follows STACK_USER):
# set it to 2^40 in the first sample with a stack, to 16 in the next two.
bad=$tmpdir/bad.data
cp "$ours" "$bad"
put_dyn_size() {	# file offset, then the 8 bytes as octal escapes
	printf "$2" | dd of="$bad" bs=1 seek="$1" conv=notrunc 2>/dev/null
}
"$PERF" script -D -i "$bad" | awk '
	/^[^ ]+ 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE/ {
		off = strtonum_hex($2); size = strtonum_hex(substr($3, 2))
		if (size >= 4096 && n++ < 3)
			print off + size - 8
	}
	function strtonum_hex(s,   v, i, c) {
		v = 0; s = tolower(s); sub(/^0x/, "", s); sub(/\]:$/, "", s)
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1
			v = v * 16 + c
		}
		return v
	}' > "$tmpdir/dyn.offsets"
[ "$(wc -l < "$tmpdir/dyn.offsets")" = 3 ] ||
	fail "fewer than 3 samples with a stack in $ours"
n=0
while read -r at; do
	n=$((n + 1))
	if [ $n = 1 ]; then
		put_dyn_size "$at" '\000\000\000\000\001\000\000\000'
	else
		put_dyn_size "$at" '\020\000\000\000\000\000\000\000'
	fi
done < "$tmpdir/dyn.offsets"
"$PERF" report -i "$bad" --stdio --no-children > /dev/null 2>"$tmpdir/bad.err" ||
	fail "report failed on damaged stack sizes: $(cat "$tmpdir/bad.err")"
grep -q '1 samples have a user stack whose size field is larger' "$tmpdir/bad.err" ||
	fail "no warning for the stack size that lied: $(cat "$tmpdir/bad.err")"

# Linux perf reads our recording with the same chains, and we read its
# recording as it does.  Linux perf shows functions inlined at a frame
# as frames of their own by default; ours never does (--no-inline).
have_linux_perf || exit 0
linux=$tmpdir/linux.data
$LINUX_PERF record -q -e cpu-clock -F 2000 --call-graph dwarf -o "$linux" \
	-- "$wl" 0.5 2>/dev/null || fail "Linux perf record --call-graph dwarf failed"
for data in "$ours" "$linux"; do
	COMPARE_GRAPHS=1
	same_report "$data" --no-children --no-inline
	same_report "$data" --no-children --no-inline -g folded,0,callee
	same_report "$data" --children --no-inline
	COMPARE_GRAPHS=
	"$PERF" script -i "$data" --no-inline > "$tmpdir/ours.script" 2>/dev/null
	$LINUX_PERF script -i "$data" --no-inline > "$tmpdir/linux.script" 2>/dev/null
	cmp -s "$tmpdir/ours.script" "$tmpdir/linux.script" ||
		fail "script differs on $data: $(diff "$tmpdir/linux.script" "$tmpdir/ours.script" | head -n 20)"
done
same_as_dwfl "$linux" 90
folded "$linux"
has_paths || fail "the known call paths are not in our report of Linux perf's file"
exit 0

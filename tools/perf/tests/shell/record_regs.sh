#!/bin/sh
# record --user-regs, --intr-regs, --user-callchains, --kernel-callchains; script -F uregs,iregs
. "$(dirname "$0")/lib/common.sh"
need_sampling
note_linux_perf

mkdir "$tmpdir/bin"
src=$(dirname "$PERF")
cp "$src/cfi-wl-fp" "$src/libcfi-wl-fp.so" "$tmpdir/bin/" ||
	fail "the workload cfi-wl-fp is not built beside perf"
wl=$tmpdir/bin/cfi-wl-fp

# Bad names are refused with the reason; '?' lists the names.
"$PERF" record --user-regs=ax,nosuch -o "$tmpdir/x.data" -- true 2>"$tmpdir/err" &&
	fail "an unknown register was accepted"
grep -q "unknown register 'nosuch'" "$tmpdir/err" ||
	fail "no reason for the refused register: $(cat "$tmpdir/err")"
"$PERF" record --intr-regs='?' -o "$tmpdir/x.data" -- true 2>"$tmpdir/err" &&
	fail "--intr-regs=? recorded"
grep -q '^available registers: AX BX CX DX SI DI BP SP IP FLAGS CS SS R8 .* R15 $' "$tmpdir/err" ||
	fail "--intr-regs=? did not list the registers: $(cat "$tmpdir/err")"
"$PERF" record --user-callchains -o "$tmpdir/x.data" -- true 2>"$tmpdir/err" &&
	fail "--user-callchains without call graphs was accepted"
grep -q 'add one' "$tmpdir/err" || fail "no reason given: $(cat "$tmpdir/err")"

# The registers named, and only those, in every sample.  The IP at the
# interrupt is the sample's IP; so is the user IP of a sample taken in
# user mode (one taken in the kernel has the user registers of its
# entry to the kernel, not compared).
data=$tmpdir/regs.data
"$PERF" record -q -e cpu-clock -F 1000 --user-regs=ax,bx,ip,r15 \
	--intr-regs=sp,ip,flags -o "$data" -- "$wl" 0.3 2>"$tmpdir/err" ||
	fail "record --user-regs --intr-regs failed: $(cat "$tmpdir/err")"
"$PERF" evlist -v -i "$data" > "$tmpdir/evlist" 2>&1 || fail "evlist failed"
grep -q 'sample_type: .*REGS_USER|REGS_INTR.*sample_regs_user: 0x800103, sample_regs_intr: 0x380' "$tmpdir/evlist" ||
	fail "the attr does not ask for the registers named: $(cat "$tmpdir/evlist")"
"$PERF" script -i "$data" -F ip,uregs,iregs > "$tmpdir/regs.txt" 2>"$tmpdir/err" ||
	fail "script -F uregs,iregs failed: $(cat "$tmpdir/err")"
awk '
	{ n++ }
	# " ip  ABI:2 SP:.. IP:.. FLAGS:..  ABI:2 AX:.. BX:.. IP:.. R15:.."
	$2 != "ABI:2" || $3 !~ /^SP:/ || $5 !~ /^FLAGS:/ { bad++; next }
	$4 != "IP:0x" $1 { bad++; next }
	$6 != "ABI:2" || $7 !~ /^AX:/ || $8 !~ /^BX:/ || $10 !~ /^R15:/ { bad++; next }
	$1 !~ /^ffff/ { umode++; if ($9 != "IP:0x" $1) differ++ }
	END { printf "%d %d %d %d\n", n, bad, umode, differ }' "$tmpdir/regs.txt" > "$tmpdir/counts"
read -r n bad umode differ < "$tmpdir/counts"
[ "$n" -ge 50 ] || fail "only $n samples"
[ "$bad" = 0 ] || fail "$bad of $n samples with other registers: $(head -n 3 "$tmpdir/regs.txt")"
[ "$umode" -gt 0 ] || fail "no sample in user mode of a workload that spins there"
[ "$differ" = 0 ] ||
	fail "$differ of $umode user-mode samples have a user IP that is not theirs: $(awk '$1 !~ /^ffff/' "$tmpdir/regs.txt" | head -n 3)"

# Which side's call chains: the other side's frames are gone.
chain_sides() {	# the file, then the record options
	f=$1
	shift
	"$PERF" record -q -e cpu-clock -F 2000 -g "$@" -o "$f" -- \
		"$wl" 0.3 2>/dev/null || fail "record -g $* failed"
	"$PERF" script -i "$f" -F ip,sym 2>/dev/null | awk '
		/^[ \t]*[0-9a-f]+ / { if ($1 ~ /^ffff/) k++; else u++ }
		END { printf "%d %d\n", k, u }'
}
set -- $(chain_sides "$tmpdir/both.data")
[ "$2" -gt 0 ] || fail "no user frames with -g"
# The workload enters the kernel rarely: a kernel frame may not be there.
kernel_seen=$1
set -- $(chain_sides "$tmpdir/user.data" --user-callchains)
[ "$1" = 0 ] && [ "$2" -gt 0 ] ||
	fail "--user-callchains: $1 kernel frames, $2 user frames"
"$PERF" evlist -v -i "$tmpdir/user.data" | grep -q 'exclude_callchain_kernel: 1' ||
	fail "--user-callchains did not set exclude_callchain_kernel"
set -- $(chain_sides "$tmpdir/kernel.data" --kernel-callchains)
"$PERF" evlist -v -i "$tmpdir/kernel.data" | grep -q 'exclude_callchain_user: 1' ||
	fail "--kernel-callchains did not set exclude_callchain_user"
# A sample in user mode has no frame then, not even its IP.
[ "$2" = 0 ] || fail "--kernel-callchains: $2 user frames"
set -- $(chain_sides "$tmpdir/two.data" --user-callchains --kernel-callchains)
"$PERF" evlist -v -i "$tmpdir/two.data" | grep -q 'exclude_callchain' &&
	fail "both options should leave both sides, as Linux perf documents"
[ "$2" -gt 0 ] || fail "--user-callchains --kernel-callchains: no user frames"
echo "kernel frames with -g: $kernel_seen"

# With --call-graph dwarf, --user-regs adds to what the unwinding needs.
"$PERF" record -q -e cpu-clock -F 500 --call-graph dwarf --user-regs=ax \
	-o "$tmpdir/dw.data" -- "$wl" 0.1 2>"$tmpdir/err" ||
	fail "record --call-graph dwarf --user-regs failed"
grep -q 'warning: --user-regs with --call-graph dwarf' "$tmpdir/err" ||
	fail "no warning that unwinding may need other registers: $(cat "$tmpdir/err")"
"$PERF" evlist -v -i "$tmpdir/dw.data" | grep -q 'sample_regs_user: 0x181,' ||
	fail "dwarf with --user-regs=ax does not sample AX, SP and IP: $("$PERF" evlist -v -i "$tmpdir/dw.data")"

# Linux perf prints the same registers of our file, and we of its file.
have_linux_perf || exit 0
$LINUX_PERF record -q -e cpu-clock -F 1000 --user-regs=ax,bx,ip,r15 \
	--intr-regs=sp,ip,flags -g -o "$tmpdir/linux.data" -- "$wl" 0.3 2>/dev/null ||
	fail "Linux perf record --user-regs --intr-regs failed"
"$PERF" record -q -e cpu-clock -F 1000 --user-regs=ax,bx,ip,r15 \
	--intr-regs=sp,ip,flags -g -o "$tmpdir/ours.data" -- "$wl" 0.3 2>/dev/null ||
	fail "record --user-regs --intr-regs -g failed"
for f in "$tmpdir/ours.data" "$tmpdir/linux.data"; do
	"$PERF" script -i "$f" -F comm,tid,time,ip,sym,uregs,iregs > "$tmpdir/ours.txt" 2>&1
	$LINUX_PERF script -i "$f" -F comm,tid,time,ip,sym,uregs,iregs > "$tmpdir/linux.txt" 2>&1
	cmp -s "$tmpdir/ours.txt" "$tmpdir/linux.txt" ||
		fail "script -F uregs,iregs differs from Linux perf's on $f: $(diff "$tmpdir/linux.txt" "$tmpdir/ours.txt" | head -n 10)"
done
exit 0

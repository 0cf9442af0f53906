#!/bin/sh
# perf report names C++ special and cloned functions, and Rust functions, as Linux perf does
. "$(dirname "$0")/lib/common.sh"
need_linux_perf
CC=${CC:-cc}
command -v "$CC" > /dev/null 2>&1 || skip "no C compiler ($CC) to build the workload"

# Hot functions under mangled names a compiler emits besides plain
# functions: thunks, special names, clones, a trailing part after a
# complete name, conversion operators, function pointer returns.  The
# workload is assembly so that every name is a function that gets
# samples, whatever the compiler would make of it.
names='_ZTv0_n24_NSt13basic_ostreamIwSt11char_traitsIwEED1Ev
_ZThn16_NK1D1gEv
_ZTch0_h16_N1D5cloneEv
_ZTV1A
_ZTI1A
_ZTS1A
_ZTT1D
_ZTC1D16_1B
_ZGVZ3foovE1x
_ZGRN2ns1rE1_
_ZTH1t
_ZTW1t
_ZGTt3fooi
_Z3fooi.part.0.cold
_ZTv0_n24_N1B1fEl.cold
_ZN1A1fEv$cold
_ZN1AcvmEv
_Z1gIiEPFT_vEv
_ZZ4mainENKUlvE_clEv
_ZN2ns1fIiEET_S1_
_ZN1m6Walker4spin17h58a3088c2ea54abeE
_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17h168e94e611939a97E
_RNvMCskK7mfDs1mzF_1mNtB2_6Walker4spin
_RINvCskK7mfDs1mzF_1m5outerNCNvB2_4main0EB2_'

src="$tmpdir/w.s"
{
	printf '\t.text\n'
	for n in $names; do
		printf '\t.globl "%s"\n\t.type "%s", @function\n\t.p2align 4\n' "$n" "$n"
		printf '"%s":\n\tmovl $1000000, %%eax\n1:\tdecl %%eax\n\tjnz 1b\n\tret\n' "$n"
		printf '\t.size "%s", .-"%s"\n' "$n" "$n"
	done
	printf '\t.globl main\n\t.type main, @function\nmain:\n'
	printf '\tpushq %%rbx\n\tmovl $40, %%ebx\n2:\n'
	for n in $names; do
		printf '\tcall "%s"\n' "$n"
	done
	printf '\tdecl %%ebx\n\tjnz 2b\n\tpopq %%rbx\n\txorl %%eax, %%eax\n\tret\n'
	printf '\t.size main, .-main\n\t.section .note.GNU-stack,"",@progbits\n'
} > "$src"
[ "$(uname -m)" = x86_64 ] || skip "the workload is x86-64 assembly"
"$CC" -no-pie -o "$tmpdir/w" "$src" 2> "$tmpdir/cc.err" ||
	skip "cannot build the workload: $(head -n 1 "$tmpdir/cc.err")"

$LINUX_PERF record -q -e cpu-clock:u -F 2000 -o "$tmpdir/w.data" -- "$tmpdir/w" 2>/dev/null ||
	fail "Linux perf record failed"
same_report "$tmpdir/w.data" --sort sym
same_report "$tmpdir/w.data" --sort dso,sym -n
# The names themselves, so that a change on both sides shows up too.
for want in 'virtual thunk to std::basic_ostream<wchar_t, std::char_traits<wchar_t> >::~basic_ostream()' \
	'construction vtable for B-in-D' 'reference temporary #1 for ns::r' \
	'virtual thunk to B::f(long)' 'A::operator unsigned long' \
	'm::Walker::spin' 'std::rt::lang_start::{{closure}}' '<m::Walker>::spin' \
	'm::outer::<m::main::{closure#0}>'; do
	grep -qF "] $want" "$tmpdir/ours.txt" || fail "no row for '$want'"
done
echo ok

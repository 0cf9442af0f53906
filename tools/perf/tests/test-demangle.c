// SPDX-License-Identifier: GPL-2.0
/*
 * C++ names as reports show them: functions without parameters, return
 * type or clone suffix; special names (thunks, vtables, ...) in full.
 * Rust names, legacy and v0.
 */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "../util/demangle.h"

/* Each mangled name of @cases must give the name beside it. */
static int check_names(struct test_ctx *ctx, const char * const (*cases)[2],
		       size_t nr, char *(*demangle)(const char *))
{
	size_t i;

	for (i = 0; i < nr; i++) {
		char *out = demangle(cases[i][0]);
		const char *shown = out;

		if (!shown)
			shown = "(null)";
		TEST_ASSERT(ctx, out && !strcmp(out, cases[i][1]),
			    "%s gave '%s', wanted '%s'", cases[i][0], shown,
			    cases[i][1]);
		free(out);
	}
	return TEST_OK;
}

int test__demangle(struct test_ctx *ctx)
{
	/*
	 * The expected names are what Linux perf 6.1 prints in perf report
	 * for a function symbol of that mangled name.
	 */
	static const char * const cases[][2] = {
		{ "_ZN3foo3barEv", "foo::bar" },
		{ "_ZNK3foo3bazEi", "foo::baz" },
		{ "_ZN5va_gc7reserveIP9tree_nodeEEvRP3vecIT_S_8vl_embedEjb",
		  "va_gc::reserve<tree_node*>" },
		{ "_Znwm", "operator new" },
		{ "_ZN3fooplERKS_", "foo::operator+" },
		{ "_ZN2ns1fIiEET_S1_", "ns::f<int>" },
		/* Special names keep their prefix and the full signature. */
		{ "_ZTv0_n24_NSt13basic_ostreamIwSt11char_traitsIwEED1Ev",
		  "virtual thunk to std::basic_ostream<wchar_t, std::char_traits<wchar_t> >::~basic_ostream()" },
		{ "_ZTv0_n24_N1B1fEl", "virtual thunk to B::f(long)" },
		{ "_ZThn16_NK1D1gEv", "non-virtual thunk to D::g() const" },
		{ "_ZThn8_N2ns1X3getIiEET_v",
		  "non-virtual thunk to int ns::X::get<int>()" },
		{ "_ZTch0_h16_N1D5cloneEv", "covariant return thunk to D::clone()" },
		{ "_ZTV1A", "vtable for A" },
		{ "_ZTI1A", "typeinfo for A" },
		{ "_ZTS1A", "typeinfo name for A" },
		{ "_ZTT1D", "VTT for D" },
		{ "_ZTC1D16_1B", "construction vtable for B-in-D" },
		{ "_ZGVZ3foovE1x", "guard variable for foo()::x" },
		{ "_ZGRN2ns1rE_", "reference temporary #0 for ns::r" },
		{ "_ZGRN2ns1rE1_", "reference temporary #1 for ns::r" },
		{ "_ZTH1t", "TLS init function for t" },
		{ "_ZTW1t", "TLS wrapper function for t" },
		{ "_ZGTt3fooi", "transaction clone for foo(int)" },
		{ "_ZGTn3fooi", "non-transaction clone for foo(int)" },
		{ "_ZGA3foov", "hidden alias for foo()" },
		/* Clones and other trailing parts are not shown. */
		{ "_Z3fooi.part.0.cold", "foo" },
		{ "_ZN1A1fEv.lto_priv.0", "A::f" },
		{ "_ZTv0_n24_N1B1fEl.cold", "virtual thunk to B::f(long)" },
		{ "_ZN1A1fEv$cold", "A::f" },
		{ "_Z3fooXYZ", "foo" },
		/* Names with spaces of their own, function pointer returns. */
		{ "_ZN1AcvmEv", "A::operator unsigned long" },
		{ "_ZN1AcvPFivEEv", "A::operator int (*)()" },
		{ "_Zli3_kmy", "operator\"\" _km" },
		{ "_ZZ4mainENKUlvE_clEv", "main::{lambda()#1}::operator()" },
		{ "_ZN12_GLOBAL__N_11A1fEv", "(anonymous namespace)::A::f" },
		{ "_Z1gIiEPFT_vEv", "g<int>" },
		{ "_ZNK2ns1fIiEEMNS_1AEFivEv", "ns::f<int>" },
		{ "_ZSt4endlIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_",
		  "std::endl<char, std::char_traits<char> >" },
	};

	if (check_names(ctx, cases, ARRAY_SIZE(cases), demangle_cxx))
		return TEST_FAIL;
	TEST_ASSERT(ctx, !demangle_cxx("main") && !demangle_cxx("_Zgarbage") &&
		    !demangle_cxx("_Z"),
		    "plain or bad names must stay as they are");
	return TEST_OK;
}

/*
 * Rust names as Linux perf 6.1 prints them in perf report, from the
 * symbols of a program built by rustc 1.95 with each mangling: legacy
 * names lose their hash and their "$u7b$"-style escapes, v0 names show
 * generics and impls as Rust writes them.
 */
int test__demangle_rust(struct test_ctx *ctx)
{
	static const char * const cases[][2] = {
		{ "_ZN1m6Walker4spin17h58a3088c2ea54abeE", "m::Walker::spin" },
		{ "_ZN1m5outer17ha04fcff85e42e735E", "m::outer" },
		{ "_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17h168e94e611939a97E",
		  "std::rt::lang_start::{{closure}}" },
		{ "_RNvMCskK7mfDs1mzF_1mNtB2_6Walker4spin", "<m::Walker>::spin" },
		{ "_RINvCskK7mfDs1mzF_1m5outerNCNvB2_4main0EB2_",
		  "m::outer::<m::main::{closure#0}>" },
		{ "_RINvNtNtCsjrHSEGnQ3l9_3std3sys9backtrace28___rust_begin_short_backtraceFEuuECskK7mfDs1mzF_1m",
		  "std::sys::backtrace::__rust_begin_short_backtrace::<fn(), ()>" },
		{ "_RNCINvNtCsjrHSEGnQ3l9_3std2rt10lang_startuE0CskK7mfDs1mzF_1m",
		  "std::rt::lang_start::<()>::{closure#0}" },
	};

	if (check_names(ctx, cases, ARRAY_SIZE(cases), demangle_rust))
		return TEST_FAIL;
	/* C++ names are not Rust's, even those that start alike. */
	TEST_ASSERT(ctx, !demangle_rust("_ZN3foo3barEv") &&
		    !demangle_rust("_ZN1A1fEv.lto_priv.0") &&
		    !demangle_rust("main"),
		    "a C++ or plain name was taken for a Rust one");
	return TEST_OK;
}

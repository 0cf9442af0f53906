// SPDX-License-Identifier: GPL-2.0
/*
 * C++ names as reports show them: no parameters, no return type.
 */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "../util/demangle.h"

int test__demangle(struct test_ctx *ctx)
{
	static const char * const cases[][2] = {
		{ "_ZN3foo3barEv", "foo::bar" },
		{ "_ZNK3foo3bazEi", "foo::baz" },
		{ "_ZN5va_gc7reserveIP9tree_nodeEEvRP3vecIT_S_8vl_embedEjb",
		  "va_gc::reserve<tree_node*>" },
		{ "_Znwm", "operator new" },
		{ "_ZN3fooplERKS_", "foo::operator+" },
		{ "_ZN2ns1fIiEET_S1_", "ns::f<int>" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *out = demangle_cxx(cases[i][0]);
		const char *shown = out;

		if (!shown)
			shown = "(null)";
		TEST_ASSERT(ctx, out && !strcmp(out, cases[i][1]),
			    "%s gave '%s', wanted '%s'", cases[i][0], shown,
			    cases[i][1]);
		free(out);
	}
	TEST_ASSERT(ctx, !demangle_cxx("main") && !demangle_cxx("_Zgarbage"),
		    "plain or bad names must stay as they are");
	return TEST_OK;
}

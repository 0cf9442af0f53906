// SPDX-License-Identifier: GPL-2.0
/*
 * Binary compatibility of our ABI header with the system's perf_event.h.
 */
#include <stdio.h>
#include "abi.h"
#include "tests.h"

int test__abi(struct test_ctx *ctx)
{
	int mismatches = abi_compare(stdout);

	TEST_ASSERT(ctx, mismatches == 0, "%d ABI mismatches", mismatches);
	return TEST_OK;
}

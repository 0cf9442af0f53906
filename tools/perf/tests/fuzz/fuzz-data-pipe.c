// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: perf.data read in pipe mode by every command that
 * reads it.
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	fuzz__init();
	fuzz__run_readers(data, size, true);
	return 0;
}

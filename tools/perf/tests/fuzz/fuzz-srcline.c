// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the DWARF reader behind the srcline and srcfile sort
 * keys (util/srcline.c over libdwfl) on an object a recording names,
 * which may be anything.  The input is that object's file; the lines of
 * a few file offsets are looked up in it, inside and outside a function.
 */
#include <string.h>
#include "../../util/dso.h"
#include "../../util/srcline.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	const u64 rels[] = { 0, 0x40, 0x1000, 0x1040, 0x1234, size / 2,
			     size ? size - 1 : 0, ~0ULL };
	struct srcline_cache *c;
	struct dso dso;
	const char *path;
	size_t i;

	fuzz__init();
	path = fuzz__get_file(data, size);
	memset(&dso, 0, sizeof(dso));
	/* The object as recorded, and where its symbols were read. */
	dso.long_name = path;
	dso.short_name = path;
	dso.symsrc = path;
	c = srcline_cache__new();
	for (i = 0; c && i < ARRAY_SIZE(rels); i++)
		srcline__find(c, &dso, rels[i], i & 1 ? "main" : NULL,
			      rels[i] & ~0xfffULL);
	srcline_cache__delete(c);
	fuzz__put_file();
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the symbol readers on what a recording points them
 * at, which may be anything.  An input that starts with 0x7f, as ELF
 * does, is an ELF object (symbols, PLT, build id), read from memory and
 * from a file; others are text: a kallsyms when the size is odd, a JIT's
 * perf map when it is even.
 */
#include <stdio.h>
#include <string.h>
#include "../../util/symbol.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

/* Look up a few addresses and a name, so the tables are used. */
static void query(struct symtab *st)
{
	static const u64 addrs[] = {
		0, 0x1000, 0x401000, 0xffffffff81000000ULL, ~0ULL,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(addrs); i++)
		symtab__find(st, addrs[i]);
	symtab__find_by_name(st, "main");
}

static void read_elf(const u8 *data, size_t size)
{
	struct build_id none = { 0 }, bid;
	struct symtab st = { 0 };
	const char *path;

	if (symtab__load_elf_image(&st, data, size, &none) >= 0)
		query(&st);
	symtab__exit(&st);
	path = fuzz__get_file(data, size);
	filename__read_build_id(path, &bid);
	fuzz__put_file();
}

static void read_text(const u8 *data, size_t size)
{
	struct symtab st = { 0 };
	const char *path = fuzz__get_file(data, size);

	if (size & 1) {
		if (symtab__load_kallsyms(&st, path, "_text", 0xffffffff81000000ULL,
					  NULL, NULL) >= 0)
			query(&st);
	} else if (symtab__load_perf_map(&st, path) >= 0) {
		query(&st);
	}
	symtab__exit(&st);
	fuzz__put_file();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	fuzz__init();
	if (size && data[0] == 0x7f)
		read_elf(data, size);
	else
		read_text(data, size);
	return 0;
}

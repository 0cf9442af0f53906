// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall names by number: lookups in the generated tables.
 */
#include <string.h>
#include "syscalltbl.h"

/* From scripts/gen-syscalltbl.sh. */
extern const char * const syscalltbl_64[];
extern const int syscalltbl_64_size;
extern const char * const syscalltbl_32[];
extern const int syscalltbl_32_size;

static const char * const *table(enum syscall_abi abi, int *size)
{
	if (abi == SYSCALL_ABI_32) {
		*size = syscalltbl_32_size;
		return syscalltbl_32;
	}
	*size = syscalltbl_64_size;
	return syscalltbl_64;
}

int syscalltbl_size(enum syscall_abi abi)
{
	int size;

	table(abi, &size);
	return size;
}

const char *syscalltbl_name(enum syscall_abi abi, long nr)
{
	int size;
	const char * const *t = table(abi, &size);

	return nr >= 0 && nr < size ? t[nr] : NULL;
}

long syscalltbl_nr(enum syscall_abi abi, const char *name)
{
	int size, i;
	const char * const *t = table(abi, &size);

	for (i = 0; i < size; i++)
		if (t[i] && !strcmp(t[i], name))
			return i;
	return -1;
}

const char *syscall_abi_name(enum syscall_abi abi)
{
	return abi == SYSCALL_ABI_32 ? "32-bit" : "64-bit";
}

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_SYSCALLTBL_H
#define __PERF_UTIL_SYSCALLTBL_H

/*
 * System call numbers and names of x86-64 tasks and of 32-bit tasks on
 * a 64-bit kernel, which use another table (getpid is 39 for one, 20
 * for the other).  The tables are generated from the uapi headers at
 * build time.
 */
enum syscall_abi {
	SYSCALL_ABI_64,
	SYSCALL_ABI_32,
	SYSCALL_NR_ABIS,
};

/* The name of syscall @nr, or NULL when the table has none. */
const char *syscalltbl_name(enum syscall_abi abi, long nr);

/* The number of syscall @name, or -1. */
long syscalltbl_nr(enum syscall_abi abi, const char *name);

/* Numbers go from 0 to syscalltbl_size(abi) - 1. */
int syscalltbl_size(enum syscall_abi abi);

/* "64-bit" or "32-bit". */
const char *syscall_abi_name(enum syscall_abi abi);

#endif /* __PERF_UTIL_SYSCALLTBL_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_SYSCALL_ARGS_H
#define __PERF_UTIL_SYSCALL_ARGS_H

/*
 * How to print the arguments and the return value of one syscall.  The
 * argument names and C types come from the tracefs format of
 * syscalls:sys_enter_NAME (stored in perf.data with the tracing data);
 * the type and the name choose the printing: fds as numbers, AT_FDCWD as
 * CWD, open and mmap flags as names, modes in octal, pointers in hex.
 */
#include <stdbool.h>
#include <stddef.h>
#include <perf/types.h>

struct tep_event;

enum syscall_arg_kind {
	SC_ARG_SIGNED,
	SC_ARG_UNSIGNED,
	SC_ARG_HEX,
	SC_ARG_FD,
	SC_ARG_DIRFD,
	SC_ARG_OPEN_FLAGS,
	SC_ARG_MODE,
	SC_ARG_MMAP_PROT,
	SC_ARG_MMAP_FLAGS,
};

struct syscall_arg {
	char name[24];
	enum syscall_arg_kind kind;
	bool is_int;		/* a C int: 32 bits of the register count */
};

struct syscall_fmt {
	bool ready;		/* filled by syscall_fmt__init() */
	int nr_args;		/* -1: no format, print six raw words */
	bool ret_hex;		/* returns an address (mmap, brk) */
	bool no_return;		/* exit, exit_group */
	struct syscall_arg args[6];
};

/*
 * Fill @f for syscall @name from its sys_enter format @e (NULL when
 * there is none).
 */
void syscall_fmt__init(struct syscall_fmt *f, const char *name,
		       const struct tep_event *e);

/*
 * "arg: value, ..." of one call into @buf; arguments that are 0 are
 * left out unless they are fds, as perf trace does.  @compat: the task
 * is 32-bit, its registers hold 32-bit values.
 */
void syscall_fmt__args(const struct syscall_fmt *f, const u64 *args,
		       bool compat, char *buf, size_t size);

/* "= value" or "= -1 ENOENT (No such file or directory)". */
void syscall_fmt__ret(const struct syscall_fmt *f, s64 ret, char *buf,
		      size_t size);

/* Whether @ret is an error return (-4095 .. -1). */
static inline bool syscall_ret_failed(s64 ret)
{
	return ret < 0 && ret >= -4095;
}

#endif /* __PERF_UTIL_SYSCALL_ARGS_H */

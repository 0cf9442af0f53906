/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_REGS_H
#define __PERF_UTIL_REGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <perf/types.h>
#include "event.h"

/*
 * x86-64 registers of samples (PERF_SAMPLE_REGS_USER and _INTR): the
 * bit of each in the attr's mask is its PERF_REG_X86_* number, and
 * they are named as Linux perf names them ("AX", "R8", ...).
 */

/* All a 64-bit sample can have: DS, ES, FS and GS are never sampled. */
#define REGS_X86_64_MASK	0xff0fffULL

/* What DWARF unwinding cannot do without: the IP and the stack pointer. */
#define REGS_X86_MIN_UNWIND	((1ULL << 7) | (1ULL << 8))

/* Register @bit's name, or NULL. */
const char *regs__name(unsigned int bit);

/*
 * Parse the comma-separated register names of @list (any case) into
 * *@mask; NULL or "" means all of them.  "?" prints the names to
 * @out and fails without a message.  0, or -1 with the reason in @err.
 */
int regs__parse(const char *list, u64 *mask, FILE *out, char *err,
		size_t errlen);

/* " ABI:N  AX:0x..." as Linux perf script prints a sample's registers. */
void regs__fprintf(const struct perf_sample_regs *r, FILE *out);

#endif /* __PERF_UTIL_REGS_H */

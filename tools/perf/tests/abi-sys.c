// SPDX-License-Identifier: GPL-2.0
/*
 * Table of ABI facts as seen through the system's <linux/perf_event.h>.
 *
 * This file must never include <linux/perf_counter.h>: its counterpart
 * abi-ours.c builds the same table from that header.
 */
#include <stddef.h>
#include <string.h>
#include <linux/perf_event.h>

#include "abi.h"

#ifdef _UAPI_LINUX_PERF_COUNTER_H
#error "abi-sys.c must not see <linux/perf_counter.h>"
#endif

#define ABI_PICK(ours, sys)	sys

/* First pass: type aliases and bitfield probes. */
#define T	ABI_DECL_T
#define F	ABI_SKIP
#define O	ABI_SKIP
#define B	ABI_DECL_B
#define C	ABI_SKIP
#define C2	ABI_SKIP
#include "abi-fields.h"

/* Second pass: the table. */
#define T	ABI_ITEM_T
#define F	ABI_ITEM_F
#define O	ABI_ITEM_O
#define B	ABI_ITEM_B
#define C	ABI_ITEM_C
#define C2	ABI_ITEM_C2

const struct abi_item abi_items_sys[] = {
#include "abi-fields.h"
};

const unsigned int abi_nr_items_sys = sizeof(abi_items_sys) / sizeof(abi_items_sys[0]);

// SPDX-License-Identifier: GPL-2.0
/*
 * Table of ABI facts as seen through our <linux/perf_counter.h>.
 *
 * This file must never include <linux/perf_event.h>: its counterpart
 * abi-sys.c builds the same table from that header.
 */
#include <stddef.h>
#include <string.h>
#include <linux/perf_counter.h>

#include "abi.h"

#ifdef _LINUX_PERF_EVENT_H
#error "abi-ours.c must not see <linux/perf_event.h>"
#endif

#define ABI_PICK(ours, sys)	ours

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

const struct abi_item abi_items_ours[] = {
#include "abi-fields.h"
};

const unsigned int abi_nr_items_ours = sizeof(abi_items_ours) / sizeof(abi_items_ours[0]);

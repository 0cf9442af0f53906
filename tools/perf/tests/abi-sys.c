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

/* First pass: the functions behind the bitfield items. */
#define B	ABI_DECL_B
#include "abi-fields.h"

/*
 * The table.  Each pass adds at most one item per line of the list:
 * lines that stand for several items are visited by several passes.
 */
const struct abi_item abi_items_sys[] = {
#define T	ABI_ITEM_SIZEOF
#define F	ABI_ITEM_OFFSETOF
#define A	ABI_ITEM_OFFSETOF
#define O	ABI_ITEM_OFFSETOF
#define B	ABI_ITEM_BITFIELD
#define C	ABI_ITEM_CONST
#define C2	ABI_ITEM_CONST2
#include "abi-fields.h"

#define T	ABI_ITEM_ALIGNOF
#define F	ABI_ITEM_MEMBER_SIZE
#define A	ABI_ITEM_MEMBER_SIZE
#include "abi-fields.h"

#define F	ABI_ITEM_SIGNED
#define A	ABI_ITEM_ELEM_SIGNED
#include "abi-fields.h"
};

const unsigned int abi_nr_items_sys = ARRAY_SIZE(abi_items_sys);

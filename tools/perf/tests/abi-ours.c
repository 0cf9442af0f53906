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

/* First pass: the functions behind the bitfield items. */
#define B	ABI_DECL_B
#include "abi-fields.h"

/*
 * The table.  Each pass adds at most one item per line of the list:
 * lines that stand for several items are visited by several passes.
 */
const struct abi_item abi_items_ours[] = {
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

const unsigned int abi_nr_items_ours = ARRAY_SIZE(abi_items_ours);

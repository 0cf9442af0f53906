/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Binary compatibility check between <linux/perf_counter.h> and the
 * system's <linux/perf_event.h>.
 *
 * The two headers cannot be included into one translation unit in an
 * arbitrary way, so each one is turned into a table of named numbers in
 * a file of its own (abi-ours.c, abi-sys.c), both generated from the
 * same list (abi-fields.h).  abi-compat.c then compares the tables entry
 * by entry.
 */
#ifndef __PERF_TESTS_ABI_H
#define __PERF_TESTS_ABI_H

#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>

/*
 * One compared quantity.  @value holds it, unless @probe is set: then
 * the value can only be found at run time (bitfield layouts) and
 * @probe computes it.
 */
struct abi_item {
	const char *name;
	unsigned long long value;
	unsigned long long (*probe)(void);
};

extern const struct abi_item abi_items_ours[];
extern const unsigned int abi_nr_items_ours;
extern const struct abi_item abi_items_sys[];
extern const unsigned int abi_nr_items_sys;

/* 64-bit FNV-1a hash of @len bytes at @buf. */
unsigned long long abi_hash_bytes(const void *buf, size_t len);

/*
 * Compare both tables, print every mismatch and a summary line to @out.
 * Returns the number of mismatches; 0 means binary compatible.
 */
int abi_compare(FILE *out);

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/*
 * Expansion helpers for abi-fields.h, shared by abi-ours.c and
 * abi-sys.c.  Each of those defines ABI_PICK(ours, sys) to select the
 * name valid on its side, then includes abi-fields.h several times,
 * each time with some of the list macros set to one of the helpers
 * below; the others default to ABI_SKIP.  The first pass declares the
 * bitfield probes (ABI_DECL_B), the following ones fill the table.
 *
 * Every ABI_ITEM_* helper expands to exactly one table entry, so a
 * list line that stands for several items (a type, a member) is
 * visited by several passes, one item each.  The item names always use
 * our spelling so that both tables carry identical names.
 */
#define ABI_SKIP(...)

/* Type @o on our side, @s on the system's; @kind is struct or union */
#define ABI_TYPE(kind, o, s)	typeof(kind ABI_PICK(o, s))

/* Member @f of an ABI_TYPE(), as an expression for sizeof and typeof */
#define ABI_MEMBER(kind, o, s, f)	((*(ABI_TYPE(kind, o, s) *)0).f)

/* 1 if the integer type @type is signed, 0 if it is unsigned */
#define ABI_IS_SIGNED(type)	(((type)(-1)) < (type)1)

/*
 * Decrement bitfield @f of an all-zero object, which sets all of its
 * bits, and hash the whole object: the hash changes with the position
 * and the width of the field.  Whether the value read back is negative
 * (a signed bitfield) is folded in as well.
 */
#define ABI_DECL_B(kind, o, s, f)					\
static unsigned long long abi_bf_##o##_##f(void)			\
{									\
	ABI_TYPE(kind, o, s) v;						\
	long long back;							\
									\
	memset(&v, 0, sizeof(v));					\
	back = --v.f;							\
	return abi_hash_bytes(&v, sizeof(v)) ^ (back < 0);		\
}

#define ABI_ITEM_SIZEOF(kind, o, s)					\
	{ "sizeof(" #o ")", sizeof(ABI_TYPE(kind, o, s)), NULL },

#define ABI_ITEM_ALIGNOF(kind, o, s)					\
	{ "alignof(" #o ")", alignof(ABI_TYPE(kind, o, s)), NULL },

#define ABI_ITEM_OFFSETOF(kind, o, s, f)				\
	{ "offsetof(" #o "." #f ")", offsetof(ABI_TYPE(kind, o, s), f), NULL },

#define ABI_ITEM_MEMBER_SIZE(kind, o, s, f)				\
	{ "sizeof(" #o "." #f ")", sizeof(ABI_MEMBER(kind, o, s, f)), NULL },

#define ABI_ITEM_SIGNED(kind, o, s, f)					\
	{ "signed(" #o "." #f ")",					\
	  ABI_IS_SIGNED(typeof(ABI_MEMBER(kind, o, s, f))), NULL },

/* For an array member: whether its elements are signed */
#define ABI_ITEM_ELEM_SIGNED(kind, o, s, f)				\
	{ "signed(" #o "." #f ")",					\
	  ABI_IS_SIGNED(typeof(ABI_MEMBER(kind, o, s, f)[0])), NULL },

#define ABI_ITEM_BITFIELD(kind, o, s, f)				\
	{ "bitfield(" #o "." #f ")", 0, abi_bf_##o##_##f },

#define ABI_ITEM_CONST(n)						\
	{ #n, (unsigned long long)(n), NULL },

#define ABI_ITEM_CONST2(ours, sys)					\
	{ #ours, (unsigned long long)(ABI_PICK(ours, sys)), NULL },

#endif /* __PERF_TESTS_ABI_H */

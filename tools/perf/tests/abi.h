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

/*
 * Expansion helpers for abi-fields.h, shared by abi-ours.c and
 * abi-sys.c.  Each of those defines ABI_PICK(ours, sys) to select the
 * name valid on its side, then includes abi-fields.h twice: once with
 * the ABI_DECL_* set (type aliases, bitfield probes), once with the
 * ABI_ITEM_* set (table entries).  The item names always use our
 * spelling so that both tables carry identical names.
 */
#define ABI_T(o, s)		ABI_PICK(abi_t_##o, abi_t_##s)

/* 1 if @x has a signed integer type, 0 otherwise (unsigned, array, ...) */
#define ABI_IS_SIGNED(x)	_Generic((x),			\
					 signed char: 1,	\
					 short: 1,		\
					 int: 1,		\
					 long: 1,		\
					 long long: 1,		\
					 default: 0)

#define ABI_SKIP(...)

#define ABI_DECL_T(kind, o, s)	typedef kind ABI_PICK(o, s) ABI_T(o, s);

/*
 * Set bitfield @f of an all-zero object to all ones and hash the whole
 * object: the hash changes with the position and the width of the
 * field.  Whether reading it back gives a negative number (a signed
 * bitfield) is folded in as well.
 */
#define ABI_DECL_B(o, s, f)						\
static unsigned long long abi_bf_##o##_##f(void)			\
{									\
	ABI_T(o, s) v;							\
	long long back;							\
									\
	memset(&v, 0, sizeof(v));					\
	v.f = ~v.f;							\
	back = v.f;							\
	return abi_hash_bytes(&v, sizeof(v)) ^ (back < 0);		\
}

#define ABI_ITEM_T(kind, o, s)						\
	{ "sizeof(" #o ")", sizeof(ABI_T(o, s)), NULL },		\
	{ "alignof(" #o ")", _Alignof(ABI_T(o, s)), NULL },

#define ABI_ITEM_O(o, s, f)						\
	{ "offsetof(" #o "." #f ")", offsetof(ABI_T(o, s), f), NULL },

#define ABI_ITEM_F(o, s, f)						\
	ABI_ITEM_O(o, s, f)						\
	{ "sizeof(" #o "." #f ")", sizeof(((ABI_T(o, s) *)0)->f), NULL }, \
	{ "signed(" #o "." #f ")", ABI_IS_SIGNED(((ABI_T(o, s) *)0)->f), NULL },

#define ABI_ITEM_B(o, s, f)						\
	{ "bitfield(" #o "." #f ")", 0, abi_bf_##o##_##f },

#define ABI_ITEM_C(n)							\
	{ #n, (unsigned long long)(n), NULL },

#define ABI_ITEM_C2(ours, sys)						\
	{ #ours, (unsigned long long)(ABI_PICK(ours, sys)), NULL },

#endif /* __PERF_TESTS_ABI_H */

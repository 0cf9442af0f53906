/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_CFI_RULES_H
#define __PERF_UTIL_CFI_RULES_H

#include <stdbool.h>
#include <perf/types.h>

/*
 * The call frame rules of one x86-64 object, compiled from its
 * .eh_frame once per code address and kept.  libdw finds and runs the
 * CFI program of an address; what it answers is reduced here to a
 * register and offset for the CFA and one small rule per register, so
 * that every later frame at that address is one table lookup and a few
 * loads from the stack copy.
 *
 * An address with no .eh_frame entry takes its rule from .debug_frame,
 * as libdwfl does: the object's own, or its separate debug file's.
 *
 * Only what the x86-64 psABI's compilers emit is compiled: CFA =
 * register + offset, registers saved at or computed from the CFA,
 * copied from another register, undefined or unchanged.  A rule that is
 * a general DWARF expression, a signal frame's, or an address with no
 * .eh_frame or .debug_frame entry is not: the caller walks such a stack with libdwfl,
 * which knows them all, so the result is the same either way.
 */
#define CFI_NR_REGS	17	/* DWARF registers 0-15, and 16: the return address */
#define CFI_REG_RA	16

enum cfi_how {
	CFI_UNDEFINED,		/* no value: the register is unset */
	CFI_SAME,		/* unchanged by the call */
	CFI_AT_CFA,		/* saved at CFA + off */
	CFI_VAL_CFA,		/* is CFA + off */
	CFI_REGISTER,		/* is register off of the callee */
};

enum cfi_status {
	CFI_RULE_OK,
	CFI_RULE_NONE,		/* no .eh_frame or .debug_frame entry for it */
	CFI_RULE_OTHER,		/* there is one, but not of the forms above */
};

#define CFI_NO_CFA	0xff	/* the CFA is undefined */

struct cfi_rule {
	u64 end;		/* where its row of the CFI program ends */
	s64 cfa_off;
	u8 cfa_reg;		/* or CFI_NO_CFA */
	u8 status;		/* enum cfi_status */
	u8 how[CFI_NR_REGS];	/* enum cfi_how */
	s32 off[CFI_NR_REGS];
	/* Bit per register, by how: CFI_SAME, AT_CFA, VAL_CFA, REGISTER. */
	u32 same;
	u32 at_cfa;
	u32 val_cfa;
	u32 copied;
};

/*
 * A frame's registers: val[r] is meaningful where bit r of set is.
 * Where bit r of saved is set too, val[r] is where the register was
 * saved, not read yet: most saved registers are never used again, and
 * a walk reads only those it uses (cfi_regs__get()).
 */
struct cfi_regs {
	u64 val[CFI_NR_REGS];
	u32 set;
	u32 saved;
};

struct cfi_table;
struct build_id;

/*
 * The rules of the object at @path, the file of the DSO @name with
 * build id @bid (for its separate debug file); NULL only when out of
 * memory.
 */
struct cfi_table *cfi_table__new(const char *path, const char *name,
				 const struct build_id *bid);
void cfi_table__delete(struct cfi_table *t);

/*
 * The separate debug file whose .debug_frame the rules come from, or
 * NULL: none, the object has its own debug sections, or the file has
 * no .debug_frame.
 */
const char *cfi_table__debug_file(struct cfi_table *t);

/*
 * The rule at object address @addr, compiled on first use; or NULL.  It
 * stays valid as long as the table.
 */
const struct cfi_rule *cfi_table__find(struct cfi_table *t, u64 addr);

typedef bool (*cfi_read_fn)(void *arg, u64 addr, u64 *val);

/*
 * The process's memory as a step reads it: the sample's copy of its
 * stack, @size bytes from address @sp, read in place; any other word
 * through @read.
 */
struct cfi_memory {
	u64 sp;
	const void *stack;
	u64 size;
	cfi_read_fn read;
	void *arg;
};

/*
 * Register @reg of @regs into *@val, read from @mem first where it is
 * still where it was saved (and kept read); false where it has no
 * value: unset, or saved where @mem cannot be read.
 */
bool cfi_regs__get(struct cfi_regs *regs, int reg,
		   const struct cfi_memory *mem, u64 *val);

/*
 * The callee's registers @regs made the caller's by rule @r (status
 * OK), words loaded from @mem.  True with the caller's return address
 * read, in regs->val[CFI_REG_RA]; false where the walk ends: the
 * return address is undefined, unknown, or zero.
 */
bool cfi_rule__step(const struct cfi_rule *r, struct cfi_regs *regs,
		    const struct cfi_memory *mem);

#endif /* __PERF_UTIL_CFI_RULES_H */

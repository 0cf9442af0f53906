// SPDX-License-Identifier: GPL-2.0
/*
 * Call frame rules compiled per code address, and one unwinding step
 * with them.  The step gives what libdwfl's CFI step gives for the same
 * rule (design.txt 9.6): a register whose rule cannot be evaluated is
 * left unset rather than failing the frame, and a walk ends without an
 * error where the return address is undefined, unknown or zero.
 */
#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>
#include "array.h"
#include "cfi-rules.h"
#include "symbol.h"

/*
 * The .debug_frame of an object, for code its .eh_frame has no entry
 * for: where libdwfl takes it from, the object itself when it has
 * DWARF, else its separate debug file.  Looked for on first need, once
 * for every process that maps the object; and the debug sections are
 * decompressed only where there is a .debug_frame to read.  libdwfl
 * decompresses them in each process's Dwfl, CFI or not: for the
 * dynamic loader's debug file, on every exec, it was a quarter of a
 * report's time.
 */
struct cfi_debug {
	bool tried;
	char *path;		/* the separate debug file with .debug_frame */
	int fd;
	Elf *elf;		/* the separate debug file's */
	Dwarf *dw;
	Dwarf_CFI *cfi;		/* NULL: none; owned by dw */
};

struct cfi_table {
	int fd;
	Elf *elf;
	Dwarf_CFI *eh;			/* NULL: no .eh_frame, or not x86-64 */
	char *name;			/* the DSO's name, for its debug file */
	struct build_id bid;
	struct cfi_debug debug;
	/*
	 * Rules are compiled once per row of a CFI program (the range of
	 * code one set of rules holds for), and found by the exact
	 * address asked for.  The slots are small: a sampled object of
	 * tens of thousands of distinct addresses (a compiler's) has a
	 * few thousand rows, and a rule in every address slot made the
	 * table megabytes of faults and cache misses.
	 */
	/*
	 * One rule per row met, and NONE's, in chunks that never move: a
	 * rule found stays where it is while more are compiled, so that
	 * callers may keep it (unwind.c's cache of frames).
	 */
	struct cfi_rule **chunks;
	u32 nr_rules, nr_chunks;
	struct cfi_slot *addrs;		/* address -> rule */
	u32 addrs_size, nr_addrs;
	struct cfi_slot *rows;		/* row start -> rule */
	u32 rows_size, nr_rows;
	u32 none;			/* NONE's rule + 1; 0: not made yet */
};

/* One entry of an open addressing table: a key and rule index + 1. */
struct cfi_slot {
	u64 key;
	u32 rule;			/* 0: a free slot */
};

struct cfi_table *cfi_table__new(const char *path, const char *name,
				 const struct build_id *bid)
{
	struct cfi_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->debug.fd = -1;
	t->name = strdup(name);
	if (bid)
		t->bid = *bid;
	t->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (t->fd < 0)
		return t;
	elf_version(EV_CURRENT);
	t->elf = elf_begin(t->fd, ELF_C_READ_MMAP, NULL);
	if (t->elf && gelf_getclass(t->elf) == ELFCLASS64 &&
	    elf_getident(t->elf, NULL)[EI_DATA] == ELFDATA2LSB)
		t->eh = dwarf_getcfi_elf(t->elf);
	return t;
}

static void debug_close(struct cfi_debug *d)
{
	if (d->dw)
		dwarf_end(d->dw);
	elf_end(d->elf);
	if (d->fd >= 0)
		close(d->fd);
	free(d->path);
}

/* The DWARF of @elf where it has a .debug_frame, else NULL. */
static Dwarf *frame_dwarf(Elf *elf)
{
	if (!elf__has_section(elf, ".debug_frame") &&
	    !elf__has_section(elf, ".zdebug_frame"))
		return NULL;
	return dwarf_begin_elf(elf, DWARF_C_READ, NULL);
}

/* The separate debug file of @t's object, if it has a .debug_frame. */
static void open_debug_file(struct cfi_table *t, struct cfi_debug *d)
{
	char path[PATH_MAX];

	if (!t->name ||
	    symfs__find_debug(t->name, &t->bid, path, sizeof(path)))
		return;
	d->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (d->fd >= 0)
		d->elf = elf_begin(d->fd, ELF_C_READ_MMAP, NULL);
	if (d->elf)
		d->dw = frame_dwarf(d->elf);
	if (d->dw)
		d->path = strdup(path);
}

/* The .debug_frame rules of @t's object, as libdwfl would find them. */
static Dwarf_CFI *debug_cfi(struct cfi_table *t)
{
	struct cfi_debug *d = &t->debug;

	if (d->tried)
		return d->cfi;
	d->tried = true;
	if (!t->elf)
		return NULL;
	/* DWARF of its own: libdwfl looks no further. */
	if (elf__has_section(t->elf, ".debug_") || elf__has_section(t->elf, ".zdebug_"))
		d->dw = dwarf_begin_elf(t->elf, DWARF_C_READ, NULL);
	if (!d->dw)
		open_debug_file(t, d);
	if (d->dw)
		d->cfi = dwarf_getcfi(d->dw);
	return d->cfi;
}

const char *cfi_table__debug_file(struct cfi_table *t)
{
	return debug_cfi(t) ? t->debug.path : NULL;
}

void cfi_table__delete(struct cfi_table *t)
{
	u32 i;

	if (!t)
		return;
	debug_close(&t->debug);
	if (t->eh)
		dwarf_cfi_end(t->eh);
	free(t->name);
	elf_end(t->elf);
	if (t->fd >= 0)
		close(t->fd);
	for (i = 0; i < t->nr_chunks; i++)
		free(t->chunks[i]);
	free(t->chunks);
	free(t->addrs);
	free(t->rows);
	free(t);
}

/* --- Compiling: what libdw says of an address, in a few bytes --- */

static bool fits_s32(s64 v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

/* The rule of one register from the location libdw describes. */
static bool compile_reg(struct cfi_rule *r, int reg, const Dwarf_Op *ops,
			const Dwarf_Op *ops_mem, size_t nops)
{
	size_t i = 1;
	s64 off = 0;

	if (nops == 0) {
		/* No ops: undefined, or (no location at all) unchanged. */
		if (ops && ops != ops_mem)
			return false;
		r->how[reg] = ops ? CFI_UNDEFINED : CFI_SAME;
		return true;
	}
	if (nops == 1 && ops[0].atom == DW_OP_regx &&
	    ops[0].number < CFI_NR_REGS) {
		r->how[reg] = CFI_REGISTER;
		r->off[reg] = ops[0].number;
		return true;
	}
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	if (i < nops && ops[i].atom == DW_OP_plus_uconst)
		off = (s64)ops[i++].number;
	r->how[reg] = CFI_AT_CFA;
	if (i < nops && ops[i].atom == DW_OP_stack_value) {
		r->how[reg] = CFI_VAL_CFA;
		i++;
	}
	r->off[reg] = off;
	return i == nops && fits_s32(off);
}

static bool compile_cfa(struct cfi_rule *r, Dwarf_Frame *frame)
{
	Dwarf_Op *ops;
	size_t nops;

	if (dwarf_frame_cfa(frame, &ops, &nops))
		return false;
	if (nops == 0) {
		r->cfa_reg = CFI_NO_CFA;
		return true;
	}
	if (nops != 1 || ops[0].atom != DW_OP_bregx ||
	    ops[0].number >= CFI_NR_REGS)
		return false;
	r->cfa_reg = ops[0].number;
	r->cfa_off = (s64)ops[0].number2;
	return true;
}

/* The frame libdw finds for @addr: from .eh_frame, else .debug_frame. */
static Dwarf_Frame *frame_at(struct cfi_table *t, u64 addr, u8 *src)
{
	Dwarf_Frame *frame;

	*src = 0;
	if (!t->eh)
		return NULL;
	if (!dwarf_cfi_addrframe(t->eh, addr, &frame))
		return frame;
	*src = 1;
	if (debug_cfi(t) && !dwarf_cfi_addrframe(t->debug.cfi, addr, &frame))
		return frame;
	return NULL;
}

/* The rules of @frame's row in @r (its status says how far they got). */
static void compile_rule(struct cfi_rule *r, Dwarf_Frame *frame,
			 bool signal)
{
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;
	int reg;

	r->status = CFI_RULE_OTHER;
	/* A signal frame changes how its caller's address is looked up. */
	if (signal || !compile_cfa(r, frame))
		return;
	for (reg = 0; reg < CFI_NR_REGS; reg++)
		if (dwarf_frame_register(frame, reg, ops_mem, &ops, &nops) ||
		    !compile_reg(r, reg, ops, ops_mem, nops))
			return;
	/* A step visits only the registers that have a rule. */
	r->same = 0;
	r->at_cfa = 0;
	r->val_cfa = 0;
	r->copied = 0;
	for (reg = 0; reg < CFI_NR_REGS; reg++) {
		if (r->how[reg] == CFI_SAME)
			r->same |= 1U << reg;
		else if (r->how[reg] == CFI_AT_CFA)
			r->at_cfa |= 1U << reg;
		else if (r->how[reg] == CFI_VAL_CFA)
			r->val_cfa |= 1U << reg;
		else if (r->how[reg] == CFI_REGISTER)
			r->copied |= 1U << reg;
	}
	r->status = CFI_RULE_OK;
}

/* --- The tables --- */

static struct cfi_slot *slot_find(struct cfi_slot *slots, u32 size, u64 key)
{
	u32 i;

	for (i = hash_slot(key, size); slots[i].rule; i = (i + 1) & (size - 1))
		if (slots[i].key == key)
			break;
	return &slots[i];
}

/* Twice the room, the entries hashed again. */
static int slots_grow(struct cfi_slot **slots, u32 *size)
{
	u32 new_size = *size ? 2 * *size : 256, i;
	struct cfi_slot *n;

	n = calloc(new_size, sizeof(*n));
	if (!n)
		return -1;
	for (i = 0; i < *size; i++)
		if ((*slots)[i].rule)
			*slot_find(n, new_size, (*slots)[i].key) = (*slots)[i];
	free(*slots);
	*slots = n;
	*size = new_size;
	return 0;
}

/*
 * Room in a table kept at most half full for one more entry: checked
 * on every lookup, the growing out of line.
 */
static inline int slots_reserve(struct cfi_slot **slots, u32 *size, u32 nr)
{
	if (2 * (nr + 1) <= *size)
		return 0;
	return slots_grow(slots, size);
}

#define RULES_PER_CHUNK	256

/* The rule of index + 1 @idx. */
static struct cfi_rule *rule_at(const struct cfi_table *t, u32 idx)
{
	idx--;
	return &t->chunks[idx / RULES_PER_CHUNK][idx % RULES_PER_CHUNK];
}

/* A new rule's index + 1, or 0 without memory. */
static u32 rule_new(struct cfi_table *t)
{
	u32 chunk = t->nr_rules / RULES_PER_CHUNK;

	if (chunk == t->nr_chunks) {
		struct cfi_rule **chunks, *rules;

		chunks = realloc(t->chunks, (chunk + 1) * sizeof(*chunks));
		if (!chunks)
			return 0;
		t->chunks = chunks;
		rules = malloc(RULES_PER_CHUNK * sizeof(*rules));
		if (!rules)
			return 0;
		chunks[t->nr_chunks++] = rules;
	}
	++t->nr_rules;
	memset(rule_at(t, t->nr_rules), 0, sizeof(struct cfi_rule));
	return t->nr_rules;
}

/* The rule for code with no CFI entry: one for the whole object. */
static u32 rule_none(struct cfi_table *t)
{
	if (!t->none) {
		t->none = rule_new(t);
		if (t->none)
			rule_at(t, t->none)->status = CFI_RULE_NONE;
	}
	return t->none;
}

/*
 * The rule of the row @frame belongs to, compiled on first use.  A row
 * is known by its start and its source (.eh_frame or .debug_frame); one
 * whose end differs from the known row's (FDEs that overlap) gets a
 * rule of its own.
 */
static u32 rule_of_row(struct cfi_table *t, Dwarf_Frame *frame, u8 src)
{
	Dwarf_Addr start, end;
	struct cfi_slot *slot;
	struct cfi_rule *r;
	bool signal;
	int ra;
	u32 idx;

	ra = dwarf_frame_info(frame, &start, &end, &signal);
	if (slots_reserve(&t->rows, &t->rows_size, t->nr_rows))
		return 0;
	slot = slot_find(t->rows, t->rows_size, start << 1 | src);
	if (slot->rule && rule_at(t, slot->rule)->end == end)
		return slot->rule;
	idx = rule_new(t);
	if (!idx)
		return 0;
	r = rule_at(t, idx);
	r->end = end;
	if (ra == CFI_REG_RA)
		compile_rule(r, frame, signal);
	else
		r->status = CFI_RULE_OTHER;
	if (!slot->rule) {
		slot->key = start << 1 | src;
		slot->rule = idx;
		t->nr_rows++;
	}
	return idx;
}

const struct cfi_rule *cfi_table__find(struct cfi_table *t, u64 addr)
{
	struct cfi_slot *slot;
	Dwarf_Frame *frame;
	u32 idx;
	u8 src;

	if (!t->eh)
		return NULL;
	if (slots_reserve(&t->addrs, &t->addrs_size, t->nr_addrs))
		return NULL;
	slot = slot_find(t->addrs, t->addrs_size, addr);
	if (slot->rule)
		return rule_at(t, slot->rule);
	frame = frame_at(t, addr, &src);
	idx = frame ? rule_of_row(t, frame, src) : rule_none(t);
	free(frame);
	if (!idx)
		return NULL;
	slot->key = addr;
	slot->rule = idx;
	t->nr_addrs++;
	return rule_at(t, idx);
}

/* --- Stepping --- */

static bool reg_known(const struct cfi_regs *regs, int reg)
{
	return regs->set & (1U << reg);
}

/*
 * Saved registers are nearly all in the stack copy: read there without
 * a call, the rest through the caller's function.
 */
static bool memory_read(const struct cfi_memory *mem, u64 addr, u64 *val)
{
	u64 off = addr - mem->sp;

	if (addr >= mem->sp && off < mem->size && mem->size - off >= 8) {
		memcpy(val, (const char *)mem->stack + off, sizeof(*val));
		return true;
	}
	return mem->read(mem->arg, addr, val);
}

static inline bool regs_get(struct cfi_regs *regs, int reg,
			    const struct cfi_memory *mem, u64 *val)
{
	u32 bit = 1U << reg;

	if (!(regs->set & bit))
		return false;
	if (regs->saved & bit) {
		regs->saved &= ~bit;
		if (!memory_read(mem, regs->val[reg], &regs->val[reg])) {
			regs->set &= ~bit;
			return false;
		}
	}
	*val = regs->val[reg];
	return true;
}

bool cfi_regs__get(struct cfi_regs *regs, int reg,
		   const struct cfi_memory *mem, u64 *val)
{
	return regs_get(regs, reg, mem, val);
}

bool cfi_rule__step(const struct cfi_rule *r, struct cfi_regs *regs,
		    const struct cfi_memory *mem)
{
	u64 cfa = 0, v, copies[CFI_NR_REGS];
	bool cfa_known = r->cfa_reg != CFI_NO_CFA &&
			 regs_get(regs, r->cfa_reg, mem, &cfa);
	u32 bits, from, copied = 0, copied_saved = 0;
	int reg;

	cfa += r->cfa_off;
	/* Copies of other registers (rare) take the callee's values. */
	for (bits = r->copied; bits; bits &= bits - 1) {
		reg = __builtin_ctz(bits);
		from = r->off[reg];
		if (!reg_known(regs, from))
			continue;
		copies[reg] = regs->val[from];
		copied |= 1U << reg;
		copied_saved |= (regs->saved >> from & 1) << reg;
	}
	/* Unchanged registers keep their values (where they have one). */
	regs->set &= r->same;
	regs->saved &= r->same;
	if (cfa_known) {
		/* Saved at the CFA: where, to be read if it is used. */
		for (bits = r->at_cfa | r->val_cfa; bits; bits &= bits - 1) {
			reg = __builtin_ctz(bits);
			regs->val[reg] = cfa + r->off[reg];
		}
		regs->set |= r->at_cfa | r->val_cfa;
		regs->saved |= r->at_cfa;
	}
	for (bits = copied; bits; bits &= bits - 1) {
		reg = __builtin_ctz(bits);
		regs->val[reg] = copies[reg];
	}
	regs->set |= copied;
	regs->saved |= copied_saved;
	return r->how[CFI_REG_RA] != CFI_UNDEFINED &&
	       regs_get(regs, CFI_REG_RA, mem, &v) && v;
}

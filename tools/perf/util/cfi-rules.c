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
	struct cfi_rule *rules;		/* open addressing by address */
	u32 size, nr;
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
	if (!t)
		return;
	debug_close(&t->debug);
	if (t->eh)
		dwarf_cfi_end(t->eh);
	free(t->name);
	elf_end(t->elf);
	if (t->fd >= 0)
		close(t->fd);
	free(t->rules);
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

static void compile_rule(struct cfi_table *t, struct cfi_rule *r)
{
	Dwarf_Op ops_mem[3], *ops;
	Dwarf_Addr start, end;
	Dwarf_Frame *frame;
	bool signal;
	size_t nops;
	int reg;

	r->status = CFI_RULE_NONE;
	if (!t->eh)
		return;
	if (dwarf_cfi_addrframe(t->eh, r->addr, &frame) &&
	    (!debug_cfi(t) ||
	     dwarf_cfi_addrframe(t->debug.cfi, r->addr, &frame)))
		return;
	r->status = CFI_RULE_OTHER;
	/* A signal frame changes how its caller's address is looked up. */
	if (dwarf_frame_info(frame, &start, &end, &signal) != CFI_REG_RA ||
	    signal || !compile_cfa(r, frame))
		goto out;
	for (reg = 0; reg < CFI_NR_REGS; reg++)
		if (dwarf_frame_register(frame, reg, ops_mem, &ops, &nops) ||
		    !compile_reg(r, reg, ops, ops_mem, nops))
			goto out;
	r->status = CFI_RULE_OK;
out:
	free(frame);
}

/* --- The table --- */

static int grow(struct cfi_table *t)
{
	u32 size = t->size ? 2 * t->size : 256, i, j;
	struct cfi_rule *rules = calloc(size, sizeof(*rules));

	if (!rules)
		return -1;
	for (i = 0; i < t->size; i++) {
		if (!t->rules[i].used)
			continue;
		for (j = hash_slot(t->rules[i].addr, size); rules[j].used;
		     j = (j + 1) & (size - 1))
			;
		rules[j] = t->rules[i];
	}
	free(t->rules);
	t->rules = rules;
	t->size = size;
	return 0;
}

const struct cfi_rule *cfi_table__find(struct cfi_table *t, u64 addr)
{
	struct cfi_rule *r;
	u32 i;

	if (!t->eh)
		return NULL;
	if (2 * (t->nr + 1) > t->size && grow(t))
		return NULL;
	for (i = hash_slot(addr, t->size); t->rules[i].used;
	     i = (i + 1) & (t->size - 1))
		if (t->rules[i].addr == addr)
			return &t->rules[i];
	r = &t->rules[i];
	r->used = 1;
	r->addr = addr;
	t->nr++;
	compile_rule(t, r);
	return r;
}

/* --- Stepping --- */

static void set_reg(struct cfi_regs *regs, int reg, u64 val)
{
	regs->val[reg] = val;
	regs->set |= 1U << reg;
}

static bool reg_known(const struct cfi_regs *regs, int reg)
{
	return regs->set & (1U << reg);
}

bool cfi_rule__step(const struct cfi_rule *r, const struct cfi_regs *in,
		    struct cfi_regs *out, cfi_read_fn read, void *arg)
{
	bool cfa_known = r->cfa_reg != CFI_NO_CFA &&
			 reg_known(in, r->cfa_reg);
	u64 cfa = cfa_known ? in->val[r->cfa_reg] + r->cfa_off : 0, v;
	int reg;

	out->set = 0;
	for (reg = 0; reg < CFI_NR_REGS; reg++) {
		switch (r->how[reg]) {
		case CFI_SAME:
			if (reg_known(in, reg))
				set_reg(out, reg, in->val[reg]);
			break;
		case CFI_REGISTER:
			if (reg_known(in, r->off[reg]))
				set_reg(out, reg, in->val[r->off[reg]]);
			break;
		case CFI_AT_CFA:
			if (cfa_known && read(arg, cfa + r->off[reg], &v))
				set_reg(out, reg, v);
			break;
		case CFI_VAL_CFA:
			if (cfa_known)
				set_reg(out, reg, cfa + r->off[reg]);
			break;
		default:
			break;
		}
	}
	return r->how[CFI_REG_RA] != CFI_UNDEFINED &&
	       reg_known(out, CFI_REG_RA) && out->val[CFI_REG_RA];
}

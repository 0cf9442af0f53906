// SPDX-License-Identifier: GPL-2.0
/*
 * The DWARF side of perf probe: where a function's parameters and
 * variables are at the probed address, turned into tracefs fetch
 * arguments ("%di:s32", "+16(%sp):u64", "+0(%si):string"), and the
 * variable and source line listings of -V and -L.  x86-64 registers.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "probe.h"
#include "symbol.h"

struct probe_dwarf {
	int fd;
	Elf *elf;
	Dwarf *dw;
	char path[PATH_MAX];	/* the file the DWARF came from */
};

/* The pt_regs names tracefs takes, by x86-64 DWARF register number. */
static const char * const x86_64_regs[] = {
	"ax", "dx", "cx", "bx", "si", "di", "bp", "sp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};

static const char *reg_name(unsigned int nr)
{
	return nr < ARRAY_SIZE(x86_64_regs) ?
	       x86_64_regs[nr] : NULL;
}

static int probe_dwarf__try(struct probe_dwarf *pd, const char *path)
{
	pd->fd = open(path, O_RDONLY);
	if (pd->fd < 0)
		return -errno;
	pd->elf = elf_begin(pd->fd, ELF_C_READ_MMAP, NULL);
	if (pd->elf && elf__has_section(pd->elf, ".debug_info"))
		pd->dw = dwarf_begin_elf(pd->elf, DWARF_C_READ, NULL);
	if (pd->dw) {
		snprintf(pd->path, sizeof(pd->path), "%s", path);
		return 0;
	}
	if (pd->elf)
		elf_end(pd->elf);
	close(pd->fd);
	pd->elf = NULL;
	return -ENOENT;
}

struct probe_dwarf *probe_dwarf__open(const char *path)
{
	struct probe_dwarf *pd = calloc(1, sizeof(*pd));
	struct build_id bid = { .size = 0 };
	char debug[PATH_MAX];

	if (!pd)
		return NULL;
	elf_version(EV_CURRENT);
	if (!probe_dwarf__try(pd, path))
		return pd;
	/* Stripped objects may keep their DWARF in a separate file. */
	filename__read_build_id(path, &bid);
	if (!symfs__find_debug(path, &bid, debug, sizeof(debug)) &&
	    !probe_dwarf__try(pd, debug))
		return pd;
	free(pd);
	return NULL;
}

void probe_dwarf__close(struct probe_dwarf *pd)
{
	if (!pd)
		return;
	dwarf_end(pd->dw);
	elf_end(pd->elf);
	close(pd->fd);
	free(pd);
}

const char *probe_dwarf__cu_name(struct probe_dwarf *pd, u64 vaddr)
{
	Dwarf_Die cu;

	if (!dwarf_addrdie(pd->dw, vaddr, &cu))
		return NULL;
	return dwarf_diename(&cu);
}

struct func_search {
	u64 vaddr;
	Dwarf_Die *out;
	bool found;
};

static int func_search_cb(Dwarf_Die *die, void *arg)
{
	struct func_search *fs = arg;
	Dwarf_Addr low;

	if (dwarf_lowpc(die, &low) || low != fs->vaddr)
		return DWARF_CB_OK;
	*fs->out = *die;
	fs->found = true;
	return DWARF_CB_ABORT;
}

/* The subprogram that starts at @vaddr (the symbol's address). */
static int find_func(struct probe_dwarf *pd, u64 vaddr, Dwarf_Die *func)
{
	struct func_search fs = { .vaddr = vaddr, .out = func };
	Dwarf_Die cu;

	if (!dwarf_addrdie(pd->dw, vaddr, &cu))
		return -ENOENT;
	dwarf_getfuncs(&cu, func_search_cb, &fs, 0);
	return fs.found ? 0 : -ENOENT;
}

/* The type of @die with typedefs and qualifiers looked through. */
static bool real_type(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute attr;
	Dwarf_Die cur = *die;
	int tag;

	do {
		if (!dwarf_attr_integrate(&cur, DW_AT_type, &attr) ||
		    !dwarf_formref_die(&attr, type))
			return false;
		cur = *type;
		tag = dwarf_tag(type);
	} while (tag == DW_TAG_typedef || tag == DW_TAG_const_type ||
		 tag == DW_TAG_volatile_type || tag == DW_TAG_restrict_type);
	return true;
}

/* The tracefs type of a value of @die's type: "s32", "x64"... */
static int fetch_type(Dwarf_Die *die, char *buf, size_t size)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc = DW_ATE_unsigned;
	Dwarf_Die type;
	int bytes, tag;

	if (!real_type(die, &type))
		return -ENOENT;
	tag = dwarf_tag(&type);
	if (tag == DW_TAG_pointer_type) {
		snprintf(buf, size, "x64");
		return 0;
	}
	if (tag != DW_TAG_base_type && tag != DW_TAG_enumeration_type)
		return -EINVAL;
	bytes = dwarf_bytesize(&type);
	if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
		return -EINVAL;
	if (dwarf_attr(&type, DW_AT_encoding, &attr))
		dwarf_formudata(&attr, &enc);
	if (enc == DW_ATE_float)
		return -EINVAL;
	snprintf(buf, size, "%c%d",
		 enc == DW_ATE_signed || enc == DW_ATE_signed_char ? 's' : 'u',
		 bytes * 8);
	return 0;
}

/* The C spelling of @die's type, as -V shows it: "const char*". */
static void type_name(Dwarf_Die *die, char *buf, size_t size)
{
	Dwarf_Attribute attr;
	Dwarf_Die type;
	const char *name;
	int tag;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) ||
	    !dwarf_formref_die(&attr, &type)) {
		snprintf(buf, size, "void");
		return;
	}
	tag = dwarf_tag(&type);
	if (tag == DW_TAG_pointer_type) {
		type_name(&type, buf, size - 1);
		strncat(buf, "*", size - strlen(buf) - 1);
		return;
	}
	if (tag == DW_TAG_const_type || tag == DW_TAG_volatile_type) {
		char inner[128];

		type_name(&type, inner, sizeof(inner));
		snprintf(buf, size, "%s %s",
			 tag == DW_TAG_const_type ? "const" : "volatile", inner);
		return;
	}
	name = dwarf_diename(&type);
	snprintf(buf, size, "%s%s",
		 tag == DW_TAG_structure_type ? "struct " :
		 tag == DW_TAG_union_type ? "union " :
		 tag == DW_TAG_enumeration_type ? "enum " : "",
		 name ?: "(anon)");
}

/*
 * The CFA at @pc from the call frame information: a register and an
 * offset, as "+OFF(%reg)" needs them.
 */
static int cfa_at(struct probe_dwarf *pd, u64 pc, const char **reg,
		  long long *off)
{
	Dwarf_CFI *cfis[2] = { dwarf_getcfi(pd->dw),
			       dwarf_getcfi_elf(pd->elf) };
	Dwarf_Frame *frame;
	Dwarf_Op *ops;
	size_t nops;
	int i;

	for (i = 0; i < 2; i++) {
		if (!cfis[i] || dwarf_cfi_addrframe(cfis[i], pc, &frame))
			continue;
		/* libdw gives a register-plus-offset rule as one bregx. */
		if (!dwarf_frame_cfa(frame, &ops, &nops) && nops == 1 &&
		    ops[0].atom == DW_OP_bregx) {
			*reg = reg_name((unsigned int)ops[0].number);
			*off = (long long)ops[0].number2;
			free(frame);
			return *reg ? 0 : -EINVAL;
		}
		free(frame);
	}
	return -ENOENT;
}

/* Where @func's frame base is at @pc, as a register and an offset. */
static int frame_base_at(struct probe_dwarf *pd, Dwarf_Die *func, u64 pc,
			 const char **reg, long long *off)
{
	Dwarf_Attribute attr;
	Dwarf_Op *ops;
	size_t nops;

	if (!dwarf_attr(func, DW_AT_frame_base, &attr) ||
	    dwarf_getlocation_addr(&attr, pc, &ops, &nops, 1) != 1 ||
	    nops != 1)
		return -ENOENT;
	if (ops[0].atom == DW_OP_call_frame_cfa)
		return cfa_at(pd, pc, reg, off);
	if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		*reg = reg_name(ops[0].atom - DW_OP_breg0);
		*off = (long long)ops[0].number;
		return *reg ? 0 : -EINVAL;
	}
	return -EINVAL;
}

static bool at_entry(Dwarf_Die *func, u64 pc)
{
	Dwarf_Addr low;

	return !dwarf_lowpc(func, &low) && low == pc;
}

/*
 * The location of @var at @pc as a fetch argument: "%di" for a value in
 * a register, "+16(%sp)" for one in memory.  @in_mem says which.
 */
static int var_location(struct probe_dwarf *pd, Dwarf_Die *func,
			Dwarf_Die *var, u64 pc, char *buf, size_t size,
			bool *in_mem)
{
	Dwarf_Attribute attr;
	const char *reg;
	long long off;
	Dwarf_Op *ops;
	size_t nops;
	int atom;

	if (!dwarf_attr(var, DW_AT_location, &attr) ||
	    dwarf_getlocation_addr(&attr, pc, &ops, &nops, 1) != 1 ||
	    nops != 1)
		return -ENOENT;
	atom = ops[0].atom;
	*in_mem = true;
	if (atom >= DW_OP_reg0 && atom <= DW_OP_reg31) {
		*in_mem = false;
		reg = reg_name(atom - DW_OP_reg0);
		off = 0;
	} else if (atom == DW_OP_regx) {
		*in_mem = false;
		reg = reg_name((unsigned int)ops[0].number);
		off = 0;
	} else if (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) {
		reg = reg_name(atom - DW_OP_breg0);
		off = (long long)ops[0].number;
	} else if (atom == DW_OP_fbreg) {
		if (frame_base_at(pd, func, pc, &reg, &off))
			return -EINVAL;
		off += (long long)ops[0].number;
	} else {
		return -EINVAL;
	}
	if (!reg)
		return -EINVAL;
	/*
	 * At the entry the stack pointer is just below the return
	 * address: a slot under it belongs to the frame the prologue is
	 * about to set up and holds nothing yet (unoptimized code keeps
	 * its parameters there).
	 */
	if (*in_mem && !strcmp(reg, "sp") && off < 8 && at_entry(func, pc))
		return -EAGAIN;
	if (*in_mem)
		snprintf(buf, size, "%+lld(%%%s)", off, reg);
	else
		snprintf(buf, size, "%%%s", reg);
	return 0;
}

/* The parameter or variable @name of @func (its top-level scope). */
static int find_var(Dwarf_Die *func, const char *name, Dwarf_Die *var)
{
	Dwarf_Die child;

	if (dwarf_child(func, &child))
		return -ENOENT;
	do {
		int tag = dwarf_tag(&child);
		const char *n = dwarf_diename(&child);

		if ((tag == DW_TAG_formal_parameter ||
		     tag == DW_TAG_variable) && n && !strcmp(n, name)) {
			*var = child;
			return 0;
		}
	} while (!dwarf_siblingof(&child, &child));
	return -ENOENT;
}

/* Field names tracefs accepts: letters, digits and '_'. */
static void field_name(const char *text, char *buf, size_t size)
{
	size_t i;

	for (i = 0; text[i] && i + 1 < size; i++) {
		char c = text[i];

		buf[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') ? c : '_';
	}
	buf[i] = '\0';
}

static struct probe_arg *next_arg(struct probe_point *pp)
{
	if (pp->nr_args >= PROBE_MAX_ARGS) {
		fprintf(stderr, "perf probe: more than %d arguments\n",
			PROBE_MAX_ARGS);
		return NULL;
	}
	return &pp->args[pp->nr_args++];
}

/* A string at what a char pointer (or array) @var points to. */
static int string_fetch(Dwarf_Die *var, const char *loc, bool in_mem,
			char *buf, size_t size)
{
	Dwarf_Die type;
	int tag;

	if (!real_type(var, &type))
		return -EINVAL;
	tag = dwarf_tag(&type);
	if (tag == DW_TAG_array_type && in_mem)
		snprintf(buf, size, "%s:string", loc);
	else if (tag == DW_TAG_pointer_type)
		snprintf(buf, size, "+0(%s):string", loc);
	else
		return -EINVAL;
	return 0;
}

static void say_no_location(const char *var, const char *func, int err)
{
	if (err == -EAGAIN)
		fprintf(stderr, "perf probe: at the entry of %s, '%s' is not stored yet (it goes into the frame that the function's prologue sets up): probe after the prologue (%s+OFF, see 'perf probe -L %s'), or fetch the register it is passed in\n",
			func, var, func, func);
	else if (err == -ENOENT)
		fprintf(stderr, "perf probe: '%s' has no location at this point of %s (optimized out): see which variables are there with 'perf probe -V %s'\n",
			var, func, func);
	else
		fprintf(stderr, "perf probe: the location of '%s' in %s is a DWARF expression that probes cannot fetch: take the value from a register (%%di, %%si...) instead\n",
			var, func);
}

/* "name[:type]" of variable @var, as the field @field. */
static int var_arg(struct probe_dwarf *pd, Dwarf_Die *func, Dwarf_Die *var,
		   const char *fname, u64 pc, const char *type,
		   const char *field, struct probe_point *pp)
{
	const char *vname = dwarf_diename(var);
	char loc[96], t[16];
	struct probe_arg *a;
	bool in_mem;
	int err;

	err = var_location(pd, func, var, pc, loc, sizeof(loc), &in_mem);
	if (err) {
		say_no_location(vname, fname, err);
		return -1;
	}
	a = next_arg(pp);
	if (!a)
		return -1;
	snprintf(a->name, sizeof(a->name), "%s", field);
	if (type && !strcmp(type, "string")) {
		if (string_fetch(var, loc, in_mem, a->fetch, sizeof(a->fetch))) {
			fprintf(stderr, "perf probe: '%s' is no char pointer or array: it cannot be read as a string\n",
				vname);
			return -1;
		}
		return 0;
	}
	if (!type) {
		if (fetch_type(var, t, sizeof(t))) {
			fprintf(stderr, "perf probe: '%s' is no integer or pointer: give it a type ('%s:u64') or fetch a part of it by its offset\n",
				vname, vname);
			return -1;
		}
		type = t;
	}
	snprintf(a->fetch, sizeof(a->fetch), "%s:%s", loc, type);
	return 0;
}

/* $params: every formal parameter, named after itself. */
static int params_args(struct probe_dwarf *pd, Dwarf_Die *func,
		       const char *fname, u64 pc, struct probe_point *pp)
{
	Dwarf_Die child;

	if (dwarf_child(func, &child))
		return 0;
	do {
		const char *n = dwarf_diename(&child);

		if (dwarf_tag(&child) != DW_TAG_formal_parameter || !n)
			continue;
		if (var_arg(pd, func, &child, fname, pc, NULL, n, pp))
			return -1;
	} while (!dwarf_siblingof(&child, &child));
	return 0;
}

/* $retval typed as the function's return type, when it has one we know. */
static int retval_arg(Dwarf_Die *func, const char *field,
		      struct probe_point *pp)
{
	struct probe_arg *a = next_arg(pp);
	char t[16];

	if (!a)
		return -1;
	snprintf(a->name, sizeof(a->name), "%s", field);
	if (!fetch_type(func, t, sizeof(t)))
		snprintf(a->fetch, sizeof(a->fetch), "$retval:%s", t);
	else
		snprintf(a->fetch, sizeof(a->fetch), "$retval");
	return 0;
}

int probe_dwarf__arg(struct probe_dwarf *pd, u64 vaddr, const char *func,
		     const char *arg, bool ret, struct probe_point *pp)
{
	const char *eq = strchr(arg, '='), *colon, *expr = eq ? eq + 1 : arg;
	char field[64], name[64];
	Dwarf_Die fdie, var;

	if (find_func(pd, vaddr, &fdie)) {
		fprintf(stderr, "perf probe: the DWARF of %s has no function at 0x%llx (%s): rebuild it with -g\n",
			pd->path, (unsigned long long)vaddr, func);
		return -1;
	}
	if (eq)
		snprintf(field, sizeof(field), "%.*s", (int)(eq - arg), arg);
	else
		field_name(arg, field, sizeof(field));
	if (!strcmp(expr, "$params"))
		return params_args(pd, &fdie, func, pp->vaddr, pp);
	if (!strcmp(expr, "$retval")) {
		if (!eq)
			snprintf(field, sizeof(field), "arg%d", pp->nr_args + 1);
		return retval_arg(&fdie, field, pp);
	}
	colon = strchr(expr, ':');
	snprintf(name, sizeof(name), "%.*s",
		 colon ? (int)(colon - expr) : (int)strlen(expr), expr);
	if (ret) {
		fprintf(stderr, "perf probe: '%s': a return probe sees only $retval: the variables of %s are gone when it returns\n",
			arg, func);
		return -1;
	}
	if (find_var(&fdie, name, &var)) {
		fprintf(stderr, "perf probe: %s has no parameter or variable '%s': see which there are with 'perf probe -V %s'\n",
			func, name, func);
		return -1;
	}
	return var_arg(pd, &fdie, &var, func, pp->vaddr,
		       colon ? colon + 1 : NULL, field, pp);
}

int probe_dwarf__print_vars(struct probe_dwarf *pd, u64 vaddr,
			    const char *func)
{
	Dwarf_Die fdie, child;
	char type[128], loc[96];
	bool in_mem;

	if (find_func(pd, vaddr, &fdie) || dwarf_child(&fdie, &child)) {
		fprintf(stderr, "perf probe: the DWARF of %s says nothing of %s's variables\n",
			pd->path, func);
		return -1;
	}
	printf("Available variables at %s\n\t@<%s+0>\n", func, func);
	do {
		int tag = dwarf_tag(&child);
		const char *n = dwarf_diename(&child);

		if ((tag != DW_TAG_formal_parameter &&
		     tag != DW_TAG_variable) || !n)
			continue;
		/* Only what a probe at the entry can fetch. */
		if (var_location(pd, &fdie, &child, vaddr, loc, sizeof(loc),
				 &in_mem))
			continue;
		type_name(&child, type, sizeof(type));
		printf("\t\t%s\t%s\n", type, n);
	} while (!dwarf_siblingof(&child, &child));
	return 0;
}

/* The source file of @fdie, made absolute with its CU's directory. */
static int func_source(Dwarf_Die *fdie, char *buf, size_t size)
{
	const char *file = dwarf_decl_file(fdie), *dir = NULL;
	Dwarf_Attribute attr;
	Dwarf_Die cu;

	if (!file)
		return -ENOENT;
	if (dwarf_diecu(fdie, &cu, NULL, NULL) &&
	    dwarf_attr(&cu, DW_AT_comp_dir, &attr))
		dir = dwarf_formstring(&attr);
	if (file[0] != '/' && dir)
		snprintf(buf, size, "%s/%s", dir, file);
	else
		snprintf(buf, size, "%s", file);
	return 0;
}

/* The lines of @file that have code of [low, high): a bitmap by line. */
static int func_lines(Dwarf_Die *fdie, Dwarf_Addr low, Dwarf_Addr high,
		      const char *file, unsigned char *has, int max)
{
	Dwarf_Lines *lines;
	Dwarf_Die cu;
	size_t i, nr;
	int last = 0;

	if (!dwarf_diecu(fdie, &cu, NULL, NULL) ||
	    dwarf_getsrclines(&cu, &lines, &nr))
		return 0;
	for (i = 0; i < nr; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		const char *src = dwarf_linesrc(l, NULL, NULL);
		Dwarf_Addr a;
		int no;

		if (!l || dwarf_lineaddr(l, &a) || a < low || a >= high ||
		    dwarf_lineno(l, &no) || no <= 0 || no >= max || !src)
			continue;
		if (strcmp(src, file) && !strstr(file, src))
			continue;
		has[no] = 1;
		if (no > last)
			last = no;
	}
	return last;
}

int probe_dwarf__print_lines(struct probe_dwarf *pd, u64 vaddr,
			     const char *func)
{
	static unsigned char has[1 << 16];
	Dwarf_Addr low, high;
	char path[PATH_MAX], line[1024];
	int first, last, no = 0;
	Dwarf_Die fdie;
	FILE *f;

	if (find_func(pd, vaddr, &fdie) || dwarf_lowpc(&fdie, &low) ||
	    dwarf_highpc(&fdie, &high) || func_source(&fdie, path, sizeof(path)) ||
	    dwarf_decl_line(&fdie, &first)) {
		fprintf(stderr, "perf probe: the DWARF of %s has no source lines for %s\n",
			pd->path, func);
		return -1;
	}
	memset(has, 0, sizeof(has));
	last = func_lines(&fdie, low, high, path, has, (int)sizeof(has));
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "perf probe: cannot open the source of %s, %s: %m\n",
			func, path);
		return -1;
	}
	printf("<%s@%s:0>\n", func, path);
	while (fgets(line, sizeof(line), f) && ++no <= last) {
		if (no < first)
			continue;
		if (has[no])
			printf("%7d  %s", no - first, line);
		else
			printf("         %s", line);
	}
	fclose(f);
	return 0;
}

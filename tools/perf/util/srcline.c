// SPDX-License-Identifier: GPL-2.0
/*
 * Source lines of sampled addresses (the srcline and srcfile sort keys),
 * from DWARF line tables read with libdwfl, which also finds separate
 * debug info by build id and .gnu_debuglink.
 */
#include <errno.h>
#include <gelf.h>
#include <elfutils/libdwfl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena.h"
#include "dso.h"
#include "srcline.h"
#include "symbol.h"

/* An object's line tables, opened on its first lookup. */
struct srcline_obj {
	const struct dso *dso;
	Dwfl *dwfl;			/* NULL: no file, or no DWARF */
	Dwfl_Module *mod;
	GElf_Addr bias;
	GElf_Phdr *loads;		/* PT_LOAD: file offset to address */
	size_t nr_loads;
};

struct srcline_slot {
	const struct dso *dso;		/* NULL: empty */
	u64 rel;
	struct srcline line;
};

struct srcline_cache {
	struct srcline_obj *objs;
	size_t nr_objs;
	size_t objs_alloc;
	struct srcline_slot *slots;	/* open addressing on (dso, rel) */
	size_t size;
	size_t nr;
	struct arena *strings;
};

static const Dwfl_Callbacks srcline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

struct srcline_cache *srcline_cache__new(void)
{
	struct srcline_cache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->strings = arena__new(64 * 1024);
	if (!c->strings) {
		free(c);
		return NULL;
	}
	return c;
}

void srcline_cache__delete(struct srcline_cache *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr_objs; i++) {
		if (c->objs[i].dwfl)
			dwfl_end(c->objs[i].dwfl);
		free(c->objs[i].loads);
	}
	free(c->objs);
	free(c->slots);
	arena__delete(c->strings);
	free(c);
}

/* ---- objects ------------------------------------------------------------ */

static int obj_read_loads(struct srcline_obj *o, Elf *elf)
{
	size_t n, i;

	if (elf_getphdrnum(elf, &n) || !n)
		return -EINVAL;
	o->loads = calloc(n, sizeof(*o->loads));
	if (!o->loads)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD)
			o->loads[o->nr_loads++] = ph;
	}
	return o->nr_loads ? 0 : -EINVAL;
}

/* The object's own file: what it was recorded as, under --symfs. */
static int obj_path(const struct dso *dso, char *buf, size_t size)
{
	if (!dso->long_name || dso->long_name[0] != '/')
		return -ENOENT;
	if (!symfs__path(dso->long_name, buf, size) && !access(buf, R_OK))
		return 0;
	/* Gone from disk: the copy its symbols were read from, if any. */
	if (dso->symsrc && !access(dso->symsrc, R_OK)) {
		snprintf(buf, size, "%s", dso->symsrc);
		return 0;
	}
	return -ENOENT;
}

static void obj_open(struct srcline_obj *o)
{
	char path[PATH_MAX];
	Elf *elf;

	/* Without symbols the file is not the one that ran, or is gone. */
	if (!o->dso->symsrc || obj_path(o->dso, path, sizeof(path)))
		return;
	o->dwfl = dwfl_begin(&srcline_callbacks);
	if (!o->dwfl)
		return;
	o->mod = dwfl_report_offline(o->dwfl, "", path, -1);
	dwfl_report_end(o->dwfl, NULL, NULL);
	elf = o->mod ? dwfl_module_getelf(o->mod, &o->bias) : NULL;
	if (!elf || obj_read_loads(o, elf)) {
		dwfl_end(o->dwfl);
		o->dwfl = NULL;
	}
}

static struct srcline_obj *obj_find(struct srcline_cache *c,
				    const struct dso *dso)
{
	struct srcline_obj *o;
	size_t i;

	for (i = c->nr_objs; i > 0; i--)
		if (c->objs[i - 1].dso == dso)
			return &c->objs[i - 1];
	if (c->nr_objs == c->objs_alloc) {
		size_t alloc = c->objs_alloc ? c->objs_alloc * 2 : 16;

		o = realloc(c->objs, alloc * sizeof(*o));
		if (!o)
			return NULL;
		c->objs = o;
		c->objs_alloc = alloc;
	}
	o = &c->objs[c->nr_objs++];
	memset(o, 0, sizeof(*o));
	o->dso = dso;
	obj_open(o);
	return o;
}

/* A file offset as the address the object's DWARF speaks of. */
static bool obj_address(const struct srcline_obj *o, u64 rel, u64 *addr)
{
	size_t i;

	for (i = 0; i < o->nr_loads; i++) {
		const GElf_Phdr *ph = &o->loads[i];

		if (rel >= ph->p_offset && rel < ph->p_offset + ph->p_filesz) {
			*addr = rel - ph->p_offset + ph->p_vaddr + o->bias;
			return true;
		}
	}
	return false;
}

/* ---- lines ------------------------------------------------------------- */

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * Code without line tables, where binutils' addr2line (which Linux perf
 * asks) falls back on the symbol table: in a local function (crtstuff.c's,
 * say) it names the source file of the STT_FILE symbol before it
 * ("crtstuff.c:0" in Linux perf); in a global one, no file ("??:0").
 * False where no function of the symbol table holds @addr (a PLT
 * entry): addr2line knows nothing there.
 */
static bool symtab_file(const struct srcline_obj *o, u64 addr,
			const char **file_out)
{
	const char *file = NULL;
	int i, n = dwfl_module_getsymtab(o->mod);

	for (i = 1; i < n; i++) {
		const char *name;
		GElf_Addr value;
		GElf_Sym sym;

		name = dwfl_module_getsym_info(o->mod, i, &sym, &value, NULL,
					       NULL, NULL);
		if (!name)
			continue;
		if (GELF_ST_TYPE(sym.st_info) == STT_FILE) {
			file = name;
			continue;
		}
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || addr < value ||
		    addr >= value + (sym.st_size ? sym.st_size : 1))
			continue;
		*file_out = GELF_ST_BIND(sym.st_info) == STB_LOCAL ? file :
								      NULL;
		return true;
	}
	return false;
}

/*
 * "file.c:42" from the line table; without one, what the symbol table
 * says (symtab_file()).  False where the object cannot be read, or
 * neither table knows the address.
 */
static bool lookup_line(struct srcline_cache *c, struct srcline_obj *o,
			u64 rel, struct srcline *out)
{
	Dwfl_Line *line;
	const char *file;
	char buf[PATH_MAX + 16];
	int lineno = 0;
	u64 addr;

	if (!o || !o->dwfl || !obj_address(o, rel, &addr))
		return false;
	line = dwfl_module_getsrc(o->mod, addr);
	file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) :
		      NULL;
	if (!file && !symtab_file(o, addr, &file))
		return false;
	if (!file) {
		out->line = "??:0";
		out->file = "";
		return true;
	}
	file = base_name(file);
	snprintf(buf, sizeof(buf), "%s:%d", file, lineno);
	out->line = arena__strdup(c->strings, buf);
	out->file = arena__strdup(c->strings, file);
	return out->line && out->file;
}

/* No line: the function and the offset in it, or the object and address. */
static void fallback_line(struct srcline_cache *c, const struct dso *dso,
			  u64 rel, const char *sym_name, u64 sym_start,
			  struct srcline *out)
{
	char buf[1024];

	/* Nothing mapped there: Linux perf's "unknown line". */
	if (!dso) {
		out->line = "??:0";
		out->file = "";
		return;
	}
	if (sym_name)
		snprintf(buf, sizeof(buf), "%s+%llu", sym_name,
			 (unsigned long long)(rel - sym_start));
	else
		snprintf(buf, sizeof(buf), "%s[%llx]", dso->short_name,
			 (unsigned long long)rel);
	out->line = arena__strdup(c->strings, buf);
	out->file = "";
}

static u64 slot_hash(const struct dso *dso, u64 rel)
{
	u64 h = (uintptr_t)dso * 0x9e3779b97f4a7c15ULL ^ rel;

	return h ^ (h >> 29);
}

static int cache_grow(struct srcline_cache *c)
{
	size_t size = c->size ? c->size * 2 : 4096, i;
	struct srcline_slot *t = calloc(size, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (i = 0; i < c->size; i++) {
		size_t j;

		if (!c->slots[i].dso)
			continue;
		j = slot_hash(c->slots[i].dso, c->slots[i].rel) & (size - 1);
		while (t[j].dso)
			j = (j + 1) & (size - 1);
		t[j] = c->slots[i];
	}
	free(c->slots);
	c->slots = t;
	c->size = size;
	return 0;
}

const struct srcline *srcline__find(struct srcline_cache *c,
				    struct dso *dso, u64 rel,
				    const char *sym_name, u64 sym_start)
{
	static const struct dso no_dso;
	struct srcline_slot *s;
	size_t j;

	/* Cached under a stand-in, as an empty slot is one without dso. */
	if (!dso)
		dso = (struct dso *)&no_dso;
	if ((c->nr + 1) * 2 > c->size && cache_grow(c))
		return NULL;
	j = slot_hash(dso, rel) & (c->size - 1);
	for (; c->slots[j].dso; j = (j + 1) & (c->size - 1))
		if (c->slots[j].dso == dso && c->slots[j].rel == rel)
			return &c->slots[j].line;
	s = &c->slots[j];
	if (!lookup_line(c, dso == &no_dso ? NULL : obj_find(c, dso), rel,
			 &s->line))
		fallback_line(c, dso == &no_dso ? NULL : dso, rel, sym_name,
			      sym_start, &s->line);
	if (!s->line.line)
		return NULL;
	s->dso = dso;
	s->rel = rel;
	c->nr++;
	return &s->line;
}

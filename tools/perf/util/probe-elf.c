// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF side of perf probe: the functions of an object with their
 * binding and symbol version, and the file offsets uprobes take.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "probe.h"

struct probe_elf {
	char *path;
	struct probe_sym *syms;
	size_t nr;
	size_t alloc;
	GElf_Phdr *loads;	/* PT_LOAD headers: address <-> offset */
	size_t nr_loads;
	bool has_symtab;
};

/* Version names by index, from .gnu.version_d (definitions only). */
struct verdefs {
	char **names;
	size_t nr;
};

static void verdefs__load(Elf *elf, Elf_Scn *scn, GElf_Shdr *sh,
			  struct verdefs *vd)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0;
	GElf_Verdef def;
	GElf_Verdaux aux;

	while (data && off < data->d_size) {
		if (!gelf_getverdef(data, off, &def))
			break;
		if (def.vd_ndx >= vd->nr) {
			size_t n = def.vd_ndx + 1;
			char **p = realloc(vd->names, n * sizeof(*p));

			if (!p)
				break;
			memset(p + vd->nr, 0, (n - vd->nr) * sizeof(*p));
			vd->names = p;
			vd->nr = n;
		}
		if (gelf_getverdaux(data, off + def.vd_aux, &aux))
			vd->names[def.vd_ndx] = elf_strptr(elf, sh->sh_link,
							   aux.vda_name);
		if (!def.vd_next)
			break;
		off += def.vd_next;
	}
}

static struct probe_sym *probe_elf__new_sym(struct probe_elf *pe)
{
	if (pe->nr == pe->alloc) {
		size_t n = pe->alloc ? pe->alloc * 2 : 256;
		struct probe_sym *p = realloc(pe->syms, n * sizeof(*p));

		if (!p)
			return NULL;
		pe->syms = p;
		pe->alloc = n;
	}
	memset(&pe->syms[pe->nr], 0, sizeof(pe->syms[0]));
	return &pe->syms[pe->nr++];
}

/*
 * A name as .symtab may carry it, "func@VER" or "func@@VER" (what
 * .symver leaves there), split into the name and its version.
 */
static int probe_sym__set_name(struct probe_sym *s, const char *name,
			       const char *version, bool hidden)
{
	const char *at = strchr(name, '@');

	if (at) {
		s->default_version = at[1] == '@';
		s->version = strdup(at + (s->default_version ? 2 : 1));
		s->name = strndup(name, at - name);
	} else {
		s->name = strdup(name);
		if (version) {
			s->version = strdup(version);
			s->default_version = !hidden;
		}
	}
	return s->name && (!s->version == !(at || version)) ? 0 : -ENOMEM;
}

static bool is_function(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	return (type == STT_FUNC || type == STT_GNU_IFUNC) &&
	       sym->st_shndx != SHN_UNDEF;
}

/* Version of dynamic symbol @i: its name and whether it is hidden. */
static const char *dynsym_version(Elf_Data *versym, const struct verdefs *vd,
				  size_t i, bool *hidden)
{
	GElf_Versym v;

	*hidden = false;
	if (!versym || !gelf_getversym(versym, (int)i, &v))
		return NULL;
	*hidden = v & 0x8000;
	v &= 0x7fff;
	/* 1 is the object's own base version: no real version. */
	if (v < 2 || v >= vd->nr)
		return NULL;
	return vd->names[v];
}

static int probe_elf__load_table(struct probe_elf *pe, Elf *elf,
				 Elf_Scn *scn, GElf_Shdr *sh,
				 Elf_Data *versym, const struct verdefs *vd)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	for (i = 1; data && i < n; i++) {
		struct probe_sym *s;
		const char *name, *ver;
		GElf_Sym sym;
		bool hidden;

		if (!gelf_getsym(data, (int)i, &sym) || !is_function(&sym))
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		ver = dynsym_version(versym, vd, i, &hidden);
		s = probe_elf__new_sym(pe);
		if (!s || probe_sym__set_name(s, name, ver, hidden))
			return -ENOMEM;
		s->local = GELF_ST_BIND(sym.st_info) == STB_LOCAL;
		s->vaddr = sym.st_value;
		s->size = sym.st_size;
	}
	return 0;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct probe_sym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->vaddr != y->vaddr)
		return x->vaddr < y->vaddr ? -1 : 1;
	/* The versioned entry first: it is the one kept. */
	return !!y->version - !!x->version;
}

static void probe_sym__free(struct probe_sym *s)
{
	free(s->name);
	free(s->version);
}

/*
 * .symtab and .dynsym name most functions twice: keep one entry per
 * name and address, the one that knows the version.
 */
static void probe_elf__dedup(struct probe_elf *pe)
{
	size_t i, n = 0;

	if (!pe->nr)	/* a stripped object: no array to sort */
		return;
	qsort(pe->syms, pe->nr, sizeof(*pe->syms), sym_cmp);
	for (i = 0; i < pe->nr; i++) {
		struct probe_sym *s = &pe->syms[i];

		if (n && !strcmp(pe->syms[n - 1].name, s->name) &&
		    pe->syms[n - 1].vaddr == s->vaddr) {
			probe_sym__free(s);
			continue;
		}
		pe->syms[n++] = *s;
	}
	pe->nr = n;
}

static int probe_elf__load_loads(struct probe_elf *pe, Elf *elf)
{
	size_t i, nr;

	if (elf_getphdrnum(elf, &nr))
		return -EINVAL;
	pe->loads = calloc(nr ? nr : 1, sizeof(*pe->loads));
	if (!pe->loads)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			pe->loads[pe->nr_loads++] = ph;
	}
	return 0;
}

static int probe_elf__load(struct probe_elf *pe, Elf *elf)
{
	Elf_Scn *scn = NULL, *dynsym = NULL, *symtab = NULL;
	GElf_Shdr dyn_sh, tab_sh, sh;
	Elf_Data *versym = NULL;
	struct verdefs vd = { 0 };
	int err = 0;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			symtab = scn;
			tab_sh = sh;
		} else if (sh.sh_type == SHT_DYNSYM) {
			dynsym = scn;
			dyn_sh = sh;
		} else if (sh.sh_type == SHT_GNU_versym) {
			versym = elf_getdata(scn, NULL);
		} else if (sh.sh_type == SHT_GNU_verdef) {
			verdefs__load(elf, scn, &sh, &vd);
		}
	}
	pe->has_symtab = symtab != NULL;
	if (symtab)
		err = probe_elf__load_table(pe, elf, symtab, &tab_sh, NULL, &vd);
	if (!err && dynsym)
		err = probe_elf__load_table(pe, elf, dynsym, &dyn_sh, versym,
					    &vd);
	free(vd.names);
	if (!err)
		err = probe_elf__load_loads(pe, elf);
	probe_elf__dedup(pe);
	return err;
}

struct probe_elf *probe_elf__open(const char *path)
{
	struct probe_elf *pe;
	int fd, err = -ENOMEM;
	Elf *elf;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "perf probe: cannot open %s: %s\n", path,
			strerror(errno));
		return NULL;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		fprintf(stderr, "perf probe: %s is not an ELF object: give -x an executable or a shared library\n",
			path);
		if (elf)
			elf_end(elf);
		close(fd);
		return NULL;
	}
	pe = calloc(1, sizeof(*pe));
	if (pe) {
		pe->path = strdup(path);
		err = pe->path ? probe_elf__load(pe, elf) : -ENOMEM;
	}
	elf_end(elf);
	close(fd);
	if (err) {
		fprintf(stderr, "perf probe: cannot read the symbols of %s: %s\n",
			path, strerror(-err));
		probe_elf__close(pe);
		return NULL;
	}
	return pe;
}

void probe_elf__close(struct probe_elf *pe)
{
	size_t i;

	if (!pe)
		return;
	for (i = 0; i < pe->nr; i++)
		probe_sym__free(&pe->syms[i]);
	free(pe->syms);
	free(pe->loads);
	free(pe->path);
	free(pe);
}

const char *probe_elf__path(const struct probe_elf *pe)
{
	return pe->path;
}

bool probe_elf__has_symtab(const struct probe_elf *pe)
{
	return pe->has_symtab;
}

const struct probe_sym *probe_elf__syms(const struct probe_elf *pe,
					size_t *nr)
{
	*nr = pe->nr;
	return pe->syms;
}

int probe_elf__file_offset(const struct probe_elf *pe, u64 vaddr, u64 *off)
{
	size_t i;

	for (i = 0; i < pe->nr_loads; i++) {
		const GElf_Phdr *ph = &pe->loads[i];

		if (vaddr >= ph->p_vaddr && vaddr < ph->p_vaddr + ph->p_filesz) {
			*off = vaddr - ph->p_vaddr + ph->p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

int probe_elf__vaddr(const struct probe_elf *pe, u64 off, u64 *vaddr)
{
	size_t i;

	for (i = 0; i < pe->nr_loads; i++) {
		const GElf_Phdr *ph = &pe->loads[i];

		if (off >= ph->p_offset && off < ph->p_offset + ph->p_filesz) {
			*vaddr = off - ph->p_offset + ph->p_vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

void probe_elf__sym_at(const struct probe_elf *pe, u64 vaddr, char *buf,
		       size_t size)
{
	const struct probe_sym *best = NULL;
	size_t i;

	/* Sorted by name, not address: a linear pass is fine for -l. */
	for (i = 0; i < pe->nr; i++) {
		const struct probe_sym *s = &pe->syms[i];

		if (vaddr < s->vaddr || vaddr >= s->vaddr + (s->size ?: 1))
			continue;
		if (!best || s->vaddr > best->vaddr)
			best = s;
	}
	if (!best)
		snprintf(buf, size, "0x%llx", (unsigned long long)vaddr);
	else if (vaddr == best->vaddr)
		snprintf(buf, size, "%s", best->name);
	else
		snprintf(buf, size, "%s+%llu", best->name,
			 (unsigned long long)(vaddr - best->vaddr));
}

/* Levenshtein distance, capped: only small distances matter here. */
static int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int row[128], prev, tmp;

	if (lb >= 128 || la >= 128)
		return 1000;
	for (j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = (int)i;
		for (j = 1; j <= lb; j++) {
			int best = prev + (a[i - 1] != b[j - 1]);

			tmp = row[j];
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

static bool close_name(const char *name, const char *cand)
{
	size_t ln = strlen(name);
	int limit = ln > 6 ? 2 : 1;

	/* "wor" for "work": a prefix of some length says enough. */
	if (ln >= 3 && !strncmp(cand, name, ln))
		return true;
	return edit_distance(name, cand) <= limit;
}

int probe__close_names(const char *name, const char * const *names,
		       size_t nr, const char **out, int max)
{
	size_t i;
	int n = 0, k;

	for (i = 0; i < nr && n < max; i++) {
		if (!close_name(name, names[i]))
			continue;
		for (k = 0; k < n && strcmp(out[k], names[i]); k++)
			;
		if (k == n)
			out[n++] = names[i];
	}
	return n;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The objects code runs from, and where their symbols come from.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include "arena.h"
#include "build-id.h"
#include "buildid-cache.h"
#include "dso.h"

/* Open addressing, linear probing; DSOs are never removed before exit. */
struct dso_table {
	struct dso **slots;
	size_t size;		/* a power of two */
	size_t nr;
	struct arena *arena;	/* DSOs and their names */
};

static struct dso_table dsos;

static u64 hash_str(const char *s)
{
	u64 h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (u8)*s++) * 0x100000001b3ULL;
	return h;
}

static struct dso **dsos__slot(struct dso **slots, size_t size,
			       const char *name)
{
	size_t i = hash_str(name) & (size - 1);

	while (slots[i] && strcmp(slots[i]->long_name, name))
		i = (i + 1) & (size - 1);
	return &slots[i];
}

static int dsos__grow(void)
{
	size_t i, size = dsos.size ? dsos.size * 2 : 256;
	struct dso **slots = calloc(size, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < dsos.size; i++)
		if (dsos.slots[i])
			*dsos__slot(slots, size, dsos.slots[i]->long_name) =
				dsos.slots[i];
	free(dsos.slots);
	dsos.slots = slots;
	dsos.size = size;
	return 0;
}

struct dso *dsos__find(const char *long_name)
{
	if (!dsos.size)
		return NULL;
	return *dsos__slot(dsos.slots, dsos.size, long_name);
}

/* The pid in "/tmp/perf-PID.map", where JIT compilers list their code. */
static bool jit_map_pid(const char *name, int *pid)
{
	char *end;

	if (strncmp(name, "/tmp/perf-", 10))
		return false;
	*pid = strtol(name + 10, &end, 10);
	return end != name + 10 && !strcmp(end, ".map");
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static enum dso_kind dso_kind__from_name(const char *name)
{
	int pid;

	if (!strcmp(name, KERNEL_DSO_NAME))
		return DSO_KIND_KERNEL;
	if (!strcmp(name, VDSO_DSO_NAME))
		return DSO_KIND_VDSO;
	if (jit_map_pid(name, &pid))
		return DSO_KIND_JIT;
	/* Anonymous memory, SysV shm and [heap]-style pseudo files. */
	if (name[0] == '[' || !strcmp(name, "//anon") ||
	    starts_with(name, "/dev/zero") || starts_with(name, "/anon_hugepage") ||
	    starts_with(name, "/SYSV"))
		return DSO_KIND_NONE;
	return DSO_KIND_FILE;
}

/* As Linux perf names them in reports: the base name, JIT maps by pid. */
static const char *dso__make_short_name(const char *long_name)
{
	const char *slash = strrchr(long_name, '/');
	char buf[32];
	int pid;

	if (jit_map_pid(long_name, &pid)) {
		snprintf(buf, sizeof(buf), "[JIT] tid %d", pid);
		return arena__strdup(dsos.arena, buf);
	}
	return slash ? slash + 1 : long_name;
}

struct dso *dsos__findnew_kind(const char *long_name, enum dso_kind kind)
{
	struct dso *dso = dsos__find(long_name);

	if (dso)
		return dso;
	if (!dsos.arena)
		dsos.arena = arena__new(64 << 10);
	if (!dsos.arena || ((dsos.nr + 1) * 2 > dsos.size && dsos__grow()))
		return NULL;
	dso = arena__alloc(dsos.arena, sizeof(*dso));
	if (!dso)
		return NULL;
	dso->long_name = arena__strdup(dsos.arena, long_name);
	if (!dso->long_name)
		return NULL;
	dso->short_name = dso__make_short_name(dso->long_name);
	if (!dso->short_name)
		return NULL;
	dso->kind = kind;
	*dsos__slot(dsos.slots, dsos.size, long_name) = dso;
	dsos.nr++;
	return dso;
}

struct dso *dsos__findnew(const char *long_name)
{
	return dsos__findnew_kind(long_name, dso_kind__from_name(long_name));
}

struct dso *dsos__kernel(void)
{
	return dsos__findnew_kind(KERNEL_DSO_NAME, DSO_KIND_KERNEL);
}

struct dso *dsos__module(const char *name)
{
	return dsos__findnew_kind(name, DSO_KIND_MODULE);
}

int dsos__for_each(int (*fn)(struct dso *dso, void *arg), void *arg)
{
	size_t i;
	int ret;

	for (i = 0; i < dsos.size; i++) {
		if (!dsos.slots[i])
			continue;
		ret = fn(dsos.slots[i], arg);
		if (ret)
			return ret;
	}
	return 0;
}

void dsos__exit(void)
{
	size_t i;

	for (i = 0; i < dsos.size; i++)
		if (dsos.slots[i])
			symtab__exit(&dsos.slots[i]->symtab);
	free(dsos.slots);
	arena__delete(dsos.arena);
	memset(&dsos, 0, sizeof(dsos));
}

void dso__set_build_id(struct dso *dso, const void *id, size_t size)
{
	if (size > BUILD_ID_MAX)
		size = BUILD_ID_MAX;
	memcpy(dso->bid.data, id, size);
	dso->bid.size = size;
}

int dso__read_build_id(struct dso *dso)
{
	char path[4096];
	int err;

	if (dso->bid.size)
		return 0;
	if (dso->kind != DSO_KIND_FILE)
		return -EINVAL;
	err = symfs__path(dso->long_name, path, sizeof(path));
	return err ? err : filename__read_build_id(path, &dso->bid);
}

static int dso__load_file(struct dso *dso)
{
	char found[4096];
	int n = symtab__load_elf(&dso->symtab, dso->long_name, &dso->bid,
				 found, sizeof(found));

	if (*found)
		dso->symsrc = arena__strdup(dsos.arena, found);
	return n;
}

/* kallsyms lines of a module fill that module's DSO. */
static struct symtab *kernel__module_table(void *arg, const char *name)
{
	struct dso *mod = dsos__module(name);

	if (!mod)
		return NULL;
	mod->loaded = true;
	mod->load_err = 0;
	mod->symsrc = arg;
	return &mod->symtab;
}

/*
 * A recording of another kernel than the running one: the copy of its
 * kallsyms that Linux perf record keeps in the build-id cache, if any.
 */
static const char *kernel__cached_kallsyms(struct dso *dso, char *buf,
					   size_t size)
{
	struct build_id now;

	if (!dso->bid.size)
		return NULL;
	if (!build_id__kernel(now.data, &now.size) &&
	    build_id__equal(&now, &dso->bid))
		return NULL;
	return buildid_cache__find(&dso->bid, "kallsyms", buf, size) ? NULL : buf;
}

/*
 * --kallsyms names the file; else the cache's kallsyms of the recorded
 * kernel when that is not the running one; else /proc/kallsyms, except
 * under --symfs: this machine's kernel is not the one the symfs holds
 * the files of, so as in Linux perf its kernel symbols are not used
 * there.
 */
static int dso__load_kernel(struct dso *dso)
{
	const char *path = symbol_conf.kallsyms;
	char cached[4096];

	if (!path)
		path = kernel__cached_kallsyms(dso, cached, sizeof(cached));
	if (!path && symbol_conf.symfs && *symbol_conf.symfs)
		return -ENOENT;
	if (!path)
		path = "/proc/kallsyms";
	dso->symsrc = arena__strdup(dsos.arena, path);
	return symtab__load_kallsyms(&dso->symtab, path,
				     dso->ref_name[0] ? dso->ref_name : NULL,
				     dso->ref_addr, kernel__module_table,
				     (void *)dso->symsrc);
}

/* Modules get their symbols when the kernel's kallsyms is read. */
static int dso__load_module(struct dso *dso)
{
	struct dso *kernel = dsos__kernel();

	if (kernel && !kernel->loaded)
		dso__load(kernel);
	return dso->symtab.nr;
}

/* Size of this process's vdso, from its line in /proc/self/maps. */
static size_t vdso_size(unsigned long base)
{
	unsigned long start, end;
	size_t size = 0;
	char line[256];
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "[vdso]") ||
		    sscanf(line, "%lx-%lx", &start, &end) != 2 || start != base)
			continue;
		size = end - start;
		break;
	}
	fclose(f);
	return size;
}

/*
 * The recorded vdso is not on disk; the one mapped into this process is
 * the same when the data comes from this kernel, which its build id (if
 * recorded) confirms.  That of another kernel may be in the build-id
 * cache, where Linux perf record keeps it.
 */
static int dso__load_vdso(struct dso *dso)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	size_t size = base ? vdso_size(base) : 0;
	char found[4096];
	int n = -ENOENT;

	if (size)
		n = symtab__load_elf_image(&dso->symtab, (const void *)base,
					   size, &dso->bid);
	if (n >= 0 || !dso->bid.size)
		return n;
	n = symtab__load_cached(&dso->symtab, &dso->bid, "vdso", found,
				sizeof(found));
	if (n >= 0)
		dso->symsrc = arena__strdup(dsos.arena, found);
	return n;
}

/*
 * A file with the vdso image @dso's symbols came from, for readers that
 * need a file (the unwinder): the build-id cache's copy, or this
 * process's vdso written once to a memfd and named through /proc.
 */
int dso__vdso_path(struct dso *dso, char *buf, size_t size)
{
	static int memfd = -1;
	unsigned long base;
	size_t len;

	if (dso->kind != DSO_KIND_VDSO || dso__load(dso) < 0)
		return -ENOENT;
	if (dso->symsrc) {
		snprintf(buf, size, "%s", dso->symsrc);
		return 0;
	}
	if (memfd < 0) {
		base = getauxval(AT_SYSINFO_EHDR);
		len = base ? vdso_size(base) : 0;
		if (!len)
			return -ENOENT;
		memfd = memfd_create("vdso", MFD_CLOEXEC);
		if (memfd < 0)
			return -errno;
		if (write(memfd, (const void *)base, len) != (ssize_t)len) {
			close(memfd);
			memfd = -1;
			return -EIO;
		}
	}
	/* By pid, not "self": objdump, a child, opens it too. */
	snprintf(buf, size, "/proc/%d/fd/%d", (int)getpid(), memfd);
	return 0;
}

int dso__load(struct dso *dso)
{
	int n = -ENOENT;

	if (dso->loaded)
		return dso->load_err;
	dso->loaded = true;
	switch (dso->kind) {
	case DSO_KIND_FILE:
		n = dso__load_file(dso);
		break;
	case DSO_KIND_KERNEL:
		n = dso__load_kernel(dso);
		break;
	case DSO_KIND_MODULE:
		n = dso__load_module(dso);
		break;
	case DSO_KIND_VDSO:
		n = dso__load_vdso(dso);
		break;
	case DSO_KIND_JIT:
		n = symtab__load_perf_map(&dso->symtab, dso->long_name);
		if (n >= 0)
			dso->symsrc = dso->long_name;
		break;
	case DSO_KIND_NONE:
		break;
	}
	dso->load_err = n > 0 ? 0 : n < 0 ? n : -ENODATA;
	return dso->load_err;
}

/* Samples come in runs in one function: try the last hit first. */
const struct symbol *dso__find_symbol(struct dso *dso, u64 addr)
{
	const struct symbol *sym = dso->last_sym;

	if (sym && addr >= sym->start && addr < sym->end)
		return sym;
	if (!dso->loaded)
		dso__load(dso);
	sym = symtab__find(&dso->symtab, addr);
	if (sym)
		dso->last_sym = sym;
	return sym;
}

size_t dso__nr_symbols(struct dso *dso)
{
	if (!dso->loaded)
		dso__load(dso);
	return dso->symtab.nr;
}

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_DSO_H
#define __PERF_UTIL_DSO_H

#include <perf/types.h>
#include "symbol.h"

/*
 * An object code can run from.  DSOs live in one process-wide table keyed
 * by their long name (the path in the MMAP record) and last until
 * dsos__exit(); pointers to them stay valid, and equal pointers mean
 * the same object.
 */
enum dso_kind {
	DSO_KIND_FILE,		/* an ELF object on disk */
	DSO_KIND_KERNEL,	/* [kernel.kallsyms]: kallsyms */
	DSO_KIND_MODULE,	/* [nvme]: its kallsyms lines */
	DSO_KIND_VDSO,		/* [vdso]: this machine's vdso image */
	DSO_KIND_JIT,		/* /tmp/perf-PID.map: anonymous code */
	DSO_KIND_NONE,		/* [heap], //anon, ...: never symbols */
};

#define KERNEL_DSO_NAME	"[kernel.kallsyms]"
#define VDSO_DSO_NAME	"[vdso]"

struct dso {
	const char *long_name;
	const char *short_name;	/* what reports print */
	enum dso_kind kind;
	bool loaded;		/* symbols were looked for (found or not) */
	int load_err;		/* why none were found, -errno */
	struct build_id bid;	/* as recorded; size 0 when unknown */
	struct symtab symtab;
	const struct symbol *last_sym;	/* lookup cache */
	const char *symsrc;	/* the file the symbols came from, or NULL */
	/* Kernel: where the relocation reference symbol was when recorded. */
	char ref_name[32];
	u64 ref_addr;
};

/* The DSO named @long_name, created on first use with a kind from the name. */
struct dso *dsos__findnew(const char *long_name);
struct dso *dsos__findnew_kind(const char *long_name, enum dso_kind kind);
struct dso *dsos__find(const char *long_name);
struct dso *dsos__kernel(void);
/* Module DSO for a module name as kallsyms writes it: "[nvme]". */
struct dso *dsos__module(const char *name);
/* Calls @fn for every DSO until it returns non-zero. */
int dsos__for_each(int (*fn)(struct dso *dso, void *arg), void *arg);
void dsos__exit(void);

/* Loads the symbols once; later calls return the first result. */
int dso__load(struct dso *dso);
/* @addr is dso-relative (struct symbol); loads symbols on first use. */
const struct symbol *dso__find_symbol(struct dso *dso, u64 addr);
size_t dso__nr_symbols(struct dso *dso);
void dso__set_build_id(struct dso *dso, const void *id, size_t size);
/*
 * For a vdso: a file that holds the image its symbols came from (this
 * process's, when the recorded one is the same, or the build-id cache's
 * copy), 0 or -errno.
 */
int dso__vdso_path(struct dso *dso, char *buf, size_t size);
/* The build id of the file behind @dso (honouring --symfs), if unknown. */
int dso__read_build_id(struct dso *dso);

#endif /* __PERF_UTIL_DSO_H */

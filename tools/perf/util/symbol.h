/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_SYMBOL_H
#define __PERF_UTIL_SYMBOL_H

#include <perf/types.h>
#include "parse-options.h"

/*
 * Function symbols of one object, sorted by address and searched by
 * binary search.  Addresses are in the object's "relative" space: the
 * file offset of the code for ELF objects (what a sample IP becomes
 * through its map: ip - map start + map pgoff), absolute addresses for
 * the kernel and its modules.  End is exclusive.
 */
struct symbol {
	u64 start;
	u64 end;
	const char *name;
};

struct arena;

struct symtab_cache_slot;

struct symtab {
	struct symbol *syms;
	size_t nr;
	size_t syms_bytes;	/* its allocation: big_zalloc() */
	struct arena *names;	/* owns every name */
	u64 image_end;		/* kallsyms: where the kernel's data ends */
	/* Addresses looked up before, for tables too big for the caches. */
	struct symtab_cache_slot *cache;
	/* A bit per symbol whose name is not demangled yet; may be NULL. */
	unsigned long *mangled;
};

/* Where symbols are looked for; set from the command line. */
struct symbol_conf {
	const char *symfs;	/* --symfs: root of the recorded file system */
	const char *kallsyms;	/* --kallsyms: instead of /proc/kallsyms */
	bool ignore_vmlinux;	/* kernel symbols from kallsyms only */
};

extern struct symbol_conf symbol_conf;

/*
 * --kallsyms and --symfs of the commands that read symbols, as a table
 * to splice in with OPT_TABLE.
 */
#define SYMBOL_PATHS_OPTIONS_SIZE 3
void symbol_conf__options(struct option opts[SYMBOL_PATHS_OPTIONS_SIZE]);

#define BUILD_ID_MAX 20

struct build_id {
	u8 data[BUILD_ID_MAX];
	u8 size;		/* 0: unknown */
};

/* Lower-case hex; returns the length written (0 for an unknown id). */
int build_id__snprintf(const struct build_id *bid, char *buf, size_t size);
bool build_id__equal(const struct build_id *a, const struct build_id *b);
/* The .note.gnu.build-id of an ELF file; 0 or -errno. */
int filename__read_build_id(const char *path, struct build_id *bid);
/* Does the ELF file at @path have a section named @name? */
bool filename__has_section(const char *path, const char *name);

const struct symbol *symtab__find(struct symtab *st, u64 addr);
/* Linear: for tests and lookups by name, never on the sample path. */
const struct symbol *symtab__find_by_name(struct symtab *st,
					  const char *name);
void symtab__exit(struct symtab *st);

/*
 * Loads the functions of the ELF object recorded as @path: the file is
 * the build-id cache's copy of @bid when there is one, else @path looked
 * up under symbol_conf.symfs; its symbols preferably come from separate
 * debug info (the build-id path, the cache's debug copy, then
 * .gnu_debuglink beside the file, in .debug/ there or under
 * /usr/lib/debug/DIR, then /usr/lib/debug/PATH.debug and
 * /usr/lib/debug/PATH), and PLT entries get "name@plt" symbols.  @bid,
 * when its size is not 0, is the build id the object had when recorded:
 * files with another id are not used.  When @found is given it receives the file the symbols came
 * from ("" when none).  Returns the number of symbols or -errno.
 */
int symtab__load_elf(struct symtab *st, const char *path,
		     const struct build_id *bid, char *found, size_t found_size);
/*
 * The object of build id @bid as the build-id cache keeps it, @kind
 * "elf" or "vdso" (buildid-cache.h); -ENOENT when it is not there.
 */
int symtab__load_cached(struct symtab *st, const struct build_id *bid,
			const char *kind, char *found, size_t found_size);
/* Same, from an image in memory (the vdso); @image is not kept. */
int symtab__load_elf_image(struct symtab *st, const void *image, size_t size,
			   const struct build_id *bid);
/* "START SIZE NAME" lines in hex, as JIT compilers write /tmp/perf-PID.map. */
int symtab__load_perf_map(struct symtab *st, const char *path);

/*
 * kallsyms: text symbols (t, T, w, W).  Symbols tagged "[module]" go to
 * the table @module_table returns for that name ("[nvme]"), or are
 * dropped when it returns NULL.  When @ref_name names a symbol whose
 * address at record time was @ref_addr (the kernel MMAP record's pgoff),
 * kernel symbols are moved by the difference so that a kallsyms of
 * another boot (KASLR) still matches the samples.
 */
typedef struct symtab *(*kallsyms_module_fn)(void *arg, const char *module);

int symtab__load_kallsyms(struct symtab *kernel, const char *path,
			  const char *ref_name, u64 ref_addr,
			  kallsyms_module_fn module_table, void *arg);

/* The path the DSO recorded as @path is read from, honouring --symfs. */
int symfs__path(const char *path, char *buf, size_t size);
/*
 * The object file (code and unwind tables, not separate debug info) of
 * what was recorded as @path with build id @bid: the build-id cache's
 * copy first, then the file under --symfs, whose build id must match
 * where @bid is known.  Its path goes to @found; 0 or -ENOENT.
 */
int symfs__find_object(const char *path, const struct build_id *bid,
		       char *found, size_t found_size);
/*
 * The separate debug file of that object, found as its symbols are
 * (build-id paths, the build-id cache, .gnu_debuglink, the debug
 * trees, all under --symfs): 0 and its path in @found, or -ENOENT.
 */
int symfs__find_debug(const char *path, const struct build_id *bid,
		      char *found, size_t found_size);

struct Elf;
/* Whether @elf has a section with contents whose name starts @prefix. */
bool elf__has_section(struct Elf *elf, const char *prefix);

#endif /* __PERF_UTIL_SYMBOL_H */

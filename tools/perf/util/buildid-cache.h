/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_BUILDID_CACHE_H
#define __PERF_UTIL_BUILDID_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include "symbol.h"

/*
 * The build-id cache: copies of the binaries a profile refers to, kept
 * by build id so that their symbols outlive a rebuild or an upgrade.  It
 * is laid out as Linux perf lays out its own, so that the two tools
 * share one:
 *
 *   DIR/PATH/ID/elf      the object added from PATH (a hard link or a copy)
 *   DIR/PATH/ID/debug    its /usr/lib/debug/.build-id/ file, when there is one
 *   DIR/PATH/ID/probes   the SDT probe list: empty, for objects without SDT notes
 *   DIR/.build-id/I/D    a link to ../../PATH/ID (I: the first two hex
 *                        digits of ID, D: the others)
 *
 * PATH is absolute, with symbolic links resolved.  Linux perf record
 * also keeps DIR/[kernel.kallsyms]/ID/kallsyms and DIR/[vdso]/ID/vdso;
 * those are read here, never written.
 */

/* Hex digits of a build id, and the NUL. */
#define SBUILD_ID_SIZE (2 * BUILD_ID_MAX + 1)

/*
 * DIR: SYMFS/.debug under --symfs SYMFS (symbol_conf.symfs), else the
 * one set by buildid_cache__set_dir() (perf --buildid-dir), else
 * buildid.dir of the perf config files, else $HOME/.debug.
 */
const char *buildid_cache__dir(void);
/* NULL: forget the directory, so that the next use looks it up again. */
void buildid_cache__set_dir(const char *dir);

/* The file the cache keeps of recorded object @name: "elf", "vdso" or "kallsyms". */
const char *buildid_cache__kind(const char *name);

/* The cached @kind file of @bid in @buf: 0 when it is there, else -errno. */
int buildid_cache__find(const struct build_id *bid, const char *kind,
			char *buf, size_t size);

/*
 * Add, remove or replace (update) the object at @path, by the build id
 * it has now, which is stored in @bid.  Errors: the file's
 * (-ENOENT, ...), -EINVAL when it is not an ELF object, -ENODATA when it
 * has no build id; -ENOENT from a removal when the id is not cached.
 */
int buildid_cache__add(const char *path, struct build_id *bid);
int buildid_cache__remove(const char *path, struct build_id *bid);
int buildid_cache__update(const char *path, struct build_id *bid);
/* Remove the entry the link of @sbid (hex) leads to, and the link. */
int buildid_cache__remove_id(const char *sbid);

typedef int (*buildid_cache_fn)(const char *sbid, void *arg);

/*
 * Calls @fn for every build id with a link, in the order of their hex
 * strings, until it returns non-zero.  @valid_only: only those whose
 * original file (or the running kernel) still has that build id.
 */
int buildid_cache__for_each(bool valid_only, buildid_cache_fn fn, void *arg);
/* The same for the entries kept under @path (whatever their link says). */
int buildid_cache__for_path(const char *path, buildid_cache_fn fn, void *arg);

/* The path @sbid was added from, "[kernel.kallsyms]" for the kernel. */
int buildid_cache__origin(const char *sbid, char *buf, size_t size);

/*
 * Does the cache hold recorded object @name of build id @bid?  0 when
 * it does, -ENOENT when it does not, -EINVAL when the file it holds has
 * another build id or none; @buf receives that file's path.
 */
int buildid_cache__check(const struct build_id *bid, const char *name,
			 char *buf, size_t size);

#endif /* __PERF_UTIL_BUILDID_CACHE_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_SRCLINE_H
#define __PERF_UTIL_SRCLINE_H

#include <perf/types.h>

struct dso;
struct srcline_cache;

/*
 * The source line of an address, from the DWARF line table of its object
 * or of the object's separate debug info (libdw), remembered per object
 * and address.
 */
struct srcline {
	/*
	 * "file.c:42" (the file's base name), or where there is no line:
	 * "sym+off" (off in decimal) or "dso[addr]", as Linux perf shows it.
	 */
	const char *line;
	const char *file;	/* "file.c", or "" where there is no line */
};

struct srcline_cache *srcline_cache__new(void);
void srcline_cache__delete(struct srcline_cache *c);

/*
 * The line of @rel, an address in @dso's file offsets (a map's pgoff
 * space, as symbols are kept), in the function @sym_name that starts
 * at @sym_start (@sym_name NULL: none).  The strings live as long as
 * the cache; NULL only when memory ran out.
 */
const struct srcline *srcline__find(struct srcline_cache *c,
				    struct dso *dso, u64 rel,
				    const char *sym_name, u64 sym_start);

#endif /* __PERF_UTIL_SRCLINE_H */

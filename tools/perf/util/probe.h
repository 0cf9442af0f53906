/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_PROBE_H
#define __PERF_UTIL_PROBE_H

/*
 * Dynamic probes: uprobes on the functions of an ELF object and kprobes
 * on kernel functions, written to tracefs (uprobe_events,
 * kprobe_events) as lines the kernel parses:
 *
 *	p:GROUP/EVENT /path/obj:0xFILEOFF NAME=FETCH:TYPE ...
 *	r:GROUP/EVENT SYMBOL+OFF NAME=$retval ...
 *
 * Once added they are tracepoints like any other: "GROUP:EVENT" for
 * stat, record and script.
 */
#include <stdbool.h>
#include <stddef.h>
#include <perf/types.h>

#define PROBE_MAX_ARGS 32

/* What the user asked for: "[EVENT=]FUNC[@[@]VER][+OFF|%return] [ARG ...]". */
struct probe_spec {
	char *event;		/* EVENT=, or NULL: named after the function */
	char *func;		/* NULL for the address form */
	char *version;		/* FUNC@VER / FUNC@@VER, or NULL */
	bool default_version;	/* @@: only the default version */
	bool is_addr;		/* "0x1234": an address in the object */
	u64 addr;
	u64 offset;		/* +OFF */
	bool ret;		/* %return */
	int nr_args;
	char *args[PROBE_MAX_ARGS];
	char *text;		/* the whole spec, for messages */
};

/* One fetch argument of the tracefs line. */
struct probe_arg {
	char name[64];
	char fetch[128];
};

/* Where a probe goes, once resolved. */
struct probe_point {
	char symbol[256];	/* for messages: "func", "func+8", "0x1234" */
	u64 vaddr;		/* address in the object (uprobes) */
	u64 file_offset;	/* what uprobe_events takes */
	int nr_args;
	struct probe_arg args[PROBE_MAX_ARGS];
};

struct probe_opts {
	const char *target;	/* -x: the object of uprobes */
	const char *module;	/* -m: a kernel module */
	bool force;
	bool dry_run;
	bool quiet;
};

/*
 * --target-ns PID: @path as process PID's mount namespace sees it, through
 * /proc/PID/root, which both perf and the kernel's uprobe can open.
 * 0, or says why not (no such process, no such file there) and -1.
 */
int probe__target_in_ns(const char *pid, const char *path, char *buf,
			size_t size);

/* Parse one spec (the words of one -a, joined with spaces). */
int probe_spec__parse(struct probe_spec *spec, const char *text);
void probe_spec__exit(struct probe_spec *spec);

/* The commands: each says why it failed on stderr and returns non-zero. */
int probe__add(const struct probe_opts *o, struct probe_spec *specs, int nr);
int probe__del(const struct probe_opts *o, const char *glob);
int probe__list(const struct probe_opts *o, const char *glob);
int probe__funcs(const struct probe_opts *o, const char *filter);
int probe__vars(const struct probe_opts *o, const char *func);
int probe__lines(const struct probe_opts *o, const char *func);

/* ELF side (probe-elf.c). */
struct probe_elf;

struct probe_sym {
	char *name;		/* without the version */
	char *version;		/* NULL: unversioned */
	bool default_version;
	bool local;
	u64 vaddr;
	u64 size;
};

/* Open @path; NULL with the reason said on stderr. */
struct probe_elf *probe_elf__open(const char *path);
void probe_elf__close(struct probe_elf *pe);
const char *probe_elf__path(const struct probe_elf *pe);
/* True when the object had a .symtab (false: stripped). */
bool probe_elf__has_symtab(const struct probe_elf *pe);
/* All functions, sorted by name then address. */
const struct probe_sym *probe_elf__syms(const struct probe_elf *pe,
					size_t *nr);
/* The file offset of address @vaddr, or -ENOENT when no segment has it. */
int probe_elf__file_offset(const struct probe_elf *pe, u64 vaddr, u64 *off);
/* "func+0x8" for @vaddr into @buf; "" when no function holds it. */
void probe_elf__sym_at(const struct probe_elf *pe, u64 vaddr, char *buf,
		       size_t size);
/* The file offset back to an address; -ENOENT when not mapped. */
int probe_elf__vaddr(const struct probe_elf *pe, u64 off, u64 *vaddr);

/*
 * Up to @max of the @nr @names close to @name (it is a prefix of them,
 * or they are an edit or two away): suggestions for a misspelled
 * function.  Returns how many went to @out.
 */
int probe__close_names(const char *name, const char * const *names,
		       size_t nr, const char **out, int max);

/* Resolution (probe-resolve.c): 0, or -1 with the reason said. */
struct probe_dwarf;
int probe_resolve__uprobe(struct probe_elf *pe, struct probe_dwarf **pd,
			  const struct probe_spec *spec,
			  struct probe_point *pp);
/* "PATH has no DWARF", with what to do about it. */
void probe__say_no_debuginfo(const char *path);
/* The address of the function named by @text ("func", "func@@VER"). */
int probe_resolve__func(struct probe_elf *pe, struct probe_dwarf *pd,
			const char *text, u64 *vaddr);

/* DWARF side (probe-dwarf.c), on the object @path. */

/* NULL when @path (and its separate debug file) has no DWARF. */
struct probe_dwarf *probe_dwarf__open(const char *path);
void probe_dwarf__close(struct probe_dwarf *pd);
/* The source file of the CU that holds @vaddr, or NULL. */
const char *probe_dwarf__cu_name(struct probe_dwarf *pd, u64 vaddr);
/*
 * The fetch arguments for @arg ("name", "name:string", "NAME=name",
 * "$params") of the function entered at @vaddr, appended to @pp;
 * @ret: "$retval" of a return probe.  0, or -1 with the reason said.
 */
int probe_dwarf__arg(struct probe_dwarf *pd, u64 vaddr, const char *func,
		     const char *arg, bool ret, struct probe_point *pp);
/* -V: the parameters and variables of the function at @vaddr. */
int probe_dwarf__print_vars(struct probe_dwarf *pd, u64 vaddr,
			    const char *func);
/* -L: the source lines of the function at @vaddr. */
int probe_dwarf__print_lines(struct probe_dwarf *pd, u64 vaddr,
			     const char *func);

#endif /* __PERF_UTIL_PROBE_H */

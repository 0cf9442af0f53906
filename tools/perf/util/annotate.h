/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_ANNOTATE_H
#define __PERF_UTIL_ANNOTATE_H

#include <stdbool.h>
#include <stdio.h>
#include <perf/types.h>

/*
 * perf annotate: the samples of a symbol counted per instruction, and
 * the symbol's disassembly (objdump's) with those counts beside each
 * instruction and, where the object has line tables, its source lines.
 */

struct dso;
struct symbol;
struct annotations;

/* The samples that fell in one symbol, by offset from its start. */
struct annotated_sym {
	struct dso *dso;
	const struct symbol *sym;
	u64 period;		/* of all its samples */
	u64 nr_samples;
	u64 *offset_period;	/* [sym->end - sym->start] */
	u32 *offset_samples;
};

struct annotations *annotations__new(void);
void annotations__delete(struct annotations *a);
/*
 * A sample at dso-relative address @addr of @sym (struct symbol's
 * address space).  0 or -ENOMEM.
 */
int annotations__add(struct annotations *a, struct dso *dso,
		     const struct symbol *sym, u64 addr, u64 period);
struct annotated_sym *annotations__find(struct annotations *a,
					const struct dso *dso,
					const struct symbol *sym);

struct annotate_opts {
	const char *objdump;	/* NULL: "objdump" from PATH */
	const char *disassembler_style;	/* -M, passed to objdump */
	bool source;		/* interleave source lines (-S) */
};

/* One line of an annotation: an instruction, or text above one. */
struct annotate_line {
	const char *text;	/* the instruction ("xor  %edx,%edx"), or source */
	u64 addr;		/* instruction: its address in the object */
	u64 period;		/* instruction: of the samples at it */
	u64 nr_samples;
	int line_nr;		/* source text: its line number; 0: none */
	int jump_to;		/* jump in the symbol: index of its target */
	bool insn;
	bool jump_target;	/* some jump of the symbol lands here */
};

struct annotation {
	const struct annotated_sym *as;
	struct annotate_line *lines;
	size_t nr_lines;
	size_t alloc;
	int addr_width;		/* hex digits of the widest address */
	struct arena *text;
	char object[4096];	/* the file disassembled */
};

/*
 * Disassembles @as's symbol with objdump and spreads its samples over
 * the instructions.  0, or -errno with the reason (no object file,
 * objdump missing or failing, a kernel symbol without an image) in @err.
 */
int annotation__init(struct annotation *an, const struct annotated_sym *as,
		     const struct annotate_opts *o, char *err, size_t err_size);
void annotation__exit(struct annotation *an);
/* Percent of the symbol's period at line @i (0 for text lines). */
double annotation__percent(const struct annotation *an, size_t i);
/*
 * The stdio annotation, as Linux perf annotate --stdio prints it: a
 * header naming the object and @event, then one line per instruction
 * with its percentage, and the source lines above them.
 */
void annotation__fprintf(const struct annotation *an, const char *event,
			 bool show_nr_samples, FILE *out);

struct report;
struct perf_session;

/* Which annotations perf annotate prints. */
struct annotate_select {
	const char *sym;	/* NULL: every symbol with samples */
	const char *dsos;	/* comma separated short names, or NULL */
	bool show_nr_samples;	/* -n: samples, not percentages */
};

/* A symbol to annotate, with the event its samples are of. */
struct annotate_item {
	const struct annotated_sym *as;
	const char *event;
};

/*
 * The symbols @sel picks from @r (processed with r->annotate set), every
 * event's hottest first, in the order perf annotate shows them; the
 * caller frees the array.  NULL on ENOMEM.
 */
struct annotate_item *annotate__select(struct report *r,
				       struct perf_session *s,
				       const struct annotate_select *sel,
				       size_t *nr);
/* "no samples in a symbol named ..." on stderr: @sel picked nothing. */
void annotate__say_none(const struct annotate_select *sel);
/*
 * The annotations of @r, processed with r->annotate set, every event's
 * hottest first.  What cannot be disassembled is said on stderr once and
 * skipped.  0; -ENOENT when nothing could be printed: @sel matched no
 * symbol with samples, or none of those it matched could be disassembled
 * (said).
 */
int annotate__fprintf_report(struct report *r, struct perf_session *s,
			     const struct annotate_opts *o,
			     const struct annotate_select *sel, FILE *out);

#endif /* __PERF_UTIL_ANNOTATE_H */

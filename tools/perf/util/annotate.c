// SPDX-License-Identifier: GPL-2.0
/*
 * perf annotate: samples per instruction of a symbol, and the symbol's
 * disassembly from objdump with those counts beside it.
 *
 * Samples arrive as dso-relative addresses (file offsets for ELF
 * objects), the space struct symbol lives in; objdump speaks of the
 * addresses the object's program headers give the code, so the symbol's
 * range is moved there through its PT_LOAD segment before objdump runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "annotate.h"
#include "arena.h"
#include "array.h"
#include "data.h"
#include "dso.h"
#include "report.h"
#include "symbol.h"

struct annotations {
	struct annotated_sym **slots;	/* open addressing on (dso, sym) */
	u32 size;
	u32 nr;
};

struct annotations *annotations__new(void)
{
	return calloc(1, sizeof(struct annotations));
}

static void annotated_sym__delete(struct annotated_sym *as)
{
	free(as->offset_period);
	free(as->offset_samples);
	free(as);
}

void annotations__delete(struct annotations *a)
{
	u32 i;

	if (!a)
		return;
	for (i = 0; i < a->size; i++)
		if (a->slots[i])
			annotated_sym__delete(a->slots[i]);
	free(a->slots);
	free(a);
}

static u32 annotations__slot(const struct annotations *a,
			     const struct dso *dso, const struct symbol *sym)
{
	u64 key = (u64)(uintptr_t)sym ^ ((u64)(uintptr_t)dso << 17);
	u32 i = hash_slot(key, a->size);

	while (a->slots[i] &&
	       (a->slots[i]->sym != sym || a->slots[i]->dso != dso))
		i = (i + 1) & (a->size - 1);
	return i;
}

static int annotations__grow(struct annotations *a)
{
	struct annotations bigger = { .size = a->size ? a->size * 2 : 64 };
	u32 i;

	bigger.slots = calloc(bigger.size, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -ENOMEM;
	for (i = 0; i < a->size; i++) {
		struct annotated_sym *as = a->slots[i];

		if (as)
			bigger.slots[annotations__slot(&bigger, as->dso,
						       as->sym)] = as;
	}
	free(a->slots);
	a->slots = bigger.slots;
	a->size = bigger.size;
	return 0;
}

struct annotated_sym *annotations__find(struct annotations *a,
					const struct dso *dso,
					const struct symbol *sym)
{
	if (!a->size)
		return NULL;
	return a->slots[annotations__slot(a, dso, sym)];
}

static struct annotated_sym *annotations__findnew(struct annotations *a,
						  struct dso *dso,
						  const struct symbol *sym)
{
	struct annotated_sym *as;
	u64 len = sym->end > sym->start ? sym->end - sym->start : 1;
	u32 i;

	if ((a->nr + 1) * 2 > a->size && annotations__grow(a))
		return NULL;
	i = annotations__slot(a, dso, sym);
	if (a->slots[i])
		return a->slots[i];
	as = calloc(1, sizeof(*as));
	if (!as)
		return NULL;
	as->dso = dso;
	as->sym = sym;
	as->offset_period = calloc(len, sizeof(*as->offset_period));
	as->offset_samples = calloc(len, sizeof(*as->offset_samples));
	if (!as->offset_period || !as->offset_samples) {
		annotated_sym__delete(as);
		return NULL;
	}
	a->slots[i] = as;
	a->nr++;
	return as;
}

int annotations__add(struct annotations *a, struct dso *dso,
		     const struct symbol *sym, u64 addr, u64 period)
{
	struct annotated_sym *as = annotations__findnew(a, dso, sym);

	if (!as)
		return -ENOMEM;
	as->period += period;
	as->nr_samples++;
	/* A zero-sized symbol holds what lands on its one address. */
	if (addr >= sym->start && addr - sym->start < sym->end - sym->start) {
		as->offset_period[addr - sym->start] += period;
		as->offset_samples[addr - sym->start]++;
	}
	return 0;
}

/* ---- the object and its addresses ------------------------------------ */

/*
 * The symbol's range as objdump addresses: through the PT_LOAD segment
 * that holds its file offset.
 */
static int object_range(const char *path, const struct symbol *sym,
			u64 *start, u64 *end)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int err = -ENOEXEC;
	size_t n, i;
	Elf *elf;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && !elf_getphdrnum(elf, &n)) {
		for (i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD ||
			    sym->start < ph.p_offset ||
			    sym->start >= ph.p_offset + ph.p_filesz)
				continue;
			*start = sym->start - ph.p_offset + ph.p_vaddr;
			*end = *start + (sym->end - sym->start);
			err = 0;
			break;
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

static int object_path(const struct dso *dso, char *buf, size_t size,
		       char *err, size_t err_size)
{
	switch (dso->kind) {
	case DSO_KIND_FILE:
		if (!symfs__find_object(dso->long_name, &dso->bid, buf, size))
			return 0;
		snprintf(err, err_size,
			 "%s: the object is not there, or not the one recorded (use --symfs, or the build-id cache)",
			 dso->long_name);
		return -ENOENT;
	case DSO_KIND_VDSO:
		if (!dso__vdso_path((struct dso *)dso, buf, size))
			return 0;
		snprintf(err, err_size, "[vdso]: no image of the recorded vdso");
		return -ENOENT;
	case DSO_KIND_KERNEL:
	case DSO_KIND_MODULE:
		snprintf(err, err_size,
			 "%s: kernel code is not disassembled (only kallsyms is read, no vmlinux)",
			 dso->short_name);
		return -EOPNOTSUPP;
	default:
		snprintf(err, err_size, "%s: no object file holds this code",
			 dso->short_name);
		return -ENOENT;
	}
}

/* ---- objdump ----------------------------------------------------------- */

static int annotation__add_line(struct annotation *an,
				const struct annotate_line *l)
{
	u32 alloc = an->alloc;

	if (array_reserve_one((void **)&an->lines, &alloc, an->nr_lines,
			      sizeof(*an->lines)))
		return -ENOMEM;
	an->alloc = alloc;
	an->lines[an->nr_lines++] = *l;
	return 0;
}

/* @s without its leading blanks and with its tabs as spaces. */
static const char *intern_text(struct annotation *an, const char *s)
{
	char buf[1024];
	size_t n = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	for (; *s && n < sizeof(buf) - 8; s++) {
		if (*s != '\t') {
			buf[n++] = *s;
			continue;
		}
		do
			buf[n++] = ' ';
		while (n % 8);
	}
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\n'))
		n--;
	buf[n] = '\0';
	return arena__strdup(an->text, buf);
}

/* "  79620:\txor ..." -> address and the instruction after the tab. */
static bool parse_insn(const char *line, u64 *addr, const char **insn)
{
	char *end;

	while (*line == ' ')
		line++;
	*addr = strtoull(line, &end, 16);
	if (end == line || end[0] != ':' || end[1] != '\t')
		return false;
	*insn = end + 2;
	return true;
}

/* "/path/file.c:35" or "file.c:35 (discriminator 3)": a line marker. */
static int parse_marker(const char *line)
{
	const char *colon = strrchr(line, ':');
	const char *disc = strstr(line, " (discriminator ");
	char *end;
	long nr;

	if (disc) {
		colon = NULL;
		for (const char *p = line; p < disc; p++)
			if (*p == ':')
				colon = p;
	}
	if (!colon || colon == line || line[0] == ' ' || line[0] == '\t')
		return 0;
	nr = strtol(colon + 1, &end, 10);
	if (end == colon + 1 || (*end && *end != '\n' && end != disc) ||
	    nr <= 0 || nr > INT_MAX)
		return 0;
	return (int)nr;
}

struct objdump_parse {
	struct annotation *an;
	int marker;		/* the line the source lines after it end at */
	size_t source_first;	/* index of the first of those */
	bool started;		/* past objdump's own file header */
};

/*
 * objdump -S prints the source lines up to the marker's, so the last of
 * them is the marker's line and those above count back from it.
 */
static void number_source(struct objdump_parse *p)
{
	struct annotation *an = p->an;
	size_t i;
	int nr = p->marker;

	if (!p->marker)
		return;
	for (i = an->nr_lines; i > p->source_first; i--) {
		struct annotate_line *l = &an->lines[i - 1];

		if (l->insn)
			break;
		l->line_nr = nr > 0 ? nr-- : 0;
	}
	p->marker = 0;
}

static int objdump_line(struct objdump_parse *p, const char *line)
{
	struct annotate_line l = { .jump_to = -1 };
	const char *insn;
	int marker;

	if (parse_insn(line, &l.addr, &insn)) {
		number_source(p);
		l.insn = true;
		l.text = intern_text(p->an, insn);
		return l.text ? annotation__add_line(p->an, &l) : -ENOMEM;
	}
	if (!p->started) {
		/* Up to "Disassembly of section": objdump's own header. */
		p->started = !strncmp(line, "Disassembly of section", 22);
		if (!p->started)
			return 0;
	}
	marker = parse_marker(line);
	if (marker) {
		number_source(p);
		p->marker = marker;
		p->source_first = p->an->nr_lines;
		return 0;
	}
	l.text = intern_text(p->an, line);
	return l.text ? annotation__add_line(p->an, &l) : -ENOMEM;
}

static int objdump_run(struct annotation *an, const struct annotate_opts *o,
		       u64 start, u64 end, char *err, size_t err_size)
{
	struct objdump_parse p = { .an = an };
	char *argv[16], range[2][48], style[80];
	int fds[2], status, i = 0, ret = 0;
	char *line = NULL;
	size_t cap = 0;
	pid_t pid;
	FILE *f;

	snprintf(range[0], sizeof(range[0]), "--start-address=0x%llx",
		 (unsigned long long)start);
	snprintf(range[1], sizeof(range[1]), "--stop-address=0x%llx",
		 (unsigned long long)end);
	argv[i++] = (char *)(o->objdump ? o->objdump : "objdump");
	argv[i++] = range[0];
	argv[i++] = range[1];
	argv[i++] = "-d";
	argv[i++] = "-C";
	argv[i++] = "--no-show-raw-insn";
	if (o->source) {
		argv[i++] = "-l";
		argv[i++] = "-S";
	}
	if (o->disassembler_style) {
		snprintf(style, sizeof(style), "-M%s", o->disassembler_style);
		argv[i++] = style;
	}
	argv[i++] = an->object;
	argv[i] = NULL;
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(fds[0]);
		close(fds[1]);
		return ret;
	}
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(fds[1], 1);
		if (null >= 0)
			dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	if (!f) {
		close(fds[0]);
		ret = -ENOMEM;
	}
	while (f && getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (!ret)
			ret = objdump_line(&p, line);
	}
	number_source(&p);
	free(line);
	if (f)
		fclose(f);
	if (waitpid(pid, &status, 0) < 0)
		status = 0;
	if (!ret && WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		snprintf(err, err_size, "%s: not found (install binutils, or give --objdump)",
			 argv[0]);
		return -ENOENT;
	}
	if (!ret && (!WIFEXITED(status) || WEXITSTATUS(status))) {
		snprintf(err, err_size, "%s failed on %s", argv[0], an->object);
		return -EIO;
	}
	return ret;
}

/* ---- samples onto lines ------------------------------------------------ */

static long line_of_addr(const struct annotation *an, u64 addr)
{
	size_t lo = 0, hi = an->nr_lines;

	/* Instructions come in address order; text lines sit between. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		size_t m = mid;

		while (m < hi && !an->lines[m].insn)
			m++;
		if (m == hi) {
			hi = mid;
			continue;
		}
		if (an->lines[m].addr == addr)
			return (long)m;
		if (an->lines[m].addr < addr)
			lo = m + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * A sample counts at the instruction that holds its address: with skid
 * or a mid-instruction IP, the last instruction at or below it.
 */
static void spread_samples(struct annotation *an, u64 start)
{
	const struct annotated_sym *as = an->as;
	u64 len = as->sym->end - as->sym->start, off;
	long cur = -1;
	size_t i, next = 0;

	for (off = 0; off < len; off++) {
		while (next < an->nr_lines &&
		       (!an->lines[next].insn ||
			an->lines[next].addr <= start + off)) {
			if (an->lines[next].insn)
				cur = (long)next;
			next++;
		}
		if (cur < 0 || !as->offset_samples[off])
			continue;
		an->lines[cur].period += as->offset_period[off];
		an->lines[cur].nr_samples += as->offset_samples[off];
	}
	/* Linux perf's address column: as wide as the last address. */
	for (i = 0; i < an->nr_lines; i++) {
		u64 addr = an->lines[i].addr;

		if (an->lines[i].insn)
			an->addr_width = snprintf(NULL, 0, "%llx",
						  (unsigned long long)addr);
	}
}

/* "jne    79628 <workload_hot_a+0x8>": the target when it is in range. */
static void link_jumps(struct annotation *an)
{
	size_t i;

	for (i = 0; i < an->nr_lines; i++) {
		struct annotate_line *l = &an->lines[i];
		const char *op;
		char *end;
		u64 target;
		long t;

		if (!l->insn || l->text[0] != 'j')
			continue;
		op = strchr(l->text, ' ');
		if (!op)
			continue;
		op += strspn(op, " ");
		target = strtoull(op, &end, 16);
		if (end == op || (*end && *end != ' '))
			continue;
		t = line_of_addr(an, target);
		if (t < 0)
			continue;
		l->jump_to = (int)t;
		an->lines[t].jump_target = true;
	}
}

static bool annotation__has_insn(const struct annotation *an)
{
	size_t i;

	for (i = 0; i < an->nr_lines; i++)
		if (an->lines[i].insn)
			return true;
	return false;
}

int annotation__init(struct annotation *an, const struct annotated_sym *as,
		     const struct annotate_opts *o, char *err, size_t err_size)
{
	u64 start = as->sym->start, end = as->sym->end;
	int ret;

	memset(an, 0, sizeof(*an));
	an->as = as;
	err[0] = '\0';
	ret = object_path(as->dso, an->object, sizeof(an->object), err,
			  err_size);
	if (ret)
		return ret;
	an->text = arena__new(16 * 1024);
	if (!an->text)
		return -ENOMEM;
	/* The kernel's symbols are absolute already; ELF files map them. */
	if (as->dso->kind == DSO_KIND_FILE || as->dso->kind == DSO_KIND_VDSO) {
		ret = object_range(an->object, as->sym, &start, &end);
		if (ret) {
			snprintf(err, err_size, "%s: no segment holds %s",
				 an->object, as->sym->name);
			return ret;
		}
	}
	if (end <= start)
		end = start + 1;
	ret = objdump_run(an, o, start, end, err, err_size);
	if (ret)
		return ret;
	if (!annotation__has_insn(an)) {
		snprintf(err, err_size, "objdump showed no instructions of %s in %s",
			 as->sym->name, an->object);
		return -ENOENT;
	}
	spread_samples(an, start);
	link_jumps(an);
	return 0;
}

void annotation__exit(struct annotation *an)
{
	free(an->lines);
	arena__delete(an->text);
	an->lines = NULL;
	an->text = NULL;
}

double annotation__percent(const struct annotation *an, size_t i)
{
	if (!an->as->period || !an->lines[i].insn)
		return 0;
	return 100.0 * an->lines[i].period / an->as->period;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * Linux perf's columns: "%7.2f : " then the address right-aligned to the
 * widest one, and the instruction as far after it as objdump's own
 * eight-wide address field puts it.
 */
static void fprintf_insn(const struct annotation *an, size_t i,
			 bool show_nr_samples, FILE *out)
{
	const struct annotate_line *l = &an->lines[i];
	int digits = snprintf(NULL, 0, "%llx", (unsigned long long)l->addr);
	int pad = digits < 7 ? 7 - digits : 1;

	if (show_nr_samples)
		fprintf(out, " %7llu", (unsigned long long)l->nr_samples);
	else
		fprintf(out, " %7.2f", annotation__percent(an, i));
	fprintf(out, " :   %*llx:%*s%s\n", an->addr_width,
		(unsigned long long)l->addr, pad, "", l->text);
}

void annotation__fprintf(const struct annotation *an, const char *event,
			 bool show_nr_samples, FILE *out)
{
	int width;
	size_t i;

	/* The dashes are as wide as the title, its tab to column 16. */
	fprintf(out, " %-8s|", show_nr_samples ? "Samples" : "Percent");
	width = 16 + fprintf(out, "\tSource code & Disassembly of %s for %s (%llu samples, percent: local period)\n",
			     base_name(an->as->dso->long_name), event,
			     (unsigned long long)an->as->nr_samples) - 2;
	for (i = 0; i < (size_t)width; i++)
		fputc('-', out);
	fputc('\n', out);
	for (i = 0; i < an->nr_lines; i++) {
		const struct annotate_line *l = &an->lines[i];

		if (l->insn)
			fprintf_insn(an, i, show_nr_samples, out);
		else if (!l->text[0])
			fprintf(out, "         :\n");
		else if (l->line_nr)
			fprintf(out, "         : %-*d %s\n", an->addr_width,
				l->line_nr, l->text);
		else
			fprintf(out, "         : %*s %s\n", an->addr_width, "",
				l->text);
	}
}

/* ---- perf annotate ----------------------------------------------------- */

static bool annotate__selected(const struct annotate_select *sel,
			       const struct annotated_sym *as)
{
	if (sel->sym && strcmp(sel->sym, as->sym->name))
		return false;
	return !sel->dsos || report__list_has_str(sel->dsos,
						  as->dso->short_name);
}

/* 1 printed, -errno when it cannot be disassembled (said). */
static int annotate__fprintf_sym(const struct annotated_sym *as,
				 const char *event,
				 const struct annotate_opts *o,
				 const struct annotate_select *sel, FILE *out)
{
	struct annotation an;
	char err[PATH_MAX + 128];
	int ret;

	ret = annotation__init(&an, as, o, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "Warning: cannot annotate %s: %s\n",
			as->sym->name, err[0] ? err : strerror(-ret));
	} else {
		annotation__fprintf(&an, event, sel->show_nr_samples, out);
		ret = 1;
	}
	annotation__exit(&an);
	return ret;
}

/*
 * In the order of the report's entries (sorted by dso and symbol), which
 * is also the order Linux perf annotates them in, ties included.
 */
static int annotate__select_hists(struct hists *h, struct annotations *a,
				  const char *event,
				  const struct annotate_select *sel,
				  struct annotate_item **items, u32 *nr,
				  u32 *alloc)
{
	struct hist_entry **v;
	size_t nr_entries, i;

	v = hists__sorted(h, &nr_entries);
	if (!v)
		return -ENOMEM;
	for (i = 0; i < nr_entries; i++) {
		const struct hist_frame *f = &v[i]->frame;
		struct annotated_sym *as;

		as = f->sym ? annotations__find(a, f->dso, f->sym) : NULL;
		if (!as || !annotate__selected(sel, as))
			continue;
		if (array_reserve_one((void **)items, alloc, *nr,
				      sizeof(**items))) {
			free(v);
			return -ENOMEM;
		}
		(*items)[(*nr)++] = (struct annotate_item){ as, event };
	}
	free(v);
	return 0;
}

struct annotate_item *annotate__select(struct report *r,
				       struct perf_session *s,
				       const struct annotate_select *sel,
				       size_t *nr)
{
	struct annotate_item *items = NULL;
	u32 n = 0, alloc = 0;
	int i;

	for (i = 0; i < r->nr_hists && r->annotations; i++)
		if (annotate__select_hists(&r->hists[i], r->annotations[i],
					   s->attrs[i].name, sel, &items, &n,
					   &alloc)) {
			free(items);
			return NULL;
		}
	*nr = n;
	return items ? items : calloc(1, sizeof(*items));
}

/* Why nothing was shown, on stderr. */
void annotate__say_none(const struct annotate_select *sel)
{
	if (sel->sym)
		fprintf(stderr, "perf annotate: no samples in a symbol named '%s'%s%s (perf report --stdio lists those with samples)\n",
			sel->sym, sel->dsos ? " of " : "",
			sel->dsos ? sel->dsos : "");
	else
		fprintf(stderr, "perf annotate: no samples in any symbol%s%s\n",
			sel->dsos ? " of " : "", sel->dsos ? sel->dsos : "");
}

int annotate__fprintf_report(struct report *r, struct perf_session *s,
			     const struct annotate_opts *o,
			     const struct annotate_select *sel, FILE *out)
{
	struct annotate_item *items;
	size_t nr, i;
	int printed = 0, failed = 0;

	items = annotate__select(r, s, sel, &nr);
	if (!items)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		int ret = annotate__fprintf_sym(items[i].as, items[i].event,
						o, sel, out);

		if (ret > 0)
			printed++;
		else if (ret < 0)
			failed++;
	}
	free(items);
	if (printed)
		return 0;
	if (!failed)	/* else each said why */
		annotate__say_none(sel);
	return -ENOENT;
}

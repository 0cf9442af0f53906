// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --stdio: the histogram table and its call graphs, in the
 * columns Linux perf users and their scripts read.
 */
#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../util/hist.h"
#include "stdio-hist.h"

#define GRAPH_INDENT 12
/* Frames of one folded line at most: --max-stack is 127 by default. */
#define PERF_MAX_FOLDED_DEPTH 1024

static u64 entry_overhead(const struct hists *h, const struct hist_entry *e)
{
	return h->cfg.children ? e->children : e->self;
}

static const char *frame_dso(const struct hist_frame *f)
{
	return f->dso_name ? f->dso_name : "[unknown]";
}

/* Names are mostly interned or shared: the same one, the same pointer. */
static int cmp_str(const char *a, const char *b)
{
	if (a == b)
		return 0;
	return strcmp(a ? a : "", b ? b : "");
}

static const struct hists *sort_hists;

static int cmp_key(enum sort_key k, const struct hist_entry *a,
		   const struct hist_entry *b)
{
	switch (k) {
	case SORT_COMM:
		return cmp_str(a->comm, b->comm);
	case SORT_PID:
		return a->pid == b->pid ? 0 : a->pid < b->pid ? -1 : 1;
	case SORT_DSO:
		/* Known objects first, "[unknown]" last. */
		if (a->frame.dso && b->frame.dso)
			return cmp_str(frame_dso(&a->frame), frame_dso(&b->frame));
		if (a->frame.dso || b->frame.dso)
			return a->frame.dso ? -1 : 1;
		return 0;
	case SORT_SYM:
		/* Named symbols first, then raw addresses in order. */
		if (a->frame.sym_name && b->frame.sym_name)
			return cmp_str(a->frame.sym_name, b->frame.sym_name);
		if (a->frame.sym_name || b->frame.sym_name)
			return a->frame.sym_name ? -1 : 1;
		if (a->frame.addr != b->frame.addr)
			return a->frame.addr < b->frame.addr ? -1 : 1;
		return 0;
	case SORT_CPU:
		return a->cpu - b->cpu;
	case SORT_SOCKET:
		return a->socket - b->socket;
	case SORT_DSO_SIZE:
		if (a->frame.map_size != b->frame.map_size)
			return a->frame.map_size < b->frame.map_size ? -1 : 1;
		return 0;
	case SORT_PARENT:
		/* "[other]" (none found) last. */
		if (a->parent && b->parent)
			return strcmp(a->parent, b->parent);
		return a->parent ? -1 : b->parent ? 1 : 0;
	case SORT_TRACE:
		return cmp_str(a->trace, b->trace);
	case SORT_SRCLINE:
		return cmp_str(a->frame.srcline, b->frame.srcline);
	case SORT_SRCFILE:
		return cmp_str(a->frame.srcfile, b->frame.srcfile);
	default:
		return 0;
	}
}

/*
 * Overhead descending (with children: then self); ties in the order of
 * the sort keys, names alphabetically, as Linux perf orders them.
 */
/* -F: the columns in their order, numbers biggest first. */
static int cmp_fields(const struct hists *h, const struct hist_entry *a,
		      const struct hist_entry *b)
{
	int i, c;

	for (i = 0; i < h->cfg.nr_fields; i++) {
		int f = h->cfg.fields[i];

		if (f >= FIELD_KEY) {
			c = cmp_key(f - FIELD_KEY, a, b);
			if (c)
				return c;
		} else if (f == FIELD_SAMPLE) {
			if (a->nr_samples != b->nr_samples)
				return a->nr_samples > b->nr_samples ? -1 : 1;
		} else if (a->self != b->self) {
			return a->self > b->self ? -1 : 1;
		}
	}
	return 0;
}

static int cmp_entries(const void *pa, const void *pb)
{
	const struct hist_entry *a = *(struct hist_entry * const *)pa;
	const struct hist_entry *b = *(struct hist_entry * const *)pb;
	u64 oa = entry_overhead(sort_hists, a), ob = entry_overhead(sort_hists, b);
	int i, c;

	/* -F: its columns, then the keys; no hidden overhead order. */
	if (sort_hists->cfg.nr_fields) {
		c = cmp_fields(sort_hists, a, b);
		for (i = 0; !c && i < sort_hists->cfg.nr_keys; i++)
			c = cmp_key(sort_hists->cfg.keys[i], a, b);
		return c;
	}
	if (oa != ob)
		return oa > ob ? -1 : 1;
	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	for (i = 0; i < sort_hists->cfg.nr_keys; i++) {
		c = cmp_key(sort_hists->cfg.keys[i], a, b);
		if (c)
			return c;
	}
	return 0;
}

struct hist_entry **hists__sorted(struct hists *h, size_t *nr)
{
	struct hist_entry **v;
	size_t i, n = 0;

	if (hists__flush(h) || hists__name_threads(h))
		return NULL;
	v = malloc((h->nr_entries + 1) * sizeof(*v));
	if (!v)
		return NULL;
	/*
	 * What the filters show, as Linux perf counts it for --percentage
	 * relative: the entries they show, whatever samples made them.
	 */
	h->shown_period = 0;
	h->shown_samples = 0;
	for (i = 0; i < h->size; i++) {
		/* Nothing left: an entry hists__decay() emptied. */
		if (h->table[i] && !h->table[i]->self &&
		    !h->table[i]->children && !h->table[i]->nr_samples)
			continue;
		if (h->table[i] && !h->table[i]->filtered) {
			v[n++] = h->table[i];
			h->shown_period += h->table[i]->self;
			h->shown_samples += h->table[i]->nr_samples;
		}
	}
	sort_hists = h;
	qsort(v, n, sizeof(*v), cmp_entries);
	*nr = n;
	return v;
}

/* ---- columns ---------------------------------------------------------- */

static const char *key_title(enum sort_key k)
{
	switch (k) {
	case SORT_COMM: return "Command";
	case SORT_PID: return "Pid:Command";
	case SORT_DSO: return "Shared Object";
	case SORT_SYM: return "Symbol";
	case SORT_CPU: return "CPU";
	case SORT_SOCKET: return "Socket";
	case SORT_DSO_SIZE: return "DSO size";
	case SORT_PARENT: return "Parent symbol";
	case SORT_TRACE: return "Trace output";
	case SORT_SRCLINE: return "Source:Line";
	case SORT_SRCFILE: return "Source File";
	default: return "?";
	}
}

/* Numbers line up on the right, as in Linux perf's columns. */
static bool key_right_aligned(enum sort_key k)
{
	return k == SORT_SOCKET || k == SORT_DSO_SIZE;
}

static void key_value(enum sort_key k, const struct hist_entry *e, char *buf,
		      size_t size)
{
	const struct hist_frame *f = &e->frame;
	const char *latest = e->thread_comm ? *e->thread_comm : NULL;

	switch (k) {
	case SORT_COMM:
		snprintf(buf, size, "%s", e->comm ? e->comm : ":-1");
		break;
	case SORT_PID:
		/* A task is named as it was last, as Linux perf names it. */
		if (!latest)
			latest = e->comm ? e->comm : "";
		snprintf(buf, size, "%7d:%s", e->pid, latest);
		break;
	case SORT_DSO:
		snprintf(buf, size, "%s", frame_dso(f));
		break;
	case SORT_SYM:
		if (f->sym_name)
			snprintf(buf, size, "[%c] %s", f->level, f->sym_name);
		else
			snprintf(buf, size, "[%c] %#.16llx", f->level,
				 (unsigned long long)f->addr);
		break;
	case SORT_CPU:
		/* At least three digits: CPU -1 (unknown) shows as -001. */
		snprintf(buf, size, "%.3d", e->cpu);
		break;
	case SORT_SOCKET:
		snprintf(buf, size, "%.3d", e->socket);
		break;
	case SORT_DSO_SIZE:
		if (f->dso)
			snprintf(buf, size, "%llu",
				 (unsigned long long)f->map_size);
		else
			snprintf(buf, size, "unknown");
		break;
	case SORT_PARENT:
		snprintf(buf, size, "%s", e->parent ? e->parent : "[other]");
		break;
	case SORT_TRACE:
		snprintf(buf, size, "%s", e->trace ? e->trace : "N/A");
		break;
	case SORT_SRCLINE:
		snprintf(buf, size, "%s", f->srcline ? f->srcline : "??:0");
		break;
	case SORT_SRCFILE:
		snprintf(buf, size, "%s", f->srcfile ? f->srcfile : "");
		break;
	default:
		buf[0] = '\0';
	}
}

/* "[l] name" of a frame with a symbol into @buf, as snprintf() would. */
static const char *sym_text(const struct hist_frame *f, char *buf,
			    size_t size)
{
	size_t len = strlen(f->sym_name);

	if (size < 5)
		return "";
	if (len > size - 5)
		len = size - 5;
	buf[0] = '[';
	buf[1] = f->level;
	buf[2] = ']';
	buf[3] = ' ';
	memcpy(buf + 4, f->sym_name, len);
	buf[4 + len] = '\0';
	return buf;
}

/* @s itself, or cut to @size - 1 bytes in @buf as key_value() cuts it. */
static const char *held_text(const char *s, char *buf, size_t size)
{
	if (strnlen(s, size) < size)
		return s;
	snprintf(buf, size, "%s", s);
	return buf;
}

/* "[l] %#.16llx" of a frame without a symbol, as snprintf() makes it. */
static const char *addr_text(const struct hist_entry *e, char *buf,
			     size_t size)
{
	static const char digits[] = "0123456789abcdef";
	const struct hist_frame *f = &e->frame;
	char *p = buf + 4;
	int i;

	if (size < sizeof("[l] 0x") + 16) {
		key_value(SORT_SYM, e, buf, size);
		return buf;
	}
	memcpy(buf, "[l] ", 4);
	buf[1] = f->level;
	/* "%#x" adds no "0x" to a zero. */
	if (f->addr) {
		*p++ = '0';
		*p++ = 'x';
	}
	for (i = 15; i >= 0; i--)
		*p++ = digits[(f->addr >> (4 * i)) & 0xf];
	*p = '\0';
	return buf;
}

/*
 * A key's text, as key_value() makes it: a string the entry already
 * holds, or one made in @buf.  Rows print tens of thousands of these;
 * most need no copy.
 */
static const char *key_text(enum sort_key k, const struct hist_entry *e,
			    char *buf, size_t size)
{
	const struct hist_frame *f = &e->frame;

	switch (k) {
	case SORT_COMM:
		return held_text(e->comm ? e->comm : ":-1", buf, size);
	case SORT_DSO:
		return held_text(frame_dso(f), buf, size);
	case SORT_SYM:
		if (f->sym_name)
			return sym_text(f, buf, size);
		return addr_text(e, buf, size);
	case SORT_PARENT:
		return held_text(e->parent ? e->parent : "[other]", buf, size);
	case SORT_TRACE:
		return held_text(e->trace ? e->trace : "N/A", buf, size);
	case SORT_SRCLINE:
		return held_text(f->srcline ? f->srcline : "??:0", buf, size);
	case SORT_SRCFILE:
		return held_text(f->srcfile ? f->srcfile : "", buf, size);
	default:
		break;
	}
	key_value(k, e, buf, size);
	return buf;
}

/*
 * Width a value asks of its column.  Names of tasks count with the
 * task's latest name, as Linux perf sizes them; an older, longer name
 * is then cut to the column, so both tools print the same columns.
 */
static int key_width(enum sort_key k, const struct hist_entry *e,
		     const char *value)
{
	const char *latest = e->thread_comm ? *e->thread_comm : NULL;

	if (latest && k == SORT_COMM)
		return strlen(latest);
	if (latest && k == SORT_PID)
		return strlen(latest) + 8;
	return strlen(value);
}

static void compute_widths(const struct hists *h, struct hist_entry **v,
			   size_t n, int *width)
{
	char buf[1024];
	size_t i;
	int k;

	for (k = 0; k < h->cfg.nr_keys; k++)
		width[k] = strlen(key_title(h->cfg.keys[k]));
	for (i = 0; i < n; i++) {
		for (k = 0; k < h->cfg.nr_keys; k++) {
			const char *text;
			int len;

			text = key_text(h->cfg.keys[k], v[i], buf, sizeof(buf));
			len = key_width(h->cfg.keys[k], v[i], text);
			if (len > width[k])
				width[k] = len;
		}
	}
}

/* A column every row would show the same in (one filter value). */
static bool elided(const struct hists *h, int k)
{
	return h->cfg.elide & (1u << h->cfg.keys[k]);
}

static void print_dots(FILE *out, int n)
{
	while (n-- > 0)
		fputc('.', out);
}

static void print_column_header(const struct hists *h, const int *width,
				FILE *out)
{
	int k;

	fprintf(out, "# %s", h->cfg.children ? "Children      Self" : "Overhead");
	if (h->cfg.show_nr_samples)
		fprintf(out, "  %12s", "Samples");
	for (k = 0; k < h->cfg.nr_keys; k++)
		if (!elided(h, k))
			fprintf(out, "  %-*s", width[k], key_title(h->cfg.keys[k]));
	fprintf(out, "\n# ");
	print_dots(out, 8);
	if (h->cfg.children) {
		fprintf(out, "  ");
		print_dots(out, 8);
	}
	if (h->cfg.show_nr_samples) {
		fprintf(out, "  ");
		print_dots(out, 12);
	}
	for (k = 0; k < h->cfg.nr_keys; k++) {
		if (elided(h, k))
			continue;
		fprintf(out, "  ");
		print_dots(out, width[k]);
	}
	fprintf(out, "\n#\n");
}

static double pct(const struct hists *h, u64 v)
{
	u64 total = h->cfg.relative ? h->shown_period : h->total_period;

	return total ? 100.0 * v / total : 0.0;
}

/*
 * Rows and graph lines print hundreds of thousands of percentages, at
 * a thousand instructions each through printf().  A long double of 60
 * mantissa bits or more (x87's 64) holds d * 100 exactly (53 + 7
 * bits), so the rounding is as exact as glibc's; with a shorter one,
 * and for values no percentage has, printf() it is.
 */
#if LDBL_MANT_DIG >= 60
static int pct_exact(char *buf, int width, double d)
{
	long double x = (long double)d * 100, frac;
	char digits[24];
	int n = 0, len;
	u64 v = (u64)x;

	frac = x - v;
	if (frac > 0.5L || (frac == 0.5L && (v & 1)))
		v++;
	digits[n++] = '0' + v % 10;
	digits[n++] = '0' + v / 10 % 10;
	digits[n++] = '.';
	v /= 100;
	do {
		digits[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	for (len = 0; len < width - n; len++)
		buf[len] = ' ';
	while (n)
		buf[len++] = digits[--n];
	buf[len] = '\0';
	return len;
}
#else
static int pct_exact(char *buf, int width, double d)
{
	return snprintf(buf, 32, "%*.2f", width, d);
}
#endif

int hists__format_pct(char *buf, int width, double d)
{
	if (d >= 0 && d < 1e15)
		return pct_exact(buf, width, d);
	return snprintf(buf, 32, "%*.2f", width, d);
}

/* "%*.2f%%" of @d. */
static void print_pct(FILE *out, int width, double d)
{
	char buf[32];
	int len = hists__format_pct(buf, width, d);

	fwrite(buf, 1, len < (int)sizeof(buf) ? len : (int)sizeof(buf) - 1,
	       out);
	fputc('%', out);
}

/* ---- -F: columns in the order given ---------------------------------- */

static const char *field_title(int f)
{
	switch (f) {
	case FIELD_OVERHEAD: return "Overhead";
	case FIELD_SAMPLE: return "Samples";
	case FIELD_PERIOD: return "Period";
	default: return key_title(f - FIELD_KEY);
	}
}

/* Widths of the numbers, as Linux perf's -F prints them. */
static int field_width(int f, const int *key_width, int *k)
{
	if (f == FIELD_OVERHEAD)
		return 8;
	if (f == FIELD_SAMPLE || f == FIELD_PERIOD)
		return 12;
	return key_width[(*k)++];
}

static void print_fields_header(const struct hists *h, const int *width,
				FILE *out)
{
	int i, k = 0, w, f;
	int kk = 0;

	fputc('#', out);
	for (i = 0; i < h->cfg.nr_fields; i++) {
		f = h->cfg.fields[i];
		w = field_width(f, width, &k);
		fputs(i ? "  " : " ", out);
		if (f >= FIELD_KEY || f == FIELD_OVERHEAD)
			fprintf(out, "%-*s", w, field_title(f));
		else
			fprintf(out, "%*s", w, field_title(f));
	}
	fputs("\n#", out);
	for (i = 0; i < h->cfg.nr_fields; i++) {
		fputs(i ? "  " : " ", out);
		print_dots(out, field_width(h->cfg.fields[i], width, &kk));
	}
	fputs("\n#\n", out);
}

static void print_fields_row(const struct hists *h,
			     const struct hist_entry *e, const int *width,
			     FILE *out)
{
	char buf[1024];
	int i, k = 0, w, f;

	for (i = 0; i < h->cfg.nr_fields; i++) {
		f = h->cfg.fields[i];
		w = field_width(f, width, &k);
		if (f == FIELD_OVERHEAD) {
			fprintf(out, "  %7.2f%%", pct(h, e->self));
		} else if (f == FIELD_SAMPLE) {
			fprintf(out, "  %*llu", w, (unsigned long long)e->nr_samples);
		} else if (f == FIELD_PERIOD) {
			fprintf(out, "  %*llu", w, (unsigned long long)e->self);
		} else {
			key_value(f - FIELD_KEY, e, buf, sizeof(buf));
			if (key_right_aligned(f - FIELD_KEY))
				fprintf(out, "  %*s", w, buf);
			else if (i == h->cfg.nr_fields - 1)
				fprintf(out, "  %s", buf);
			else
				fprintf(out, "  %-*s", w, buf);
		}
	}
	fputc('\n', out);
}


/* @n spaces. */
/*
 * A row is made in a buffer and written at once: a stdio call per
 * column and per padding cost more than the rest of the row.
 */
struct row_buf {
	FILE *out;
	size_t len;
	char buf[2048];
};

static void row_flush(struct row_buf *rb)
{
	fwrite(rb->buf, 1, rb->len, rb->out);
	rb->len = 0;
}

static void row_put(struct row_buf *rb, const char *s, size_t n)
{
	if (n > sizeof(rb->buf) - rb->len) {
		row_flush(rb);
		if (n > sizeof(rb->buf)) {
			fwrite(s, 1, n, rb->out);
			return;
		}
	}
	memcpy(rb->buf + rb->len, s, n);
	rb->len += n;
}

static void row_spaces(struct row_buf *rb, int n)
{
	static const char spaces[] = "                                ";
	int chunk = sizeof(spaces) - 1;

	for (; n > 0; n -= chunk)
		row_put(rb, spaces, n < chunk ? n : chunk);
}

static void row_pct(struct row_buf *rb, double d)
{
	char buf[32];
	int len = hists__format_pct(buf, 7, d);

	row_put(rb, "  ", 2);
	row_put(rb, buf, len < (int)sizeof(buf) ? len : (int)sizeof(buf) - 1);
	row_put(rb, "%", 1);
}

static void print_row(const struct hists *h, const struct hist_entry *e,
		      const int *width, FILE *out)
{
	struct row_buf rb;	/* not zeroed: 2 KiB a row */
	char buf[1024];
	int k;

	rb.out = out;
	rb.len = 0;
	if (h->cfg.children)
		row_pct(&rb, pct(h, e->children));
	row_pct(&rb, pct(h, e->self));
	if (h->cfg.show_nr_samples) {
		int n = snprintf(buf, sizeof(buf), "  %12llu",
				 (unsigned long long)e->nr_samples);

		row_put(&rb, buf, n);
	}
	for (k = 0; k < h->cfg.nr_keys; k++) {
		bool last = k == h->cfg.nr_keys - 1;
		bool right = key_right_aligned(h->cfg.keys[k]);
		const char *text;
		int len;

		if (elided(h, k))
			continue;
		text = key_text(h->cfg.keys[k], e, buf, sizeof(buf));
		len = strlen(text);
		/* An older, longer task name is cut to the column. */
		if ((h->cfg.keys[k] == SORT_COMM ||
		     h->cfg.keys[k] == SORT_PID) && len > width[k])
			len = width[k];
		row_put(&rb, "  ", 2);
		if (right)
			row_spaces(&rb, width[k] - len);
		row_put(&rb, text, len);
		if (!last && !right)
			row_spaces(&rb, width[k] - len);
	}
	row_put(&rb, "\n", 1);
	row_flush(&rb);
}

/* ---- call graphs -------------------------------------------------------- */

static const char *node_name(const struct callchain_node *n, char *buf,
			     size_t size)
{
	if (n->frame->sym_name)
		return n->frame->sym_name;
	snprintf(buf, size, "%#llx", (unsigned long long)n->frame->addr);
	return buf;
}

static int cmp_nodes(const void *pa, const void *pb)
{
	const struct callchain_node *a = *(struct callchain_node * const *)pa;
	const struct callchain_node *b = *(struct callchain_node * const *)pb;

	if (a->hits != b->hits)
		return a->hits > b->hits ? -1 : 1;
	/* Equal branches: by object, then by address, for a stable order. */
	if (a->frame->dso != b->frame->dso)
		return cmp_str(frame_dso(a->frame), frame_dso(b->frame));
	if (a->frame->addr != b->frame->addr)
		return a->frame->addr < b->frame->addr ? -1 : 1;
	return 0;
}

/* Children of @n worth showing, biggest first; caller frees. */
static struct callchain_node **visible_children(const struct hists *h,
						const struct callchain_node *n,
						int *nr)
{
	struct callchain_node *c, **v;
	int count = 0;

	for (c = n->child; c; c = c->sibling)
		count++;
	v = malloc((count + 1) * sizeof(*v));
	*nr = 0;
	if (!v)
		return NULL;
	for (c = n->child; c; c = c->sibling)
		if (pct(h, c->hits) >= h->cfg.graph_min_pct)
			v[(*nr)++] = c;
	qsort(v, *nr, sizeof(*v), cmp_nodes);
	return v;
}

static void print_branches(const struct hists *h,
			   const struct callchain_node *n, char *prefix,
			   FILE *out);

/*
 * Step @n to the next frame of its path, if the path goes on without a
 * fork (all of @n's hits in its one visible child).
 */
static bool next_on_path(const struct hists *h,
			 const struct callchain_node **n)
{
	struct callchain_node **kids;
	bool on;
	int nr;

	kids = visible_children(h, *n, &nr);
	if (!kids)
		return false;
	on = nr == 1 && kids[0]->hits == (*n)->hits;
	if (on)
		*n = kids[0];
	free(kids);
	return on;
}

/* Follow a chain with no forks, one name per line under the prefix. */
static void continue_chain(const struct hists *h,
			   const struct callchain_node *n, char *prefix,
			   FILE *out)
{
	char buf[64];

	while (next_on_path(h, &n))
		fprintf(out, "%s%s\n", prefix, node_name(n, buf, sizeof(buf)));
	print_branches(h, n, prefix, out);
}

/* A fork: each branch with its share of the total, then its own chain. */
static void print_branches(const struct hists *h,
			   const struct callchain_node *n, char *prefix,
			   FILE *out)
{
	struct callchain_node **kids;
	size_t plen = strlen(prefix);
	char buf[64];
	int nr, i;

	kids = visible_children(h, n, &nr);
	if (!kids)
		return;
	for (i = 0; i < nr; i++) {
		bool last = i == nr - 1;
		char *sub = malloc(plen + 12);

		if (!sub)
			break;
		fprintf(out, "%s|          \n", prefix);
		fputs(prefix, out);
		fputs(last ? " --" : "|--", out);
		print_pct(out, 0, pct(h, kids[i]->hits));
		fprintf(out, "--%s\n", node_name(kids[i], buf, sizeof(buf)));
		snprintf(sub, plen + 12, "%s%s", prefix,
			 last ? "           " : "|          ");
		continue_chain(h, kids[i], sub, out);
		free(sub);
	}
	free(kids);
}

static void print_graph(const struct hists *h, const struct hist_entry *e,
			FILE *out)
{
	const struct callchain_node *first;
	char prefix[64], buf[64];
	struct callchain_node **kids;
	int nr;

	if (!e->graph)
		return;
	/* Nothing worth showing: not even the blank line after a graph. */
	kids = visible_children(h, e->graph, &nr);
	if (!kids)
		return;
	free(kids);
	if (!nr)
		return;
	memset(prefix, ' ', GRAPH_INDENT);
	prefix[GRAPH_INDENT] = '\0';
	first = e->graph;
	if (next_on_path(h, &first)) {
		/* The whole entry follows one path: no percentages. */
		if (h->cfg.graph_skip_first && !next_on_path(h, &first)) {
			print_branches(h, first, prefix, out);
		} else {
			fprintf(out, "%s|\n%s---%s\n", prefix, prefix,
				node_name(first, buf, sizeof(buf)));
			strcat(prefix, "   ");
			continue_chain(h, first, prefix, out);
		}
	} else {
		print_branches(h, e->graph, prefix, out);
	}
	fputc('\n', out);
}

/* ---- folded call graphs ------------------------------------------------ */

/* A path of the graph that samples ended on, as "a;b;c". */
struct folded_path {
	u64 hits;
	char *text;
};

struct folded_walk {
	const struct hists *h;
	const struct callchain_node *stack[PERF_MAX_FOLDED_DEPTH];
	int depth;
	struct folded_path *paths;
	int nr, alloc;
};

static int folded_add(struct folded_walk *w, u64 hits)
{
	char buf[64], *text;
	size_t len = 1;
	int i;

	for (i = 0; i < w->depth; i++)
		len += strlen(node_name(w->stack[i], buf, sizeof(buf))) + 1;
	text = malloc(len);
	if (!text)
		return -1;
	text[0] = '\0';
	for (i = 0; i < w->depth; i++) {
		if (i)
			strcat(text, ";");
		strcat(text, node_name(w->stack[i], buf, sizeof(buf)));
	}
	if (w->nr == w->alloc) {
		int alloc = w->alloc ? 2 * w->alloc : 16;
		struct folded_path *p = realloc(w->paths, alloc * sizeof(*p));

		if (!p) {
			free(text);
			return -1;
		}
		w->paths = p;
		w->alloc = alloc;
	}
	w->paths[w->nr].hits = hits;
	w->paths[w->nr++].text = text;
	return 0;
}

/* Every path from the root down to where samples ended, with its hits. */
static int folded_walk(struct folded_walk *w, const struct callchain_node *n)
{
	const struct callchain_node *c;
	u64 below = 0;

	if (w->depth == PERF_MAX_FOLDED_DEPTH)
		return 0;
	w->stack[w->depth++] = n;
	for (c = n->child; c; c = c->sibling) {
		below += c->hits;
		if (folded_walk(w, c))
			return -1;
	}
	w->depth--;
	if (n->hits > below &&
	    pct(w->h, n->hits - below) >= w->h->cfg.graph_min_pct) {
		w->depth++;
		if (folded_add(w, n->hits - below))
			return -1;
		w->depth--;
	}
	return 0;
}

static int cmp_folded(const void *pa, const void *pb)
{
	const struct folded_path *a = pa, *b = pb;

	if (a->hits != b->hits)
		return a->hits > b->hits ? -1 : 1;
	return strcmp(a->text, b->text);
}

/* -g folded: "pct% caller;...;callee" (or callee first), biggest first. */
static void print_folded(const struct hists *h, const struct hist_entry *e,
			 FILE *out)
{
	struct folded_walk w = { .h = h };
	const struct callchain_node *c;
	int i;

	if (!e->graph)
		return;
	for (c = e->graph->child; c; c = c->sibling)
		if (folded_walk(&w, c))
			break;
	if (w.nr)
		qsort(w.paths, w.nr, sizeof(*w.paths), cmp_folded);
	for (i = 0; i < w.nr; i++) {
		fprintf(out, "%.2f%% %s\n", pct(h, w.paths[i].hits),
			w.paths[i].text);
		free(w.paths[i].text);
	}
	free(w.paths);
}

/* ---- for other tables (perf diff) ------------------------------------- */

const char *sort_key__title(enum sort_key k)
{
	return key_title(k);
}

void hist_entry__key_value(enum sort_key k, const struct hist_entry *e,
			   char *buf, size_t size)
{
	key_value(k, e, buf, size);
}

double hists__percent(const struct hists *h, u64 v)
{
	return pct(h, v);
}

u64 hist_entry__overhead(const struct hists *h, const struct hist_entry *e)
{
	return entry_overhead(h, e);
}

bool hist_entry__above_limit(const struct hists *h, const struct hist_entry *e)
{
	return pct(h, entry_overhead(h, e)) >= h->cfg.percent_limit;
}

void hists__column_widths(const struct hists *h, struct hist_entry **v,
			  size_t n, int *width)
{
	compute_widths(h, v, n, width);
}

void hists__fprintf_column_titles(const struct hists *h, const int *width,
				  FILE *out)
{
	if (h->cfg.nr_fields)
		print_fields_header(h, width, out);
	else
		print_column_header(h, width, out);
}

void hist_entry__fprintf_row(const struct hists *h, const struct hist_entry *e,
			     const int *width, FILE *out)
{
	if (h->cfg.nr_fields)
		print_fields_row(h, e, width, out);
	else
		print_row(h, e, width, out);
}

const char *callchain_node__name(const struct callchain_node *n, char *buf,
				 size_t size)
{
	return node_name(n, buf, size);
}

struct callchain_node **callchain_node__shown_children(const struct hists *h,
						       const struct callchain_node *n,
						       int *nr)
{
	return visible_children(h, n, nr);
}

/* ---- the report ------------------------------------------------------- */

u64 hists__scaled_samples(const struct hists *h, char *unit)
{
	static const char units[] = " KMG";
	double n = h->cfg.relative ? h->shown_samples : h->nr_samples;
	int u = 0;

	/* As Linux perf: divided while above 1000, so 1000 stays "1000 ". */
	while (n > 1000 && u < 3) {
		n /= 1000;
		u++;
	}
	*unit = units[u];
	return (u64)n;
}

u64 hists__event_count(const struct hists *h)
{
	return h->cfg.relative ? h->shown_period : h->total_period;
}

static void print_preamble(const struct hists *h,
			   const struct hists_header *hdr, FILE *out)
{
	char unit;
	u64 n = hists__scaled_samples(h, &unit);

	/* As Linux perf: the file's lost samples once, before the first. */
	if (hdr->next_event) {
		fputc('\n', out);
	} else {
		if (hdr->filter_lines)
			fputs(hdr->filter_lines, out);
		fprintf(out, "#\n# Total Lost Samples: %llu\n#\n",
			(unsigned long long)hdr->lost_samples);
	}
	fprintf(out, "# Samples: %llu%c of event%s '%s'", (unsigned long long)n,
		unit, hdr->group ? "s" : "", hdr->event_name);
	if (hdr->time_slices)
		fprintf(out, " (time slices: %s)", hdr->time_slices);
	fputc('\n', out);
	fprintf(out, "# Event count (approx.): %llu\n#\n",
		(unsigned long long)hists__event_count(h));
}

void hists__fprintf(struct hists *h, const struct hists_header *hdr,
		    FILE *out)
{
	int width[SORT_MAX_KEYS];
	struct hist_entry **v;
	size_t n, i;

	v = hists__sorted(h, &n);
	if (!v)
		return;
	print_preamble(h, hdr, out);
	compute_widths(h, v, n, width);
	if (h->cfg.nr_fields)
		print_fields_header(h, width, out);
	else
		print_column_header(h, width, out);
	for (i = 0; i < n; i++) {
		if (pct(h, entry_overhead(h, v[i])) < h->cfg.percent_limit)
			continue;
		if (h->cfg.nr_fields)
			print_fields_row(h, v[i], width, out);
		else
			print_row(h, v[i], width, out);
		if (h->cfg.callchain && h->cfg.folded)
			print_folded(h, v[i], out);
		else if (h->cfg.callchain)
			print_graph(h, v[i], out);
	}
	fputc('\n', out);
	free(v);
}

int hists__fprintf_rows(struct hists *h, size_t max_rows, FILE *out)
{
	int width[SORT_MAX_KEYS];
	struct hist_entry **v;
	size_t n, i, rows = 0;

	v = hists__sorted(h, &n);
	if (!v)
		return -ENOMEM;
	if (n > max_rows)
		n = max_rows;
	compute_widths(h, v, n, width);
	for (i = 0; i < n; i++) {
		if (pct(h, entry_overhead(h, v[i])) < h->cfg.percent_limit)
			continue;
		print_row(h, v[i], width, out);
		rows++;
	}
	free(v);
	return rows;
}

/* ---- --group: the events of a group side by side ------------------------ */

#define GROUP_MAX 8

/* An entry of the group: the member histograms' entries with its keys. */
struct group_row {
	const struct hist_entry *e[GROUP_MAX];	/* NULL: none in that one */
	const struct hist_entry *any;		/* the first there is */
};

struct group_view {
	struct hists **members;
	int nr;
	struct group_row *rows;
	size_t nr_rows;
	size_t *slots;			/* open addressing: row + 1 */
	size_t size;
};

static struct group_row *group_row_of(struct group_view *g,
				      const struct hist_entry *e)
{
	const struct hists_config *cfg = &g->members[0]->cfg;
	size_t j = hist_entry__keys_hash(cfg, e) & (g->size - 1);
	struct group_row *r;

	for (; g->slots[j]; j = (j + 1) & (g->size - 1)) {
		r = &g->rows[g->slots[j] - 1];
		if (hist_entry__same_keys(cfg, r->any, e))
			return r;
	}
	r = &g->rows[g->nr_rows++];
	r->any = e;
	g->slots[j] = g->nr_rows;
	return r;
}

/* Every member's entries, paired by their keys. */
static int group_view__fill(struct group_view *g)
{
	struct hist_entry **v[GROUP_MAX];
	size_t n[GROUP_MAX], total = 0, i;
	int m, err = 0;

	for (m = 0; m < g->nr; m++) {
		v[m] = hists__sorted(g->members[m], &n[m]);
		if (!v[m])
			err = -1;
		total += v[m] ? n[m] : 0;
	}
	g->size = 16;
	while (g->size < 2 * total)
		g->size *= 2;
	g->rows = calloc(total + 1, sizeof(*g->rows));
	g->slots = calloc(g->size, sizeof(*g->slots));
	if (!g->rows || !g->slots)
		err = -1;
	for (m = 0; !err && m < g->nr; m++)
		for (i = 0; i < n[m]; i++)
			group_row_of(g, v[m][i])->e[m] = v[m][i];
	for (m = 0; m < g->nr; m++)
		free(v[m]);
	return err;
}

static const struct group_view *sort_group;

static u64 row_self(const struct group_row *r, int m)
{
	return r->e[m] ? r->e[m]->self : 0;
}

/* Leader's overhead first, then the others', then the keys. */
static int cmp_group_rows(const void *pa, const void *pb)
{
	const struct group_row *a = pa, *b = pb;
	const struct hists_config *cfg = &sort_group->members[0]->cfg;
	double x, y;
	int m, i, c;

	for (m = 0; m < sort_group->nr; m++) {
		x = pct(sort_group->members[m], row_self(a, m));
		y = pct(sort_group->members[m], row_self(b, m));
		if (x != y)
			return x > y ? -1 : 1;
	}
	for (i = 0; i < cfg->nr_keys; i++) {
		c = cmp_key(cfg->keys[i], a->any, b->any);
		if (c)
			return c;
	}
	return 0;
}

static void print_group_header(const struct group_view *g, const int *width,
			       FILE *out)
{
	const struct hists *h = g->members[0];
	int k;

	fprintf(out, "# %*s", 8 * g->nr, "Overhead");
	if (h->cfg.show_nr_samples)
		fprintf(out, "  %*s", 12 * g->nr, "Samples");
	for (k = 0; k < h->cfg.nr_keys; k++)
		if (!elided(h, k))
			fprintf(out, "  %-*s", width[k], key_title(h->cfg.keys[k]));
	fputs("\n# ", out);
	print_dots(out, 8 * g->nr);
	if (h->cfg.show_nr_samples) {
		fputs("  ", out);
		print_dots(out, 12 * g->nr);
	}
	for (k = 0; k < h->cfg.nr_keys; k++) {
		if (elided(h, k))
			continue;
		fputs("  ", out);
		print_dots(out, width[k]);
	}
	fputs("\n#\n", out);
}

static void print_group_row(const struct group_view *g,
			    const struct group_row *r, const int *width,
			    FILE *out)
{
	const struct hists *h = g->members[0];
	char buf[1024];
	int m, k;

	fputs("  ", out);
	for (m = 0; m < g->nr; m++)
		fprintf(out, "%7.2f%%", pct(g->members[m], row_self(r, m)));
	if (h->cfg.show_nr_samples) {
		fputs("  ", out);
		for (m = 0; m < g->nr; m++)
			fprintf(out, "%12llu", r->e[m] ?
				(unsigned long long)r->e[m]->nr_samples : 0ULL);
	}
	for (k = 0; k < h->cfg.nr_keys; k++) {
		if (elided(h, k))
			continue;
		key_value(h->cfg.keys[k], r->any, buf, sizeof(buf));
		if (k == h->cfg.nr_keys - 1)
			fprintf(out, "  %s", buf);
		else
			fprintf(out, "  %-*s", width[k], buf);
	}
	fputc('\n', out);
}

/* The group's samples and period summed, for the preamble. */
static void group_totals(const struct group_view *g, struct hists *sum)
{
	int m;

	*sum = *g->members[0];
	sum->nr_samples = 0;
	sum->total_period = 0;
	sum->shown_samples = 0;
	sum->shown_period = 0;
	for (m = 0; m < g->nr; m++) {
		sum->nr_samples += g->members[m]->nr_samples;
		sum->total_period += g->members[m]->total_period;
		sum->shown_samples += g->members[m]->shown_samples;
		sum->shown_period += g->members[m]->shown_period;
	}
}

void hists__fprintf_group(struct hists **members, int nr,
			  const struct hists_header *hdr, FILE *out)
{
	struct group_view g = { .members = members, .nr = nr };
	const struct hists *leader = members[0];
	int width[SORT_MAX_KEYS], k;
	struct hists sum;
	char buf[1024];
	size_t i;

	if (nr > GROUP_MAX || group_view__fill(&g))
		goto out;
	sort_group = &g;
	qsort(g.rows, g.nr_rows, sizeof(*g.rows), cmp_group_rows);
	group_totals(&g, &sum);
	print_preamble(&sum, hdr, out);
	for (k = 0; k < leader->cfg.nr_keys; k++)
		width[k] = strlen(key_title(leader->cfg.keys[k]));
	for (i = 0; i < g.nr_rows; i++) {
		for (k = 0; k < leader->cfg.nr_keys; k++) {
			key_value(leader->cfg.keys[k], g.rows[i].any, buf,
				  sizeof(buf));
			if ((int)strlen(buf) > width[k])
				width[k] = strlen(buf);
		}
	}
	print_group_header(&g, width, out);
	for (i = 0; i < g.nr_rows; i++) {
		if (pct(leader, row_self(&g.rows[i], 0)) < leader->cfg.percent_limit)
			continue;
		print_group_row(&g, &g.rows[i], width, out);
		if (leader->cfg.callchain && g.rows[i].e[0])
			print_graph(leader, g.rows[i].e[0], out);
	}
	fputc('\n', out);
out:
	free(g.rows);
	free(g.slots);
}

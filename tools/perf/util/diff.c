// SPDX-License-Identifier: GPL-2.0
/*
 * perf diff: entries of two histograms paired by their keys' values
 * (names, not addresses: the two files may come from two builds), in
 * Linux perf's layout:
 *
 *   # Baseline  Delta Abs  Shared Object  Symbol
 *       49.55%     +1.20%  perf           [.] workload_hot_a
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff.h"

struct diff_row {
	const struct hist_entry *base;	/* NULL: only in the new file */
	const struct hist_entry *new;	/* NULL: only in the baseline */
	double base_pct, new_pct;
	char key[2][512];		/* the printed key columns */
	int unresolved;			/* key index + 1 of a symbol-less sym */
	char level;
	u64 addr;			/* the lowest it stands for */
	const char *dso;		/* ties of the sym key go by object */
	bool hidden;			/* paired with an entry filters hide */
};

static double entry_pct(const struct hists *h, const struct hist_entry *e)
{
	u64 total = h->cfg.relative ? h->shown_period : h->total_period;

	return total ? 100.0 * e->self / total : 0;
}

/*
 * The key columns of @e.  Samples where no symbol is known are one row
 * per object, as Linux perf's diff folds them, shown at the lowest of
 * their addresses (Linux perf shows one of them).
 */
static void row_keys(const struct hists *h, struct diff_row *r,
		     const struct hist_entry *e)
{
	int k;

	r->dso = e->frame.dso_name ? e->frame.dso_name : "";
	for (k = 0; k < h->cfg.nr_keys && k < 2; k++) {
		if (h->cfg.keys[k] == SORT_SYM && !e->frame.sym_name) {
			snprintf(r->key[k], sizeof(r->key[k]), "[%c] ?",
				 e->frame.level);
			r->unresolved = k + 1;
			r->level = e->frame.level;
			r->addr = e->frame.addr;
			continue;
		}
		hist_entry__key_value(h->cfg.keys[k], e, r->key[k],
				      sizeof(r->key[k]));
	}
}

/* The key columns as printed: an unresolved one with its address. */
static void row_show(struct diff_row *r)
{
	if (r->unresolved)
		snprintf(r->key[r->unresolved - 1], sizeof(r->key[0]),
			 "[%c] %#.16llx", r->level, (unsigned long long)r->addr);
}

/* Another entry with @r's keys: their shares add up. */
static void row_merge(struct diff_row *into, const struct diff_row *r)
{
	if (into != r && r->unresolved && r->addr < into->addr)
		into->addr = r->addr;
}

static bool same_keys(const struct diff_row *a, const struct diff_row *b)
{
	return !strcmp(a->key[0], b->key[0]) && !strcmp(a->key[1], b->key[1]);
}

static u64 keys_hash(const struct diff_row *r)
{
	u64 h = 0xcbf29ce484222325ULL;
	const char *p;
	int k;

	for (k = 0; k < 2; k++)
		for (p = r->key[k]; *p; p++)
			h = (h ^ (u8)*p) * 0x100000001b3ULL;
	return h;
}

struct diff_table {
	struct diff_row *rows;
	size_t nr;
	size_t *slots;		/* open addressing: row index + 1 */
	size_t size;
};

static struct diff_row *table_find(struct diff_table *t,
				   const struct diff_row *key)
{
	size_t j = keys_hash(key) & (t->size - 1);

	for (; t->slots[j]; j = (j + 1) & (t->size - 1))
		if (same_keys(&t->rows[t->slots[j] - 1], key))
			return &t->rows[t->slots[j] - 1];
	t->slots[j] = t->nr + 1;
	return NULL;
}

/*
 * An entry the filters hide (--comms and the like: made by a sample
 * they hide) still pairs with the other file's entry, as in Linux perf:
 * one of the baseline hides the row, one of the new file gives the row
 * its share.
 */
static void drop_hidden_pairs(struct diff_table *t, const struct hists *h,
			      bool base)
{
	struct diff_row key;
	size_t i, j, out;

	if (!h)
		return;
	for (i = 0; i < h->size; i++) {
		const struct hist_entry *e = h->table[i];
		size_t slot;

		if (!e || !e->filtered)
			continue;
		memset(&key, 0, sizeof(key));
		row_keys(h, &key, e);
		slot = keys_hash(&key) & (t->size - 1);
		for (; t->slots[slot]; slot = (slot + 1) & (t->size - 1)) {
			struct diff_row *r = &t->rows[t->slots[slot] - 1];

			if (!same_keys(r, &key))
				continue;
			/* A hidden baseline hides the row; a hidden new one counts. */
			if (base && !r->base) {
				r->hidden = true;
			} else if (!base && !r->new) {
				r->new = e;
				r->new_pct = entry_pct(h, e);
			}
		}
	}
	for (i = 0, out = 0; i < t->nr; i++) {
		if (t->rows[i].hidden)
			continue;
		if (out != i)
			t->rows[out] = t->rows[i];
		out++;
	}
	/* The slots point at old places: rebuild them for later finds. */
	memset(t->slots, 0, t->size * sizeof(*t->slots));
	t->nr = out;
	for (j = 0; j < out; j++) {
		size_t slot = keys_hash(&t->rows[j]) & (t->size - 1);

		while (t->slots[slot])
			slot = (slot + 1) & (t->size - 1);
		t->slots[slot] = j + 1;
	}
}

/* The entries @v of one file: rows of their own, or the other file's. */
static void add_entries(struct diff_table *t, const struct hists *h,
			struct hist_entry **v, size_t n, bool base)
{
	struct diff_row *r, *found;
	size_t i;

	for (i = 0; i < n; i++) {
		r = &t->rows[t->nr];
		memset(r, 0, sizeof(*r));
		row_keys(h, r, v[i]);
		found = table_find(t, r);
		if (!found) {
			found = r;
			t->nr++;
		}
		row_merge(found, r);
		if (base) {
			found->base = v[i];
			found->base_pct += entry_pct(h, v[i]);
		} else {
			found->new = v[i];
			found->new_pct += entry_pct(h, v[i]);
		}
	}
}

/* The baseline's rows, then the new file's paired with them or added. */
static int table_fill(struct diff_table *t, const struct hists *bh,
		      const struct hists *nh)
{
	struct hist_entry **bv, **nv;
	size_t nb, nn, i;

	bv = hists__sorted((struct hists *)bh, &nb);
	nv = nh ? hists__sorted((struct hists *)nh, &nn) : calloc(1, sizeof(*nv));
	if (!nh)
		nn = 0;
	t->size = 16;
	while (t->size < 2 * (nb + nn))
		t->size *= 2;
	t->rows = calloc(nb + nn + 1, sizeof(*t->rows));
	t->slots = calloc(t->size, sizeof(*t->slots));
	if (!bv || !nv || !t->rows || !t->slots) {
		free(bv);
		free(nv);
		return -ENOMEM;
	}
	add_entries(t, bh, bv, nb, true);
	add_entries(t, nh, nv, nn, false);
	drop_hidden_pairs(t, bh, true);
	drop_hidden_pairs(t, nh, false);
	for (i = 0; i < t->nr; i++)
		row_show(&t->rows[i]);
	free(bv);
	free(nv);
	return 0;
}

/*
 * Linux perf's order: the entries of the new file by the size of their
 * change, then by their baseline share, their object, named symbols
 * before addresses, and their names; the entries
 * only the baseline has come last, by their share.
 */
static int cmp_rows(const void *pa, const void *pb)
{
	const struct diff_row *a = pa, *b = pb;
	double da, db;
	int c;

	if (!a->new != !b->new)
		return a->new ? -1 : 1;
	if (a->new) {
		da = fabs(a->new_pct - a->base_pct);
		db = fabs(b->new_pct - b->base_pct);
		if (da != db)
			return da > db ? -1 : 1;
	}
	if (a->base_pct != b->base_pct)
		return a->base_pct > b->base_pct ? -1 : 1;
	c = strcmp(a->dso, b->dso);
	if (c)
		return c;
	/* As in perf report: named symbols before raw addresses. */
	if (!a->unresolved != !b->unresolved)
		return a->unresolved ? 1 : -1;
	c = strcmp(a->key[0], b->key[0]);
	return c ? c : strcmp(a->key[1], b->key[1]);
}

/* A column a one-value filter makes the same on every row is left out. */
static bool shown(const struct hists *h, int k)
{
	return !(h->cfg.elide & (1u << h->cfg.keys[k]));
}

static void print_header(const struct hists *h, const int *width,
			 const char *event, FILE *fp)
{
	int k, i;

	fprintf(fp, "# Event '%s'\n#\n# Baseline  Delta Abs", event);
	for (k = 0; k < h->cfg.nr_keys && k < 2; k++)
		if (shown(h, k))
			fprintf(fp, "  %-*s", width[k],
				sort_key__title(h->cfg.keys[k]));
	fprintf(fp, "\n# ........  .........");
	for (k = 0; k < h->cfg.nr_keys && k < 2; k++) {
		if (!shown(h, k))
			continue;
		fputs("  ", fp);
		for (i = 0; i < width[k]; i++)
			fputc('.', fp);
	}
	fputs("\n#\n", fp);
}

static void print_row(const struct hists *h, const struct diff_row *r,
		      const int *width, FILE *fp)
{
	char delta[32] = "";
	int k, last = (h->cfg.nr_keys < 2 ? h->cfg.nr_keys : 2) - 1;

	if (r->base)
		fprintf(fp, "%9.2f%%", r->base_pct);
	else
		fprintf(fp, "%10s", "");
	if (r->new)
		snprintf(delta, sizeof(delta), "%+.2f%%",
			 r->new_pct - r->base_pct);
	fprintf(fp, "  %9s", delta);
	/* Padded to its width but for a last symbol, as Linux perf does. */
	for (k = 0; k <= last; k++) {
		if (!shown(h, k))
			continue;
		if (k == last && h->cfg.keys[k] == SORT_SYM)
			fprintf(fp, "  %s", r->key[k]);
		else
			fprintf(fp, "  %-*s", width[k], r->key[k]);
	}
	fputc('\n', fp);
}

static void print_event(const struct hists *bh, const struct hists *nh,
			const char *event, FILE *fp)
{
	struct diff_table t = { .rows = NULL };
	int width[2] = { 0, 0 }, k;
	size_t i;

	if (table_fill(&t, bh, nh) == 0) {
		qsort(t.rows, t.nr, sizeof(*t.rows), cmp_rows);
		for (k = 0; k < bh->cfg.nr_keys && k < 2; k++)
			width[k] = strlen(sort_key__title(bh->cfg.keys[k]));
		for (i = 0; i < t.nr; i++)
			for (k = 0; k < 2; k++)
				if ((int)strlen(t.rows[i].key[k]) > width[k])
					width[k] = strlen(t.rows[i].key[k]);
		print_header(bh, width, event, fp);
		for (i = 0; i < t.nr; i++)
			print_row(bh, &t.rows[i], width, fp);
	}
	free(t.rows);
	free(t.slots);
}

static int attr_by_name(const struct perf_session *s, const char *name)
{
	u32 i;

	for (i = 0; i < s->nr_attrs; i++)
		if (!strcmp(s->attrs[i].name, name))
			return i;
	return -1;
}

int diff__fprintf(const struct report *base, const struct perf_session *bs,
		  const struct report *new, const struct perf_session *ns,
		  FILE *fp)
{
	u32 i;
	int j;

	/* Every event of the baseline, against the new file's of its name. */
	for (i = 0; i < bs->nr_attrs && (int)i < base->nr_hists; i++) {
		j = attr_by_name(ns, bs->attrs[i].name);
		if (i)
			fputc('\n', fp);
		print_event(&base->hists[i],
			    j >= 0 && j < new->nr_hists ? &new->hists[j] : NULL,
			    bs->attrs[i].name, fp);
	}
	return 0;
}

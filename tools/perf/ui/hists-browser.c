// SPDX-License-Identifier: GPL-2.0
/*
 * perf report on a terminal: the histogram as a list to move through,
 * call chains folded under their entries, zooms into a thread, a DSO or
 * the symbols matching a string, one event's histogram at a time.
 *
 * Rows read as the --stdio report's: the same columns, frames and
 * percentages, drawn by the same code.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "browser.h"
#include "hists-browser.h"
#include "stdio-hist.h"

#define LINE_MAX_LEN 1024
#define CHAIN_INDENT 3
#define SYMBOL_FILTER_LEN 128
#define NR_ZOOMS 3

enum row_kind {
	ROW_ENTRY,	/* a histogram entry */
	ROW_CHAIN,	/* the first frame of a call chain branch */
	ROW_FRAME,	/* a frame that follows the one above without a fork */
};

struct browser_row {
	enum row_kind kind;
	const struct hist_entry *he;
	const struct callchain_node *node;	/* the frame (not ROW_ENTRY) */
	const struct callchain_node *head;	/* its branch's first frame */
	int depth;		/* branch nesting, 1 under the entry */
	int forks;		/* branches below its branch: 0, nothing to fold */
	bool show_pct;		/* a branch of its own, not the whole parent */
};

/*
 * Which entries and branches are unfolded, keyed by their address: an
 * open addressing table whose slots are never removed, only flipped.
 */
struct fold_set {
	const void **keys;
	bool *open;
	size_t size;
	size_t nr;
};

enum zoom_kind {
	ZOOM_THREAD,
	ZOOM_DSO,
	ZOOM_SYMBOL,
};

struct hists_browser {
	struct hists_browser_args *args;
	int ev;				/* the event shown */
	struct hists *h;
	struct hist_entry **entries;	/* sorted as --stdio prints them */
	size_t nr_entries;
	int width[SORT_MAX_KEYS];
	char titles[LINE_MAX_LEN];	/* the column titles line */
	struct browser_row *rows;	/* what the list shows now */
	size_t nr_rows;
	size_t alloc_rows;
	size_t top;			/* the first row on the screen */
	size_t sel;
	struct fold_set folds;
	/* The zooms in the order given, so that ESC undoes the last one. */
	enum zoom_kind zooms[NR_ZOOMS];
	int nr_zooms;
	const char *zoom_comm;
	u32 zoom_pid;
	bool zoom_by_comm;
	bool zoom_by_pid;
	char zoom_thread_name[LINE_MAX_LEN];
	const void *zoom_dso;
	const char *zoom_dso_name;
	char zoom_symbol[SYMBOL_FILTER_LEN];
	const char *message;		/* on the status line until a key */
};

/* ---- fold state ------------------------------------------------------ */

static size_t fold_hash(const void *key, size_t size)
{
	u64 v = (u64)(unsigned long)key;

	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return v & (size - 1);
}

static size_t fold_find(const struct fold_set *f, const void *key)
{
	size_t i = fold_hash(key, f->size);

	while (f->keys[i] && f->keys[i] != key)
		i = (i + 1) & (f->size - 1);
	return i;
}

static int fold_grow(struct fold_set *f)
{
	struct fold_set n = { .size = f->size ? 2 * f->size : 256 };
	size_t i, j;

	n.keys = calloc(n.size, sizeof(*n.keys));
	n.open = calloc(n.size, sizeof(*n.open));
	if (!n.keys || !n.open) {
		free(n.keys);
		free(n.open);
		return -ENOMEM;
	}
	for (i = 0; i < f->size; i++) {
		if (!f->keys[i])
			continue;
		j = fold_find(&n, f->keys[i]);
		n.keys[j] = f->keys[i];
		n.open[j] = f->open[i];
	}
	n.nr = f->nr;
	free(f->keys);
	free(f->open);
	*f = n;
	return 0;
}

static bool fold_is_open(const struct fold_set *f, const void *key)
{
	size_t i;

	if (!f->size)
		return false;
	i = fold_find(f, key);
	return f->keys[i] && f->open[i];
}

static void fold_set_open(struct fold_set *f, const void *key, bool open)
{
	size_t i;

	if (!open && !fold_is_open(f, key))
		return;
	/* At most half full, so that searches stay short and end. */
	if (2 * (f->nr + 1) > f->size && fold_grow(f))
		return;
	i = fold_find(f, key);
	if (!f->keys[i]) {
		f->keys[i] = key;
		f->nr++;
	}
	f->open[i] = open;
}

static void fold_close_all(struct fold_set *f)
{
	if (f->size)
		memset(f->open, 0, f->size * sizeof(*f->open));
}

static void fold_exit(struct fold_set *f)
{
	free(f->keys);
	free(f->open);
}

/* A graph node and everything under it, unfolded or folded. */
static void fold_subtree(struct fold_set *f, const struct callchain_node *n,
			 bool open)
{
	const struct callchain_node *c;

	for (c = n->child; c; c = c->sibling) {
		fold_set_open(f, c, open);
		fold_subtree(f, c, open);
	}
}

static void fold_entry(struct fold_set *f, const struct hist_entry *he,
		       bool open)
{
	fold_set_open(f, he, open);
	if (he->graph)
		fold_subtree(f, he->graph, open);
}

/* ---- the rows shown ------------------------------------------------- */

static bool zoomed(const struct hists_browser *b, enum zoom_kind z)
{
	int i;

	for (i = 0; i < b->nr_zooms; i++)
		if (b->zooms[i] == z)
			return true;
	return false;
}

static const char *entry_comm(const struct hist_entry *he)
{
	return he->comm ? he->comm : ":-1";
}

static bool entry_in_zoom(const struct hists_browser *b,
			  const struct hist_entry *he)
{
	if (zoomed(b, ZOOM_THREAD)) {
		if (b->zoom_by_comm && strcmp(entry_comm(he), b->zoom_comm))
			return false;
		if (b->zoom_by_pid && he->pid != b->zoom_pid)
			return false;
	}
	if (zoomed(b, ZOOM_DSO) && he->frame.dso != b->zoom_dso)
		return false;
	if (zoomed(b, ZOOM_SYMBOL) &&
	    (!he->frame.sym_name || !strstr(he->frame.sym_name, b->zoom_symbol)))
		return false;
	return true;
}

static struct browser_row *row_push(struct hists_browser *b,
				    enum row_kind kind,
				    const struct hist_entry *he,
				    const struct callchain_node *node,
				    int depth)
{
	struct browser_row *r;

	if (b->nr_rows == b->alloc_rows) {
		size_t alloc = b->alloc_rows ? 2 * b->alloc_rows : 256;

		r = realloc(b->rows, alloc * sizeof(*r));
		if (!r) {
			b->message = "Out of memory: not every row is shown";
			return NULL;
		}
		b->rows = r;
		b->alloc_rows = alloc;
	}
	r = &b->rows[b->nr_rows++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->he = he;
	r->node = node;
	r->head = node;
	r->depth = depth;
	return r;
}

/*
 * The frames that follow @n without a fork, a row each under @head;
 * returns the last of them, and in *@forks how many branches leave it.
 */
static const struct callchain_node *
add_straight_frames(struct hists_browser *b, const struct hist_entry *he,
		    const struct callchain_node *n,
		    const struct callchain_node *head, int depth, int *forks)
{
	struct callchain_node **kids;
	struct browser_row *r;
	int nr;

	for (;;) {
		kids = callchain_node__shown_children(b->h, n, &nr);
		if (!kids) {
			*forks = 0;
			return n;
		}
		if (nr != 1 || kids[0]->hits != n->hits) {
			free(kids);
			*forks = nr;
			return n;
		}
		r = row_push(b, ROW_FRAME, he, kids[0], depth);
		if (r)
			r->head = head;
		n = kids[0];
		free(kids);
	}
}

/* The branches leaving @parent: each its first frame, then the rest. */
static void add_branches(struct hists_browser *b, const struct hist_entry *he,
			 const struct callchain_node *parent, int depth)
{
	const struct callchain_node *last;
	struct callchain_node **kids;
	size_t first;
	int nr, i, forks;

	kids = callchain_node__shown_children(b->h, parent, &nr);
	if (!kids)
		return;
	for (i = 0; i < nr; i++) {
		first = b->nr_rows;
		if (!row_push(b, ROW_CHAIN, he, kids[i], depth))
			break;
		/* As --stdio: a branch that is all its parent has no percent. */
		b->rows[first].show_pct = nr > 1 || kids[i]->hits != parent->hits;
		last = add_straight_frames(b, he, kids[i], kids[i], depth,
					   &forks);
		for (; first < b->nr_rows; first++)
			b->rows[first].forks = forks;
		if (forks && fold_is_open(&b->folds, kids[i]))
			add_branches(b, he, last, depth + 1);
	}
	free(kids);
}

static int entry_forks(const struct hists_browser *b,
		       const struct hist_entry *he)
{
	struct callchain_node **kids;
	int nr;

	if (!b->h->cfg.callchain || !he->graph)
		return 0;
	kids = callchain_node__shown_children(b->h, he->graph, &nr);
	free(kids);
	return kids ? nr : 0;
}

static void rows_build(struct hists_browser *b)
{
	struct browser_row *r;
	size_t i;

	b->nr_rows = 0;
	for (i = 0; i < b->nr_entries; i++) {
		const struct hist_entry *he = b->entries[i];

		if (!hist_entry__above_limit(b->h, he) || !entry_in_zoom(b, he))
			continue;
		r = row_push(b, ROW_ENTRY, he, NULL, 0);
		if (!r)
			return;
		r->forks = entry_forks(b, he);
		if (r->forks && fold_is_open(&b->folds, he))
			add_branches(b, he, he->graph, 1);
	}
}

/*
 * The rows again after a fold or zoom: the selection stays on its row,
 * or on its entry when the row went away, or on the first row.
 */
static void rows_rebuild(struct hists_browser *b)
{
	const struct hist_entry *he = NULL;
	const struct callchain_node *node = NULL;
	size_t i, sel = 0;

	if (b->sel < b->nr_rows) {
		he = b->rows[b->sel].he;
		node = b->rows[b->sel].node;
	}
	rows_build(b);
	for (i = 0; he && i < b->nr_rows; i++) {
		if (b->rows[i].he != he)
			continue;
		if (b->rows[i].kind == ROW_ENTRY)
			sel = i;
		if (b->rows[i].node == node) {
			sel = i;
			break;
		}
	}
	b->sel = sel;
}

/* ---- drawing ---------------------------------------------------------- */

static int list_height(void)
{
	int h = ui_browser__rows() - 3;	/* title, column titles, status */

	return h > 1 ? h : 1;
}

/* What one FILE-printing function of the --stdio report writes, as a line. */
static void entry_text(const struct hists_browser *b,
		       const struct hist_entry *he, char *buf, size_t size)
{
	FILE *f = fmemopen(buf, size, "w");
	char *nl;

	buf[0] = '\0';
	if (!f)
		return;
	hist_entry__fprintf_row(b->h, he, b->width, f);
	fclose(f);
	buf[size - 1] = '\0';
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
}

static void column_titles(struct hists_browser *b)
{
	FILE *f = fmemopen(b->titles, sizeof(b->titles), "w");
	char *nl;

	b->titles[0] = '\0';
	if (!f)
		return;
	hists__fprintf_column_titles(b->h, b->width, f);
	fclose(f);
	b->titles[sizeof(b->titles) - 1] = '\0';
	nl = strchr(b->titles, '\n');
	if (nl)
		*nl = '\0';
	/* The rows have no "#" comment mark: nor have their titles. */
	if (b->titles[0] == '#')
		b->titles[0] = ' ';
}

static char fold_mark(const struct hists_browser *b, const struct browser_row *r)
{
	const void *key = r->kind == ROW_ENTRY ? (const void *)r->he :
						 (const void *)r->head;

	if (!r->forks)
		return ' ';
	return fold_is_open(&b->folds, key) ? '-' : '+';
}

static void row_text(const struct hists_browser *b, const struct browser_row *r,
		     char *buf, size_t size)
{
	int indent = r->depth * CHAIN_INDENT;
	char addr[64];
	const char *name;

	if (r->kind == ROW_ENTRY) {
		entry_text(b, r->he, buf, size);
		/* The row starts with blanks: the first is the fold mark. */
		if (buf[0] == ' ')
			buf[0] = fold_mark(b, r);
		return;
	}
	name = callchain_node__name(r->node, addr, sizeof(addr));
	if (r->kind == ROW_FRAME)
		snprintf(buf, size, "%*s  %s", indent, "", name);
	else if (r->show_pct)
		snprintf(buf, size, "%*s%c %.2f%% %s", indent, "",
			 fold_mark(b, r), hists__percent(b->h, r->node->hits),
			 name);
	else
		snprintf(buf, size, "%*s%c %s", indent, "", fold_mark(b, r),
			 name);
}

static void title_text(const struct hists_browser *b, char *buf, size_t size)
{
	char unit;
	u64 n = hists__scaled_samples(b->h, &unit);
	size_t len;
	int i;

	if (unit == ' ')
		len = snprintf(buf, size, "Samples: %llu", (unsigned long long)n);
	else
		len = snprintf(buf, size, "Samples: %llu%c", (unsigned long long)n,
			       unit);
	len += snprintf(buf + len, size - len,
			" of event '%s', Event count (approx.): %llu",
			b->args->events[b->ev].name,
			(unsigned long long)hists__event_count(b->h));
	for (i = 0; i < b->nr_zooms && len < size; i++) {
		switch (b->zooms[i]) {
		case ZOOM_THREAD:
			len += snprintf(buf + len, size - len, ", Thread: %s",
					b->zoom_thread_name);
			break;
		case ZOOM_DSO:
			len += snprintf(buf + len, size - len, ", DSO: %s",
					b->zoom_dso_name);
			break;
		case ZOOM_SYMBOL:
			len += snprintf(buf + len, size - len, ", Symbol: %s",
					b->zoom_symbol);
			break;
		}
	}
}

/* Keep the selection on the screen. */
static void scroll_to_selection(struct hists_browser *b, int height)
{
	if (b->sel < b->top)
		b->top = b->sel;
	else if (b->sel >= b->top + height)
		b->top = b->sel - height + 1;
	if (b->top + height > b->nr_rows)
		b->top = b->nr_rows > (size_t)height ? b->nr_rows - height : 0;
}

static void draw(struct hists_browser *b)
{
	int height = list_height(), i;
	char line[LINE_MAX_LEN];

	scroll_to_selection(b, height);
	title_text(b, line, sizeof(line));
	ui_browser__write_line(0, UI_COLOR_TITLE, line);
	ui_browser__write_line(1, UI_COLOR_NORMAL, b->titles);
	for (i = 0; i < height; i++) {
		size_t r = b->top + i;

		if (r < b->nr_rows) {
			row_text(b, &b->rows[r], line, sizeof(line));
			ui_browser__write_line(2 + i, r == b->sel ?
					       UI_COLOR_SELECTED : UI_COLOR_NORMAL,
					       line);
		} else {
			ui_browser__write_line(2 + i, UI_COLOR_NORMAL,
					       !b->nr_rows && !i ?
					       "No entries here: ESC zooms out" : "");
		}
	}
	ui_browser__write_line(ui_browser__rows() - 1, UI_COLOR_TITLE,
			       b->message ? b->message :
			       "Press '?' for help on key bindings");
	ui_browser__refresh();
}

/* ---- events ---------------------------------------------------------- */

static int event_show(struct hists_browser *b, int ev)
{
	struct hist_entry **v;
	size_t n;

	v = hists__sorted(b->args->events[ev].hists, &n);
	if (!v)
		return -ENOMEM;
	free(b->entries);
	b->entries = v;
	b->nr_entries = n;
	b->ev = ev;
	b->h = b->args->events[ev].hists;
	hists__column_widths(b->h, v, n, b->width);
	column_titles(b);
	/* Zooms name one event's threads and objects: start afresh. */
	b->nr_zooms = 0;
	b->sel = 0;
	b->top = 0;
	rows_build(b);
	return 0;
}

static void event_next(struct hists_browser *b, int step)
{
	int nr = b->args->nr_events;

	if (nr < 2) {
		b->message = "There is only one event in this file";
		return;
	}
	if (event_show(b, (b->ev + step + nr) % nr))
		b->message = "Out of memory: the event cannot be shown";
}

/* ---- zooms ------------------------------------------------------------- */

static void zoom_push(struct hists_browser *b, enum zoom_kind z)
{
	if (!zoomed(b, z) && b->nr_zooms < NR_ZOOMS)
		b->zooms[b->nr_zooms++] = z;
	rows_rebuild(b);
}

static void zoom_remove(struct hists_browser *b, enum zoom_kind z)
{
	int i, j = 0;

	for (i = 0; i < b->nr_zooms; i++)
		if (b->zooms[i] != z)
			b->zooms[j++] = b->zooms[i];
	b->nr_zooms = j;
	rows_rebuild(b);
}

static const struct hist_entry *selected_entry(const struct hists_browser *b)
{
	return b->sel < b->nr_rows ? b->rows[b->sel].he : NULL;
}

static void zoom_thread(struct hists_browser *b)
{
	const struct hist_entry *he = selected_entry(b);
	const char *latest;

	if (zoomed(b, ZOOM_THREAD)) {
		zoom_remove(b, ZOOM_THREAD);
		return;
	}
	if (!he)
		return;
	b->zoom_by_comm = sort_keys__has(&b->h->cfg, SORT_COMM);
	b->zoom_by_pid = sort_keys__has(&b->h->cfg, SORT_PID);
	if (!b->zoom_by_comm && !b->zoom_by_pid) {
		b->message = "No comm or pid column: no thread to zoom into";
		return;
	}
	b->zoom_comm = entry_comm(he);
	b->zoom_pid = he->pid;
	latest = he->thread_comm && *he->thread_comm ? *he->thread_comm :
						      entry_comm(he);
	if (b->zoom_by_pid)
		snprintf(b->zoom_thread_name, sizeof(b->zoom_thread_name),
			 "%s(%u)", b->zoom_by_comm ? b->zoom_comm : latest,
			 he->pid);
	else
		snprintf(b->zoom_thread_name, sizeof(b->zoom_thread_name),
			 "%s", b->zoom_comm);
	zoom_push(b, ZOOM_THREAD);
}

static void zoom_dso(struct hists_browser *b)
{
	const struct hist_entry *he = selected_entry(b);

	if (zoomed(b, ZOOM_DSO)) {
		zoom_remove(b, ZOOM_DSO);
		return;
	}
	if (!he)
		return;
	if (!sort_keys__has(&b->h->cfg, SORT_DSO) &&
	    !sort_keys__has(&b->h->cfg, SORT_SYM)) {
		b->message = "No dso or symbol column: no DSO to zoom into";
		return;
	}
	b->zoom_dso = he->frame.dso;
	b->zoom_dso_name = he->frame.dso_name ? he->frame.dso_name : "[unknown]";
	zoom_push(b, ZOOM_DSO);
}

static void zoom_symbol(struct hists_browser *b)
{
	char buf[SYMBOL_FILTER_LEN];

	snprintf(buf, sizeof(buf), "%s", zoomed(b, ZOOM_SYMBOL) ?
		 b->zoom_symbol : "");
	if (ui_browser__input("Symbol (empty: all): ", buf, sizeof(buf)))
		return;
	if (!buf[0]) {
		zoom_remove(b, ZOOM_SYMBOL);
		return;
	}
	memcpy(b->zoom_symbol, buf, sizeof(buf));
	zoom_push(b, ZOOM_SYMBOL);
}

/* ---- folding ---------------------------------------------------------- */

static void fold_toggle(struct hists_browser *b)
{
	const struct browser_row *r;
	const void *key;

	if (b->sel >= b->nr_rows)
		return;
	r = &b->rows[b->sel];
	if (!r->forks)
		return;
	key = r->kind == ROW_ENTRY ? (const void *)r->he : (const void *)r->head;
	fold_set_open(&b->folds, key, !fold_is_open(&b->folds, key));
	rows_rebuild(b);
}

static void fold_selected_entry(struct hists_browser *b)
{
	const struct hist_entry *he = selected_entry(b);

	if (!he)
		return;
	fold_entry(&b->folds, he, !fold_is_open(&b->folds, he));
	rows_rebuild(b);
}

static void fold_everything(struct hists_browser *b, bool open)
{
	size_t i;

	if (!open)
		fold_close_all(&b->folds);
	for (i = 0; open && i < b->nr_entries; i++)
		fold_entry(&b->folds, b->entries[i], true);
	rows_rebuild(b);
}

/* ---- keys ---------------------------------------------------------------- */

static const char * const help_lines[] = {
	"UP/DOWN, k/j      move the selection",
	"PGUP/PGDN         a screen up or down",
	"HOME/END          the first or the last row",
	"+, ENTER          fold or unfold the selected call chain",
	"e                 fold or unfold all chains of the entry",
	"E                 unfold every call chain",
	"C                 fold every call chain",
	"t                 zoom into the entry's thread (t: out)",
	"d                 zoom into the entry's DSO (d: out)",
	"/                 only symbols containing a string",
	"a                 annotate the entry's symbol",
	"TAB, shift-TAB    the next or the previous event",
	"ESC, LEFT         zoom out",
	"q, ESC            quit",
	"?, h              this help",
};

static void annotate_entry(struct hists_browser *b)
{
	const struct hist_entry *he = selected_entry(b);

	if (!b->args->annotate) {
		b->message = "Annotation is not available here";
		return;
	}
	if (!he || !he->frame.sym_name) {
		b->message = "No symbol to annotate";
		return;
	}
	b->args->annotate(b->args->annotate_arg, b->h, he);
	/* It may have given the screen back, or drawn over all of it. */
	if (ui_browser__init() == 0)
		ui_browser__touch();
}

/* 1 when the key leaves the browser. */
static int browser_key(struct hists_browser *b, int key)
{
	int page = list_height();

	if (ui_browser__move_key(key, &b->sel, b->nr_rows, page))
		return 0;
	switch (key) {
	case '+':
	case UI_KEY_ENTER:
		fold_toggle(b);
		break;
	case 'e':
		fold_selected_entry(b);
		break;
	case 'E':
		fold_everything(b, true);
		break;
	case 'C':
		fold_everything(b, false);
		break;
	case 't':
		zoom_thread(b);
		break;
	case 'd':
		zoom_dso(b);
		break;
	case '/':
		zoom_symbol(b);
		break;
	case 'a':
		annotate_entry(b);
		break;
	case UI_KEY_TAB:
		event_next(b, 1);
		break;
	case UI_KEY_BTAB:
		event_next(b, -1);
		break;
	case '?':
	case 'h':
		ui_browser__popup("perf report: keys", help_lines,
				  ARRAY_SIZE(help_lines));
		ui_browser__touch();
		break;
	case UI_KEY_ESC:
	case UI_KEY_LEFT:
		if (b->nr_zooms)
			zoom_remove(b, b->zooms[b->nr_zooms - 1]);
		else if (key == UI_KEY_ESC)
			return 1;
		break;
	case 'q':
	case UI_KEY_ERROR:
		return 1;
	}
	return 0;
}

int hists_browser__run(struct hists_browser_args *args)
{
	struct hists_browser b = { .args = args };
	int err = -1;

	if (args->nr_events < 1 || ui_browser__init())
		return -1;
	if (event_show(&b, 0))
		goto out;
	for (;;) {
		draw(&b);
		b.message = NULL;
		if (browser_key(&b, ui_browser__getkey()))
			break;
	}
	err = 0;
out:
	ui_browser__exit();
	free(b.entries);
	free(b.rows);
	fold_exit(&b.folds);
	return err;
}

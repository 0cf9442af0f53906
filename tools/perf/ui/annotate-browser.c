// SPDX-License-Identifier: GPL-2.0
/*
 * The annotate view of the terminal browser: a symbol's disassembly with
 * the share of its samples per instruction, its source lines between,
 * and its jumps marked: "^"/"v" on a jump up or down inside the symbol,
 * "->" on the instruction a jump lands on.  ENTER on a jump goes to its
 * target.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "annotate-browser.h"
#include "browser.h"
#include "../util/dso.h"
#include "../util/symbol.h"

struct annotate_browser {
	struct annotation an;
	const char *event;
	size_t *rows;		/* the lines shown: indexes into an.lines */
	size_t nr_rows;
	size_t sel;		/* index into rows */
	size_t top;		/* first row on the screen */
	bool hide_source;
	char search[128];
	const char *message;	/* for the status line, until the next key */
};

/* The rows: every line, or the instructions alone with 's'. */
static void set_rows(struct annotate_browser *b)
{
	size_t cur = b->nr_rows ? b->rows[b->sel] : 0, i;

	b->nr_rows = 0;
	b->sel = 0;
	for (i = 0; i < b->an.nr_lines; i++) {
		if (b->hide_source && !b->an.lines[i].insn)
			continue;
		if (i <= cur)
			b->sel = b->nr_rows;
		b->rows[b->nr_rows++] = i;
	}
}

static int list_height(void)
{
	int h = ui_browser__rows() - 2;

	return h > 1 ? h : 1;
}

/* The selected row on the screen: scroll the least that shows it. */
static void scroll_to_sel(struct annotate_browser *b)
{
	size_t h = list_height();

	if (b->sel < b->top)
		b->top = b->sel;
	else if (b->sel >= b->top + h)
		b->top = b->sel - h + 1;
}

static const char *jump_mark(const struct annotation *an, size_t i)
{
	const struct annotate_line *l = &an->lines[i];

	if (l->jump_target)
		return "->";
	if (l->jump_to < 0)
		return "  ";
	return (size_t)l->jump_to <= i ? "^ " : "v ";
}

static void format_line(const struct annotate_browser *b, size_t i,
			char *buf, size_t size)
{
	const struct annotation *an = &b->an;
	const struct annotate_line *l = &an->lines[i];

	if (l->insn)
		snprintf(buf, size, "%7.2f %s %*llx:  %s",
			 annotation__percent(an, i), jump_mark(an, i),
			 an->addr_width, (unsigned long long)l->addr, l->text);
	else if (l->line_nr)
		snprintf(buf, size, "%7s    %-*d %s", "", an->addr_width,
			 l->line_nr, l->text);
	else
		snprintf(buf, size, "%7s    %*s %s", "", an->addr_width, "",
			 l->text);
}

static void draw(struct annotate_browser *b)
{
	const struct annotated_sym *as = b->an.as;
	int h = list_height(), r;
	char buf[1024];

	snprintf(buf, sizeof(buf), "Annotate %s  (%s)  %llu samples of event '%s'",
		 as->sym->name, as->dso->short_name,
		 (unsigned long long)as->nr_samples, b->event);
	ui_browser__write_line(0, UI_COLOR_TITLE, buf);
	scroll_to_sel(b);
	for (r = 0; r < h; r++) {
		size_t row = b->top + r;

		buf[0] = '\0';
		if (row < b->nr_rows)
			format_line(b, b->rows[row], buf, sizeof(buf));
		ui_browser__write_line(1 + r, row == b->sel && row < b->nr_rows ?
				       UI_COLOR_SELECTED : UI_COLOR_NORMAL, buf);
	}
	ui_browser__write_line(ui_browser__rows() - 1, UI_COLOR_TITLE,
			       b->message ? b->message :
			       "q: back  ?: help  H: hottest  TAB: next hot  ENTER: follow jump  s: source  /: search");
	b->message = NULL;
	ui_browser__refresh();
}

static void select_line(struct annotate_browser *b, size_t line)
{
	size_t r;

	for (r = 0; r < b->nr_rows; r++)
		if (b->rows[r] >= line) {
			b->sel = r;
			return;
		}
}

static u64 row_period(const struct annotate_browser *b, size_t r)
{
	return b->an.lines[b->rows[r]].period;
}

/* The hottest instruction. */
static void select_hottest(struct annotate_browser *b)
{
	size_t r, best = b->sel;

	for (r = 0; r < b->nr_rows; r++)
		if (row_period(b, r) > row_period(b, best))
			best = r;
	b->sel = best;
}

/*
 * TAB: the next instruction in order of heat, from the selected one
 * (shift-TAB the previous); it wraps around.
 */
static void select_next_hot(struct annotate_browser *b, int dir)
{
	u64 cur = b->nr_rows ? row_period(b, b->sel) : 0, best_p = 0;
	long best = -1;
	size_t r;

	for (r = 0; r < b->nr_rows; r++) {
		u64 p = row_period(b, r);
		bool after;

		if (!p || r == b->sel)
			continue;
		/* Ties break by position, so equal heats all get a turn. */
		after = dir > 0 ? (p < cur || (p == cur && r > b->sel)) :
				  (p > cur || (p == cur && r < b->sel));
		if (!after)
			continue;
		if (best < 0 || (dir > 0 ? p > best_p : p < best_p)) {
			best = (long)r;
			best_p = p;
		}
	}
	if (best >= 0)
		b->sel = best;
	else
		b->message = "No other instruction with samples that way";
}

static void follow_jump(struct annotate_browser *b)
{
	const struct annotate_line *l;

	if (!b->nr_rows)
		return;
	l = &b->an.lines[b->rows[b->sel]];
	if (l->jump_to < 0) {
		b->message = "Not a jump inside this symbol";
		return;
	}
	select_line(b, l->jump_to);
}

static void search(struct annotate_browser *b, bool prompt)
{
	size_t n, r;

	if (prompt && ui_browser__input("Search: ", b->search,
					sizeof(b->search)))
		return;
	ui_browser__touch();
	if (!b->search[0] || !b->nr_rows)
		return;
	for (n = 1; n <= b->nr_rows; n++) {
		r = (b->sel + n) % b->nr_rows;
		if (strstr(b->an.lines[b->rows[r]].text, b->search)) {
			b->sel = r;
			return;
		}
	}
	b->message = "Not found";
}

static const char * const help_lines[] = {
	"UP/DOWN, k/j      move the selection",
	"PGUP/PGDN         a screen up or down",
	"HOME/END          the first or the last line",
	"H                 the hottest instruction",
	"TAB, shift-TAB    the next or the previous instruction by heat",
	"ENTER             go to the target of the selected jump",
	"s                 hide or show the source lines",
	"/, n              search for a string, the next match",
	"LEFT, RIGHT       the previous or the next symbol (perf annotate)",
	"q, ESC            back",
	"?, h              this help",
	"",
	"^ v: a jump up or down in the symbol; ->: a jump lands here",
};

/* A key that keeps the browser up. */
#define BROWSER_STAYS -1

/* BROWSER_STAYS, or how the browser ends (enum annotate_browser_exit). */
static int browser_key(struct annotate_browser *b, int key)
{
	int page = list_height();

	if (ui_browser__move_key(key, &b->sel, b->nr_rows, page))
		return BROWSER_STAYS;
	switch (key) {
	case 'H':
		select_hottest(b);
		break;
	case UI_KEY_TAB:
		select_next_hot(b, 1);
		break;
	case UI_KEY_BTAB:
		select_next_hot(b, -1);
		break;
	case UI_KEY_ENTER:
		follow_jump(b);
		break;
	case 's':
		b->hide_source = !b->hide_source;
		set_rows(b);
		break;
	case '/':
		search(b, true);
		break;
	case 'n':
		search(b, false);
		break;
	case '?':
	case 'h':
		ui_browser__popup("perf annotate: keys", help_lines,
				  ARRAY_SIZE(help_lines));
		ui_browser__touch();
		break;
	case UI_KEY_LEFT:
		return ANNOTATE_BROWSER_PREV;
	case UI_KEY_RIGHT:
		return ANNOTATE_BROWSER_NEXT;
	case 'q':
	case UI_KEY_ESC:
		return ANNOTATE_BROWSER_QUIT;
	case UI_KEY_ERROR:
		return ANNOTATE_BROWSER_QUIT;
	}
	return BROWSER_STAYS;
}

static void show_error(const struct annotated_sym *as, const char *err)
{
	char title[256];
	const char *lines[3] = { err, "", "Press any key." };

	snprintf(title, sizeof(title), "Cannot annotate %s", as->sym->name);
	ui_browser__popup(title, lines, ARRAY_SIZE(lines));
	ui_browser__touch();
}

enum annotate_browser_exit annotate_browser__run(const struct annotated_sym *as,
						 const char *event,
						 const struct annotate_opts *o)
{
	struct annotate_browser b = { .event = event };
	int how = ANNOTATE_BROWSER_ERROR;
	char err[4096 + 128];

	if (ui_browser__init())
		return ANNOTATE_BROWSER_ERROR;
	ui_browser__touch();
	if (annotation__init(&b.an, as, o, err, sizeof(err))) {
		show_error(as, err[0] ? err : "objdump failed");
		annotation__exit(&b.an);
		return ANNOTATE_BROWSER_QUIT;
	}
	b.rows = calloc(b.an.nr_lines ? b.an.nr_lines : 1, sizeof(*b.rows));
	if (b.rows) {
		set_rows(&b);
		select_hottest(&b);
		do {
			draw(&b);
			how = browser_key(&b, ui_browser__getkey());
		} while (how == BROWSER_STAYS);
	}
	free(b.rows);
	annotation__exit(&b.an);
	ui_browser__touch();
	return how;
}

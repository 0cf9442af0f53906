/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UI_STDIO_HIST_H
#define __PERF_UI_STDIO_HIST_H

#include <stdbool.h>
#include <stdio.h>
#include "../util/hist.h"

/*
 * The pieces of the --stdio report that other front ends draw with, so
 * that their rows and call graphs read exactly as the text report does.
 */

/* Percent of the report's total (or of what is shown, --percentage relative). */
double hists__percent(const struct hists *h, u64 v);
/* The overhead an entry sorts and is limited by: children or self. */
u64 hist_entry__overhead(const struct hists *h, const struct hist_entry *e);
/* Is @e above --percent-limit? */
bool hist_entry__above_limit(const struct hists *h, const struct hist_entry *e);

/* The sample count as the preamble says it: *@unit is ' ', 'K', 'M', 'G'. */
u64 hists__scaled_samples(const struct hists *h, char *unit);
/* The "Event count (approx.)" of the preamble. */
u64 hists__event_count(const struct hists *h);

/*
 * "%*.2f" of @d (>= 0) into @buf (32 bytes), as glibc prints it: the
 * double's exact value rounded to hundredths, a tie to the even one.
 * Its length.
 */
int hists__format_pct(char *buf, int width, double d);

/* Column widths (SORT_MAX_KEYS) for the @n sorted entries @v. */
void hists__column_widths(const struct hists *h, struct hist_entry **v,
			  size_t n, int *width);
/* The two title lines and the blank "#" line above the rows. */
void hists__fprintf_column_titles(const struct hists *h, const int *width,
				  FILE *out);
/* One entry's row, newline included. */
void hist_entry__fprintf_row(const struct hists *h, const struct hist_entry *e,
			     const int *width, FILE *out);

/* A graph node's frame: its symbol or its raw address. */
const char *callchain_node__name(const struct callchain_node *n, char *buf,
				 size_t size);
/*
 * The children of @n the graph shows (above the minimum percent),
 * biggest first, in *@nr; caller frees.  NULL when out of memory.
 */
struct callchain_node **callchain_node__shown_children(const struct hists *h,
						       const struct callchain_node *n,
						       int *nr);

#endif /* __PERF_UI_STDIO_HIST_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UI_PROGRESS_H
#define __PERF_UI_PROGRESS_H

#include <stdbool.h>
#include <perf/types.h>

/*
 * A one-line progress meter on stderr for long operations; silent when
 * stderr is not a terminal or the work is small.  A full-screen front
 * end sets @show before progress__init() to draw the meter itself.
 */
struct progress {
	const char *title;
	u64 total;
	u64 next;		/* position of the next redraw */
	int shown_pct;
	bool active;
	/* Draws @pct percent done; -1: the work is over. */
	void (*show)(const struct progress *p, int pct);
};

void progress__init(struct progress *p, u64 total, const char *title);
void progress__update(struct progress *p, u64 pos);
void progress__finish(struct progress *p);

#endif /* __PERF_UI_PROGRESS_H */

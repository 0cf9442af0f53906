// SPDX-License-Identifier: GPL-2.0
/*
 * Progress on a terminal.
 */
#include <stdio.h>
#include <unistd.h>
#include "progress.h"

/* Work smaller than this finishes before a meter would help. */
#define PROGRESS_MIN_TOTAL (16ULL << 20)

void progress__init(struct progress *p, u64 total, const char *title)
{
	p->title = title;
	p->total = total;
	p->next = 0;
	p->shown_pct = -1;
	p->active = total >= PROGRESS_MIN_TOTAL &&
		    (p->show || isatty(STDERR_FILENO));
}

/* Cheap when called often: redraws at most once per percent. */
void progress__update(struct progress *p, u64 pos)
{
	int pct;

	if (!p->active || pos < p->next)
		return;
	pct = pos >= p->total ? 100 : (int)(pos * 100 / p->total);
	p->next = (pct + 1) * p->total / 100;
	if (pct == p->shown_pct)
		return;
	p->shown_pct = pct;
	if (p->show) {
		p->show(p, pct);
		return;
	}
	fprintf(stderr, "\r%s: %3d%%", p->title, pct);
	fflush(stderr);
}

void progress__finish(struct progress *p)
{
	if (!p->active)
		return;
	p->active = false;
	if (p->show) {
		p->show(p, -1);
		return;
	}
	/* Clear the line so the output that follows starts clean. */
	fprintf(stderr, "\r%*s\r", 40, "");
	fflush(stderr);
}

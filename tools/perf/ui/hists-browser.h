/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UI_HISTS_BROWSER_H
#define __PERF_UI_HISTS_BROWSER_H

#include "../util/hist.h"

/* One event's histograms, as the report shows them. */
struct hists_browser_event {
	struct hists *hists;
	const char *name;
};

struct hists_browser_args {
	struct hists_browser_event *events;
	int nr_events;
	/*
	 * 'a' on an entry: shows its symbol annotated, and returns when
	 * the user leaves that view (the list is then drawn again).  NULL:
	 * 'a' says annotation is not available.
	 */
	int (*annotate)(void *arg, struct hists *h, const struct hist_entry *he);
	void *annotate_arg;
};

/*
 * The report as a browsable list on the terminal, until the user
 * leaves it.  0, or -1 when the screen cannot be used or memory runs
 * out (nothing is left drawn then).
 */
int hists_browser__run(struct hists_browser_args *args);

#endif /* __PERF_UI_HISTS_BROWSER_H */

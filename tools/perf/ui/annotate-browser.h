/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UI_ANNOTATE_BROWSER_H
#define __PERF_UI_ANNOTATE_BROWSER_H

#include "../util/annotate.h"

/* How the user left the annotate browser. */
enum annotate_browser_exit {
	ANNOTATE_BROWSER_QUIT,		/* q, ESC */
	ANNOTATE_BROWSER_PREV,		/* LEFT: the previous symbol */
	ANNOTATE_BROWSER_NEXT,		/* RIGHT: the next symbol */
	ANNOTATE_BROWSER_ERROR,		/* no screen, or no memory */
};

/*
 * The disassembly of @as's symbol with the share of its samples on each
 * instruction, browsable on the terminal, until the user leaves it.
 * When the symbol cannot be disassembled, a popup says why.
 */
enum annotate_browser_exit annotate_browser__run(const struct annotated_sym *as,
						 const char *event,
						 const struct annotate_opts *o);

#endif /* __PERF_UI_ANNOTATE_BROWSER_H */

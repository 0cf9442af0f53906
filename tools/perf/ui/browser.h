/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UI_BROWSER_H
#define __PERF_UI_BROWSER_H

#include <stdbool.h>
#include <stddef.h>
#include "progress.h"

/*
 * The full-screen terminal (slang) the interactive browsers draw on: one
 * screen for the whole process, set up on first use and given back to
 * the shell as it was on exit, on SIGINT/SIGTERM/SIGHUP and on a crash.
 */

/* Keys besides plain characters, as ui_browser__getkey() returns them. */
enum ui_key {
	UI_KEY_TAB = '\t',
	UI_KEY_ENTER = '\r',
	UI_KEY_ESC = 0x1b,
	UI_KEY_BACKSPACE = 0x7f,
	UI_KEY_UP = 0x100,
	UI_KEY_DOWN,
	UI_KEY_LEFT,
	UI_KEY_RIGHT,
	UI_KEY_PGUP,
	UI_KEY_PGDN,
	UI_KEY_HOME,
	UI_KEY_END,
	UI_KEY_BTAB,		/* shift-TAB */
	UI_KEY_RESIZE,		/* the terminal changed size: redraw */
	UI_KEY_ERROR,		/* input is gone (the terminal closed) */
};

/* Screen colours. */
enum ui_color {
	UI_COLOR_NORMAL,
	UI_COLOR_SELECTED,
	UI_COLOR_TITLE,
	UI_COLOR_POPUP,
};

/*
 * Can the terminal (TERM) be driven?  Looks it up only: nothing is
 * drawn yet.  0, or -1 when TERM names nothing known.
 */
int ui_browser__setup(void);
/*
 * Does a command show its browser?  Not when text was asked for
 * (@text_only: --stdio, --no-tui and the like); else when stdin and
 * stdout are a terminal that TERM names, as Linux perf chooses.
 */
bool ui_browser__wanted(bool text_only);
/* Takes the screen (idempotent); 0, or -1 when it cannot. */
int ui_browser__init(void);
/* Gives the screen back as the shell had it. */
void ui_browser__exit(void);

int ui_browser__rows(void);
/* @text on row @row, cut or padded with blanks to the screen's width. */
void ui_browser__write_line(int row, enum ui_color color, const char *text);
void ui_browser__refresh(void);
/* Everything to be drawn again, as after a popup or another browser. */
void ui_browser__touch(void);

/*
 * The keys that move a list's selection (UP/DOWN, k/j a row, PGUP/PGDN
 * @page rows, HOME/END): *@sel moved within @nr rows.  False, and *@sel
 * as it was, for any other key.
 */
bool ui_browser__move_key(int key, size_t *sel, size_t nr, int page);

/* The next key; blocks until one comes or the terminal is resized. */
int ui_browser__getkey(void);

/* A box of @nr lines over the screen until a key is pressed. */
void ui_browser__popup(const char *title, const char * const *lines, int nr);
/*
 * A one-line prompt on the last row: what is typed goes to @buf.  0 on
 * ENTER, -1 when ESC (or a closed terminal) cancels it.
 */
int ui_browser__input(const char *prompt, char *buf, size_t size);
/* A progress meter in a box: struct progress's show callback. */
void ui_browser__progress(const struct progress *p, int pct);

#endif /* __PERF_UI_BROWSER_H */

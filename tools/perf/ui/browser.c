// SPDX-License-Identifier: GPL-2.0
/*
 * The terminal screen of the interactive browsers, on slang: keys,
 * resizing, popups, and the shell's terminal given back whatever way the
 * process ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* The prototypes that take const strings, as they are used. */
#define ENABLE_SLFUTURE_CONST 1
#include <slang.h>
#include "browser.h"

/*
 * How long the rest of an escape sequence may take to arrive after its
 * ESC: a terminal sends it in one write, so a lone ESC is a key.
 */
#define ESC_WAIT_MS 50
#define ESC_SEQ_MAX 16

static bool ui_active;
static bool ui_atexit_set;
static volatile sig_atomic_t ui_resized;
/* SIGWINCH wakes the key wait through this pipe. */
static int winch_pipe[2] = { -1, -1 };

static const int exit_signals[] = { SIGINT, SIGTERM, SIGHUP };
static const int crash_signals[] = { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL };
/* Those, and SIGWINCH. */
#define NR_HANDLED (ARRAY_SIZE(exit_signals) + ARRAY_SIZE(crash_signals) + 1)

struct saved_action {
	int sig;
	struct sigaction act;
};

static struct saved_action saved[NR_HANDLED];
static int nr_saved;

int ui_browser__setup(void)
{
	const char *term = getenv("TERM");

	if (!term || !*term || !strcmp(term, "dumb"))
		return -1;
	return SLtt_initialize(term) < 0 ? -1 : 0;
}

bool ui_browser__wanted(bool text_only)
{
	if (text_only || !isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))
		return false;
	return ui_browser__setup() == 0;
}

/* The terminal as it was; safe to call more than once. */
static void screen_restore(void)
{
	if (!ui_active)
		return;
	ui_active = false;
	SLsmg_reset_smg();
	SLang_reset_tty();
}

static void restore_handlers(void)
{
	while (nr_saved > 0) {
		nr_saved--;
		sigaction(saved[nr_saved].sig, &saved[nr_saved].act, NULL);
	}
}

/* As Linux perf: the terminal back, the signal named, a normal exit. */
static void on_exit_signal(int sig)
{
	screen_restore();
	psignal(sig, "perf");
	exit(0);
}

/*
 * A crash must not leave the shell in raw mode on the alternate screen;
 * then the signal again with its default action, for the core dump and
 * the exit status a crash has.
 */
static void on_crash_signal(int sig)
{
	screen_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_winch(int sig)
{
	int saved_errno = errno;
	char c = 0;
	ssize_t ret;

	ui_resized = 1;
	/* Failing only when full: the wake-up is there already. */
	ret = write(winch_pipe[1], &c, 1);
	(void)ret;
	errno = saved_errno;
}

static void catch_signal(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	saved[nr_saved].sig = sig;
	if (sigaction(sig, &sa, &saved[nr_saved].act) == 0)
		nr_saved++;
}

static void catch_signals(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(exit_signals); i++)
		catch_signal(exit_signals[i], on_exit_signal);
	for (i = 0; i < ARRAY_SIZE(crash_signals); i++)
		catch_signal(crash_signals[i], on_crash_signal);
	catch_signal(SIGWINCH, on_winch);
}

static void set_colors(void)
{
	SLtt_set_color(UI_COLOR_NORMAL, NULL, "default", "default");
	SLtt_set_color(UI_COLOR_SELECTED, NULL, "black", "cyan");
	SLtt_set_color(UI_COLOR_TITLE, NULL, "white", "blue");
	SLtt_set_color(UI_COLOR_POPUP, NULL, "black", "lightgray");
}

int ui_browser__init(void)
{
	if (ui_active)
		return 0;
	if (ui_browser__setup())
		return -1;
	if (winch_pipe[0] < 0 && pipe2(winch_pipe, O_NONBLOCK | O_CLOEXEC))
		return -1;
	SLutf8_enable(-1);
	if (SLang_init_tty(-1, 0, 0) < 0)
		return -1;
	SLtt_get_screen_size();
	if (SLsmg_init_smg() < 0) {
		SLang_reset_tty();
		return -1;
	}
	ui_active = true;
	ui_resized = 0;
	set_colors();
	catch_signals();
	/* An exit() from anywhere must give the terminal back too. */
	if (!ui_atexit_set && !atexit(ui_browser__exit))
		ui_atexit_set = true;
	SLsmg_cls();
	return 0;
}

void ui_browser__exit(void)
{
	if (!ui_active)
		return;
	SLsmg_cls();
	SLsmg_refresh();
	screen_restore();
	restore_handlers();
}

int ui_browser__rows(void)
{
	return SLtt_Screen_Rows;
}

void ui_browser__write_line(int row, enum ui_color color, const char *text)
{
	SLsmg_gotorc(row, 0);
	SLsmg_set_color(color);
	SLsmg_write_nstring(text, SLtt_Screen_Cols);
	SLsmg_set_color(UI_COLOR_NORMAL);
}

void ui_browser__refresh(void)
{
	SLsmg_refresh();
}

void ui_browser__touch(void)
{
	SLsmg_touch_screen();
}

/*
 * 1: a byte can be read.  0: none came within @ms.  -1: the terminal
 * was resized while waiting, only when waiting without limit (@ms < 0):
 * within an escape sequence a resize waits for the sequence's end.
 */
static int input_ready(int ms)
{
	struct pollfd pfd[2] = {
		{ .fd = SLang_TT_Read_FD, .events = POLLIN },
		{ .fd = winch_pipe[0], .events = POLLIN },
	};
	char drain[16];
	int n;

	for (;;) {
		if (SLang_Input_Buffer_Len)
			return 1;
		if (ms < 0 && ui_resized)
			return -1;
		n = poll(pfd, 2, ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? 1 : 0;	/* an error: let the read say it */
		if (pfd[0].revents)
			return 1;
		while (read(winch_pipe[0], drain, sizeof(drain)) > 0)
			;
	}
}

static int sequence_number(const char *param)
{
	return atoi(param);	/* "5", or "1;5" with modifiers: the first */
}

/* CSI (ESC [) or SS3 (ESC O) sequences, xterm's and the VT220's. */
static int map_sequence(int final, const char *param)
{
	switch (final) {
	case 'A': return UI_KEY_UP;
	case 'B': return UI_KEY_DOWN;
	case 'C': return UI_KEY_RIGHT;
	case 'D': return UI_KEY_LEFT;
	case 'H': return UI_KEY_HOME;
	case 'F': return UI_KEY_END;
	case 'Z': return UI_KEY_BTAB;
	case '~':
		switch (sequence_number(param)) {
		case 1:
		case 7:
			return UI_KEY_HOME;
		case 4:
		case 8:
			return UI_KEY_END;
		case 5:
			return UI_KEY_PGUP;
		case 6:
			return UI_KEY_PGDN;
		}
	}
	return 0;	/* not a key the browsers use */
}

/* After an ESC: the key its sequence names, or ESC itself. */
static int escape_key(void)
{
	char param[ESC_SEQ_MAX];
	unsigned int c;
	int n = 0;

	if (input_ready(ESC_WAIT_MS) <= 0)
		return UI_KEY_ESC;
	c = SLang_getkey();
	if (c != '[' && c != 'O') {
		/* ESC then a key (or Alt-key): ESC now, the key next. */
		if (c != SLANG_GETKEY_ERROR)
			SLang_ungetkey(c);
		return UI_KEY_ESC;
	}
	for (;;) {
		if (input_ready(ESC_WAIT_MS) <= 0)
			return UI_KEY_ESC;
		c = SLang_getkey();
		if (c == SLANG_GETKEY_ERROR)
			return UI_KEY_ERROR;
		if (c >= 0x40 && c <= 0x7e)
			break;
		if (n < ESC_SEQ_MAX - 1)
			param[n++] = c;
	}
	param[n] = '\0';
	return map_sequence(c, param);
}

static int resize(void)
{
	ui_resized = 0;
	SLtt_get_screen_size();
	SLsmg_reinit_smg();
	return UI_KEY_RESIZE;
}

int ui_browser__getkey(void)
{
	unsigned int c;

	if (input_ready(-1) < 0)
		return resize();
	c = SLang_getkey();
	switch (c) {
	case SLANG_GETKEY_ERROR:
		return UI_KEY_ERROR;
	case 0x1b:
		return escape_key();
	case '\n':
	case '\r':
		return UI_KEY_ENTER;
	case '\b':
		return UI_KEY_BACKSPACE;
	default:
		return c;
	}
}

static void popup_box(int row, int col, int height, int width,
		      const char *title)
{
	SLsmg_set_color(UI_COLOR_POPUP);
	SLsmg_fill_region(row, col, height, width, ' ');
	SLsmg_draw_box(row, col, height, width);
	if (title) {
		SLsmg_gotorc(row, col + 2);
		/* Only as long as it is: the rest of the border stays. */
		SLsmg_write_nstring(title, strnlen(title, width > 4 ? width - 4 : 0));
	}
}

void ui_browser__popup(const char *title, const char * const *lines, int nr)
{
	int width = title ? strlen(title) + 4 : 4;
	int height, row, col, i;

	for (i = 0; i < nr; i++)
		if ((int)strlen(lines[i]) + 4 > width)
			width = strlen(lines[i]) + 4;
	if (width > SLtt_Screen_Cols)
		width = SLtt_Screen_Cols;
	height = nr + 2;
	if (height > SLtt_Screen_Rows)
		height = SLtt_Screen_Rows;
	row = (SLtt_Screen_Rows - height) / 2;
	col = (SLtt_Screen_Cols - width) / 2;
	popup_box(row, col, height, width, title);
	for (i = 0; i < nr && i < height - 2; i++) {
		SLsmg_gotorc(row + 1 + i, col + 2);
		SLsmg_write_nstring(lines[i], width - 4);
	}
	SLsmg_set_color(UI_COLOR_NORMAL);
	SLsmg_refresh();
	/* Any key closes it; after a resize the caller redraws it all. */
	ui_browser__getkey();
}

static void input_draw(const char *prompt, const char *buf)
{
	int row = SLtt_Screen_Rows - 1;
	size_t plen = strlen(prompt), blen = strlen(buf);
	int cols = SLtt_Screen_Cols;
	int shown = cols - (int)plen - 1;
	/* A long string shows its end, where the typing is. */
	const char *tail = shown > 0 && (int)blen > shown ? buf + blen - shown : buf;

	ui_browser__write_line(row, UI_COLOR_TITLE, "");
	SLsmg_gotorc(row, 0);
	SLsmg_set_color(UI_COLOR_TITLE);
	SLsmg_write_nstring(prompt, cols);
	if (shown > 0)
		SLsmg_write_nstring(tail, shown);
	SLsmg_set_color(UI_COLOR_NORMAL);
	SLsmg_gotorc(row, plen + strlen(tail) < (size_t)cols ?
		     (int)(plen + strlen(tail)) : cols - 1);
	SLsmg_refresh();
}

int ui_browser__input(const char *prompt, char *buf, size_t size)
{
	size_t len = strlen(buf);
	int key;

	for (;;) {
		input_draw(prompt, buf);
		key = ui_browser__getkey();
		switch (key) {
		case UI_KEY_ENTER:
			return 0;
		case UI_KEY_ESC:
		case UI_KEY_ERROR:
			return -1;
		case UI_KEY_BACKSPACE:
			if (len)
				buf[--len] = '\0';
			break;
		default:
			if (key >= 0x20 && key < 0x7f && len + 1 < size) {
				buf[len++] = key;
				buf[len] = '\0';
			}
		}
	}
}

#define PROGRESS_BAR_WIDTH 50

void ui_browser__progress(const struct progress *p, int pct)
{
	char bar[PROGRESS_BAR_WIDTH + 1], title[128];
	int width = PROGRESS_BAR_WIDTH + 4;
	int row, col, done;

	if (pct < 0 || ui_browser__init())
		return;
	if (width > SLtt_Screen_Cols)
		width = SLtt_Screen_Cols;
	row = (SLtt_Screen_Rows - 3) / 2;
	col = (SLtt_Screen_Cols - width) / 2;
	done = pct * PROGRESS_BAR_WIDTH / 100;
	memset(bar, ' ', PROGRESS_BAR_WIDTH);
	memset(bar, '#', done);
	bar[PROGRESS_BAR_WIDTH] = '\0';
	snprintf(title, sizeof(title), "%s: %d%%", p->title, pct);
	popup_box(row, col, 3, width, title);
	SLsmg_gotorc(row + 1, col + 2);
	SLsmg_write_nstring(bar, width - 4);
	SLsmg_set_color(UI_COLOR_NORMAL);
	SLsmg_refresh();
}

static long move_step(int key, size_t nr, int page)
{
	switch (key) {
	case UI_KEY_DOWN:
	case 'j':
		return 1;
	case UI_KEY_UP:
	case 'k':
		return -1;
	case UI_KEY_PGDN:
		return page;
	case UI_KEY_PGUP:
		return -page;
	case UI_KEY_HOME:
		return -(long)nr;
	case UI_KEY_END:
		return (long)nr;
	}
	return 0;
}

bool ui_browser__move_key(int key, size_t *sel, size_t nr, int page)
{
	long step = move_step(key, nr, page), to = (long)*sel + step;

	if (!step)
		return false;
	if (to >= (long)nr)
		to = (long)nr - 1;
	if (to < 0)
		to = 0;
	*sel = to;
	return true;
}

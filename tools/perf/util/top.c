// SPDX-License-Identifier: GPL-2.0
/*
 * perf top: a live profile, from our own perf record's pipe output.
 *
 * The recording is the one perf record makes, so every event, target
 * and sampling option means what it means there; the histograms are
 * perf report's, fed record by record instead of from a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "top.h"

#define TOP_DEFAULT_ROWS 25	/* 20 rows when not on a terminal */
#define TOP_DEFAULT_COLS 80
#define TOP_HEADER_LINES 4

static volatile sig_atomic_t top_done;
static volatile pid_t top_recorder;
static struct termios top_saved_tio;
static bool top_tio_saved;

/* Stop, and stop the recorder: its end of the pipe closing ends ours. */
static void top_sig_handler(int sig)
{
	(void)sig;
	top_done = 1;
	if (top_recorder > 0)
		kill(top_recorder, SIGINT);
}

static void top_install_signals(void)
{
	struct sigaction sa = { .sa_handler = top_sig_handler };

	/* No SA_RESTART: the display loop's poll must return. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* ---- the terminal ----------------------------------------------------- */

static void top_restore_terminal(void)
{
	if (top_tio_saved)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &top_saved_tio);
	top_tio_saved = false;
}

/* Keys act when pressed, without Enter and without echo. */
static void top_raw_terminal(void)
{
	struct termios tio;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &top_saved_tio))
		return;
	tio = top_saved_tio;
	tio.c_lflag &= ~(ICANON | ECHO);
	tio.c_cc[VMIN] = 1;
	tio.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &tio))
		return;
	top_tio_saved = true;
	atexit(top_restore_terminal);
}

static void top_term_size(FILE *out, unsigned int *rows, unsigned int *cols)
{
	struct winsize ws;

	*rows = TOP_DEFAULT_ROWS;
	*cols = TOP_DEFAULT_COLS;
	if (!ioctl(fileno(out), TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

/* ---- the recorder and the reader ---------------------------------------- */

static int top_spawn_recorder(struct top *t, char * const *argv)
{
	char self[PATH_MAX];
	ssize_t len;
	int p[2];

	/* By its path, not /proc/self/exe, so the recorder is named perf. */
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0)
		return len < 0 ? -errno : -ENOENT;
	self[len] = '\0';
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	t->recorder = fork();
	if (t->recorder < 0) {
		int err = -errno;

		close(p[0]);
		close(p[1]);
		return err;
	}
	if (!t->recorder) {
		/* dup2() leaves the copy open across exec. */
		if (dup2(p[1], STDOUT_FILENO) < 0)
			_exit(127);
		execv(self, argv);
		fprintf(stderr, "perf top: cannot run perf record: %s\n",
			strerror(errno));
		_exit(127);
	}
	top_recorder = t->recorder;
	close(p[1]);
	t->fd = p[0];
	return 0;
}

static bool top_kernel_mode(u8 cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL ||
	       cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
}

static int top_event(struct perf_session *s, const union perf_event *ev,
		     u64 offset, const struct perf_sample *sample,
		     struct perf_session_attr *attr, void *ctx)
{
	struct top *t = ctx;
	int err = 0;

	pthread_mutex_lock(&t->lock);
	if (ev->header.type == PERF_RECORD_SAMPLE && sample && attr) {
		bool kernel = top_kernel_mode(sample->cpumode);

		t->interval_samples++;
		t->interval_kernel += kernel;
		if (ev->header.misc & PERF_RECORD_MISC_EXACT_IP)
			t->interval_exact++;
		if ((kernel && t->hide_kernel) || (!kernel && t->hide_user))
			goto out;
	}
	err = report__event(s, ev, offset, sample, attr, &t->r);
out:
	pthread_mutex_unlock(&t->lock);
	return err;
}

static void *top_reader(void *arg)
{
	struct top *t = arg;
	int err;

	err = perf_session__process_events_ordered(&t->session, top_event, t);
	pthread_mutex_lock(&t->lock);
	t->reader_err = err;
	t->reader_done = true;
	pthread_mutex_unlock(&t->lock);
	if (write(t->wake[1], "", 1) < 0)
		t->reader_err = t->reader_err ? t->reader_err : -errno;
	return NULL;
}

/* ---- the display ---------------------------------------------------------- */

/* "4000Hz cpu-clock" or "cpu-clock, period 100000": how it samples. */
static void top_event_desc(const struct perf_session *s, char *buf,
			   size_t size)
{
	const struct perf_session_attr *a;

	if (!s->nr_attrs) {
		snprintf(buf, size, "no event");
		return;
	}
	a = &s->attrs[0];
	if (a->attr.freq)
		snprintf(buf, size, "%lluHz %s",
			 (unsigned long long)a->attr.sample_freq, a->name);
	else
		snprintf(buf, size, "%s, period %llu", a->name,
			 (unsigned long long)a->attr.sample_period);
}

static double top_pct(u64 part, u64 all)
{
	return all ? 100.0 * part / all : 0.0;
}

static void top_print_header(struct top *t, double secs, unsigned int cols)
{
	char desc[256];
	u64 lost = t->r.lost_records;
	unsigned int i;

	top_event_desc(&t->session, desc, sizeof(desc));
	fprintf(t->out,
		"   PerfTop:%8.0f irqs/sec  kernel:%4.1f%%  exact: %4.1f%% lost: %llu/%llu drop: 0/0 [%s],  (%s)\n",
		secs > 0 ? t->interval_samples / secs : 0.0,
		top_pct(t->interval_kernel, t->interval_samples),
		top_pct(t->interval_exact, t->interval_samples),
		(unsigned long long)(lost - t->lost_shown),
		(unsigned long long)lost, desc, t->target_desc);
	for (i = 0; i + 1 < cols; i++)
		fputc('-', t->out);
	fputs("\n\n", t->out);
	t->lost_shown = lost;
}

/* After a refresh: keep 7/8 of the history, or none with -z. */
static int top_age(struct top *t)
{
	int i, err = 0;

	for (i = 0; i < t->r.nr_hists && !err; i++) {
		if (!t->zero) {
			err = hists__decay(&t->r.hists[i]);
			continue;
		}
		hists__exit(&t->r.hists[i]);
		err = hists__init(&t->r.hists[i], &t->r.cfg);
	}
	return err;
}

static int top_refresh(struct top *t, double secs)
{
	unsigned int rows, cols, entries;
	int err = 0;

	top_term_size(t->out, &rows, &cols);
	entries = t->entries;
	if (!entries)
		entries = rows > TOP_HEADER_LINES + 1 ?
			  rows - TOP_HEADER_LINES - 1 : 1;
	pthread_mutex_lock(&t->lock);
	if (isatty(fileno(t->out)))
		fputs("\033[H\033[2J", t->out);
	top_print_header(t, secs, cols);
	/* The first event's profile, as Linux perf top shows it first. */
	if (t->r.nr_hists)
		err = hists__fprintf_rows(&t->r.hists[0], entries, t->out);
	if (err >= 0)
		err = top_age(t);
	t->interval_samples = 0;
	t->interval_kernel = 0;
	t->interval_exact = 0;
	t->refreshes++;
	pthread_mutex_unlock(&t->lock);
	fflush(t->out);
	return err < 0 ? err : 0;
}

static void top_key(struct top *t, char c)
{
	pthread_mutex_lock(&t->lock);
	switch (c) {
	case 'q':
	case 'Q':
		top_done = 1;
		break;
	case 'z':
		t->zero = !t->zero;
		break;
	case 'K':
		t->hide_kernel = !t->hide_kernel;
		break;
	case 'U':
		t->hide_user = !t->hide_user;
		break;
	default:
		break;
	}
	pthread_mutex_unlock(&t->lock);
}

static double top_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Redraw every delay_secs, take keys, until 'q', a signal or the end. */
static int top_display_loop(struct top *t)
{
	bool keys = top_tio_saved;
	double last = top_now(), next = last + t->delay_secs;
	int err = 0;

	while (!top_done && !err) {
		struct pollfd pfd[2] = {
			{ .fd = t->wake[0], .events = POLLIN },
			{ .fd = STDIN_FILENO, .events = POLLIN },
		};
		double now = top_now();
		int ms = next > now ? (int)((next - now) * 1000) + 1 : 0;
		char c;

		if (poll(pfd, keys ? 2 : 1, ms) < 0 && errno != EINTR)
			return -errno;
		if (pfd[0].revents)
			break;	/* the recording ended */
		if (keys && (pfd[1].revents & POLLIN) &&
		    read(STDIN_FILENO, &c, 1) == 1)
			top_key(t, c);
		now = top_now();
		if (now >= next && !top_done) {
			err = top_refresh(t, now - last);
			last = now;
			next = now + t->delay_secs;
		}
	}
	return err;
}

/* ---- start and stop ---------------------------------------------------------- */

static int top_start(struct top *t, char * const *argv)
{
	int err;

	t->fd = -1;
	t->wake[0] = -1;
	t->wake[1] = -1;
	if (pthread_mutex_init(&t->lock, NULL))
		return -ENOMEM;
	if (pipe2(t->wake, O_CLOEXEC))
		return -errno;
	err = top_spawn_recorder(t, argv);
	if (err) {
		fprintf(stderr, "perf top: cannot start perf record: %s\n",
			strerror(-err));
		return err;
	}
	/* Blocks until the recorder has opened its counters. */
	err = perf_session__open_fd(&t->session, t->fd, "perf record's pipe");
	t->session_open = true;
	if (err) {
		if (!top_done)
			fprintf(stderr,
				"perf top: perf record stopped before it sent a profile (its message is above): %s\n",
				perf_session__error(&t->session));
		return err;
	}
	err = report__begin(&t->r, &t->session);
	if (err) {
		fprintf(stderr, "perf top: %s\n", strerror(-err));
		return err;
	}
	err = pthread_create(&t->reader, NULL, top_reader, t);
	if (err) {
		fprintf(stderr, "perf top: cannot start the reader: %s\n",
			strerror(err));
		return -err;
	}
	t->reader_started = true;
	return 0;
}

/* The recorder's exit status, after asking it to stop. */
static int top_stop(struct top *t)
{
	int status = 0;

	if (t->recorder > 0) {
		kill(t->recorder, SIGINT);
		if (t->reader_started)
			pthread_join(t->reader, NULL);
		while (waitpid(t->recorder, &status, 0) < 0 && errno == EINTR)
			;
		top_recorder = 0;
	}
	top_restore_terminal();
	report__exit(&t->r);
	if (t->session_open)
		perf_session__close(&t->session);
	else if (t->fd >= 0)
		close(t->fd);
	if (t->wake[0] >= 0) {
		close(t->wake[0]);
		close(t->wake[1]);
	}
	pthread_mutex_destroy(&t->lock);
	return status;
}

/* Stopped by us (SIGINT) or ended well: 0; else its error. */
static bool recorder_failed(int status)
{
	if (WIFSIGNALED(status))
		return WTERMSIG(status) != SIGINT;
	return WIFEXITED(status) && WEXITSTATUS(status);
}

int top__run(struct top *t, char * const *record_argv)
{
	int err, status;

	if (!t->out)
		t->out = stdout;
	if (!t->delay_secs)
		t->delay_secs = 2;
	top_install_signals();
	err = top_start(t, record_argv);
	if (!err) {
		top_raw_terminal();
		err = top_display_loop(t);
		if (!err && t->reader_err < 0)
			fprintf(stderr, "perf top: reading the recording: %s\n",
				perf_session__error(&t->session));
	}
	status = top_stop(t);
	if (err)
		return 1;
	if (recorder_failed(status)) {
		fprintf(stderr, "perf top: perf record exited with status %d\n",
			WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		return 1;
	}
	return t->reader_err < 0 ? 1 : 0;
}

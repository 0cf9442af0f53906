// SPDX-License-Identifier: GPL-2.0
/*
 * perf test -w clock-marks SECONDS [SLEW_PPM [STEP_AT STEP_SECONDS]]:
 * once a second a getpid and a 100 us sleep between two reads of the
 * time of day, printed afterwards as "mark SECONDS.USEC SECONDS.USEC",
 * for a recording's time of day to be checked against what a program
 * logs.  The first line is "pid PID".
 *
 * SLEW_PPM makes the kernel run CLOCK_REALTIME that much faster
 * (adjtimex ADJ_FREQUENCY, as NTP does; at most 500), and STEP_AT
 * seconds in it is set forward by STEP_SECONDS ("step" is printed),
 * with a mark half a second later.  Both are undone at the end.  They
 * change the system's clock, so they run only where
 * PERF_TEST_CLOCK_WRITABLE=1 says that is fine (the test VM).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include "../tests.h"

#define NSEC 1000000000LL

/* A getpid for tracers, a short sleep for the scheduler's tracepoints. */
static void mark(void)
{
	struct timespec before, after, nap = { 0, 100000 };

	clock_gettime(CLOCK_REALTIME, &before);
	syscall(SYS_getpid);
	nanosleep(&nap, NULL);
	clock_gettime(CLOCK_REALTIME, &after);
	printf("mark %lld.%06ld %lld.%06ld\n", (long long)before.tv_sec,
	       before.tv_nsec / 1000, (long long)after.tv_sec,
	       after.tv_nsec / 1000);
	fflush(stdout);
}

/* Sleep until @ns of CLOCK_MONOTONIC, which neither change moves. */
static void sleep_until(long long ns)
{
	struct timespec ts = { ns / NSEC, ns % NSEC };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

static long long mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC + ts.tv_nsec;
}

static int set_freq(long ppm)
{
	struct timex tx = { .modes = ADJ_FREQUENCY, .freq = ppm * 65536 };

	if (adjtimex(&tx) >= 0)
		return 0;
	perror("clock-marks: adjtimex");
	return -1;
}

static int step_clock(long long ns)
{
	struct timespec ts;
	long long t;

	clock_gettime(CLOCK_REALTIME, &ts);
	t = ts.tv_sec * NSEC + ts.tv_nsec + ns;
	ts.tv_sec = t / NSEC;
	ts.tv_nsec = t % NSEC;
	if (!clock_settime(CLOCK_REALTIME, &ts))
		return 0;
	perror("clock-marks: clock_settime");
	return -1;
}

struct clock_plan {
	int seconds;
	long ppm;
	int step_at;
	int step_s;
};

static int clock_marks(const struct clock_plan *p)
{
	long long start = mono_now();
	int i, err = 0;

	printf("pid %d\n", (int)getpid());
	if (p->ppm && set_freq(p->ppm))
		return 1;
	for (i = 1; i <= p->seconds && !err; i++) {
		sleep_until(start + i * NSEC);
		mark();
		if (i != p->step_at)
			continue;
		err = step_clock(p->step_s * NSEC);
		printf("step\n");
		sleep_until(start + i * NSEC + NSEC / 2);
		mark();
	}
	if (p->ppm)
		err |= set_freq(0);
	if (p->step_at && p->step_at <= p->seconds)
		err |= step_clock(-p->step_s * NSEC);
	return err ? 1 : 0;
}

int workload_clock_marks(int argc, const char **argv)
{
	const char *writable = getenv("PERF_TEST_CLOCK_WRITABLE");
	struct clock_plan p = { 0 };

	p.seconds = argc > 0 ? atoi(argv[0]) : 3;
	p.ppm = argc > 1 ? atol(argv[1]) : 0;
	p.step_at = argc > 3 ? atoi(argv[2]) : 0;
	p.step_s = argc > 3 ? atoi(argv[3]) : 0;
	if (p.seconds <= 0 || p.ppm < -500 || p.ppm > 500 || p.step_at < 0) {
		fprintf(stderr, "usage: perf test -w clock-marks SECONDS [SLEW_PPM (-500..500) [STEP_AT STEP_SECONDS]]\n");
		return 1;
	}
	if ((p.ppm || p.step_at) && (!writable || strcmp(writable, "1"))) {
		fprintf(stderr, "clock-marks: changing the system clock needs PERF_TEST_CLOCK_WRITABLE=1 (meant for a test VM)\n");
		return 1;
	}
	return clock_marks(&p);
}

/*
 * perf test -w clock-reads [SECONDS]: clock_gettime in a loop, so that
 * most samples fall in the vdso, for tests of vdso symbols and code.
 */
int workload_clock_reads(int argc, const char **argv)
{
	double secs = argc > 0 ? atof(argv[0]) : 1.0;
	struct timespec start, ts;

	if (secs <= 0) {
		fprintf(stderr, "usage: perf test -w clock-reads SECONDS\n");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	do
		clock_gettime(CLOCK_MONOTONIC, &ts);
	while ((ts.tv_sec - start.tv_sec) +
	       (ts.tv_nsec - start.tv_nsec) / 1e9 < secs);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A workload with known system call counts: N getppid, M opens of a
 * missing path (all fail with ENOENT), K one-byte writes to /dev/null,
 * and U calls of a number no system call has (ENOSYS; 64-bit only).
 * With --mark it first makes one getpid between two reads of the time
 * of day and prints them ("mark SECONDS.USEC SECONDS.USEC", one write)
 * for a tracer's time of that getpid to be compared with.
 *
 * Built into perf (perf test -w syscalls) and, with -DSYSCALLS_MAIN,
 * as a program of its own: the 32-bit static build perf trace tests
 * name the syscalls of.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/syscall.h>
#ifdef SYSCALLS_MAIN
int workload_syscalls(int argc, const char **argv);
#else
#include "../tests.h"
#endif

#define MISSING_PATH "/nonexistent/perf-test-workload"
/* In the gap of the x86-64 table between 334 and 424: no call has it. */
#define UNASSIGNED_NR 400

static int arg_count(const char *s, int def)
{
	char *end;
	long v;

	if (!s)
		return def;
	v = strtol(s, &end, 10);
	return *end || v < 0 ? -1 : (int)v;
}

/* Block until SIGUSR1, so a tracer can attach first. */
static void wait_for_usr1(void)
{
	sigset_t set, old;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	printf("ready %d\n", getpid());
	fflush(stdout);
	sigwait(&set, &sig);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/*
 * The time of day just before and just after the marked call, printed
 * afterwards (printing first would put a write between them).  On a
 * slow machine an interrupt may fall between the two: the call's time
 * then lies inside the bracket.
 */
static void mark(void)
{
	struct timespec before, after;

	clock_gettime(CLOCK_REALTIME, &before);
	syscall(SYS_getpid);
	clock_gettime(CLOCK_REALTIME, &after);
	printf("mark %lld.%06ld %lld.%06ld\n", (long long)before.tv_sec,
	       before.tv_nsec / 1000, (long long)after.tv_sec,
	       after.tv_nsec / 1000);
	fflush(stdout);
}

int workload_syscalls(int argc, const char **argv)
{
	bool wait = argc > 0 && !strcmp(argv[0], "--wait-signal");
	bool marked;
	int n, m, k, u, i, fd;

	if (wait) {
		argc--;
		argv++;
	}
	marked = argc > 0 && !strcmp(argv[0], "--mark");
	if (marked) {
		argc--;
		argv++;
	}
	n = arg_count(argc > 0 ? argv[0] : NULL, 1000);
	m = arg_count(argc > 1 ? argv[1] : NULL, 100);
	k = arg_count(argc > 2 ? argv[2] : NULL, 100);
	u = arg_count(argc > 3 ? argv[3] : NULL, 0);
#ifndef __x86_64__
	if (u > 0)
		u = -1;	/* UNASSIGNED_NR may be a real call here */
#endif
	if (n < 0 || m < 0 || k < 0 || u < 0) {
		fprintf(stderr, "usage: perf test -w syscalls [--wait-signal] [--mark] [N getppid [M failing opens [K writes [U unassigned (x86-64)]]]]\n");
		return 1;
	}
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0) {
		perror("/dev/null");
		return 1;
	}
	if (wait)
		wait_for_usr1();
	if (marked)
		mark();
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	for (i = 0; i < m; i++)
		syscall(SYS_openat, AT_FDCWD, MISSING_PATH, O_RDONLY, 0);
	for (i = 0; i < k; i++)
		if (write(fd, "x", 1) != 1)
			return 1;
	for (i = 0; i < u; i++)
		syscall(UNASSIGNED_NR, 0, 0, 0, 0, 0, 0);
	close(fd);
	return 0;
}

#ifdef SYSCALLS_MAIN
int main(int argc, const char **argv)
{
	return workload_syscalls(argc - 1, argv + 1);
}
#endif

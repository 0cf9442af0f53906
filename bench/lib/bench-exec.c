// SPDX-License-Identifier: GPL-2.0
/*
 * bench-exec: run commands many times, interleaved, and report the wall
 * time and peak RSS of each.
 *
 *   bench-exec [-n RUNS] [-w WARMUP] -- CMD [ARG...] [:: CMD [ARG...]]...
 *
 * Each round runs every command once; the starting command rotates from
 * round to round so that none of them always runs first (or right after
 * the same neighbour).  Commands run with stdin, stdout and stderr on
 * /dev/null.  A run that does not exit with status 0 aborts the
 * benchmark: timing a failure would be meaningless.
 *
 * Wall time is taken around spawn + wait4(), so it includes the same
 * fixed spawn cost for every command.  Peak RSS is ru_maxrss from
 * wait4(): the largest resident set of the child or any descendant it
 * waited for, in KiB.
 *
 * With BENCH_CPU=N in the environment, every command runs on CPU N
 * only (sched_setaffinity() here, inherited): on a machine whose CPUs
 * differ in speed (virtual CPUs that a host serves unevenly), the CPU a
 * run lands on would weigh more than the tool.  Both tools get the same
 * CPU, and a tool's own threads then share it.
 *
 * Output, one line per command, in the order given:
 *
 *   cmd=I runs=N mean_ns=.. median_ns=.. min_ns=.. stddev_ns=.. maxrss_kb=..
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAX_CMDS 16

struct cmd {
	char **argv;
	unsigned long long *ns;		/* one sample per measured run */
	long maxrss_kb;
};

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Run argv once; return its wall time in ns, or 0 on any failure. */
static unsigned long long run_once(char **argv, int null_fd, long *maxrss_kb)
{
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	unsigned long long t0, t1;
	int err, status;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, null_fd, 0);
	posix_spawn_file_actions_adddup2(&fa, null_fd, 1);
	posix_spawn_file_actions_adddup2(&fa, null_fd, 2);

	t0 = now_ns();
	err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		fprintf(stderr, "bench-exec: %s: %s\n", argv[0], strerror(err));
		return 0;
	}
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("bench-exec: wait4");
			return 0;
		}
	}
	t1 = now_ns();

	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bench-exec: %s: exited abnormally (status 0x%x)\n",
			argv[0], status);
		return 0;
	}
	if (ru.ru_maxrss > *maxrss_kb)
		*maxrss_kb = ru.ru_maxrss;
	return t1 > t0 ? t1 - t0 : 1;
}

static int cmp_u64(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

static void report(int idx, struct cmd *c, int runs)
{
	double sum = 0, mean, var = 0, median;
	int i;

	for (i = 0; i < runs; i++)
		sum += c->ns[i];
	mean = sum / runs;
	for (i = 0; i < runs; i++)
		var += (c->ns[i] - mean) * (c->ns[i] - mean);
	var = runs > 1 ? var / (runs - 1) : 0;

	qsort(c->ns, runs, sizeof(*c->ns), cmp_u64);
	if (runs % 2)
		median = c->ns[runs / 2];
	else
		median = (c->ns[runs / 2 - 1] + c->ns[runs / 2]) / 2.0;

	printf("cmd=%d runs=%d mean_ns=%.0f median_ns=%.0f", idx, runs,
	       mean, median);
	printf(" min_ns=%llu stddev_ns=%.0f maxrss_kb=%ld\n", c->ns[0],
	       sqrt(var), c->maxrss_kb);
}

static void print_usage(void)
{
	fprintf(stderr,
		"usage: bench-exec [-n RUNS] [-w WARMUP] -- CMD [ARG...] [:: CMD [ARG...]]...\n");
	exit(2);
}

/* Split argv at "::" into commands; the separators become NULLs. */
static int split_cmds(char **argv, struct cmd *cmds)
{
	int n = 0;

	while (*argv) {
		if (n == MAX_CMDS || !strcmp(*argv, "::"))
			print_usage();
		cmds[n++].argv = argv;
		while (*argv && strcmp(*argv, "::"))
			argv++;
		if (*argv) {
			*argv++ = NULL;
			if (!*argv)
				print_usage();
		}
	}
	return n;
}

/* BENCH_CPU: pin this process (and so its children) to that CPU. */
static int pin_from_env(void)
{
	const char *s = getenv("BENCH_CPU");
	cpu_set_t set;
	char *end;
	long cpu;

	if (!s || !*s)
		return 0;
	errno = 0;
	cpu = strtol(s, &end, 10);
	if (errno || *end || cpu < 0 || cpu >= CPU_SETSIZE) {
		fprintf(stderr, "bench-exec: BENCH_CPU=%s: not a CPU number\n", s);
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "bench-exec: BENCH_CPU=%ld: %s\n", cpu,
			strerror(errno));
		return -1;
	}
	return 0;
}

static int parse_count(const char *s, int min)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > 1000000)
		print_usage();
	return (int)v;
}

int main(int argc, char **argv)
{
	struct cmd cmds[MAX_CMDS] = { 0 };
	int runs = 200, warmup = 3;
	int ncmds, null_fd, opt, r, k, i;
	long unused_rss = 0;

	while ((opt = getopt(argc, argv, "+n:w:")) != -1) {
		switch (opt) {
		case 'n':
			runs = parse_count(optarg, 1);
			break;
		case 'w':
			warmup = parse_count(optarg, 0);
			break;
		default:
			print_usage();
		}
	}
	if (optind >= argc)
		print_usage();

	ncmds = split_cmds(argv + optind, cmds);
	if (pin_from_env())
		return 1;

	null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd < 0) {
		perror("bench-exec: /dev/null");
		return 1;
	}

	for (i = 0; i < ncmds; i++) {
		cmds[i].ns = calloc(runs, sizeof(*cmds[i].ns));
		if (!cmds[i].ns) {
			perror("bench-exec: calloc");
			return 1;
		}
	}

	/* Warm the page cache and the dynamic loader's caches; not measured. */
	for (r = 0; r < warmup; r++)
		for (i = 0; i < ncmds; i++)
			if (!run_once(cmds[i].argv, null_fd, &unused_rss))
				return 1;

	for (r = 0; r < runs; r++) {
		for (k = 0; k < ncmds; k++) {
			struct cmd *c = &cmds[(r + k) % ncmds];

			c->ns[r] = run_once(c->argv, null_fd, &c->maxrss_kb);
			if (!c->ns[r])
				return 1;
		}
	}

	for (i = 0; i < ncmds; i++)
		report(i, &cmds[i], runs);
	return 0;
}

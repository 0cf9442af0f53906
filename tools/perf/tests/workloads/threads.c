// SPDX-License-Identifier: GPL-2.0
/*
 * A scheduling workload: pairs of threads pass a token through pipes, so
 * every hand-over is a sleep and a wakeup, and each thread also spins a
 * little so that run times are not zero.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "../tests.h"

struct ping {
	int in;
	int out;
	int rounds;
};

static volatile unsigned long threads_sink;

static void *ping_thread(void *arg)
{
	struct ping *p = arg;
	char c = 't';
	int i, j;

	for (i = 0; i < p->rounds; i++) {
		if (read(p->in, &c, 1) != 1)
			break;
		for (j = 0; j < 20000; j++)
			threads_sink += j;
		if (write(p->out, &c, 1) != 1)
			break;
	}
	return NULL;
}

int workload_threads(int argc, const char **argv)
{
	int pairs = argc > 0 ? atoi(argv[0]) : 2;
	int rounds = argc > 1 ? atoi(argv[1]) : 500;
	pthread_t *tids;
	struct ping *pings;
	int i, ab[2], ba[2];

	if (pairs < 1 || rounds < 1) {
		fprintf(stderr, "usage: perf test -w threads [PAIRS [ROUNDS]]\n");
		return 1;
	}
	tids = calloc(2 * pairs, sizeof(*tids));
	pings = calloc(2 * pairs, sizeof(*pings));
	for (i = 0; i < pairs; i++) {
		if (pipe(ab) || pipe(ba))
			return 1;
		pings[2 * i] = (struct ping){ ba[0], ab[1], rounds };
		pings[2 * i + 1] = (struct ping){ ab[0], ba[1], rounds };
		/* The first thread of each pair gets the token. */
		if (write(ba[1], "t", 1) != 1)
			return 1;
	}
	for (i = 0; i < 2 * pairs; i++)
		pthread_create(&tids[i], NULL, ping_thread, &pings[i]);
	for (i = 0; i < 2 * pairs; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	free(pings);
	return 0;
}

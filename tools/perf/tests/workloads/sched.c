// SPDX-License-Identifier: GPL-2.0
/*
 * A scheduler workload for perf sched: threads that sleep for short
 * times, wake each other through a condition variable, hop between the
 * CPUs (migrations) and start short-lived children (forks, exits), so a
 * recording holds every kind of event timehist reads.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "../tests.h"

struct sched_mix {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned long token;
	int rounds;
	int nr_cpus;
};

static volatile unsigned long sched_sink;

static void short_sleep(long usec)
{
	struct timespec ts = { 0, usec * 1000 };

	nanosleep(&ts, NULL);
}

static void spin(int n)
{
	int i;

	for (i = 0; i < n; i++)
		sched_sink += i;
}

/* Run on CPU cpu from now on: the next switch-in migrates the thread. */
static void move_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *mix_thread(void *arg)
{
	struct sched_mix *m = arg;
	int i;

	for (i = 0; i < m->rounds; i++) {
		short_sleep(50 + (i % 4) * 50);
		spin(5000);
		pthread_mutex_lock(&m->lock);
		m->token++;
		pthread_cond_broadcast(&m->cond);
		pthread_mutex_unlock(&m->lock);
		if (m->nr_cpus > 1 && i % 16 == 0)
			move_to((i / 16) % m->nr_cpus);
	}
	return NULL;
}

/* Waits for tokens: every wait is a sleep ended by another thread. */
static void *mix_waiter(void *arg)
{
	struct sched_mix *m = arg;
	unsigned long seen = 0;
	int i;

	for (i = 0; i < m->rounds; i++) {
		pthread_mutex_lock(&m->lock);
		while (m->token == seen)
			pthread_cond_wait(&m->cond, &m->lock);
		seen = m->token;
		pthread_mutex_unlock(&m->lock);
		spin(2000);
	}
	return NULL;
}

static void fork_children(int n)
{
	int i;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			spin(10000);
			_exit(0);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
}

int workload_sched(int argc, const char **argv)
{
	struct sched_mix m = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
	};
	int threads = argc > 0 ? atoi(argv[0]) : 4;
	int i;
	pthread_t *tids, waiter;

	m.rounds = argc > 1 ? atoi(argv[1]) : 200;
	m.nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (threads < 1 || m.rounds < 1) {
		fprintf(stderr, "usage: perf test -w sched [THREADS [ROUNDS]]\n");
		return 1;
	}
	tids = calloc(threads, sizeof(*tids));
	if (!tids)
		return 1;
	pthread_create(&waiter, NULL, mix_waiter, &m);
	for (i = 0; i < threads; i++)
		pthread_create(&tids[i], NULL, mix_thread, &m);
	fork_children(4);
	for (i = 0; i < threads; i++)
		pthread_join(tids[i], NULL);
	/* Release the waiter whatever it has seen. */
	pthread_mutex_lock(&m.lock);
	m.rounds = 0;
	m.token++;
	pthread_cond_broadcast(&m.cond);
	pthread_mutex_unlock(&m.lock);
	pthread_join(waiter, NULL);
	free(tids);
	return 0;
}

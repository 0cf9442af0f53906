/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_THREADMAP_H
#define __PERF_THREADMAP_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Threads to count, opaque; the "any thread" map, for counting per CPU
 * whoever runs there, holds the single value -1.
 */
struct perf_thread_map;

struct perf_thread_map *perf_thread_map__new_any(void);
struct perf_thread_map *perf_thread_map__new_pid(pid_t pid);
/* The one thread @tid, without looking it up (a workload just forked). */
struct perf_thread_map *perf_thread_map__new_tid(pid_t tid);
struct perf_thread_map *perf_thread_map__parse_pids(const char *list);
struct perf_thread_map *perf_thread_map__parse_tids(const char *list);
void perf_thread_map__put(struct perf_thread_map *map);
int perf_thread_map__nr(const struct perf_thread_map *map);
pid_t perf_thread_map__pid(const struct perf_thread_map *map, int idx);

bool perf_thread_map__any_alive(const struct perf_thread_map *map);

/* True while @tid exists and has not exited (zombies count as gone). */
bool perf_thread__alive(pid_t tid);

#endif /* __PERF_THREADMAP_H */

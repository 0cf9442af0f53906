/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_CPUMAP_H
#define __PERF_CPUMAP_H

#include <stdio.h>

/* A sorted set of CPU numbers; the "any CPU" map holds the single value -1. */
struct perf_cpu_map {
	int nr;
	int cpu[];
};

struct perf_cpu_map *perf_cpu_map__new_online(void);
struct perf_cpu_map *perf_cpu_map__parse(const char *list);
struct perf_cpu_map *perf_cpu_map__new_any(void);
void perf_cpu_map__put(struct perf_cpu_map *map);
int perf_cpu_map__idx(const struct perf_cpu_map *map, int cpu);
int perf_cpu_map__fprintf(const struct perf_cpu_map *map, FILE *out);
int perf_cpu__max_present(void);

#endif /* __PERF_CPUMAP_H */

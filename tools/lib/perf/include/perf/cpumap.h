/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_CPUMAP_H
#define __PERF_CPUMAP_H

#include <stdbool.h>
#include <stdio.h>

/*
 * A sorted set of CPU numbers, opaque; the "any CPU" map, for counting
 * per thread wherever it runs, holds the single value -1.
 */
struct perf_cpu_map;

struct perf_cpu_map *perf_cpu_map__new_online(void);
struct perf_cpu_map *perf_cpu_map__parse(const char *list);
struct perf_cpu_map *perf_cpu_map__new_any(void);
void perf_cpu_map__put(struct perf_cpu_map *map);
int perf_cpu_map__fprintf(const struct perf_cpu_map *map, FILE *out);
int perf_cpu_map__nr(const struct perf_cpu_map *map);
int perf_cpu_map__cpu(const struct perf_cpu_map *map, int idx);
int perf_cpu_map__max(const struct perf_cpu_map *map);
bool perf_cpu_map__has(const struct perf_cpu_map *map, int cpu);
bool perf_cpu_map__is_any(const struct perf_cpu_map *map);
int perf_cpu__max_present(void);

#define perf_cpu_map__for_each_cpu(cpu, idx, map)			\
	for ((idx) = 0; (idx) < perf_cpu_map__nr(map) &&		\
	     ((cpu) = perf_cpu_map__cpu(map, idx), 1); (idx)++)

#endif /* __PERF_CPUMAP_H */

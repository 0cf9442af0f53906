// SPDX-License-Identifier: GPL-2.0
/*
 * CPU maps: the online CPUs, or a user list such as "0,2-3".
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perf/cpumap.h>
#include "internal.h"

#define CPU_ONLINE_FILE "/sys/devices/system/cpu/online"
#define CPU_PRESENT_FILE "/sys/devices/system/cpu/present"
#define MAX_NR_CPUS 4096

static struct perf_cpu_map *cpu_map__alloc(int nr)
{
	struct perf_cpu_map *map = malloc(sizeof(*map) + nr * sizeof(int));

	if (map)
		map->nr = 0;
	return map;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Sort and drop duplicates so lookups can rely on order. */
static void cpu_map__normalize(struct perf_cpu_map *map)
{
	int i, n = 0;

	qsort(map->cpu, map->nr, sizeof(int), cmp_int);
	for (i = 0; i < map->nr; i++)
		if (n == 0 || map->cpu[n - 1] != map->cpu[i])
			map->cpu[n++] = map->cpu[i];
	map->nr = n;
}

/*
 * Parse "0,2-3" style lists.  Returns NULL with errno EINVAL on a malformed
 * list or a CPU number beyond MAX_NR_CPUS.
 */
struct perf_cpu_map *perf_cpu_map__parse(const char *list)
{
	struct perf_cpu_map *map = cpu_map__alloc(MAX_NR_CPUS);
	const char *p = list;

	if (!map)
		return NULL;
	while (*p) {
		char *end;
		long first, last;

		if (!isdigit((unsigned char)*p))
			goto bad;
		first = strtol(p, &end, 10);
		last = first;
		p = end;
		if (*p == '-') {
			if (!isdigit((unsigned char)p[1]))
				goto bad;
			last = strtol(p + 1, &end, 10);
			p = end;
		}
		if (first > last || last >= MAX_NR_CPUS)
			goto bad;
		if (map->nr + (last - first + 1) > MAX_NR_CPUS)
			goto bad;
		while (first <= last)
			map->cpu[map->nr++] = first++;
		if (*p == ',' || *p == '\n')
			p++;
		else if (*p)
			goto bad;
	}
	if (map->nr == 0)
		goto bad;
	cpu_map__normalize(map);
	return map;
bad:
	free(map);
	errno = EINVAL;
	return NULL;
}

static struct perf_cpu_map *cpu_map__read_file(const char *path)
{
	char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return perf_cpu_map__parse(buf);
}

struct perf_cpu_map *perf_cpu_map__new_online(void)
{
	struct perf_cpu_map *map = cpu_map__read_file(CPU_ONLINE_FILE);
	long nr;
	int i;

	if (map)
		return map;
	/* No sysfs: fall back to the configured CPU count. */
	nr = sysconf(_SC_NPROCESSORS_ONLN);
	if (nr < 1)
		nr = 1;
	map = cpu_map__alloc(nr);
	if (!map)
		return NULL;
	for (i = 0; i < nr; i++)
		map->cpu[map->nr++] = i;
	return map;
}

struct perf_cpu_map *perf_cpu_map__new_any(void)
{
	struct perf_cpu_map *map = cpu_map__alloc(1);

	if (map) {
		map->nr = 1;
		map->cpu[0] = -1;
	}
	return map;
}

void perf_cpu_map__put(struct perf_cpu_map *map)
{
	free(map);
}

int perf_cpu_map__nr(const struct perf_cpu_map *map)
{
	return map->nr;
}

int perf_cpu_map__cpu(const struct perf_cpu_map *map, int idx)
{
	return map->cpu[idx];
}

/* Is @cpu in @map?  The map is sorted: a binary search. */
bool perf_cpu_map__has(const struct perf_cpu_map *map, int cpu)
{
	return bsearch(&cpu, map->cpu, map->nr, sizeof(int), cmp_int) != NULL;
}

/* The highest CPU in @map, -1 for the "any CPU" map. */
int perf_cpu_map__max(const struct perf_cpu_map *map)
{
	return map->nr ? map->cpu[map->nr - 1] : -1;
}

bool perf_cpu_map__is_any(const struct perf_cpu_map *map)
{
	return map->nr == 1 && map->cpu[0] < 0;
}

/* Print as a compact list ("0,2-3"); returns the number of characters. */
int perf_cpu_map__fprintf(const struct perf_cpu_map *map, FILE *out)
{
	int i = 0, n = 0;

	while (i < map->nr) {
		int j = i;

		while (j + 1 < map->nr && map->cpu[j + 1] == map->cpu[j] + 1)
			j++;
		n += fprintf(out, "%s%d", i ? "," : "", map->cpu[i]);
		if (j > i)
			n += fprintf(out, "-%d", map->cpu[j]);
		i = j + 1;
	}
	return n;
}

/* Highest present CPU number plus one: the size of per-CPU tables. */
int perf_cpu__max_present(void)
{
	struct perf_cpu_map *map = cpu_map__read_file(CPU_PRESENT_FILE);
	int max;

	if (!map)
		map = perf_cpu_map__new_online();
	if (!map)
		return 1;
	max = perf_cpu_map__max(map) + 1;
	perf_cpu_map__put(map);
	return max;
}

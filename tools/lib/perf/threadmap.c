// SPDX-License-Identifier: GPL-2.0
/*
 * Thread maps: explicit thread ids, or every thread of some processes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perf/threadmap.h>
#include "internal.h"

struct tid_vec {
	struct perf_thread_map *map;
	int alloc;
};

static int tid_vec__add(struct tid_vec *v, pid_t tid)
{
	int i;

	for (i = 0; v->map && i < v->map->nr; i++)
		if (v->map->tid[i] == tid)
			return 0;
	if (!v->map || v->map->nr == v->alloc) {
		int alloc = v->alloc ? v->alloc * 2 : 16;
		struct perf_thread_map *m;

		m = realloc(v->map, sizeof(*m) + alloc * sizeof(pid_t));
		if (!m)
			return -ENOMEM;
		if (!v->map)
			m->nr = 0;
		v->map = m;
		v->alloc = alloc;
	}
	v->map->tid[v->map->nr++] = tid;
	return 0;
}

struct perf_thread_map *perf_thread_map__new_any(void)
{
	struct tid_vec v = { NULL, 0 };

	tid_vec__add(&v, -1);
	return v.map;
}

struct perf_thread_map *perf_thread_map__new_tid(pid_t tid)
{
	struct tid_vec v = { NULL, 0 };

	tid_vec__add(&v, tid);
	return v.map;
}

/* All threads of @pid from /proc/PID/task; ESRCH when it does not exist. */
static int tid_vec__add_process(struct tid_vec *v, pid_t pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return -ESRCH;
	while (!err && (d = readdir(dir)) != NULL) {
		char *end;
		long tid = strtol(d->d_name, &end, 10);

		if (d->d_name[0] == '.' || *end)
			continue;
		err = tid_vec__add(v, tid);
	}
	closedir(dir);
	return err;
}

struct perf_thread_map *perf_thread_map__new_pid(pid_t pid)
{
	struct tid_vec v = { NULL, 0 };
	int err = tid_vec__add_process(&v, pid);

	if (err) {
		free(v.map);
		errno = -err;
		return NULL;
	}
	return v.map;
}

/*
 * Parse a comma separated list of ids; expand each to its threads when
 * @whole_process.  errno is EINVAL for a malformed list, ESRCH for a
 * process that does not exist.
 */
static struct perf_thread_map *thread_map__parse(const char *list,
						 bool whole_process)
{
	struct tid_vec v = { NULL, 0 };
	const char *p = list;
	int err = 0;

	while (*p && !err) {
		char *end;
		long id = strtol(p, &end, 10);

		if (end == p || id <= 0 || (*end && *end != ',')) {
			err = -EINVAL;
			break;
		}
		if (whole_process) {
			err = tid_vec__add_process(&v, id);
		} else {
			char path[64];

			snprintf(path, sizeof(path), "/proc/%ld", id);
			err = access(path, F_OK) ? -ESRCH : tid_vec__add(&v, id);
		}
		p = *end ? end + 1 : end;
	}
	if (!err && !v.map)
		err = -EINVAL;
	if (err) {
		free(v.map);
		errno = -err;
		return NULL;
	}
	return v.map;
}

struct perf_thread_map *perf_thread_map__parse_pids(const char *list)
{
	return thread_map__parse(list, true);
}

struct perf_thread_map *perf_thread_map__parse_tids(const char *list)
{
	return thread_map__parse(list, false);
}

void perf_thread_map__put(struct perf_thread_map *map)
{
	free(map);
}

int perf_thread_map__nr(const struct perf_thread_map *map)
{
	return map->nr;
}

pid_t perf_thread_map__pid(const struct perf_thread_map *map, int idx)
{
	return map->tid[idx];
}

/* True while one thread of @map runs; the "any thread" map always does. */
bool perf_thread_map__any_alive(const struct perf_thread_map *map)
{
	int i;

	for (i = 0; i < map->nr; i++)
		if (map->tid[i] < 0 || perf_thread__alive(map->tid[i]))
			return true;
	return false;
}

bool perf_thread__alive(pid_t tid)
{
	char path[64], buf[256], *paren;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* The state follows the command name, which may hold ')'. */
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

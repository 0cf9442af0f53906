// SPDX-License-Identifier: GPL-2.0
/*
 * Finding tracefs and the tracepoints it describes.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <perf/tracefs.h>

#define TRACEFS_MAIN "/sys/kernel/tracing"
#define TRACEFS_DEBUGFS "/sys/kernel/debug/tracing"

static const char *tracefs_found;

static bool denied;	/* a tracefs exists, but this user may not look */

static bool has_events(const char *dir)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events", dir);
	if (stat(path, &st)) {
		denied = denied || errno == EACCES;
		return false;
	}
	return S_ISDIR(st.st_mode);
}

const char *tracefs_path(void)
{
	const char *env = getenv("PERF_TRACEFS");

	if (tracefs_found)
		return tracefs_found;
	if (env && has_events(env))
		return tracefs_found = env;
	if (has_events(TRACEFS_MAIN))
		return tracefs_found = TRACEFS_MAIN;
	if (has_events(TRACEFS_DEBUGFS))
		return tracefs_found = TRACEFS_DEBUGFS;
	/* Mounted nowhere yet: root can mount it where it belongs. */
	if (mount("nodev", TRACEFS_MAIN, "tracefs", 0, NULL) == 0 &&
	    has_events(TRACEFS_MAIN))
		return tracefs_found = TRACEFS_MAIN;
	if (denied)
		errno = EACCES;
	else if (errno != EPERM && errno != EACCES)
		errno = ENOENT;
	return NULL;
}

int tracefs_file(char *buf, size_t size, const char *fmt, ...)
{
	const char *base = tracefs_path();
	va_list ap;
	int n;

	if (!base)
		return -errno;
	n = snprintf(buf, size, "%s/", base);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	va_start(ap, fmt);
	n = vsnprintf(buf + n, size - n, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

/* Tracepoint names are identifiers; refuse anything that walks paths. */
static bool name_ok(const char *s)
{
	return *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

int tracefs_event_id(const char *subsys, const char *name)
{
	char path[512];
	FILE *f;
	int id, err;

	if (!name_ok(subsys) || !name_ok(name))
		return -ENOENT;
	err = tracefs_file(path, sizeof(path), "events/%s/%s/id", subsys, name);
	if (err)
		return err;
	f = fopen(path, "r");
	if (!f)
		return errno == ENOENT ? -ENOENT : -errno;
	if (fscanf(f, "%d", &id) != 1)
		id = -EINVAL;
	fclose(f);
	return id;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/* Sorted names of the sub-directories of @path; NULL-terminated. */
static char **list_dirs(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *d;
	char **names = NULL;
	size_t n = 0, alloc = 0;

	if (!dir)
		return NULL;
	while ((d = readdir(dir)) != NULL) {
		if (d->d_name[0] == '.' || d->d_type != DT_DIR)
			continue;
		if (n + 2 > alloc) {
			char **tmp;

			alloc = alloc ? alloc * 2 : 64;
			tmp = realloc(names, alloc * sizeof(*names));
			if (!tmp)
				break;
			names = tmp;
		}
		names[n] = strdup(d->d_name);
		if (names[n])
			n++;
	}
	closedir(dir);
	if (!names)
		return calloc(1, sizeof(*names));
	qsort(names, n, sizeof(*names), cmp_names);
	names[n] = NULL;
	return names;
}

static void free_names(char **names)
{
	char **p;

	for (p = names; p && *p; p++)
		free(*p);
	free(names);
}

static int walk_subsys_events(const char *base, const char *subsys,
			      const char *glob,
			      int (*cb)(const char *, const char *, void *),
			      void *data)
{
	char path[512], full[512];
	char **names, **n;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/events/%s", base, subsys);
	names = list_dirs(path);
	for (n = names; !ret && n && *n; n++) {
		snprintf(full, sizeof(full), "%s:%s", subsys, *n);
		if (glob && fnmatch(glob, full, 0))
			continue;
		ret = cb(subsys, *n, data);
	}
	free_names(names);
	return ret;
}

int tracefs_walk_events(const char *glob,
			   int (*cb)(const char *, const char *, void *),
			   void *data)
{
	const char *base = tracefs_path();
	char path[512];
	char **subsystems, **s;
	int ret = 0;

	if (!base)
		return -errno;
	snprintf(path, sizeof(path), "%s/events", base);
	subsystems = list_dirs(path);
	if (!subsystems)
		return -errno;
	for (s = subsystems; !ret && *s; s++)
		ret = walk_subsys_events(base, *s, glob, cb, data);
	free_names(subsystems);
	return ret;
}

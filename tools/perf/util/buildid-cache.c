// SPDX-License-Identifier: GPL-2.0
/*
 * The build-id cache (~/.debug): where it is, what it holds, and adding
 * and removing its entries.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "build-id.h"
#include "buildid-cache.h"
#include "config.h"

#define DEBUG_BUILD_ID_DIR "/usr/lib/debug/.build-id"
#define KALLSYMS_NAME "[kernel.kallsyms]"

static char cache_dir[PATH_MAX];
static char symfs_dir[PATH_MAX];

void buildid_cache__set_dir(const char *dir)
{
	snprintf(cache_dir, sizeof(cache_dir), "%s", dir ? dir : "");
}

const char *buildid_cache__dir(void)
{
	const char *home;

	/*
	 * --symfs DIR stands for the recorded machine: its cache is
	 * DIR/.debug, in Linux perf too.
	 */
	if (symbol_conf.symfs && *symbol_conf.symfs) {
		snprintf(symfs_dir, sizeof(symfs_dir), "%s/.debug",
			 symbol_conf.symfs);
		return symfs_dir;
	}
	if (cache_dir[0])
		return cache_dir;
	if (!perf_config__get("buildid.dir", cache_dir, sizeof(cache_dir)) &&
	    cache_dir[0])
		return cache_dir;
	home = getenv("HOME");
	snprintf(cache_dir, sizeof(cache_dir), "%s%s.debug",
		 home && *home ? home : "", home && *home ? "/" : "");
	return cache_dir;
}

#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif

static __printf(3, 4) int fmt_path(char *buf, size_t size, const char *fmt, ...);

static int fmt_path(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int link_path(const char *sbid, char *buf, size_t size)
{
	if (strlen(sbid) < 3)
		return -EINVAL;
	return fmt_path(buf, size, "%s/.build-id/%.2s/%s", buildid_cache__dir(),
			sbid, sbid + 2);
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

const char *buildid_cache__kind(const char *name)
{
	if (!strcmp(name, KALLSYMS_NAME) ||
	    starts_with(name, "[guest.kernel.kallsyms"))
		return "kallsyms";
	if (!strcmp(name, "[vdso]") || !strcmp(name, "[vdso32]") ||
	    !strcmp(name, "[vdsox32]"))
		return "vdso";
	return "elf";
}

static bool is_regular(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* @kind in the entry the link of @sbid leads to. */
static int linked_file(const char *sbid, const char *kind, char *buf,
		       size_t size)
{
	int err = link_path(sbid, buf, size);
	size_t len;

	if (err)
		return err;
	/* Caches of old kept the object itself under .build-id/. */
	if (is_regular(buf))
		return 0;
	len = strlen(buf);
	return fmt_path(buf + len, size - len, "/%s", kind);
}

int buildid_cache__find(const struct build_id *bid, const char *kind,
			char *buf, size_t size)
{
	char sbid[SBUILD_ID_SIZE];
	int err;

	if (build_id__snprintf(bid, sbid, sizeof(sbid)) < 4)
		return -EINVAL;
	/* Kernel symbols are looked up by name, not through the link. */
	if (!strcmp(kind, "kallsyms")) {
		err = fmt_path(buf, size, "%s/" KALLSYMS_NAME "/%s/kallsyms",
			       buildid_cache__dir(), sbid);
		if (!err && access(buf, R_OK))
			err = fmt_path(buf, size, "%s/" KALLSYMS_NAME "/%s",
				       buildid_cache__dir(), sbid);
		if (!err && !is_regular(buf))
			err = -ENOENT;
		return err;
	}
	err = linked_file(sbid, kind, buf, size);
	if (err)
		return err;
	return access(buf, R_OK) ? -errno : 0;
}

/* mkdir -p, each directory 0755 (before the umask). */
static int mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	char *p;

	if (fmt_path(buf, sizeof(buf), "%s", path))
		return -ENAMETOOLONG;
	for (p = buf + 1; ; p++) {
		if (*p != '/' && *p)
			continue;
		if (p[-1] != '/') {
			char c = *p;

			*p = '\0';
			if (mkdir(buf, 0755) && errno != EEXIST)
				return -errno;
			*p = c;
		}
		if (!*p)
			break;
	}
	return 0;
}

static int copy_fd(int in, int out)
{
	char buf[1 << 16];
	ssize_t n;

	while ((n = read(in, buf, sizeof(buf))) > 0) {
		char *p = buf;

		while (n > 0) {
			ssize_t w = write(out, p, n);

			if (w < 0)
				return -errno;
			p += w;
			n -= w;
		}
	}
	return n < 0 ? -errno : 0;
}

/* A copy made under a temporary name, so that a reader never sees half of it. */
static int copy_file(const char *from, const char *to)
{
	char tmp[PATH_MAX];
	struct stat st;
	int in, out, err;

	if (fmt_path(tmp, sizeof(tmp), "%s.XXXXXX", to))
		return -ENAMETOOLONG;
	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = mkostemp(tmp, O_CLOEXEC);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	err = copy_fd(in, out);
	if (!err && (fstat(in, &st) || fchmod(out, st.st_mode & 07777)))
		err = -errno;
	if (close(out) && !err)
		err = -errno;
	close(in);
	if (!err && rename(tmp, to))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

/* @to becomes @from: a hard link where it can be, else a copy. */
static int keep_file(const char *from, const char *to)
{
	if (!access(to, F_OK) || !link(from, to) || errno == EEXIST)
		return 0;
	return copy_file(from, to);
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	return remove(path) ? -errno : 0;
}

static int rm_rf(const char *path)
{
	int err = nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);

	if (err == -1)
		return errno == ENOENT ? 0 : -errno;
	return err;
}

/*
 * The SDT probe list Linux perf's probe cache keeps beside the object.
 * For an object without SDT notes it is empty; the list of one with
 * notes is left to a tool that reads them (perf probe).
 */
static void keep_empty_probes(const char *sbid, const char *path)
{
	char probes[PATH_MAX];
	int fd;

	if (filename__has_section(path, ".note.stapsdt") ||
	    link_path(sbid, probes, sizeof(probes)) ||
	    fmt_path(probes + strlen(probes), sizeof(probes) - strlen(probes),
		     "/probes"))
		return;
	fd = open(probes, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
}

/* The link of @sbid to its entry, unless one is there already. */
static int add_link(const char *sbid, const char *real)
{
	char link[PATH_MAX], target[PATH_MAX];
	char *slash;
	int err;

	err = link_path(sbid, link, sizeof(link));
	if (!err)
		err = fmt_path(target, sizeof(target), "../..%s/%s", real, sbid);
	if (err)
		return err;
	slash = strrchr(link, '/');
	*slash = '\0';
	err = mkdir_p(link);
	*slash = '/';
	if (err)
		return err;
	/* An id added from another path stays linked to the first one. */
	return symlink(target, link) && errno != EEXIST ? -errno : 0;
}

/* The debug file @debug, if readable, as @entry/debug. */
static int add_debug(const char *debug, const char *entry)
{
	char *real = realpath(debug, NULL);
	char file[PATH_MAX];
	int err = 0;

	if (!real)
		return 0;
	if (!access(real, R_OK)) {
		err = fmt_path(file, sizeof(file), "%s/debug", entry);
		if (!err)
			err = keep_file(real, file);
	}
	free(real);
	return err;
}

static int add_file(const char *path, const char *sbid)
{
	char *real = realpath(path, NULL);
	char entry[PATH_MAX], file[PATH_MAX];
	size_t len;
	int err;

	if (!real)
		return -errno;
	err = fmt_path(entry, sizeof(entry), "%s%s/%s", buildid_cache__dir(),
		       real, sbid);
	if (err)
		goto out;
	/* Caches of old kept the object itself where the directory goes. */
	if (is_regular(entry) && unlink(entry)) {
		err = -errno;
		goto out;
	}
	err = mkdir_p(entry);
	if (!err)
		err = fmt_path(file, sizeof(file), "%s/elf", entry);
	if (!err)
		err = keep_file(real, file);
	if (err)
		goto out;
	/* Stripped objects are of more use with their debug info. */
	len = strlen(real);
	if ((len < 3 || strcmp(real + len - 3, ".ko")) &&
	    !fmt_path(file, sizeof(file), DEBUG_BUILD_ID_DIR "/%.2s/%s.debug",
		      sbid, sbid + 2)) {
		err = add_debug(file, entry);
		if (err)
			goto out;
	}
	err = add_link(sbid, real);
	if (!err)
		keep_empty_probes(sbid, real);
out:
	free(real);
	return err;
}

static int read_id(const char *path, struct build_id *bid,
		   char *sbid, size_t size)
{
	int err = filename__read_build_id(path, bid);

	if (err)
		return err;
	if (build_id__snprintf(bid, sbid, size) < 4)
		return -ENODATA;
	return 0;
}

int buildid_cache__add(const char *path, struct build_id *bid)
{
	char sbid[SBUILD_ID_SIZE];
	int err = read_id(path, bid, sbid, sizeof(sbid));

	return err ? err : add_file(path, sbid);
}

int buildid_cache__remove_id(const char *sbid)
{
	char link[PATH_MAX], target[PATH_MAX], entry[PATH_MAX];
	char *slash;
	ssize_t n;
	int err;

	err = link_path(sbid, link, sizeof(link));
	if (err)
		return err;
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return errno == EINVAL ? -ENOENT : -errno;
	target[n] = '\0';
	if (unlink(link))
		return -errno;
	if (target[0] == '/') {
		err = fmt_path(entry, sizeof(entry), "%s", target);
	} else {
		slash = strrchr(link, '/');
		err = fmt_path(entry, sizeof(entry), "%.*s/%s",
			       (int)(slash - link), link, target);
	}
	return err ? err : rm_rf(entry);
}

int buildid_cache__remove(const char *path, struct build_id *bid)
{
	char sbid[SBUILD_ID_SIZE];
	int err = read_id(path, bid, sbid, sizeof(sbid));

	return err ? err : buildid_cache__remove_id(sbid);
}

int buildid_cache__update(const char *path, struct build_id *bid)
{
	char sbid[SBUILD_ID_SIZE], link[PATH_MAX];
	int err = read_id(path, bid, sbid, sizeof(sbid));

	if (!err)
		err = link_path(sbid, link, sizeof(link));
	if (!err && !access(link, F_OK))
		err = buildid_cache__remove_id(sbid);
	return err ? err : add_file(path, sbid);
}

int buildid_cache__origin(const char *sbid, char *buf, size_t size)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *name;
	char *slash;
	ssize_t n;
	int err = link_path(sbid, link, sizeof(link));

	if (err)
		return err;
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	/* "../../PATH/ID", or "../../[kernel.kallsyms]/ID" */
	slash = strrchr(target, '/');
	if (!starts_with(target, "../..") || !slash || slash <= target + 5)
		return -EINVAL;
	*slash = '\0';
	name = target + 5;
	if (name[0] == '/' && name[1] == '[')
		name++;
	return fmt_path(buf, size, "%s", name);
}

/* Does the object the entry was added from still have that build id? */
static bool entry_valid(const char *sbid)
{
	char name[PATH_MAX], now[SBUILD_ID_SIZE];
	struct build_id bid;
	int err;

	if (buildid_cache__origin(sbid, name, sizeof(name)))
		return false;
	if (!strcmp(name, KALLSYMS_NAME))
		err = build_id__kernel(bid.data, &bid.size);
	else if (name[0] == '/')
		err = filename__read_build_id(name, &bid);
	else
		return false;
	return !err && build_id__snprintf(&bid, now, sizeof(now)) &&
	       !strcmp(now, sbid);
}

struct id_list {
	char (*ids)[SBUILD_ID_SIZE];
	size_t nr, alloc;
};

static int id_list__add(struct id_list *l, const char *a, const char *b)
{
	if (l->nr == l->alloc) {
		size_t alloc = l->alloc ? 2 * l->alloc : 64;
		void *ids = realloc(l->ids, alloc * sizeof(*l->ids));

		if (!ids)
			return -ENOMEM;
		l->ids = ids;
		l->alloc = alloc;
	}
	snprintf(l->ids[l->nr++], SBUILD_ID_SIZE, "%s%s", a, b);
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Sorted, each once, then @fn for each in turn. */
static int id_list__run(struct id_list *l, bool valid_only,
			buildid_cache_fn fn, void *arg)
{
	size_t i;
	int ret = 0;

	if (l->nr)
		qsort(l->ids, l->nr, sizeof(*l->ids), cmp_id);
	for (i = 0; i < l->nr && !ret; i++) {
		if (i && !strcmp(l->ids[i], l->ids[i - 1]))
			continue;
		if (valid_only && !entry_valid(l->ids[i]))
			continue;
		ret = fn(l->ids[i], arg);
	}
	free(l->ids);
	return ret;
}

static bool all_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return !s[len];
}

/* What the links under one .build-id/XX/ directory are named. */
static int read_link_dir(struct id_list *l, const char *top, const char *head)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dir;
	int err = 0;

	if (fmt_path(path, sizeof(path), "%s/%s", top, head))
		return -ENAMETOOLONG;
	dir = opendir(path);
	if (!dir)
		return -errno;
	while (!err && (d = readdir(dir)) != NULL) {
		size_t len = strlen(d->d_name);

		/* 16 to 20 byte ids: 30 to 38 more hex digits. */
		if (len >= 30 && len <= 38 && all_hex(d->d_name, len))
			err = id_list__add(l, head, d->d_name);
	}
	closedir(dir);
	return err;
}

int buildid_cache__for_each(bool valid_only, buildid_cache_fn fn, void *arg)
{
	struct id_list l = { .ids = NULL };
	char top[PATH_MAX];
	struct dirent *d;
	DIR *dir;
	int err = 0;

	if (fmt_path(top, sizeof(top), "%s/.build-id", buildid_cache__dir()))
		return -ENAMETOOLONG;
	dir = opendir(top);
	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	while (!err && (d = readdir(dir)) != NULL)
		if (strlen(d->d_name) == 2 && all_hex(d->d_name, 2))
			err = read_link_dir(&l, top, d->d_name);
	closedir(dir);
	if (err) {
		free(l.ids);
		return err;
	}
	return id_list__run(&l, valid_only, fn, arg);
}

int buildid_cache__for_path(const char *path, buildid_cache_fn fn, void *arg)
{
	struct id_list l = { .ids = NULL };
	char *real = realpath(path, NULL);
	char dir_path[PATH_MAX];
	struct dirent *d;
	DIR *dir;
	int err;

	/* A file gone from the disk is looked for by the name given. */
	err = fmt_path(dir_path, sizeof(dir_path), "%s%s", buildid_cache__dir(),
		       real ? real : path);
	free(real);
	if (err)
		return err;
	dir = opendir(dir_path);
	if (!dir)
		return -errno;
	while (!err && (d = readdir(dir)) != NULL)
		if (d->d_name[0] != '.' && strlen(d->d_name) < SBUILD_ID_SIZE)
			err = id_list__add(&l, d->d_name, "");
	closedir(dir);
	if (err) {
		free(l.ids);
		return err;
	}
	return id_list__run(&l, false, fn, arg);
}

int buildid_cache__check(const struct build_id *bid, const char *name,
			 char *buf, size_t size)
{
	const char *kind = buildid_cache__kind(name);
	char sbid[SBUILD_ID_SIZE];
	struct build_id have;
	int err;

	if (build_id__snprintf(bid, sbid, sizeof(sbid)) < 4)
		return -EINVAL;
	/* Through the link, kallsyms too: what Linux perf checks. */
	err = linked_file(sbid, kind, buf, size);
	if (!err && access(buf, F_OK))
		err = -errno;
	if (err)
		return err == -ENOENT ? err : -EINVAL;
	/* A kallsyms copy is text: being there is all it can show. */
	if (!strcmp(kind, "kallsyms"))
		return 0;
	if (filename__read_build_id(buf, &have) ||
	    !build_id__equal(&have, bid))
		return -EINVAL;
	return 0;
}

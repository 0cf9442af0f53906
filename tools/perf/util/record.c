// SPDX-License-Identifier: GPL-2.0
/*
 * perf record's kernel side: ring buffers per CPU or thread, draining
 * them into a sink (or, for overwritable rings, taking snapshots), and
 * records synthesized from /proc for tasks and mappings that existed
 * before recording started.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "config.h"
#include "event.h"
#include "record.h"
#include "regs.h"

/* The fd each (cpu, thread) counter redirects its output to. */
static int ring_index(const struct perf_evlist *evlist, int c, int t)
{
	return perf_cpu_map__is_any(perf_evlist__cpus(evlist)) ? t : c;
}

static int rings__alloc(struct record_rings *rings, int nr)
{
	rings->nr = nr;
	rings->maps = calloc(nr, sizeof(*rings->maps));
	rings->fds = malloc(nr * sizeof(int));
	if (!rings->maps || !rings->fds)
		return -ENOMEM;
	memset(rings->fds, -1, nr * sizeof(int));
	return 0;
}

/* A backward ring is mapped read-only: the kernel then overwrites. */
static int rings__attach(struct record_rings *rings, int idx, int fd,
			 unsigned int data_pages, bool overwrite)
{
	struct perf_mmap *map;
	int err;

	if (rings->fds[idx] >= 0) {
		if (ioctl(fd, PERF_COUNTER_IOC_SET_OUTPUT, rings->fds[idx]) < 0)
			return -errno;
		return 0;
	}
	map = calloc(1, sizeof(*map));
	if (!map)
		return -ENOMEM;
	err = perf_mmap__map(map, fd, data_pages, !overwrite);
	if (err) {
		free(map);
		return err;
	}
	rings->maps[idx] = map;
	rings->fds[idx] = fd;
	return 0;
}

int record_rings__mmap(struct record_rings *rings, struct perf_evlist *evlist,
		       unsigned int data_pages, bool overwrite)
{
	const struct perf_cpu_map *cpus = perf_evlist__cpus(evlist);
	const struct perf_thread_map *threads = perf_evlist__threads(evlist);
	struct perf_evsel *pos;
	int c, t, err;

	err = rings__alloc(rings, perf_cpu_map__is_any(cpus) ?
			   perf_thread_map__nr(threads) : perf_cpu_map__nr(cpus));
	if (err)
		return err;
	perf_evlist__for_each(evlist, pos) {
		if (!pos->fd)
			continue;
		for (c = 0; c < pos->nr_cpus; c++) {
			for (t = 0; t < pos->nr_threads; t++) {
				int fd = PERF_EVSEL_FD(pos, c, t);

				if (fd < 0)
					continue;
				err = rings__attach(rings,
						    ring_index(evlist, c, t),
						    fd, data_pages, overwrite);
				if (err)
					return err;
			}
		}
	}
	return 0;
}

void record_rings__unmap(struct record_rings *rings)
{
	int i;

	for (i = 0; i < rings->nr && rings->maps; i++) {
		if (!rings->maps[i])
			continue;
		perf_mmap__unmap(rings->maps[i]);
		free(rings->maps[i]);
	}
	free(rings->maps);
	free(rings->fds);
	rings->maps = NULL;
	rings->fds = NULL;
	rings->nr = 0;
}

/* Stop or restart the kernel's writing into every ring. */
int record_rings__pause(struct record_rings *rings, bool pause)
{
	int i, err, ret = 0;

	for (i = 0; i < rings->nr; i++) {
		if (!rings->maps[i])
			continue;
		err = perf_mmap__pause(rings->maps[i], pause);
		/* Resume them all even if one fails. */
		if (err && !ret)
			ret = err;
	}
	return ret;
}

static void count_record(const struct perf_counter_header *h,
			 struct record_stats *stats)
{
	stats->records++;
	if (h->type == PERF_RECORD_SAMPLE) {
		stats->samples++;
	} else if (h->type == PERF_RECORD_LOST) {
		const struct perf_record_lost *l = (const void *)h;

		stats->lost += l->lost;
		stats->lost_chunks++;
	}
}

/*
 * Copy what one ring holds to the sink, then give the space back (or
 * for a backward ring, mark it read): what is new since the last call.
 */
static int ring_read(struct perf_mmap *map, bool backward,
		     const struct record_sink *sink, struct record_stats *stats)
{
	const struct perf_counter_header *h;
	int err;

	err = backward ? perf_mmap__read_init_backward(map) :
			 perf_mmap__read_init(map);
	if (err)
		return err == -EAGAIN ? 0 : err;
	while ((h = perf_mmap__read_event(map)) != NULL) {
		count_record(h, stats);
		err = sink->write(sink->ctx, h, h->size);
		if (err)
			return err;
	}
	perf_mmap__consume(map);
	return map->error;
}

/* Returns the number of records read from all rings, or -errno. */
static int rings_read(struct record_rings *rings, bool backward,
		      const struct record_sink *sink,
		      struct record_stats *stats)
{
	u64 before = stats->records;
	int i, err;

	for (i = 0; i < rings->nr; i++) {
		if (!rings->maps[i])
			continue;
		err = ring_read(rings->maps[i], backward, sink, stats);
		if (err)
			return err;
	}
	return stats->records - before;
}

int record_rings__drain(struct record_rings *rings,
			const struct record_sink *sink,
			struct record_stats *stats)
{
	return rings_read(rings, false, sink, stats);
}

int record_rings__snapshot(struct record_rings *rings,
			   const struct record_sink *sink,
			   struct record_stats *stats)
{
	return rings_read(rings, true, sink, stats);
}

/*
 * Wait for data; returns how many rings have some, 0 on time-out, or
 * -ENOENT once every counter has hung up (its tasks are all gone).
 * Overwritable rings are not waited on for data, only for hang-ups:
 * they are read when a snapshot is due, not when they fill.
 */
int record_rings__poll(struct record_rings *rings, int timeout_ms,
		       bool overwrite)
{
	struct pollfd pfd[rings->nr ? rings->nr : 1];
	int i, n = 0, ready = 0, hup = 0;

	for (i = 0; i < rings->nr; i++) {
		if (rings->fds[i] < 0)
			continue;
		pfd[n].fd = rings->fds[i];
		pfd[n].events = overwrite ? 0 : POLLIN;
		n++;
	}
	if (poll(pfd, n, timeout_ms) <= 0)
		return 0;
	for (i = 0; i < n; i++) {
		ready += !!(pfd[i].revents & POLLIN);
		hup += !!(pfd[i].revents & POLLHUP);
	}
	return ready ? ready : hup == n ? -ENOENT : 0;
}

/* Append the zeroed sample_id_all trailer synthesized records carry. */
static int sink_record(const struct record_sink *sink, void *rec, size_t size,
		       size_t id_size)
{
	struct perf_counter_header *h = rec;

	memset((char *)rec + size, 0, id_size);
	h->size = size + id_size;
	return sink->write(sink->ctx, rec, h->size);
}

static int read_comm(pid_t pid, pid_t tid, char *comm, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, comm, size - 1);
	close(fd);
	if (n <= 0)
		return -EINVAL;
	comm[n] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
	return 0;
}

int record_synthesize_thread(pid_t pid, pid_t tid, size_t id_size,
			     const struct record_sink *sink)
{
	union {
		struct perf_record_comm comm;
		char buf[sizeof(struct perf_record_comm) + 64 + 64];
	} u;
	char name[32];
	size_t len;

	if (read_comm(pid, tid, name, sizeof(name)))
		return 0;	/* gone meanwhile */
	memset(&u, 0, sizeof(u));
	u.comm.header.type = PERF_RECORD_COMM;
	u.comm.pid = pid;
	u.comm.tid = tid;
	len = strlen(name) + 1;
	memcpy(u.comm.comm, name, len);
	return sink_record(sink, &u, sizeof(u.comm) + PERF_ALIGN8(len),
			   id_size);
}

/* One line of /proc/PID/maps into an MMAP2 record (executable only). */
static int synthesize_map_line(pid_t pid, const char *line, size_t id_size,
			       const struct record_sink *sink)
{
	union {
		struct perf_record_mmap2 m;
		char buf[sizeof(struct perf_record_mmap2) + 4096 + 64];
	} u;
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char perm[8], path[4096] = "";
	size_t len;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %4095[^\n]", &start,
		   &end, perm, &pgoff, &maj, &min, &ino, path) < 7)
		return 0;
	if (perm[2] != 'x')
		return 0;
	memset(&u.m, 0, sizeof(u.m));
	u.m.header.type = PERF_RECORD_MMAP2;
	u.m.header.misc = PERF_RECORD_MISC_USER;
	u.m.pid = pid;
	u.m.tid = pid;
	u.m.start = start;
	u.m.len = end - start;
	u.m.pgoff = pgoff;
	u.m.maj = maj;
	u.m.min = min;
	u.m.ino = ino;
	u.m.prot = (perm[0] == 'r' ? 1 : 0) | (perm[1] == 'w' ? 2 : 0) | 4;
	u.m.flags = perm[3] == 's' ? 1 : 2;	/* MAP_SHARED : MAP_PRIVATE */
	if (!path[0])
		strcpy(path, "//anon");
	len = strlen(path) + 1;
	memcpy(u.m.filename, path, len);
	memset(u.m.filename + len, 0, PERF_ALIGN8(len) - len);
	return sink_record(sink, &u, sizeof(u.m) + PERF_ALIGN8(len), id_size);
}

static int synthesize_maps(pid_t pid, size_t id_size,
			   const struct record_sink *sink)
{
	char path[64], line[4200];
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (!err && fgets(line, sizeof(line), f))
		err = synthesize_map_line(pid, line, id_size, sink);
	fclose(f);
	return err;
}

/* COMM for every thread of @pid, then its executable mappings. */
int record_synthesize_process(pid_t pid, size_t id_size,
			      const struct record_sink *sink)
{
	struct perf_thread_map *threads = perf_thread_map__new_pid(pid);
	int i, err = 0;

	if (!threads)
		return 0;	/* gone meanwhile */
	for (i = 0; i < perf_thread_map__nr(threads) && !err; i++)
		err = record_synthesize_thread(pid, perf_thread_map__pid(threads, i),
					       id_size, sink);
	perf_thread_map__put(threads);
	return err ? err : synthesize_maps(pid, id_size, sink);
}

/* The process a thread belongs to, from /proc/TID/status. */
static pid_t thread_tgid(pid_t tid)
{
	char path[64], line[256];
	pid_t tgid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/* One thread of a process (-t): its name, and its process's mappings. */
int record_synthesize_task_thread(pid_t tid, size_t id_size,
				  const struct record_sink *sink)
{
	pid_t pid = thread_tgid(tid);
	int err;

	if (pid < 0)
		return 0;	/* gone meanwhile */
	err = record_synthesize_thread(pid, tid, id_size, sink);
	return err ? err : synthesize_maps(pid, id_size, sink);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

static int pid_set__add(struct pid_set *set, pid_t pid)
{
	if (set->nr == set->alloc) {
		size_t alloc = set->alloc ? set->alloc * 2 : 1024;
		pid_t *p = realloc(set->pids, alloc * sizeof(*p));

		if (!p)
			return -ENOMEM;
		set->pids = p;
		set->alloc = alloc;
	}
	set->pids[set->nr++] = pid;
	return 0;
}

static bool pid_set__has(const struct pid_set *set, pid_t pid)
{
	return set->nr && bsearch(&pid, set->pids, set->nr, sizeof(pid),
				  cmp_pid);
}

int pid_set__add_other_owner(struct pid_set *set, pid_t tid, pid_t pid)
{
	pid_t owner = thread_tgid(tid);

	if (owner < 0 || owner == pid)
		return 0;
	return pid_set__add(set, owner);
}

void pid_set__sort(struct pid_set *set)
{
	if (set->nr)
		qsort(set->pids, set->nr, sizeof(*set->pids), cmp_pid);
}

void pid_set__exit(struct pid_set *set)
{
	free(set->pids);
	memset(set, 0, sizeof(*set));
}

/* Every process of /proc but those in @skip; each added to @seen. */
static int synthesize_proc(size_t id_size, const struct record_sink *sink,
			   struct pid_set *seen, const struct pid_set *skip)
{
	struct dirent *d;
	DIR *dir = opendir("/proc");
	int err = 0;

	if (!dir)
		return -errno;
	while (!err && (d = readdir(dir)) != NULL) {
		char *end;
		long pid = strtol(d->d_name, &end, 10);

		if (*end || pid <= 0 || (skip && pid_set__has(skip, pid)))
			continue;
		err = record_synthesize_process(pid, id_size, sink);
		if (!err && seen)
			err = pid_set__add(seen, pid);
	}
	closedir(dir);
	if (seen)
		pid_set__sort(seen);
	return err;
}

int record_synthesize_all(size_t id_size, const struct record_sink *sink)
{
	return synthesize_proc(id_size, sink, NULL, NULL);
}

int record_synthesize_seen(size_t id_size, const struct record_sink *sink,
			   struct pid_set *seen)
{
	return synthesize_proc(id_size, sink, seen, NULL);
}

int record_synthesize_new(size_t id_size, const struct record_sink *sink,
			  const struct pid_set *seen)
{
	return synthesize_proc(id_size, sink, NULL, seen);
}

/* The address of _text (kernel start), or 0 when kallsyms hides it. */
static u64 kernel_text_start(void)
{
	char line[512], name[256], type;
	unsigned long long addr;
	FILE *f = fopen("/proc/kallsyms", "r");
	u64 start = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text") || !strcmp(name, "_stext")) {
			start = addr;
			break;
		}
	}
	fclose(f);
	return start;
}

/*
 * The kernel's text mapping, as an MMAP from pid -1 named after the
 * reference symbol, the form readers expect.
 */
int record_synthesize_kernel(size_t id_size, const struct record_sink *sink)
{
	static const char name[] = "[kernel.kallsyms]_text";
	union {
		struct perf_record_mmap m;
		char buf[sizeof(struct perf_record_mmap) + 64 + 64];
	} u;
	u64 start = kernel_text_start();

	if (!start)
		return 0;
	memset(&u, 0, sizeof(u));
	u.m.header.type = PERF_RECORD_MMAP;
	u.m.header.misc = PERF_RECORD_MISC_KERNEL;
	u.m.pid = (u32)-1;
	u.m.tid = 0;
	u.m.start = start;
	u.m.len = ~0ULL - start;
	u.m.pgoff = start;
	memcpy(u.m.filename, name, sizeof(name));
	return sink_record(sink, &u, sizeof(u.m) + PERF_ALIGN8(sizeof(name)),
			   id_size);
}

/* Every process of a -p list once; each -t thread with its process's maps. */
static int synthesize_task_list(const struct target *t, size_t id_size,
				const struct record_sink *sink)
{
	const char *list = t->pid_list ? t->pid_list : t->tid_list;
	const char *p = list;
	int err = 0;

	while (*p && !err) {
		char *end;
		pid_t id = strtol(p, &end, 10);

		if (t->pid_list)
			err = record_synthesize_process(id, id_size, sink);
		else
			err = record_synthesize_task_thread(id, id_size, sink);
		p = *end ? end + 1 : end;
	}
	return err;
}

int record_synthesize_target(const struct target *t, pid_t cmd_pid,
			     bool started, size_t id_size,
			     const struct record_sink *sink,
			     struct pid_set *seen)
{
	int err = record_synthesize_kernel(id_size, sink);

	if (err)
		return err;
	if (target__has_cpus(t))
		return synthesize_proc(id_size, sink, seen, NULL);
	if (target__has_tasks(t))
		return synthesize_task_list(t, id_size, sink);
	if (cmd_pid <= 0)
		return 0;
	/* Before the exec only its name; later its threads and mappings. */
	if (started)
		return record_synthesize_process(cmd_pid, id_size, sink);
	return record_synthesize_thread(cmd_pid, cmd_pid, id_size, sink);
}

/*
 * DWARF mode: the registers an unwinder starts from (all general ones
 * of x86-64 but the segment registers, as Linux perf asks) and the
 * stack, whose size the ABI wants a multiple of 8 below 64 KiB.
 */
#define DWARF_STACK_MAX		65528U

/* The stack size of dwarf without one: call-graph.dump-size, or 8192. */
static const char *dwarf_default_size(char *buf, size_t size)
{
	if (perf_config__get("call-graph.dump-size", buf, size) || !*buf)
		return NULL;
	return buf;
}

const char *record_callgraph__parse(const char *arg,
				    struct record_callgraph_param *p)
{
	static char msg[160];
	unsigned long size = RECORD_DWARF_STACK_DEFAULT;
	const char *size_str = NULL;
	char conf[32], *end;

	p->mode = RECORD_CALLGRAPH_FP;
	p->stack_size = 0;
	if (!arg || !strcmp(arg, "fp"))
		return NULL;
	if (strncmp(arg, "dwarf", 5) || (arg[5] && arg[5] != ',')) {
		snprintf(msg, sizeof(msg),
			 "call graph mode '%s' is not supported; use 'fp' or 'dwarf[,SIZE]'",
			 arg);
		return msg;
	}
	if (arg[5] == ',')
		size_str = arg + 6;
	else
		size_str = dwarf_default_size(conf, sizeof(conf));
	if (size_str) {
		errno = 0;
		size = strtoul(size_str, &end, 0);
		if (errno || end == size_str || *end || !size ||
		    size > DWARF_STACK_MAX) {
			snprintf(msg, sizeof(msg),
				 "dwarf stack size '%s'%s is not a number of bytes from 8 to %u",
				 size_str, arg[5] ? "" : " (call-graph.dump-size)",
				 DWARF_STACK_MAX);
			return msg;
		}
	}
	p->mode = RECORD_CALLGRAPH_DWARF;
	p->stack_size = (size + 7) & ~7UL;
	return NULL;
}

const char *record_callgraph__default(struct record_callgraph_param *p)
{
	static char msg[192];
	char mode[64];
	const char *err;

	if (perf_config__get("call-graph.record-mode", mode, sizeof(mode)) ||
	    !*mode)
		return record_callgraph__parse(NULL, p);
	err = record_callgraph__parse(mode, p);
	if (!err)
		return NULL;
	snprintf(msg, sizeof(msg), "%s (call-graph.record-mode in the perf config)",
		 err);
	return msg;
}

void record_callgraph__apply(const struct record_callgraph_param *p,
			     struct perf_counter_attr *attr)
{
	if (p->mode == RECORD_CALLGRAPH_NONE)
		return;
	attr->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (p->kernel_only && !p->user_only)
		attr->exclude_callchain_user = 1;
	if (p->user_only && !p->kernel_only)
		attr->exclude_callchain_kernel = 1;
	if (p->mode != RECORD_CALLGRAPH_DWARF)
		return;
	/* The kernel's own walk of the user stack would be thrown away. */
	attr->exclude_callchain_user = 1;
	attr->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	attr->sample_regs_user = REGS_X86_64_MASK;
	attr->sample_stack_user = p->stack_size;
}

void record_regs__apply(const struct record_regs_param *r,
			const struct record_callgraph_param *cg,
			struct perf_counter_attr *attr)
{
	if (r->user) {
		attr->sample_type |= PERF_SAMPLE_REGS_USER;
		attr->sample_regs_user = r->user;
		if (cg->mode == RECORD_CALLGRAPH_DWARF)
			attr->sample_regs_user |= REGS_X86_MIN_UNWIND;
	}
	if (r->intr) {
		attr->sample_type |= PERF_SAMPLE_REGS_INTR;
		attr->sample_regs_intr = r->intr;
	}
}

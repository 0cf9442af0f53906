// SPDX-License-Identifier: GPL-2.0
/*
 * perf sched daemon: keep the scheduler's last N seconds in memory and
 * write them to a file on SIGHUP (see sched-daemon.h).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <perf/evlist.h>
#include <perf/strerror.h>
#include <perf/tracefs.h>
#include "compress.h"
#include "data.h"
#include "event.h"
#include "flight-store.h"
#include "header.h"
#include "record.h"
#include "sched-daemon.h"
#include "target.h"
#include "tod.h"
#include "trace-data.h"

#define DAEMON_SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | \
			    PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
			    PERF_SAMPLE_RAW)
#define DAEMON_CLOCK	CLOCK_MONOTONIC
#define ROUND_RECORDS	16384		/* records between FINISHED_ROUNDs */

/*
 * What timehist reads, as Linux perf records it: sched_waking where the
 * kernel has it (it comes before the wakeup and counts the whole
 * delay), else sched_wakeup.
 */
int sched_events(const char **names, bool kvm)
{
	static const char * const fixed[] = {
		"sched:sched_switch", "sched:sched_stat_runtime",
		"sched:sched_process_fork", "sched:sched_wakeup_new",
		"sched:sched_migrate_task",
	};
	int n;

	for (n = 0; n < (int)ARRAY_SIZE(fixed); n++)
		names[n] = fixed[n];
	names[n++] = tracefs_event_id("sched", "sched_waking") >= 0 ?
		     "sched:sched_waking" : "sched:sched_wakeup";
	if (kvm) {
		names[n++] = "kvm:kvm_entry";
		names[n++] = "kvm:kvm_exit";
	}
	return n;
}

int sched_daemon__parse_size(const char *s, u64 *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	case '\0':
		break;
	default:
		return -EINVAL;
	}
	if (*end && end[1] && strcasecmp(end + 1, "B") && strcasecmp(end + 1, "iB"))
		return -EINVAL;
	if (v > (~0ULL >> shift))
		return -EINVAL;
	*out = v << shift;
	return 0;
}

/* ---- writing a dump ---- */

struct dump {
	struct perf_data_writer w;
	struct perf_compressor comp;
	bool compress;
	size_t id_size;
	u64 since_round;
	struct sched_dump_stats *stats;
};

/* Records go to the compressor with -C, else straight to the file. */
static int dump_put(void *ctx, const void *buf, size_t len)
{
	struct dump *dp = ctx;

	if (dp->compress)
		return perf_compressor__add(&dp->comp, buf, len);
	return perf_data_writer__write(&dp->w, buf, len);
}

static int dump_emit(void *ctx, const void *buf, size_t len)
{
	struct dump *dp = ctx;

	return perf_data_writer__write(&dp->w, buf, len);
}

/* The records so far are in time order: readers may sort up to here. */
static int dump_round(struct dump *dp)
{
	const struct perf_counter_header h = {
		.type = PERF_RECORD_FINISHED_ROUND,
		.size = sizeof(h),
	};
	int err = dp->compress ? perf_compressor__flush(&dp->comp) : 0;

	dp->since_round = 0;
	return err ? err : perf_data_writer__write(&dp->w, &h, sizeof(h));
}

static int dump_record(void *ctx, const struct perf_counter_header *h,
		       u64 time)
{
	struct dump *dp = ctx;
	struct sched_dump_stats *st = dp->stats;
	int err;

	if (!st->records++)
		st->first = time;
	st->last = time;
	err = dump_put(dp, h, h->size);
	if (!err && ++dp->since_round == ROUND_RECORDS)
		err = dump_round(dp);
	return err;
}

/* A task as it was at the start of the dump, as a COMM of time 0. */
static int dump_thread(void *ctx, const struct flight_thread *t)
{
	struct dump *dp = ctx;
	union {
		struct perf_record_comm c;
		u64 words[16];
	} u;
	size_t len = PERF_ALIGN8(strnlen(t->comm, sizeof(t->comm)) + 1);

	memset(&u, 0, sizeof(u));
	u.c.header.type = PERF_RECORD_COMM;
	u.c.header.size = sizeof(u.c) + len + dp->id_size;
	u.c.pid = t->pid;
	u.c.tid = t->tid;
	memcpy(u.c.comm, t->comm, strnlen(t->comm, sizeof(t->comm)));
	return dump_put(dp, &u, u.c.header.size);
}

static int add_reused_tid(void *ctx, const struct flight_thread *t)
{
	return pid_set__add_other_owner(ctx, t->tid, t->pid);
}

/*
 * What the samples need to be read: the kernel map, the processes
 * and mappings of now from /proc, then the names the tasks had when
 * the kept records start.  A process of now that has the tid of
 * another process's kept task is left out: it started after the
 * window did (its FORK is kept), and a reader that met it first
 * would keep its pid for the kept task's records.
 */
static int dump_tasks(struct dump *dp, const struct flight_store *st)
{
	struct record_sink sink = { dump_put, dp };
	struct pid_set reused = { 0 };
	int err = record_synthesize_kernel(dp->id_size, &sink);

	if (!err)
		err = flight_store__walk_threads(st, add_reused_tid, &reused);
	pid_set__sort(&reused);
	if (!err)
		err = record_synthesize_new(dp->id_size, &sink, &reused);
	pid_set__exit(&reused);
	if (!err)
		err = flight_store__walk_threads(st, dump_thread, dp);
	return err;
}

static int dump_add_attrs(struct dump *dp, struct perf_evlist *evlist)
{
	const char *names[SCHED_MAX_EVENTS * 2];
	struct perf_evsel *pos;
	int nr = 0, err = 0;

	perf_evlist__for_each(evlist, pos) {
		err = perf_data_writer__add_attr(&dp->w, &pos->attr, pos->name,
						 pos->id,
						 pos->nr_cpus * pos->nr_threads);
		if (err)
			return err;
		if (pos->attr.type == PERF_TYPE_TRACEPOINT &&
		    nr < (int)ARRAY_SIZE(names))
			names[nr++] = pos->name;
	}
	return trace_data__set_header(&dp->w.info, names, nr);
}

static int dump_header(struct dump *dp, struct perf_evlist *evlist,
		       const struct sched_daemon_opts *o)
{
	struct perf_header_info *info = &dp->w.info;
	const struct perf_counter_attr *a = &perf_evlist__first(evlist)->attr;
	struct tod_point point;
	int err = dump_add_attrs(dp, evlist);

	if (!err && a->use_clockid)
		err = tod_take_point(a->clockid, &point);
	if (!err && a->use_clockid)
		tod_set_header(info, a->clockid, &point);
	if (!err && o->argv)
		err = perf_header_info__set_cmdline(info, o->argc, o->argv);
	if (err || !dp->compress)
		return err;
	info->comp_type = PERF_COMP_ZSTD;
	info->comp_level = o->comp_level;
	info->comp_mmap_len = PERF_COMP_BATCH;
	perf_feat_set(info->features, HEADER_COMPRESSED);
	return perf_compressor__init(&dp->comp, o->comp_level, dump_emit, dp);
}

/* The time span and the compression ratio go into the features. */
static int dump_finish(struct dump *dp)
{
	struct perf_header_info *info = &dp->w.info;
	int err = dump_round(dp);

	if (dp->stats->records) {
		info->first_sample_time = dp->stats->first;
		info->last_sample_time = dp->stats->last;
		perf_feat_set(info->features, HEADER_SAMPLE_TIME);
	}
	if (dp->compress) {
		info->comp_ratio = perf_compressor__ratio(&dp->comp);
		dp->stats->ratio = info->comp_ratio;
		perf_compressor__exit(&dp->comp);
	}
	if (err) {
		perf_data_writer__abort(&dp->w);
		return err;
	}
	return perf_data_writer__finish(&dp->w);
}

/*
 * The correlation points first, uncompressed: a reader takes them in
 * before any record, and knows the file shows the time of day.
 */
static int dump_tod_points(struct dump *dp, const struct tod_tracker *tod)
{
	struct perf_record_tod_point rec;
	int err = 0;
	u32 i;

	for (i = 0; tod && i < tod->nr_kept && !err; i++) {
		tod_point_record(tod_tracker__kept(tod, i), tod->clockid, &rec);
		err = perf_data_writer__write(&dp->w, &rec, sizeof(rec));
	}
	return err;
}

int sched_daemon__write(struct perf_evlist *evlist,
			const struct flight_store *st, u64 from,
			const char *path, const struct sched_daemon_opts *o,
			const struct tod_tracker *tod,
			struct sched_dump_stats *stats)
{
	struct dump dp = {
		.compress = o->compress,
		.id_size = perf_sample_id_size(perf_evlist__first(evlist)->attr.sample_type),
		.stats = stats,
	};
	int err;

	memset(stats, 0, sizeof(*stats));
	err = perf_data_writer__open(&dp.w, path);
	if (err)
		return err;
	err = dump_header(&dp, evlist, o);
	if (!err)
		err = perf_data_writer__begin(&dp.w);
	if (!err)
		err = dump_tod_points(&dp, tod);
	if (!err)
		err = dump_tasks(&dp, st);
	if (!err)
		err = flight_store__for_each(st, from, dump_record, &dp);
	if (err) {
		if (dp.compress)
			perf_compressor__exit(&dp.comp);
		perf_data_writer__abort(&dp.w);
		return err;
	}
	return dump_finish(&dp);
}

/* ---- the daemon ---- */

struct sched_daemon {
	const struct sched_daemon_opts *o;
	struct perf_evlist *evlist;
	struct record_rings rings;
	struct record_stats stats;
	struct flight_store store;
	struct tod_tracker tod;		/* correlation points for dumps */
	pid_t dumper;			/* the child writing a dump, or 0 */
	bool pid_file;			/* written: remove it at exit */
};

static volatile sig_atomic_t daemon_stop;
static volatile sig_atomic_t daemon_dump;
static volatile sig_atomic_t daemon_child;

static void daemon_signal(int sig)
{
	if (sig == SIGHUP)
		daemon_dump = 1;
	else if (sig == SIGCHLD)
		daemon_child = 1;
	else
		daemon_stop = sig;
}

/* No SA_RESTART: a signal ends the wait in poll() at once. */
static void daemon_signals(void)
{
	struct sigaction sa = { .sa_handler = daemon_signal };
	static const int sigs[] = { SIGHUP, SIGTERM, SIGINT, SIGCHLD };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(DAEMON_CLOCK, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Creating a file there is the only test that root cannot pass falsely. */
static int check_dir(const char *dir)
{
	char path[PATH_MAX];
	int fd;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "perf sched daemon: cannot create the output directory '%s': %s\n",
			dir, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/.perf-sched-daemon.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0) {
		fprintf(stderr, "perf sched daemon: cannot write to the output directory '%s': %s\n",
			dir, strerror(errno));
		return -1;
	}
	close(fd);
	unlink(path);
	return 0;
}

/* Missing tracefs and missing KVM tracepoints said plainly. */
static int check_tracepoints(const struct sched_daemon_opts *o)
{
	int id = tracefs_event_id("sched", "sched_switch");

	if (id == -EACCES || id == -EPERM) {
		fprintf(stderr, "perf sched daemon: no permission to read tracefs (%s): run as root, or give access to it and lower /proc/sys/kernel/perf_event_paranoid\n",
			tracefs_path() ? tracefs_path() : "/sys/kernel/tracing");
		return -1;
	}
	if (id < 0) {
		fprintf(stderr, "perf sched daemon: the sched tracepoints are not available: %s (mount it with 'mount -t tracefs nodev /sys/kernel/tracing')\n",
			tracefs_path() ? "tracefs has no sched:sched_switch" :
			"tracefs is not mounted");
		return -1;
	}
	if (o->kvm && (tracefs_event_id("kvm", "kvm_entry") < 0 ||
		       tracefs_event_id("kvm", "kvm_exit") < 0)) {
		fprintf(stderr, "perf sched daemon: -K needs the kvm:kvm_entry and kvm:kvm_exit tracepoints, which this kernel does not have (load the kvm module: modprobe kvm_intel or kvm_amd)\n");
		return -1;
	}
	return 0;
}

static void setup_attr(const struct sched_daemon_opts *o,
		       struct perf_evsel *e, bool tracking)
{
	struct perf_counter_attr *a = &e->attr;

	a->sample_type = DAEMON_SAMPLE_TYPE;
	if (o->callchain)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	a->sample_period = 1;
	a->read_format = PERF_FORMAT_ID;
	/* Woken when a quarter of the ring is full, drained every 100 ms. */
	a->watermark = 1;
	a->wakeup_watermark = o->mmap_pages * sysconf(_SC_PAGESIZE) / 4;
	a->disabled = 1;
	a->sample_id_all = 1;
	/* The window is cut by this clock: user space can read it too. */
	a->use_clockid = 1;
	a->clockid = DAEMON_CLOCK;
	a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = tracking;
}

static int open_events(struct sched_daemon *d)
{
	struct target t = { .system_wide = true };
	struct perf_evsel *pos;
	char msg[1024];
	int err;

	t.nr_events = sched_events(t.events, d->o->kvm);
	if (target__parse_events(&t, d->evlist, NULL) ||
	    target__setup_maps(&t, d->evlist, TARGET_TASKS_PER_CPU,
			       "sched daemon"))
		return -1;
	perf_evlist__for_each(d->evlist, pos)
		setup_attr(d->o, pos, pos == perf_evlist__first(d->evlist));
	err = perf_evlist__open(d->evlist, false);
	perf_evlist__for_each(d->evlist, pos) {
		if (err && pos->open_errno) {
			fprintf(stderr, "perf sched daemon: cannot open %s:\n%s\n",
				pos->name, perf_strerror_open(pos->open_errno,
							      pos, msg,
							      sizeof(msg)));
			return -1;
		}
	}
	return err ? -1 : 0;
}

static int setup_store(struct sched_daemon *d)
{
	u32 nr_cpus = perf_cpu_map__max(perf_evlist__cpus(d->evlist)) + 1;
	int err;

	err = record_rings__mmap(&d->rings, d->evlist, d->o->mmap_pages, false);
	if (err) {
		fprintf(stderr, "perf sched daemon: cannot map the ring buffers: %s%s\n",
			strerror(-err), err == -EPERM || err == -ENOMEM ?
			" (the locked-memory limit is too low: try a smaller -m, or raise ulimit -l)" :
			"");
		return -1;
	}
	err = flight_store__init(&d->store, perf_evlist__first(d->evlist)->attr.sample_type,
				 nr_cpus, d->o->max_bytes,
				 d->o->seconds * 1000000000ULL);
	if (err == -EINVAL)
		fprintf(stderr, "perf sched daemon: --max-size must be at least %llu KiB for %u CPUs\n",
			(unsigned long long)flight_store__min_bytes(nr_cpus) >> 10,
			nr_cpus);
	return err ? -1 : 0;
}

static int keep_record(void *ctx, const void *buf, size_t len)
{
	struct sched_daemon *d = ctx;

	(void)len;
	return flight_store__add(&d->store, buf);
}

static int drain(struct sched_daemon *d)
{
	struct record_sink sink = { keep_record, d };
	int err = record_rings__drain(&d->rings, &sink, &d->stats);

	if (err < 0) {
		fprintf(stderr, "perf sched daemon: reading the ring buffers failed: %s\n",
			strerror(-err));
		return err;
	}
	flight_store__prune(&d->store, now_ns());
	return 0;
}

static int write_pid_file(const char *path)
{
	char tmp[PATH_MAX];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) ||
	    rename(tmp, path)) {
		fprintf(stderr, "perf sched daemon: cannot write the pid file '%s': %s\n",
			path, strerror(errno));
		return -1;
	}
	return 0;
}

/* DIR/perf.data.YYYYMMDDHHMMSS, with -N added when that exists. */
static void dump_name(const char *dir, char *path, size_t size)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int n;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
	snprintf(path, size, "%s/perf.data.%s", dir, stamp);
	for (n = 2; !access(path, F_OK); n++)
		snprintf(path, size, "%s/perf.data.%s-%d", dir, stamp, n);
}

static void log_dump(struct sched_daemon *d, const char *path,
		     const struct sched_dump_stats *s)
{
	const struct flight_store *st = &d->store;
	double secs = s->records ? (s->last - s->first) / 1e9 : 0;

	fprintf(stderr, "perf sched daemon: wrote %s: %llu events, %.3f seconds",
		path, (unsigned long long)s->records, secs);
	if (s->records)
		fprintf(stderr, " (%.6f to %.6f)", s->first / 1e9,
			s->last / 1e9);
	if (s->ratio)
		fprintf(stderr, ", zstd ratio %u", s->ratio);
	fprintf(stderr, "; store %llu of %llu KiB, %llu chunks dropped for --max-size, %llu by age",
		(unsigned long long)st->bytes >> 10,
		(unsigned long long)st->max_bytes >> 10,
		(unsigned long long)st->stats.dropped_size,
		(unsigned long long)st->stats.dropped_time);
	if (d->stats.lost)
		fprintf(stderr, "; the kernel lost %llu records (use a larger -m)",
			(unsigned long long)d->stats.lost);
	fprintf(stderr, "\n");
}

/*
 * In the forked child: the store is a copy-on-write snapshot, the
 * parent goes on recording.  A hidden name until complete, so that
 * whoever watches the directory sees only whole files.
 */
static int dump_child(struct sched_daemon *d, u64 now)
{
	u64 window = d->store.window_ns;
	struct sched_dump_stats s;
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	const char *base;
	int err;

	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	dump_name(d->o->dir, path, sizeof(path));
	base = strrchr(path, '/') + 1;
	snprintf(tmp, sizeof(tmp), "%.*s.%s.tmp", (int)(base - path), path,
		 base);
	err = sched_daemon__write(d->evlist, &d->store,
				  now > window ? now - window : 0, tmp, d->o,
				  &d->tod, &s);
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		unlink(tmp);
		fprintf(stderr, "perf sched daemon: writing %s failed: %s\n",
			path, strerror(-err));
		return 1;
	}
	log_dump(d, path, &s);
	return 0;
}

static void start_dump(struct sched_daemon *d)
{
	pid_t pid;

	daemon_dump = 0;
	/* Up to the signal: what the rings hold now goes in. */
	if (drain(d))
		return;
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "perf sched daemon: cannot fork to write a dump: %s\n",
			strerror(errno));
		return;
	}
	if (!pid)
		_exit(dump_child(d, now_ns()));
	d->dumper = pid;
}

static void reap(struct sched_daemon *d, bool wait)
{
	int status;

	daemon_child = 0;
	if (!d->dumper || waitpid(d->dumper, &status, wait ? 0 : WNOHANG) <= 0)
		return;
	d->dumper = 0;
	if (WIFSIGNALED(status))
		fprintf(stderr, "perf sched daemon: the dump's writer was killed by %s\n",
			strsignal(WTERMSIG(status)));
}

static int daemon_loop(struct sched_daemon *d)
{
	struct tod_point point;

	while (!daemon_stop) {
		record_rings__poll(&d->rings, 100, false);
		/* Before the drain, as perf record --tod does. */
		if (tod_tracker__poll(&d->tod, &point) < 0 || drain(d))
			return -1;
		if (daemon_child)
			reap(d, false);
		/* One dump at a time; a SIGHUP meanwhile waits for it. */
		if (daemon_dump && !d->dumper)
			start_dump(d);
	}
	return 0;
}

static void say_started(struct sched_daemon *d)
{
	const struct sched_daemon_opts *o = d->o;

	fprintf(stderr, "perf sched daemon: pid %d recording %d events on %d CPUs; keeping the last %u seconds in at most %llu KiB (chunks of %zu KiB); SIGHUP writes %s/perf.data.<time>\n",
		(int)getpid(), perf_evlist__nr_entries(d->evlist),
		perf_cpu_map__nr(perf_evlist__cpus(d->evlist)), o->seconds,
		(unsigned long long)o->max_bytes >> 10,
		d->store.chunk_size >> 10, o->dir);
}

static int daemon_start(struct sched_daemon *d)
{
	struct record_sink seed = { flight_store__seed, &d->store };

	if (check_dir(d->o->dir) || check_tracepoints(d->o) ||
	    open_events(d) || setup_store(d))
		return -1;
	/* A point a second over the window, and room for clock steps. */
	if (tod_tracker__init(&d->tod, DAEMON_CLOCK, 2 * d->o->seconds + 16)) {
		fprintf(stderr, "perf sched daemon: out of memory\n");
		return -1;
	}
	daemon_signals();
	perf_evlist__enable(d->evlist);
	/* After enabling: a task made meanwhile is in the records. */
	if (record_synthesize_all(0, &seed))
		return -1;
	if (d->o->pid_file && write_pid_file(d->o->pid_file))
		return -1;
	d->pid_file = d->o->pid_file;
	say_started(d);
	return 0;
}

int sched_daemon__run(const struct sched_daemon_opts *o)
{
	struct sched_daemon d = { .o = o };
	int ret;

	d.evlist = perf_evlist__new();
	if (!d.evlist)
		return 1;
	ret = daemon_start(&d);
	if (!ret)
		ret = daemon_loop(&d);
	if (d.dumper) {
		fprintf(stderr, "perf sched daemon: waiting for the dump being written\n");
		reap(&d, true);
	}
	perf_evlist__disable(d.evlist);
	record_rings__unmap(&d.rings);
	perf_evlist__delete(d.evlist);
	flight_store__exit(&d.store);
	tod_tracker__exit(&d.tod);
	if (d.pid_file)
		unlink(o->pid_file);
	if (!ret)
		fprintf(stderr, "perf sched daemon: stopped by %s\n",
			strsignal(daemon_stop));
	return ret ? 1 : 0;
}

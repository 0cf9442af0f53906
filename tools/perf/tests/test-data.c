// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data: files and pipes written by the writer are read back by the
 * session field by field; damaged files give the documented errors and
 * never crash; time ordering and the id table are checked on their own.
 * Also the test aids 'perf test -w dump-data' and '-w write-data' that
 * the shell test uses against Linux perf.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include "tests.h"
#include "../util/data.h"
#include "../util/dump.h"
#include "../util/header.h"
#include "../util/report.h"
#include "../util/session-internal.h"

#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		     PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
		     PERF_SAMPLE_CALLCHAIN)
#define MAX_SEEN 64

struct tsample {
	u64 ip;
	u32 pid, tid;
	u64 time;
	u64 id;
	u32 cpu;
	u64 period;
	u32 nr;
	u64 ips[4];
};

static const u64 ids_a[] = { 101, 102 };
static const u64 ids_b[] = { 201, 202 };

static const struct tsample samples[] = {
	{ 0x401000, 100, 100, 1000, 101, 0, 100000, 2, { 0x401000, 0x402000 } },
	{ 0x401100, 100, 101, 1100, 201, 1, 200000, 3,
	  { 0x401100, 0x402100, 0x403100 } },
	{ 0x401200, 100, 100, 1200, 102, 1, 100000, 1, { 0x401200 } },
	{ 0x401300, 100, 101, 1300, 202, 0, 300000, 0, { 0 } },
	{ 0xffffffff81000000ULL, 100, 100, 1400, 101, 0, 100000, 2,
	  { 0xffffffff81000000ULL, 0x401400 } },
	{ 0x401500, 100, 100, 1500, 201, 1, 400000, 4,
	  { 0x401500, 0x402500, 0x403500, 0x404500 } },
};

/* The order the data file holds: types of the records. */
static const u32 file_types[] = {
	PERF_RECORD_COMM, PERF_RECORD_MMAP2, PERF_RECORD_SAMPLE,
	PERF_RECORD_SAMPLE, PERF_RECORD_SAMPLE, PERF_RECORD_FINISHED_ROUND,
	PERF_RECORD_SAMPLE, PERF_RECORD_SAMPLE, PERF_RECORD_SAMPLE,
	PERF_RECORD_FINISHED_ROUND,
};

static const u8 build_id_a[20] = {
	0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
	15, 16,
};

/* ---- building records ---- */

static void put_header(struct perf_fbuf *b, u32 type, u16 misc, size_t size)
{
	struct perf_counter_header h = { .type = type, .misc = misc,
					 .size = size };

	perf_fbuf__put(b, &h, sizeof(h));
}

/* The sample_id_all trailer for TID|TIME|ID|CPU. */
static void put_id(struct perf_fbuf *b, u32 pid, u32 tid, u64 time, u64 id,
		   u32 cpu)
{
	perf_fbuf__put_u32(b, pid);
	perf_fbuf__put_u32(b, tid);
	perf_fbuf__put_u64(b, time);
	perf_fbuf__put_u64(b, id);
	perf_fbuf__put_u32(b, cpu);
	perf_fbuf__put_u32(b, 0);
}

static void put_string8(struct perf_fbuf *b, const char *s)
{
	size_t len = strlen(s) + 1;

	perf_fbuf__put(b, s, len);
	perf_fbuf__zero(b, PERF_ALIGN8(len) - len);
}

static void put_comm(struct perf_fbuf *b, u32 pid, u32 tid, const char *comm,
		     u64 time, bool trailer)
{
	size_t size = 16 + PERF_ALIGN8(strlen(comm) + 1) + (trailer ? 32 : 0);

	put_header(b, PERF_RECORD_COMM, 0, size);
	perf_fbuf__put_u32(b, pid);
	perf_fbuf__put_u32(b, tid);
	put_string8(b, comm);
	if (trailer)
		put_id(b, pid, tid, time, 101, 0);
}

static void put_mmap2(struct perf_fbuf *b, u32 pid, u64 start, u64 len,
		      const char *file, u64 time)
{
	size_t size = 8 + 8 + 24 + 24 + 8 + PERF_ALIGN8(strlen(file) + 1) + 32;

	put_header(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, size);
	perf_fbuf__put_u32(b, pid);
	perf_fbuf__put_u32(b, pid);
	perf_fbuf__put_u64(b, start);
	perf_fbuf__put_u64(b, len);
	perf_fbuf__put_u64(b, 0);		/* pgoff */
	perf_fbuf__put_u32(b, 8);		/* maj */
	perf_fbuf__put_u32(b, 1);		/* min */
	perf_fbuf__put_u64(b, 1234);		/* ino */
	perf_fbuf__put_u64(b, 0);		/* ino_generation */
	perf_fbuf__put_u32(b, 5);		/* PROT_READ | PROT_EXEC */
	perf_fbuf__put_u32(b, 2);		/* MAP_PRIVATE */
	put_string8(b, file);
	put_id(b, pid, pid, time, 201, 1);
}

static void put_sample(struct perf_fbuf *b, const struct tsample *s)
{
	size_t size = 8 + 6 * 8 + 8 + s->nr * 8;
	u16 misc = s->ip >> 63 ? PERF_RECORD_MISC_KERNEL :
				 PERF_RECORD_MISC_USER;

	put_header(b, PERF_RECORD_SAMPLE, misc, size);
	perf_fbuf__put_u64(b, s->ip);
	perf_fbuf__put_u32(b, s->pid);
	perf_fbuf__put_u32(b, s->tid);
	perf_fbuf__put_u64(b, s->time);
	perf_fbuf__put_u64(b, s->id);
	perf_fbuf__put_u32(b, s->cpu);
	perf_fbuf__put_u32(b, 0);
	perf_fbuf__put_u64(b, s->period);
	perf_fbuf__put_u64(b, s->nr);
	perf_fbuf__put(b, s->ips, s->nr * sizeof(u64));
}

static void put_round(struct perf_fbuf *b)
{
	put_header(b, PERF_RECORD_FINISHED_ROUND, 0, 8);
}

/* The records of file_types[]. */
static void build_records(struct perf_fbuf *b)
{
	size_t i;

	put_comm(b, 100, 100, "test-comm", 900, true);
	put_mmap2(b, 100, 0x400000, 0x10000, "/usr/bin/test", 950);
	for (i = 0; i < ARRAY_SIZE(samples); i++) {
		put_sample(b, &samples[i]);
		if (i == 2 || i == ARRAY_SIZE(samples) - 1)
			put_round(b);
	}
}

static struct perf_counter_attr test_attr(u64 config)
{
	struct perf_counter_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = config;
	a.sample_period = 100000;
	a.sample_type = SAMPLE_TYPE;
	a.read_format = PERF_FORMAT_ID;
	a.sample_id_all = 1;
	a.mmap2 = config == PERF_COUNT_SW_TASK_CLOCK;
	a.comm = a.mmap2;
	return a;
}

static int add_test_attrs(struct perf_data_writer *w)
{
	struct perf_counter_attr a = test_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct perf_counter_attr b = test_attr(PERF_COUNT_SW_CPU_CLOCK);
	int err;

	err = perf_data_writer__add_attr(w, &a, "task-clock", ids_a, 2);
	if (!err)
		err = perf_data_writer__add_attr(w, &b, "cpu-clock", ids_b, 2);
	return err;
}

static int add_test_info(struct perf_header_info *info)
{
	static const char * const argv[] = {
		"record", "-e", "task-clock", "it's",
	};
	int err;

	err = perf_header_info__set_cmdline(info, 4, argv);
	if (!err)
		err = perf_header_info__add_build_id(info, "/usr/bin/test", 100,
						     PERF_RECORD_MISC_USER,
						     build_id_a, 20);
	if (!err)
		err = perf_header_info__add_build_id(info, "[kernel.kallsyms]",
						     -1, PERF_RECORD_MISC_KERNEL,
						     build_id_a, 16);
	if (!err)
		err = perf_header_info__add_group(info, NULL, 0, 2);
	perf_header_info__set_clock(info, 1, 1, 1700000000123456789ULL,
				    5000000000ULL);
	return err;
}

/* Everything of the test file through an open writer; chunk > 0 splits writes. */
static int write_content(struct perf_data_writer *w, size_t chunk)
{
	struct perf_fbuf b = { 0 };
	size_t off;
	int err;

	err = add_test_attrs(w);
	if (!err)
		err = add_test_info(&w->info);
	if (!err)
		err = perf_data_writer__begin(w);
	build_records(&b);
	for (off = 0; !err && off < b.len; off += chunk ? chunk : b.len) {
		size_t n = chunk && chunk < b.len - off ? chunk : b.len - off;

		err = perf_data_writer__write(w, b.data + off, n);
	}
	perf_fbuf__free(&b);
	if (err) {
		perf_data_writer__finish(w);
		return err;
	}
	return perf_data_writer__finish(w);
}

static int write_test_file(const char *path, size_t chunk)
{
	struct perf_data_writer w;
	int err = perf_data_writer__open(&w, path);

	return err ? err : write_content(&w, chunk);
}

/* ---- temporary files ---- */

static char tmp_dir[64];

static const char *tmp_path(const char *name)
{
	static char paths[4][PATH_MAX];
	static int next;
	char *p = paths[next++ % 4];

	if (!tmp_dir[0]) {
		snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/perf-test-data-XXXXXX");
		if (!mkdtemp(tmp_dir))
			snprintf(tmp_dir, sizeof(tmp_dir), "/tmp");
	}
	snprintf(p, PATH_MAX, "%s/%s", tmp_dir, name);
	return p;
}

/*
 * Every file in the directory goes, whatever its name: a writer keeps
 * the file it replaces as NAME.old.  0, or -errno when the directory
 * could not be removed.
 */
static int tmp_cleanup(void)
{
	struct dirent *de;
	DIR *dir;
	int err;

	if (!tmp_dir[0] || !strcmp(tmp_dir, "/tmp"))
		return 0;
	dir = opendir(tmp_dir);
	while (dir && (de = readdir(dir)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(dirfd(dir), de->d_name, 0);
	if (dir)
		closedir(dir);
	err = rmdir(tmp_dir) ? -errno : 0;
	/* A later test of this run makes another. */
	tmp_dir[0] = '\0';
	return err;
}

static u8 *read_whole(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	u8 *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n + 1);
	if (buf && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

static int write_whole(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f)
		return -errno;
	ok = fwrite(buf, 1, len, f) == len;
	return fclose(f) || !ok ? -EIO : 0;
}

/* ---- collecting what the session delivers ---- */

struct seen {
	int nr;
	u32 type[MAX_SEEN];
	u64 off[MAX_SEEN];
	bool has_sample[MAX_SEEN];
	struct perf_sample sample[MAX_SEEN];
	int attr[MAX_SEEN];
	u64 nr_ips[MAX_SEEN];
	u64 ips[MAX_SEEN][4];
	char comm[MAX_SEEN][16];
	int stop_after;			/* > 0: fail the callback there */
};

static int collect(struct perf_session *s, const union perf_event *ev,
		   u64 off, const struct perf_sample *sample,
		   struct perf_session_attr *attr, void *ctx)
{
	struct seen *seen = ctx;
	int i = seen->nr;
	u64 n;

	if (seen->stop_after && i == seen->stop_after)
		return -EINTR;
	if (i >= MAX_SEEN)
		return -E2BIG;
	seen->type[i] = ev->header.type;
	seen->off[i] = off;
	seen->attr[i] = attr ? attr->idx : -1;
	seen->has_sample[i] = sample;
	if (sample) {
		seen->sample[i] = *sample;
		if (sample->callchain) {
			n = sample->callchain->nr;
			seen->nr_ips[i] = n;
			memcpy(seen->ips[i], sample->callchain->ips,
			       (n < 4 ? n : 4) * sizeof(u64));
		}
	}
	if (ev->header.type == PERF_RECORD_COMM)
		snprintf(seen->comm[i], sizeof(seen->comm[i]), "%s",
			 ev->comm.comm);
	seen->nr++;
	return 0;
}

static int check_sample(struct test_ctx *ctx, const struct seen *seen,
			int i, const struct tsample *t)
{
	const struct perf_sample *s = &seen->sample[i];
	u32 k;

	TEST_ASSERT(ctx, seen->has_sample[i], "record %d has no sample", i);
	TEST_ASSERT(ctx, s->ip == t->ip, "record %d ip %#llx, want %#llx", i,
		    s->ip, t->ip);
	TEST_ASSERT(ctx, s->pid == t->pid && s->tid == t->tid,
		    "record %d pid/tid %u/%u", i, s->pid, s->tid);
	TEST_ASSERT(ctx, s->time == t->time, "record %d time %llu", i, s->time);
	TEST_ASSERT(ctx, s->id == t->id, "record %d id %llu", i, s->id);
	TEST_ASSERT(ctx, s->cpu == t->cpu, "record %d cpu %u", i, s->cpu);
	TEST_ASSERT(ctx, s->period == t->period, "record %d period %llu", i,
		    s->period);
	TEST_ASSERT(ctx, seen->nr_ips[i] == t->nr, "record %d chain of %llu",
		    i, seen->nr_ips[i]);
	for (k = 0; k < t->nr; k++)
		TEST_ASSERT(ctx, seen->ips[i][k] == t->ips[k],
			    "record %d chain[%u] = %#llx", i, k,
			    seen->ips[i][k]);
	TEST_ASSERT(ctx, seen->attr[i] == (t->id >= 200),
		    "record %d (id %llu) attributed to attr %d", i, t->id,
		    seen->attr[i]);
	return TEST_OK;
}

/* The records of build_records(), in file order. */
static int check_records(struct test_ctx *ctx, const struct seen *seen,
			 u64 first_off)
{
	const struct perf_sample *s;
	int i, k = 0;

	TEST_ASSERT(ctx, seen->nr == (int)ARRAY_SIZE(file_types),
		    "%d records delivered, want %zu", seen->nr,
		    ARRAY_SIZE(file_types));
	TEST_ASSERT(ctx, seen->off[0] == first_off,
		    "first record at %#llx, want %#llx", seen->off[0],
		    first_off);
	for (i = 0; i < seen->nr; i++) {
		TEST_ASSERT(ctx, seen->type[i] == file_types[i],
			    "record %d is type %u, want %u", i, seen->type[i],
			    file_types[i]);
		TEST_ASSERT(ctx, !i || seen->off[i] > seen->off[i - 1],
			    "offsets not increasing at record %d", i);
		if (seen->type[i] == PERF_RECORD_SAMPLE &&
		    check_sample(ctx, seen, i, &samples[k++]))
			return TEST_FAIL;
	}
	TEST_ASSERT(ctx, !strcmp(seen->comm[0], "test-comm"), "comm '%s'",
		    seen->comm[0]);
	s = &seen->sample[0];
	TEST_ASSERT(ctx, s->pid == 100 && s->tid == 100 && s->time == 900 &&
		    s->id == 101 && s->cpu == 0 && seen->attr[0] == 0,
		    "COMM trailer: %u/%u time %llu id %llu cpu %u attr %d",
		    s->pid, s->tid, s->time, s->id, s->cpu, seen->attr[0]);
	s = &seen->sample[1];
	TEST_ASSERT(ctx, s->time == 950 && s->id == 201 && seen->attr[1] == 1,
		    "MMAP2 trailer: time %llu id %llu attr %d", s->time, s->id,
		    seen->attr[1]);
	TEST_ASSERT(ctx, !seen->has_sample[5] && seen->attr[5] == -1,
		    "FINISHED_ROUND came with a sample");
	return TEST_OK;
}

static int check_attrs(struct test_ctx *ctx, struct perf_session *s)
{
	struct perf_counter_attr want = test_attr(PERF_COUNT_SW_TASK_CLOCK);
	u32 i;

	TEST_ASSERT(ctx, s->nr_attrs == 2, "%u attrs", s->nr_attrs);
	TEST_ASSERT(ctx, !memcmp(&s->attrs[0].attr, &want, sizeof(want)),
		    "attr 0 differs from what was written");
	TEST_ASSERT(ctx, s->attrs[1].attr.config == PERF_COUNT_SW_CPU_CLOCK,
		    "attr 1 config %llu", s->attrs[1].attr.config);
	TEST_ASSERT(ctx, !strcmp(s->attrs[0].name, "task-clock") &&
		    !strcmp(s->attrs[1].name, "cpu-clock"),
		    "names '%s' '%s'", s->attrs[0].name, s->attrs[1].name);
	for (i = 0; i < 2; i++) {
		TEST_ASSERT(ctx, s->attrs[0].nr_ids == 2 &&
			    s->attrs[0].ids[i] == ids_a[i] &&
			    s->attrs[1].ids[i] == ids_b[i], "ids differ");
		TEST_ASSERT(ctx, perf_session__find_attr(s, ids_a[i]) ==
			    &s->attrs[0] && perf_session__find_attr(s, ids_b[i]) ==
			    &s->attrs[1], "id lookup");
	}
	TEST_ASSERT(ctx, !perf_session__find_attr(s, 103), "id 103 found");
	return TEST_OK;
}

static int check_system_info(struct test_ctx *ctx,
			     const struct perf_header_info *info)
{
	struct utsname uts;

	TEST_ASSERT(ctx, !uname(&uts), "uname");
	TEST_ASSERT(ctx, info->hostname && !strcmp(info->hostname, uts.nodename),
		    "hostname '%s'", info->hostname);
	TEST_ASSERT(ctx, info->osrelease &&
		    !strcmp(info->osrelease, uts.release), "osrelease");
	TEST_ASSERT(ctx, info->arch && !strcmp(info->arch, uts.machine),
		    "arch");
	TEST_ASSERT(ctx, info->version && !strcmp(info->version, PERF_VERSION),
		    "version '%s'", info->version);
	TEST_ASSERT(ctx, info->nr_cpus_online ==
		    (u32)sysconf(_SC_NPROCESSORS_ONLN) &&
		    info->nr_cpus_avail >= info->nr_cpus_online,
		    "nrcpus %u/%u", info->nr_cpus_online, info->nr_cpus_avail);
	TEST_ASSERT(ctx, info->total_mem > 0, "total_mem 0");
	TEST_ASSERT(ctx, perf_feat_test(info->features, HEADER_CPU_TOPOLOGY) &&
		    info->nr_sibling_threads > 0 &&
		    info->nr_cpu_topo == info->nr_cpus_avail, "cpu topology");
	return TEST_OK;
}

static int check_build_ids(struct test_ctx *ctx,
			   const struct perf_header_info *info)
{
	const struct perf_build_id_entry *e = info->build_ids;

	TEST_ASSERT(ctx, info->nr_build_ids == 2, "%u build ids",
		    info->nr_build_ids);
	TEST_ASSERT(ctx, !strcmp(e[0].filename, "/usr/bin/test") &&
		    e[0].pid == 100 && e[0].cpumode == PERF_RECORD_MISC_USER &&
		    e[0].size == 20 && !memcmp(e[0].build_id, build_id_a, 20),
		    "build id 0: %s pid %d mode %u size %u", e[0].filename,
		    e[0].pid, e[0].cpumode, e[0].size);
	TEST_ASSERT(ctx, !strcmp(e[1].filename, "[kernel.kallsyms]") &&
		    e[1].pid == -1 && e[1].cpumode == PERF_RECORD_MISC_KERNEL &&
		    e[1].size == 16 && !memcmp(e[1].build_id, build_id_a, 16),
		    "build id 1: %s size %u", e[1].filename, e[1].size);
	return TEST_OK;
}

static int check_info(struct test_ctx *ctx,
		      const struct perf_header_info *info, bool pipe)
{
	TEST_ASSERT(ctx, check_system_info(ctx, info) == TEST_OK, "system");
	TEST_ASSERT(ctx, info->nr_cmdline == 5 &&
		    !strcmp(info->cmdline[1], "record") &&
		    !strcmp(info->cmdline[4], "it's"), "cmdline");
	TEST_ASSERT(ctx, info->nr_events == 2 &&
		    !strcmp(info->events[1].name, "cpu-clock") &&
		    info->events[1].nr_ids == 2 &&
		    info->events[1].ids[1] == 202 &&
		    info->events[0].attr.sample_type == SAMPLE_TYPE,
		    "event desc");
	TEST_ASSERT(ctx, check_build_ids(ctx, info) == TEST_OK, "build ids");
	TEST_ASSERT(ctx, info->nr_groups == 1 && info->groups[0].nr_members == 2,
		    "group desc");
	TEST_ASSERT(ctx, info->clockid == 1 && info->clockid_res_ns == 1 &&
		    info->clock_tod_ns == 1700000000123456789ULL &&
		    info->clock_clockid_ns == 5000000000ULL &&
		    perf_feat_test(info->features, HEADER_CLOCK_DATA),
		    "clock data");
	if (pipe)
		return TEST_OK;
	TEST_ASSERT(ctx, perf_feat_test(info->features, HEADER_SAMPLE_TIME) &&
		    info->first_sample_time == 1000 &&
		    info->last_sample_time == 1500,
		    "sample time %llu..%llu", info->first_sample_time,
		    info->last_sample_time);
	return TEST_OK;
}

static char *header_text(struct perf_session *s, bool full)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	perf_session__fprintf_header(s, f, full);
	fclose(f);
	return text;
}

/* Lines of the header; "%s" stands for the hostname. */
static const char * const header_lines[] = {
	"# hostname : %s\n",
	"# event : name = task-clock, , id = { 101, 102 }, type = 1, size = 128, config = 0x1, { sample_period, sample_freq } = 100000, sample_type = IP|TID|TIME|CALLCHAIN|ID|CPU|PERIOD, read_format = ID, comm = 1, sample_id_all = 1, mmap2 = 1\n",
	" record -e task-clock it\\'s ",
	"# nrcpus online : ",
	"# group: {task-clock,cpu-clock}\n",
	"# time of first sample : 0.000001\n",
	"# CPU_TOPOLOGY info available, use -I to display\n",
	"# clockid: monotonic (1)\n",
	"# missing features: TRACING_DATA NUMA_TOPOLOGY",
};

/* Each of want[] is in text; a "%s" in it is replaced by arg. */
static int has_lines(const char *text, const char * const *want, size_t nr,
		     const char *arg)
{
	char line[1024];
	size_t i;

	for (i = 0; i < nr; i++) {
		snprintf(line, sizeof(line), want[i], arg);
		if (!text || !strstr(text, line)) {
			printf("    missing: '%s'\n", line);
			return TEST_FAIL;
		}
	}
	return TEST_OK;
}

static int check_header_text(struct test_ctx *ctx, struct perf_session *s)
{
	char *text = header_text(s, false);
	struct utsname uts;
	int ret;

	uname(&uts);
	pr_test(ctx, "%s", text ? text : "");
	ret = has_lines(text, header_lines, ARRAY_SIZE(header_lines),
			uts.nodename);
	if (ret)
		printf("header text:\n%s", text ? text : "(none)\n");
	free(text);
	if (ret)
		return ret;
	text = header_text(s, true);
	ret = text && strstr(text, "# sibling threads : ") &&
	      strstr(text, "# CPU 0: Core ID ") ? TEST_OK : TEST_FAIL;
	free(text);
	return ret;
}

/* ---- tests ---- */

static void count_progress(void *ctx, u64 done, u64 total)
{
	u64 *calls = ctx;

	calls[0]++;
	calls[1] = done;
	calls[2] = total;
}

/* The lines perf prints for features this writer does not produce. */
static const char * const foreign_lines[] = {
	"# node0 meminfo  : total = 1024 kB, free = 512 kB\n# node0 cpu list : 0-3\n",
	"# CPU cache info:\n#  L1 Data                 32K [0-1]\n",
	"# memory nodes (nr 1, block size 0x8000000):\n#    0 [1024M]: 0-7\n",
	"# cpu pmu capabilities: branches=32, max_precise=3\n",
	"# cpu_core pmu capabilities: branches=32\n",
	"# hybrid cpu system:\n# cpu_core cpu list : 0-7\n",
	"# compressed : Zstd, level = 1, ratio = 3\n",
};

static void put_cap(struct perf_fbuf *b, const char *name, const char *val)
{
	perf_fbuf__put_string(b, name);
	perf_fbuf__put_string(b, val);
}

/* Payloads as Linux perf writes them on other machines. */
static int read_foreign(struct perf_header_info *info, int feat)
{
	struct perf_fbuf b = { 0 };
	int err;

	switch (feat) {
	case HEADER_NUMA_TOPOLOGY:
		perf_fbuf__put_u32(&b, 1);
		perf_fbuf__put_u32(&b, 0);
		perf_fbuf__put_u64(&b, 1024);
		perf_fbuf__put_u64(&b, 512);
		perf_fbuf__put_string(&b, "0-3");
		break;
	case HEADER_CACHE:
		perf_fbuf__put_u32(&b, 1);	/* version */
		perf_fbuf__put_u32(&b, 1);
		perf_fbuf__put_u32(&b, 1);	/* level */
		perf_fbuf__put_u32(&b, 64);
		perf_fbuf__put_u32(&b, 64);
		perf_fbuf__put_u32(&b, 8);
		perf_fbuf__put_string(&b, "Data");
		perf_fbuf__put_string(&b, "32K");
		perf_fbuf__put_string(&b, "0-1");
		break;
	case HEADER_MEM_TOPOLOGY:
		perf_fbuf__put_u64(&b, 1);	/* version */
		perf_fbuf__put_u64(&b, 0x8000000);
		perf_fbuf__put_u64(&b, 1);
		perf_fbuf__put_u64(&b, 0);	/* node */
		perf_fbuf__put_u64(&b, 8 * 0x8000000ULL);
		perf_fbuf__put_u64(&b, 8);	/* bits */
		perf_fbuf__put_u64(&b, 0xff);
		break;
	case HEADER_CPU_PMU_CAPS:
		perf_fbuf__put_u32(&b, 2);
		put_cap(&b, "branches", "32");
		put_cap(&b, "max_precise", "3");
		break;
	case HEADER_PMU_CAPS:
		perf_fbuf__put_u32(&b, 1);
		perf_fbuf__put_u32(&b, 1);
		put_cap(&b, "branches", "32");
		perf_fbuf__put_string(&b, "cpu_core");
		break;
	case HEADER_HYBRID_TOPOLOGY:
		perf_fbuf__put_u32(&b, 1);
		perf_fbuf__put_string(&b, "cpu_core");
		perf_fbuf__put_string(&b, "0-7");
		break;
	case HEADER_COMPRESSED:
		perf_fbuf__put_u32(&b, 1);
		perf_fbuf__put_u32(&b, 1);	/* zstd */
		perf_fbuf__put_u32(&b, 1);
		perf_fbuf__put_u32(&b, 3);
		perf_fbuf__put_u32(&b, 4096);
		break;
	}
	err = perf_header__read_feature(info, feat, b.data, b.len);
	/* One byte short must be refused and leave nothing behind. */
	if (!err && !perf_header__read_feature(info, feat, b.data, b.len - 1))
		err = -EINVAL;
	if (!err && perf_feat_test(info->features, feat))
		err = -EINVAL;
	if (!err)
		err = perf_header__read_feature(info, feat, b.data, b.len);
	perf_fbuf__free(&b);
	return err;
}

static int check_foreign_features(struct test_ctx *ctx)
{
	static const int feats[] = {
		HEADER_NUMA_TOPOLOGY, HEADER_CACHE, HEADER_MEM_TOPOLOGY,
		HEADER_CPU_PMU_CAPS, HEADER_PMU_CAPS, HEADER_HYBRID_TOPOLOGY,
		HEADER_COMPRESSED,
	};
	struct perf_header_info info;
	char *text = NULL;
	size_t len = 0, i;
	FILE *f;
	int ret = TEST_OK;

	perf_header_info__init(&info);
	for (i = 0; i < ARRAY_SIZE(feats) && !ret; i++) {
		ret = read_foreign(&info, feats[i]) ? TEST_FAIL : TEST_OK;
		if (ret)
			printf("    feature %s\n", perf_header__feat_name(feats[i]));
	}
	f = open_memstream(&text, &len);
	if (f) {
		perf_header_info__fprintf(&info, f, true);
		fclose(f);
	}
	pr_test(ctx, "%s", text ? text : "");
	if (!ret)
		ret = has_lines(text, foreign_lines, ARRAY_SIZE(foreign_lines),
				"");
	free(text);
	perf_header_info__exit(&info);
	return ret;
}

/* A full disk: the error comes back from the writer, not a crash. */
static int check_enospc(struct test_ctx *ctx)
{
	struct perf_data_writer w;
	int fd = open("/dev/full", O_WRONLY), err;

	if (fd < 0)
		return TEST_OK;
	err = perf_data_writer__open_fd(&w, fd, false);
	TEST_ASSERT(ctx, err == -ENOSPC, "file mode on /dev/full: %d", err);
	err = perf_data_writer__open_fd(&w, fd, true);
	if (!err)
		err = write_content(&w, 0);
	close(fd);
	TEST_ASSERT(ctx, err == -ENOSPC, "pipe mode on /dev/full: %d", err);
	return TEST_OK;
}

/* Whether two decodings of one record agree, field by field. */
static bool same_sample(const struct perf_sample *a,
			const struct perf_sample *b)
{
	return a->ip == b->ip && a->pid == b->pid && a->tid == b->tid &&
	       a->time == b->time && a->addr == b->addr && a->id == b->id &&
	       a->stream_id == b->stream_id && a->cpu == b->cpu &&
	       a->period == b->period && a->weight == b->weight &&
	       a->data_src == b->data_src && a->phys_addr == b->phys_addr &&
	       a->cgroup == b->cgroup && a->transaction == b->transaction &&
	       a->callchain == b->callchain && a->raw_size == b->raw_size &&
	       a->raw_data == b->raw_data && a->read_data == b->read_data &&
	       a->read_size == b->read_size &&
	       a->user_regs.abi == b->user_regs.abi &&
	       a->user_regs.mask == b->user_regs.mask &&
	       a->user_regs.regs == b->user_regs.regs &&
	       a->intr_regs.abi == b->intr_regs.abi &&
	       a->intr_regs.mask == b->intr_regs.mask &&
	       a->intr_regs.regs == b->intr_regs.regs &&
	       a->user_stack == b->user_stack &&
	       a->user_stack_size == b->user_stack_size &&
	       a->user_stack_bad == b->user_stack_bad && a->misc == b->misc &&
	       a->cpumode == b->cpumode;
}

/*
 * perf_sample__parse() writes each field once, into a struct it does
 * not zero: on records of random sample_types and small random words
 * (sizes, counts and abi words among them, so that the variable parts
 * take many shapes, and records cut short), into a struct full of 0xa5
 * bytes, it must give what decoding into a zeroed struct gives.  So
 * must perf_sample__parse_layout(), half of whose records are of the
 * types it decodes itself (fixed fields, call chain, raw data), and
 * perf_sample__cpu_of() its CPU.
 */
static int check_sample_fields(struct test_ctx *ctx)
{
	static const u64 types = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
		PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
		PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN |
		PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK |
		PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
		PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
		PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR |
		PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP |
		PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE;
	static const u64 simple = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
		PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
		PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;
	u64 words[40], seed = 1, t, fmt;
	struct perf_sample fast, ref, by_layout;
	struct perf_sample_layout layout;
	int nr_simple = 0, layout_err;
	u32 cpu;
	union perf_event *ev = (union perf_event *)words;
	int i, j, n, err, ref_err, ok = 0;

	for (i = 0; i < 200000; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		t = (seed >> 7) & (i & 1 ? simple : types);
		fmt = (seed >> 40) & 0x1f;
		n = 1 + (seed >> 50) % 39;
		for (j = 1; j < n; j++) {
			seed = seed * 6364136223846793005ULL +
			       1442695040888963407ULL;
			words[j] = (seed >> 33) % 4 ? (seed >> 60) : seed;
		}
		ev->header.type = PERF_RECORD_SAMPLE;
		ev->header.misc = seed & 0xffff;
		ev->header.size = n * sizeof(u64);
		memset(&fast, 0xa5, sizeof(fast));
		err = perf_sample__parse(ev, t, fmt, seed >> 62, 0x5, 0x3, &fast);
		ok += !err;
		ref_err = perf_sample__parse_zeroed(ev, t, fmt, seed >> 62, 0x5,
						    0x3, &ref);
		TEST_ASSERT(ctx, err == ref_err && same_sample(&fast, &ref),
			    "sample_type %#llx, %d words: decoded differently",
			    (unsigned long long)t, n);
		perf_sample_layout__init(&layout, t, fmt, seed >> 62, 0x5, 0x3);
		nr_simple += layout.simple;
		memset(&by_layout, 0xa5, sizeof(by_layout));
		layout_err = perf_sample__parse_layout(ev, &layout, &by_layout);
		TEST_ASSERT(ctx, layout_err == ref_err &&
			    same_sample(&by_layout, &ref),
			    "sample_type %#llx, %d words: decoded differently by its layout",
			    (unsigned long long)t, n);
		layout_err = perf_sample__cpu_of(ev, &layout, &cpu);
		TEST_ASSERT(ctx, layout_err == ref_err && cpu == ref.cpu,
			    "sample_type %#llx, %d words: CPU %u, not %u",
			    (unsigned long long)t, n, cpu, ref.cpu);
	}
	TEST_ASSERT(ctx, nr_simple >= 100000, "%d simple layouts", nr_simple);
	/* Not only records that do not decode. */
	TEST_ASSERT(ctx, ok > 1000, "%d of 200000 records decoded", ok);
	return TEST_OK;
}

int test__data_file(struct test_ctx *ctx)
{
	const char *path = tmp_path("perf.data");
	struct perf_session s;
	struct seen seen = { 0 };
	struct stat st, old;
	u64 calls[3] = { 0 };
	int ret = TEST_FAIL, err;

	if (check_sample_fields(ctx))
		return TEST_FAIL;
	err = write_test_file(path, 0);
	TEST_ASSERT(ctx, !err, "writing %s: %s", path, strerror(-err));
	err = perf_session__open(&s, path);
	TEST_ASSERT(ctx, !err, "open: %s", perf_session__error(&s));
	s.progress = count_progress;
	s.progress_ctx = calls;
	if (!*perf_session__warning(&s) && !check_attrs(ctx, &s) &&
	    !check_info(ctx, &s.info, false) &&
	    !perf_session__for_each_event(&s, collect, &seen) &&
	    !check_records(ctx, &seen, s.data_offset) &&
	    s.stats.nr_events[0] == 10 &&
	    s.stats.nr_events[PERF_RECORD_SAMPLE] == 6 &&
	    s.attrs[0].nr_samples == 3 && !check_header_text(ctx, &s) &&
	    calls[0] == 1 && calls[1] == calls[2] &&
	    calls[2] == s.header.data.size)
		ret = TEST_OK;
	if (*perf_session__warning(&s))
		printf("    unexpected warning: %s\n", perf_session__warning(&s));
	perf_session__close(&s);
	/* A second recording keeps the first as perf.data.old. */
	if (!ret) {
		stat(path, &st);
		err = write_test_file(path, 7);
		ret = err || stat(tmp_path("perf.data.old"), &old) ||
		      old.st_size != st.st_size ? TEST_FAIL : TEST_OK;
		if (ret)
			printf("    perf.data.old missing or wrong size\n");
	}
	/* Written in 7-byte pieces, the file must be the same. */
	if (!ret) {
		size_t a_len, b_len;
		u8 *a = read_whole(path, &a_len);
		u8 *b = read_whole(tmp_path("perf.data.old"), &b_len);

		ret = a && b && a_len == b_len && !memcmp(a, b, a_len) ?
		      TEST_OK : TEST_FAIL;
		if (ret)
			printf("    split writes gave a different file\n");
		free(a);
		free(b);
	}
	tmp_cleanup();
	if (!ret)
		ret = check_enospc(ctx);
	return ret ? ret : check_foreign_features(ctx);
}

static int read_pipe_session(struct test_ctx *ctx, struct perf_session *s)
{
	struct seen seen = { 0 };
	int err;

	TEST_ASSERT(ctx, s->pipe, "not seen as a pipe");
	if (check_attrs(ctx, s))
		return TEST_FAIL;
	err = perf_session__for_each_event(s, collect, &seen);
	/* Build ids come at the end of a stream: check the info after it. */
	if (check_info(ctx, &s->info, true))
		return TEST_FAIL;
	TEST_ASSERT(ctx, !err, "reading: %d %s", err, perf_session__error(s));
	/* The stream starts with ATTRs and FEATUREs; skip to the data. */
	TEST_ASSERT(ctx, seen.type[0] == PERF_RECORD_HEADER_ATTR &&
		    seen.off[0] == 0, "first record %u at %llu", seen.type[0],
		    seen.off[0]);
	while (seen.nr && seen.type[0] != PERF_RECORD_COMM) {
		memmove(&seen.type[0], &seen.type[1], sizeof(seen.type[0]) * 63);
		memmove(&seen.off[0], &seen.off[1], sizeof(seen.off[0]) * 63);
		memmove(&seen.has_sample[0], &seen.has_sample[1], 63);
		memmove(&seen.sample[0], &seen.sample[1], sizeof(seen.sample[0]) * 63);
		memmove(&seen.attr[0], &seen.attr[1], sizeof(seen.attr[0]) * 63);
		memmove(&seen.nr_ips[0], &seen.nr_ips[1], sizeof(seen.nr_ips[0]) * 63);
		memmove(&seen.ips[0], &seen.ips[1], sizeof(seen.ips[0]) * 63);
		memmove(&seen.comm[0], &seen.comm[1], sizeof(seen.comm[0]) * 63);
		seen.nr--;
	}
	/* The build ids trail the data as records. */
	TEST_ASSERT(ctx, seen.nr == (int)ARRAY_SIZE(file_types) + 2 &&
		    seen.type[seen.nr - 1] == PERF_RECORD_HEADER_BUILD_ID,
		    "%d records after the prologue", seen.nr);
	seen.nr -= 2;
	return check_records(ctx, &seen, seen.off[0]);
}

/*
 * A pipe-format file at tmp_path(@name) of the test attrs, then the
 * records of @b, opened as @s.  0 or -errno; the session is open (to
 * be closed) when 0.
 */
static int pipe_file_session(const char *name, const struct perf_fbuf *b,
			     struct perf_session *s)
{
	const char *path = tmp_path(name);
	int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
	struct perf_data_writer w;
	int ret;

	if (fd < 0)
		return -errno;
	ret = perf_data_writer__open_fd(&w, fd, true);
	ret = ret ?: add_test_attrs(&w);
	ret = ret ?: perf_data_writer__write(&w, b->data, b->len);
	ret = ret ?: perf_data_writer__finish(&w);
	close(fd);
	if (ret)
		return ret;
	ret = perf_session__open(s, path);
	if (ret)
		perf_session__close(s);
	return ret;
}

/*
 * A stream that adds an attr after its first samples: report had sized
 * its histograms by the attrs of the prologue and indexed past them.
 * The late attr's samples are of an unknown id for the pass.
 */
static int check_late_attr(struct test_ctx *ctx)
{
	struct perf_counter_attr a = test_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct tsample late = samples[0];
	struct perf_fbuf b = { 0 };
	struct perf_session s;
	struct report r = { 0 };
	FILE *out = fopen("/dev/null", "w");
	int ret;

	TEST_ASSERT(ctx, out, "open /dev/null");
	build_records(&b);
	/* The attr record of perf's pipe format, with one id: 301. */
	put_header(&b, PERF_RECORD_HEADER_ATTR, 0, 8 + sizeof(a) + 8);
	perf_fbuf__put(&b, &a, sizeof(a));
	perf_fbuf__put_u64(&b, 301);
	late.id = 301;
	put_sample(&b, &late);
	ret = pipe_file_session("late.data", &b, &s);
	perf_fbuf__free(&b);
	TEST_ASSERT(ctx, !ret, "late.data: %s", strerror(-ret));
	ret = report__run(&r, &s, out);
	fclose(out);
	TEST_ASSERT(ctx, ret == 0 && s.nr_attrs == 3 &&
		    s.stats.nr_unknown_id == 1,
		    "report ran (%d), 3 attrs (%u), the late sample unknown (%llu)",
		    ret, s.nr_attrs, (unsigned long long)s.stats.nr_unknown_id);
	report__exit(&r);
	perf_session__close(&s);
	return TEST_OK;
}

static int ignore_record(struct perf_session *s, const union perf_event *ev,
			 u64 off, const struct perf_sample *sample,
			 struct perf_session_attr *attr, void *ctx)
{
	return 0;
}

/* A HEADER_FEATURE record of feature @feat, as @info has it. */
static void put_feature_record(struct perf_fbuf *b, int feat,
			       const struct perf_header_info *info)
{
	struct perf_fbuf payload = { 0 };

	perf_header__write_feature(&payload, feat, info);
	put_header(b, PERF_RECORD_HEADER_FEATURE, 0, 16 + payload.len);
	perf_fbuf__put_u64(b, feat);
	perf_fbuf__put(b, payload.data, payload.len);
	perf_fbuf__free(&payload);
}

/* A HEADER_FEATURE record of EVENT_DESC naming one event, id @id. */
static void put_event_desc_record(struct perf_fbuf *b, const char *name,
				  u64 id)
{
	struct perf_event_desc d = { .attr = test_attr(PERF_COUNT_SW_DUMMY),
				     .name = (char *)name, .ids = &id,
				     .nr_ids = 1 };
	struct perf_header_info info = { .events = &d, .nr_events = 1 };

	put_feature_record(b, HEADER_EVENT_DESC, &info);
}

/*
 * A stream whose second EVENT_DESC names other events: the names of the
 * first must stay the session's (they pointed into the freed list).
 */
static int check_event_desc_twice(struct test_ctx *ctx)
{
	struct perf_fbuf b = { 0 };
	struct perf_session s;
	int ret;

	put_event_desc_record(&b, "other", 999);
	ret = pipe_file_session("desc2.data", &b, &s);
	perf_fbuf__free(&b);
	TEST_ASSERT(ctx, !ret, "desc2.data: %s", strerror(-ret));
	ret = perf_session__process_events(&s, ignore_record, NULL);
	TEST_ASSERT(ctx, !ret && s.nr_attrs == 2 &&
		    !strcmp(s.attrs[0].name, "task-clock") &&
		    !strcmp(s.attrs[1].name, "cpu-clock"),
		    "names kept: %s, %s", s.attrs[0].name,
		    s.nr_attrs > 1 ? s.attrs[1].name : "-");
	perf_session__close(&s);
	return TEST_OK;
}

/* A HEADER_FEATURE record of HOSTNAME. */
static void put_hostname_record(struct perf_fbuf *b, const char *name)
{
	struct perf_header_info info = { .hostname = (char *)name };

	put_feature_record(b, HEADER_HOSTNAME, &info);
}

/*
 * A stream that repeats a feature after its first samples: what the
 * first record put into the session's info is what readers took when
 * the pass began (sort keys keep the CPU topology), so a repeat must
 * not free or replace it.  It is ignored, and said so.
 */
static int check_feature_twice(struct test_ctx *ctx)
{
	struct perf_fbuf b = { 0 };
	struct perf_session s;
	const char *first;
	int ret;

	/* The writer's prologue has the first, the machine's name. */
	put_sample(&b, &samples[0]);
	put_hostname_record(&b, "second");
	ret = pipe_file_session("feat2.data", &b, &s);
	perf_fbuf__free(&b);
	TEST_ASSERT(ctx, !ret, "feat2.data: %s", strerror(-ret));
	first = s.info.hostname;
	ret = perf_session__process_events(&s, ignore_record, NULL);
	TEST_ASSERT(ctx, !ret && first && s.info.hostname == first &&
		    strcmp(first, "second") &&
		    strstr(perf_session__warning(&s), "HOSTNAME") &&
		    strstr(perf_session__warning(&s), "repeats"),
		    "hostname %s (%s at open), warning '%s'",
		    s.info.hostname ?: "-", first ?: "-",
		    perf_session__warning(&s));
	perf_session__close(&s);
	return TEST_OK;
}

/*
 * Records of a type this perf does not know and a sample of an id no
 * attr has are skipped, and said so once, with counts.
 */
static int check_skipped_said(struct test_ctx *ctx)
{
	struct tsample stray = samples[0];
	struct perf_fbuf b = { 0 };
	struct perf_session s;
	char said[512] = "";
	FILE *out;
	int ret, i;

	for (i = 0; i < 3; i++) {
		put_header(&b, 40 + (i & 1), 0, 16);	/* types 40, 41, 40 */
		perf_fbuf__put_u64(&b, 0);
	}
	stray.id = 4242;
	put_sample(&b, &stray);
	ret = pipe_file_session("skipped.data", &b, &s);
	perf_fbuf__free(&b);
	TEST_ASSERT(ctx, !ret, "skipped.data: %s", strerror(-ret));
	ret = perf_session__process_events_ordered(&s, ignore_record, NULL);
	out = fmemopen(said, sizeof(said) - 1, "w");
	perf_session__fprintf_skipped(&s, "perf x", out);
	fclose(out);
	perf_session__close(&s);
	TEST_ASSERT(ctx, !ret && !strcmp(said,
		    "Warning: perf x skipped 3 records of types this perf does not know (40, 41) and 1 samples whose id names no event of the file.\n"),
		    "said: '%s' (%d)", said, ret);
	return TEST_OK;
}

/* The process's peak of virtual memory, in KiB (VmPeak). */
static long vm_peak_kib(void)
{
	char line[128];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPeak: %ld", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib;
}

/*
 * A pipe whose TRACING_DATA record says 1008 MiB follow, then ends: the
 * reader sized its buffer by that field before a byte of it came.
 * Memory must follow the bytes that arrive.
 */
static int check_pipe_size_lies(struct test_ctx *ctx)
{
	struct perf_fbuf b = { 0 };
	struct perf_session s;
	long before, after;
	int fds[2], ret;

	perf_fbuf__put(&b, "PERFILE2", 8);
	perf_fbuf__put_u64(&b, 16);
	put_header(&b, PERF_RECORD_HEADER_TRACING_DATA, 0, 16);
	perf_fbuf__put_u32(&b, 0x3f000000);
	perf_fbuf__put_u32(&b, 0);
	perf_fbuf__put(&b, "\027\010\104tracing0.6", 14);
	TEST_ASSERT(ctx, !pipe(fds), "pipe: %s", strerror(errno));
	TEST_ASSERT(ctx, write(fds[1], b.data, b.len) == (ssize_t)b.len, "write");
	close(fds[1]);
	perf_fbuf__free(&b);
	before = vm_peak_kib();
	ret = perf_session__open_fd(&s, fds[0], "pipe");
	if (!ret)
		ret = perf_session__process_events(&s, ignore_record, NULL);
	after = vm_peak_kib();
	TEST_ASSERT(ctx, ret == PERF_SESSION_DATA_ERROR || ret == -EBADMSG,
		    "refused (%d): %s", ret, perf_session__error(&s));
	perf_session__close(&s);
	close(fds[0]);
	TEST_ASSERT(ctx, before > 0 && after - before < 256 * 1024,
		    "the peak grew by %ld KiB for 22 bytes of a lying record",
		    after - before);
	return TEST_OK;
}

/* ---- report: samples that repeat a task and address ---- */

/* The samples of the entry of @comm and @dso, or -1 if there is none. */
static long entry_samples(const struct hists *h, const char *comm,
			  const char *dso, int cpu)
{
	size_t i;

	for (i = 0; i < h->size; i++) {
		const struct hist_entry *e = h->table[i];

		if (e && (!comm || !strcmp(e->comm, comm)) &&
		    (!dso || !strcmp(e->frame.dso_name, dso)) &&
		    (cpu < 0 || e->cpu == cpu))
			return (long)e->nr_samples;
	}
	return -1;
}

/*
 * One address of one task, sampled again after its thread was renamed
 * and after another object was mapped over it: each sample belongs to
 * the entry of the name and object it had then, and with the cpu key
 * to its CPU's.
 */
static int report_repeats(struct test_ctx *ctx, const char *keys,
			  struct report *r, struct perf_session *s)
{
	struct tsample t = { 0x401000, 100, 100, 1000, 101, 0, 100, 0, { 0 } };
	struct perf_fbuf b = { 0 };
	int ret;

	put_comm(&b, 100, 100, "first", 900, true);
	put_mmap2(&b, 100, 0x400000, 0x10000, "/nonexistent/obj-a", 950);
	put_sample(&b, &t);
	t.time = 1100;
	put_sample(&b, &t);
	put_comm(&b, 100, 100, "second", 1150, true);
	t.time = 1200;
	put_sample(&b, &t);
	put_mmap2(&b, 100, 0x400000, 0x10000, "/nonexistent/obj-b", 1250);
	t.time = 1300;
	put_sample(&b, &t);
	t.time = 1400;
	t.cpu = 1;
	put_sample(&b, &t);
	put_round(&b);
	ret = pipe_file_session("repeats.data", &b, s);
	perf_fbuf__free(&b);
	TEST_ASSERT(ctx, !ret, "repeats.data: %s", strerror(-ret));
	TEST_ASSERT(ctx, !sort_keys__parse(keys, &r->cfg), "keys %s", keys);
	r->callchain_set = true;
	r->children_set = true;
	ret = report__process(r, s);
	TEST_ASSERT(ctx, !ret, "report: %d", ret);
	/* Else this would not test the samples that skip the lookup. */
	TEST_ASSERT(ctx, r->memo, "no entries remembered for %s", keys);
	return TEST_OK;
}

int test__report_repeats(struct test_ctx *ctx)
{
	struct perf_session s;
	struct report r = { 0 };
	const struct hists *h;
	int ret;

	ret = report_repeats(ctx, "comm,dso,sym", &r, &s);
	h = r.hists;
	if (ret == TEST_OK &&
	    (entry_samples(h, "first", "obj-a", -1) != 2 ||
	     entry_samples(h, "second", "obj-a", -1) != 1 ||
	     entry_samples(h, "second", "obj-b", -1) != 2 ||
	     h->nr_entries != 3 || h->nr_samples != 5)) {
		printf("    first/obj-a %ld, second/obj-a %ld, second/obj-b %ld, %zu entries\n",
		       entry_samples(h, "first", "obj-a", -1),
		       entry_samples(h, "second", "obj-a", -1),
		       entry_samples(h, "second", "obj-b", -1), h->nr_entries);
		ret = TEST_FAIL;
	}
	report__exit(&r);
	perf_session__close(&s);
	if (ret != TEST_OK)
		return ret;

	memset(&r, 0, sizeof(r));
	ret = report_repeats(ctx, "cpu", &r, &s);
	h = r.hists;
	if (ret == TEST_OK &&
	    (entry_samples(h, NULL, NULL, 0) != 4 ||
	     entry_samples(h, NULL, NULL, 1) != 1)) {
		printf("    cpu 0 %ld, cpu 1 %ld\n",
		       entry_samples(h, NULL, NULL, 0),
		       entry_samples(h, NULL, NULL, 1));
		ret = TEST_FAIL;
	}
	report__exit(&r);
	perf_session__close(&s);
	tmp_cleanup();
	return ret;
}

int test__data_pipe(struct test_ctx *ctx)
{
	struct perf_data_writer w;
	struct perf_session s;
	int fds[2], status, ret, err, fd;
	pid_t pid;

	TEST_ASSERT(ctx, !pipe(fds), "pipe: %s", strerror(errno));
	pid = fork();
	TEST_ASSERT(ctx, pid >= 0, "fork: %s", strerror(errno));
	if (!pid) {
		close(fds[0]);
		err = perf_data_writer__open_fd(&w, fds[1], true);
		if (!err)
			err = write_content(&w, 13);
		_exit(err ? 1 : 0);
	}
	close(fds[1]);
	err = perf_session__open_fd(&s, fds[0], "pipe");
	TEST_ASSERT(ctx, !err, "open: %s", perf_session__error(&s));
	ret = read_pipe_session(ctx, &s);
	perf_session__close(&s);
	close(fds[0]);
	TEST_ASSERT(ctx, waitpid(pid, &status, 0) == pid &&
		    WIFEXITED(status) && !WEXITSTATUS(status), "writer failed");
	if (ret)
		return ret;

	/* The same stream saved in a file is read through the mapping. */
	fd = open(tmp_path("pipe.data"), O_CREAT | O_RDWR | O_TRUNC, 0600);
	TEST_ASSERT(ctx, fd >= 0, "create: %s", strerror(errno));
	err = perf_data_writer__open_fd(&w, fd, true);
	if (!err)
		err = write_content(&w, 0);
	close(fd);
	TEST_ASSERT(ctx, !err, "write: %s", strerror(-err));
	err = perf_session__open(&s, tmp_path("pipe.data"));
	TEST_ASSERT(ctx, !err, "open: %s", perf_session__error(&s));
	ret = s.stream ? TEST_FAIL : read_pipe_session(ctx, &s);
	perf_session__close(&s);
	if (ret == TEST_OK)
		ret = check_late_attr(ctx);
	if (ret == TEST_OK)
		ret = check_event_desc_twice(ctx);
	if (ret == TEST_OK)
		ret = check_feature_twice(ctx);
	if (ret == TEST_OK)
		ret = check_skipped_said(ctx);
	if (ret == TEST_OK)
		ret = check_pipe_size_lies(ctx);
	tmp_cleanup();
	return ret;
}

struct cut_case {
	u64 at;
	int open_ret;		/* what open returns */
	int iter_ret;		/* what the iteration returns, when opened */
	int records;		/* delivered before the error */
	const char *msg;	/* in the error, or the warning */
};

static int check_cut(struct test_ctx *ctx, const u8 *file,
		     const struct cut_case *c)
{
	const char *path = tmp_path("cut.data");
	struct seen seen = { 0 };
	struct perf_session s;
	const char *msg;
	int err;

	TEST_ASSERT(ctx, !write_whole(path, file, c->at), "write");
	err = perf_session__open(&s, path);
	msg = err ? perf_session__error(&s) : perf_session__warning(&s);
	pr_test(ctx, "cut at %#llx: open %d: %s\n", c->at, err, msg);
	TEST_ASSERT(ctx, err == c->open_ret, "cut at %#llx: open gave %d (%s)",
		    c->at, err, msg);
	if (!err) {
		err = perf_session__for_each_event(&s, collect, &seen);
		pr_test(ctx, "   read %d: %s\n", err, perf_session__error(&s));
		if (err)
			msg = perf_session__error(&s);
		perf_session__close(&s);
		TEST_ASSERT(ctx, err == c->iter_ret && seen.nr == c->records,
			    "cut at %#llx: read gave %d after %d records (%s)",
			    c->at, err, seen.nr, perf_session__error(&s));
	} else {
		perf_session__close(&s);
	}
	TEST_ASSERT(ctx, strstr(msg, c->msg), "cut at %#llx: '%s' lacks '%s'",
		    c->at, msg, c->msg);
	return TEST_OK;
}

/* Every length of the file opens or fails cleanly, in both orders. */
static int check_all_cuts(struct test_ctx *ctx, const u8 *file, size_t len)
{
	const char *path = tmp_path("cut.data");
	struct perf_session s;
	size_t at;
	int err;

	for (at = 0; at <= len; at++) {
		struct seen seen = { 0 };

		TEST_ASSERT(ctx, !write_whole(path, file, at), "write");
		err = perf_session__open(&s, path);
		if (!err) {
			err = perf_session__for_each_event_ordered(&s, collect,
								   &seen);
			TEST_ASSERT(ctx, err == 0 || err == PERF_SESSION_DATA_ERROR,
				    "cut at %zu: ordered read gave %d", at, err);
			seen.nr = 0;
			err = perf_session__for_each_event(&s, collect, &seen);
			TEST_ASSERT(ctx, err == 0 || err == PERF_SESSION_DATA_ERROR,
				    "cut at %zu: read gave %d", at, err);
		} else {
			TEST_ASSERT(ctx, *perf_session__error(&s),
				    "cut at %zu: error %d without a message",
				    at, err);
		}
		perf_session__close(&s);
	}
	return TEST_OK;
}

/* Stream a prefix of a pipe-format file through a pipe and read it. */
static int read_cut_stream(struct test_ctx *ctx, const u8 *file, size_t at)
{
	struct seen seen = { 0 };
	struct perf_session s;
	int fds[2], status, err;
	pid_t pid;

	TEST_ASSERT(ctx, !pipe(fds), "pipe");
	pid = fork();
	TEST_ASSERT(ctx, pid >= 0, "fork");
	if (!pid) {
		close(fds[0]);
		_exit(write(fds[1], file, at) != (ssize_t)at);
	}
	close(fds[1]);
	err = perf_session__open_fd(&s, fds[0], "pipe");
	if (!err)
		err = perf_session__for_each_event_ordered(&s, collect, &seen);
	TEST_ASSERT(ctx, err == 0 || err == PERF_SESSION_DATA_ERROR ||
		    (err < 0 && *perf_session__error(&s)) || seen.nr == MAX_SEEN,
		    "pipe cut at %zu: %d", at, err);
	perf_session__close(&s);
	close(fds[0]);
	waitpid(pid, &status, 0);
	return TEST_OK;
}

static int check_stream_cuts(struct test_ctx *ctx)
{
	const char *path = tmp_path("pipe.data");
	struct perf_data_writer w;
	size_t len, at;
	int fd, err, ret = TEST_OK;
	u8 *file;

	fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
	TEST_ASSERT(ctx, fd >= 0, "create");
	err = perf_data_writer__open_fd(&w, fd, true);
	if (!err)
		err = write_content(&w, 0);
	close(fd);
	file = read_whole(path, &len);
	TEST_ASSERT(ctx, !err && file, "write");
	for (at = 0; at <= len && !ret; at += 7)
		ret = read_cut_stream(ctx, file, at);
	free(file);
	return ret;
}

int test__data_truncated(struct test_ctx *ctx)
{
	const char *path = tmp_path("perf.data");
	struct perf_file_header h;
	u64 rec0, rec01s;
	size_t len, i;
	u8 *file;
	int ret = TEST_OK;
	char at_sample[64];

	TEST_ASSERT(ctx, !write_test_file(path, 0), "write");
	file = read_whole(path, &len);
	TEST_ASSERT(ctx, file, "read back");
	memcpy(&h, file, sizeof(h));
	/* COMM and MMAP2 sizes, then 20 bytes into the first sample. */
	rec0 = h.data.offset + ((struct perf_counter_header *)(file + h.data.offset))->size;
	rec01s = rec0 + ((struct perf_counter_header *)(file + rec0))->size + 20;
	snprintf(at_sample, sizeof(at_sample),
		 "at offset %#llx (type 9 SAMPLE, size 80)", rec01s - 20);
	{
		const struct cut_case cases[] = {
			{ 10, -EINVAL, 0, 0, "too few for a perf.data header" },
			{ 50, -EINVAL, 0, 0, "inside its 104-byte header" },
			{ 112, -EINVAL, 0, 0, "attrs section" },
			{ h.attrs.offset + 10, -EINVAL, 0, 0, "attrs section" },
			{ h.data.offset + 3, 0, PERF_SESSION_DATA_ERROR, 0,
			  "the data ends inside a record" },
			{ rec01s, 0, PERF_SESSION_DATA_ERROR, 2, at_sample },
			{ h.data.offset + h.data.size, 0, 0, 10,
			  "feature table" },
			{ len - 8, 0, 0, 10, "runs past the end of the file" },
		};

		for (i = 0; i < ARRAY_SIZE(cases) && !ret; i++)
			ret = check_cut(ctx, file, &cases[i]);
	}
	if (!ret)
		ret = check_all_cuts(ctx, file, len);
	free(file);
	if (!ret)
		ret = check_stream_cuts(ctx);
	tmp_cleanup();
	return ret;
}

int test__data_empty(struct test_ctx *ctx)
{
	const char *path = tmp_path("empty.data");
	struct perf_session s;
	char want[PATH_MAX + 64];
	int fds[2], err;

	TEST_ASSERT(ctx, !write_whole(path, "", 0), "create");
	err = perf_session__open(&s, path);
	snprintf(want, sizeof(want), "zero-sized file (%s), nothing to do!",
		 path);
	TEST_ASSERT(ctx, err == PERF_SESSION_EMPTY &&
		    !strcmp(perf_session__error(&s), want), "got %d '%s'", err,
		    perf_session__error(&s));
	perf_session__close(&s);
	tmp_cleanup();
	/* An empty pipe is the same. */
	TEST_ASSERT(ctx, !pipe(fds), "pipe");
	close(fds[1]);
	err = perf_session__open_fd(&s, fds[0], "pipe");
	TEST_ASSERT(ctx, err == PERF_SESSION_EMPTY, "pipe: %d '%s'", err,
		    perf_session__error(&s));
	perf_session__close(&s);
	close(fds[0]);
	return TEST_OK;
}

static int expect_open_error(struct test_ctx *ctx, const void *buf,
			     size_t len, int want, const char *msg)
{
	const char *path = tmp_path("bad.data");
	struct perf_session s;
	int err;

	TEST_ASSERT(ctx, !write_whole(path, buf, len), "write");
	err = perf_session__open(&s, path);
	pr_test(ctx, "%d: %s\n", err, perf_session__error(&s));
	TEST_ASSERT(ctx, err == want && strstr(perf_session__error(&s), msg),
		    "got %d '%s', want %d '%s'", err, perf_session__error(&s),
		    want, msg);
	perf_session__close(&s);
	return TEST_OK;
}

static int expect_read_error(struct test_ctx *ctx, const u8 *file, size_t len,
			     int records, const char *msg)
{
	const char *path = tmp_path("bad.data");
	struct seen seen = { 0 };
	struct perf_session s;
	int err;

	TEST_ASSERT(ctx, !write_whole(path, file, len), "write");
	err = perf_session__open(&s, path);
	TEST_ASSERT(ctx, !err, "open: %s", perf_session__error(&s));
	err = perf_session__for_each_event(&s, collect, &seen);
	pr_test(ctx, "%d after %d: %s\n", err, seen.nr, perf_session__error(&s));
	TEST_ASSERT(ctx, err == PERF_SESSION_DATA_ERROR && seen.nr == records &&
		    strstr(perf_session__error(&s), msg),
		    "got %d after %d records: '%s'", err, seen.nr,
		    perf_session__error(&s));
	perf_session__close(&s);
	return TEST_OK;
}

/* Random bytes changed anywhere: errors, warnings, never a crash. */
static int check_mutations(struct test_ctx *ctx, const u8 *orig, size_t len)
{
	const char *path = tmp_path("bad.data");
	u8 *file = malloc(len);
	int round, i;

	TEST_ASSERT(ctx, file, "malloc");
	for (round = 0; round < 400; round++) {
		struct seen seen = { .stop_after = MAX_SEEN - 1 };
		struct perf_session s;
		FILE *null;

		memcpy(file, orig, len);
		for (i = 0; i < 1 + round % 4; i++)
			file[rand() % len] = rand();
		if (write_whole(path, file, len))
			break;
		if (perf_session__open(&s, path)) {
			perf_session__close(&s);
			continue;
		}
		perf_session__for_each_event_ordered(&s, collect, &seen);
		null = fopen("/dev/null", "w");
		if (null) {
			perf_session__fprintf_header(&s, null, true);
			perf_session__dump(&s, null, false);
			fclose(null);
		}
		perf_session__close(&s);
	}
	free(file);
	return TEST_OK;
}

/* The header of record @idx of a good test file. */
static struct perf_counter_header *nth_record(u8 *file, int idx)
{
	struct perf_file_header h;
	u64 pos;

	memcpy(&h, file, sizeof(h));
	for (pos = h.data.offset; idx--; )
		pos += ((struct perf_counter_header *)(file + pos))->size;
	return (struct perf_counter_header *)(file + pos);
}

/* The same file from a big-endian machine starts "2ELIFREP". */
static void damage_big_endian(u8 *file)
{
	memcpy(file, "2ELIFREP", 8);
}

static void damage_version_1(u8 *file)
{
	memcpy(file, "PERFFILE", 8);
}

/* A record size below the header size: corrupt from there on. */
static void damage_record_size(u8 *file)
{
	nth_record(file, 1)->size = 3;
}

/* A sample too short for its sample_type. */
static void damage_sample_size(u8 *file)
{
	nth_record(file, 2)->size = 16;
}

/*
 * One damage to a good file and what it must cause: an open error, or
 * (at_record >= 0) a data error after that many records were read.
 */
static const struct garbage_case {
	void (*damage)(u8 *file);
	int open_error;
	int at_record;
	const char *msg;
} garbage_cases[] = {
	{ damage_big_endian, -EOPNOTSUPP, -1,
	  "big-endian perf.data files are not supported" },
	{ damage_version_1, -EOPNOTSUPP, -1, "version 1 perf.data" },
	{ damage_record_size, 0, 1, "smaller than its header" },
	{ damage_sample_size, 0, 2, "does not fit its event's sample_type" },
};

static int check_garbage_cases(struct test_ctx *ctx, const u8 *good,
			       size_t len)
{
	const struct garbage_case *c;
	u8 *file = malloc(len);
	int ret = TEST_OK;
	size_t i;

	TEST_ASSERT(ctx, file, "malloc");
	for (i = 0; i < ARRAY_SIZE(garbage_cases) && ret == TEST_OK; i++) {
		c = &garbage_cases[i];
		memcpy(file, good, len);
		c->damage(file);
		ret = c->at_record < 0 ?
		      expect_open_error(ctx, file, len, c->open_error, c->msg) :
		      expect_read_error(ctx, file, len, c->at_record, c->msg);
	}
	free(file);
	return ret;
}

int test__data_garbage(struct test_ctx *ctx)
{
	const char *path = tmp_path("perf.data");
	u8 junk[4096], *file;
	size_t len, i;
	u64 magic;
	int ret;

	/* Not a file at all: random bytes, a lying header, too few bytes. */
	srand(1);
	for (i = 0; i < sizeof(junk); i++)
		junk[i] = rand();
	ret = expect_open_error(ctx, junk, sizeof(junk), -EINVAL,
				"not a perf.data file");
	memcpy(junk, "PERFILE2", 8);
	magic = 1000;
	memcpy(junk + 8, &magic, 8);
	if (!ret)
		ret = expect_open_error(ctx, junk, sizeof(junk), -EINVAL,
					"header size 1000");
	if (!ret)
		ret = expect_open_error(ctx, "2ELIFREP", 8, -EINVAL, "too few");
	TEST_ASSERT(ctx, !ret && !write_test_file(path, 0), "write");
	file = read_whole(path, &len);
	TEST_ASSERT(ctx, file, "read back");
	ret = check_mutations(ctx, file, len);
	if (!ret)
		ret = check_garbage_cases(ctx, file, len);
	free(file);
	tmp_cleanup();
	return ret;
}

#define KILLED_SAMPLES 20000

/*
 * A writer that dies without finishing leaves a header whose data.size
 * covers the whole records it flushed, which therefore read cleanly.
 */
static int check_killed_writer(struct test_ctx *ctx)
{
	const char *path = tmp_path("perf.data");
	struct tsample t = samples[0];
	struct seen seen = { .stop_after = MAX_SEEN - 1 };
	struct perf_data_writer w;
	struct perf_session s;
	int status, err, i;
	pid_t pid = fork();

	TEST_ASSERT(ctx, pid >= 0, "fork");
	if (!pid) {
		struct perf_fbuf b = { 0 };

		err = perf_data_writer__open(&w, path);
		if (!err)
			err = add_test_attrs(&w);
		for (i = 0; i < KILLED_SAMPLES && !err; i++) {
			b.len = 0;
			t.time = 1000 + i;
			put_sample(&b, &t);
			/* Odd pieces, so that flushes fall inside records. */
			err = perf_data_writer__write(&w, b.data, 33) ||
			      perf_data_writer__write(&w, b.data + 33,
						      b.len - 33);
		}
		_exit(err ? 1 : 0);
	}
	TEST_ASSERT(ctx, waitpid(pid, &status, 0) == pid &&
		    WIFEXITED(status) && !WEXITSTATUS(status), "writer failed");
	err = perf_session__open(&s, path);
	TEST_ASSERT(ctx, !err, "open: %s", perf_session__error(&s));
	err = perf_session__for_each_event(&s, collect, &seen);
	pr_test(ctx, "killed writer: data.size %llu, read %d: %s\n",
		s.header.data.size, err, perf_session__error(&s));
	/* The collector stops early on purpose, with -EINTR. */
	TEST_ASSERT(ctx, err == -EINTR && s.header.data.size &&
		    s.header.data.size % 80 == 0 && !*perf_session__warning(&s),
		    "data.size %llu, read %d, warning '%s'", s.header.data.size,
		    err, perf_session__warning(&s));
	seen.stop_after = 0;
	seen.nr = 0;
	err = perf_session__for_each_event(&s, collect, &seen);
	TEST_ASSERT(ctx, err == -E2BIG && s.stats.nr_events[0] == MAX_SEEN + 1,
		    "second pass %d", err);
	perf_session__close(&s);
	return TEST_OK;
}

int test__data_unfinished(struct test_ctx *ctx)
{
	const char *path = tmp_path("perf.data");
	struct perf_session s;
	struct seen seen = { 0 };
	struct perf_file_header h;
	size_t len;
	u8 *file;
	int err, ret;

	TEST_ASSERT(ctx, !write_test_file(path, 0), "write");
	file = read_whole(path, &len);
	TEST_ASSERT(ctx, file, "read back");
	memcpy(&h, file, sizeof(h));
	/* What a recording leaves when killed before its first flush. */
	h.data.size = 0;
	memset(h.adds_features, 0, sizeof(h.adds_features));
	memcpy(file, &h, sizeof(h));
	len = h.data.offset + 0x40 + 0x78 + 0x50;	/* COMM, MMAP2, 1 sample */
	TEST_ASSERT(ctx, !write_whole(path, file, len), "write");
	free(file);
	err = perf_session__open(&s, path);
	TEST_ASSERT(ctx, !err, "open: %s", perf_session__error(&s));
	ret = strstr(perf_session__warning(&s),
		     "recording did not finish: reading up to end of file") ?
	      TEST_OK : TEST_FAIL;
	err = perf_session__for_each_event(&s, collect, &seen);
	if (err || seen.nr != 3 || seen.sample[2].ip != samples[0].ip)
		ret = TEST_FAIL;
	if (ret)
		printf("    warning '%s', read %d, %d records\n",
		       perf_session__warning(&s), err, seen.nr);
	perf_session__close(&s);
	if (!ret)
		ret = check_killed_writer(ctx);
	tmp_cleanup();
	return ret;
}

/* ---- time order ---- */

static const u64 round_times[] = { 10, 30, 20, 0, 25, 15, 40, 0, 35, 50 };

/*
 * Three rounds; a round delivers what is not later than the newest time
 * of the round before.  A COMM without a time follows the sample 20.
 */
static void build_ordered(struct perf_fbuf *b)
{
	struct tsample t = { 0x401000, 7, 7, 0, 0, 0, 1, 0, { 0 } };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(round_times); i++) {
		if (!round_times[i]) {
			put_round(b);
			continue;
		}
		t.time = round_times[i];
		t.ip = 0x400000 + t.time;
		put_sample(b, &t);
		if (t.time == 20)
			put_comm(b, 7, 7, "late", 0, false);
	}
}

static int write_ordered(struct perf_data_writer *w)
{
	struct perf_counter_attr a = test_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct perf_fbuf b = { 0 };
	int err;

	a.sample_id_all = 0;
	err = perf_data_writer__add_attr(w, &a, "task-clock", ids_a, 1);
	build_ordered(&b);
	if (!err)
		err = perf_data_writer__write(w, b.data, b.len);
	perf_fbuf__free(&b);
	if (err) {
		perf_data_writer__finish(w);
		return err;
	}
	return perf_data_writer__finish(w);
}

static int check_order(struct test_ctx *ctx, const struct seen *seen)
{
	static const u64 want[] = {
		0, 0, 10, 15, 20, 1, 25, 30, 35, 40, 50,
	};
	int i, k;

	/* Skip a pipe's ATTR and FEATURE records. */
	for (k = 0; k < seen->nr && seen->type[k] != PERF_RECORD_FINISHED_ROUND;
	     k++)
		;
	TEST_ASSERT(ctx, seen->nr - k == (int)ARRAY_SIZE(want),
		    "%d records", seen->nr - k);
	for (i = 0; i < (int)ARRAY_SIZE(want); i++, k++) {
		u32 type = want[i] == 0 ? PERF_RECORD_FINISHED_ROUND :
			   want[i] == 1 ? PERF_RECORD_COMM : PERF_RECORD_SAMPLE;

		TEST_ASSERT(ctx, seen->type[k] == type,
			    "position %d: type %u, want %u", i, seen->type[k],
			    type);
		if (type == PERF_RECORD_SAMPLE)
			TEST_ASSERT(ctx, seen->sample[k].time == want[i],
				    "position %d: time %llu, want %llu", i,
				    seen->sample[k].time, want[i]);
		if (type == PERF_RECORD_COMM)
			TEST_ASSERT(ctx, !strcmp(seen->comm[k], "late") &&
				    seen->sample[k].pid == (u32)-1,
				    "position %d: comm '%s'", i, seen->comm[k]);
	}
	return TEST_OK;
}

/*
 * The samples of an attr marked unordered come as read; the COMM,
 * queued at the time of the sample before it (20), still waits for
 * the round that releases that time.
 */
static int check_unordered(struct test_ctx *ctx, struct perf_session *s)
{
	static const u64 want[] = {
		10, 30, 20, 0, 25, 15, 40, 0, 1, 35, 50,
	};
	struct seen seen = { 0 };
	int i, err;

	s->attrs[0].unordered = true;
	err = perf_session__for_each_event_ordered(s, collect, &seen);
	s->attrs[0].unordered = false;
	TEST_ASSERT(ctx, !err && seen.nr == (int)ARRAY_SIZE(want),
		    "unordered: error %d, %d records", err, seen.nr);
	for (i = 0; i < (int)ARRAY_SIZE(want); i++) {
		u32 type = want[i] == 0 ? PERF_RECORD_FINISHED_ROUND :
			   want[i] == 1 ? PERF_RECORD_COMM : PERF_RECORD_SAMPLE;

		TEST_ASSERT(ctx, seen.type[i] == type &&
			    (type != PERF_RECORD_SAMPLE ||
			     seen.sample[i].time == want[i]),
			    "unordered: position %d: type %u time %llu, want %llu",
			    i, seen.type[i], seen.sample[i].time, want[i]);
	}
	return TEST_OK;
}

/*
 * Many read buffers of data: rounds of two interleaved CPUs' runs, so
 * that a round's records stay queued while the next round is read, and
 * the reader moves on from blocks that queued records pin.  Each
 * sample's ip and period derive from its time: a queued record whose
 * bytes were overwritten would show it.
 */
#define BIG_ROUNDS	8
#define BIG_PER_CPU	4000

static u64 big_ip(u64 time)
{
	return 0x400000 + time * 3;
}

static void build_big_ordered(struct perf_fbuf *b, int rounds)
{
	struct tsample t = { 0, 7, 7, 0, 0, 0, 1, 0, { 0 } };
	int r, cpu, k, n = rounds < 0 ? -rounds : rounds;

	for (r = 0; r < n; r++) {
		for (cpu = 0; cpu < 2; cpu++) {
			/*
			 * < 0: a sample of time 0 in every other round,
			 * delivered when read.
			 */
			if (rounds < 0 && cpu && r % 2) {
				t.time = 0;
				t.ip = big_ip(r);
				put_sample(b, &t);
			}
			for (k = 0; k < BIG_PER_CPU; k++) {
				t.time = 1 + (u64)r * 2 * BIG_PER_CPU + 2 * k + cpu;
				t.ip = big_ip(t.time);
				t.period = t.time ^ 0x5555;
				t.cpu = cpu;
				put_sample(b, &t);
			}
		}
		put_round(b);
	}
}

struct big_seen {
	u64 nr;
	u64 last_time;
	u64 bad;		/* samples out of order or not as written */
};

static int check_big(struct perf_session *s, const union perf_event *ev,
		     u64 off, const struct perf_sample *sample,
		     struct perf_session_attr *attr, void *ctx)
{
	struct big_seen *seen = ctx;

	if (ev->header.type != PERF_RECORD_SAMPLE)
		return 0;
	if (!sample || sample->time <= seen->last_time ||
	    sample->ip != big_ip(sample->time) ||
	    sample->period != (sample->time ^ 0x5555))
		seen->bad++;
	if (sample)
		seen->last_time = sample->time;
	seen->nr++;
	return 0;
}

static int check_big_ordered(struct test_ctx *ctx, bool pipe_form,
			     int rounds)
{
	const char *path = tmp_path("order.data");
	struct perf_counter_attr a = test_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct perf_data_writer w;
	struct big_seen seen = { 0 };
	struct perf_fbuf b = { 0 };
	struct perf_session s;
	int err, fd;

	a.sample_id_all = 0;
	fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
	TEST_ASSERT(ctx, fd >= 0, "create");
	err = perf_data_writer__open_fd(&w, fd, pipe_form);
	if (!err)
		err = perf_data_writer__add_attr(&w, &a, "task-clock", ids_a, 1);
	build_big_ordered(&b, rounds);
	if (!err)
		err = perf_data_writer__write(&w, b.data, b.len);
	perf_fbuf__free(&b);
	err = perf_data_writer__finish(&w) ?: err;
	close(fd);
	TEST_ASSERT(ctx, !err, "write: %s", strerror(-err));
	err = perf_session__open(&s, path);
	if (!err)
		err = perf_session__for_each_event_ordered(&s, check_big, &seen);
	perf_session__close(&s);
	TEST_ASSERT(ctx, !err && seen.nr == (u64)rounds * 2 * BIG_PER_CPU &&
		    !seen.bad, "%s form: %d, %llu samples, %llu wrong",
		    pipe_form ? "pipe" : "file", err, seen.nr, seen.bad);
	return TEST_OK;
}

int test__data_ordered(struct test_ctx *ctx)
{
	const char *path = tmp_path("order.data");
	struct perf_data_writer w;
	struct perf_session s;
	struct seen seen = { 0 };
	int err, fds[2], status, ret;
	pid_t pid;

	err = perf_data_writer__open(&w, path);
	if (!err)
		err = write_ordered(&w);
	TEST_ASSERT(ctx, !err, "write: %s", strerror(-err));
	err = perf_session__open(&s, path);
	TEST_ASSERT(ctx, !err, "open: %s", perf_session__error(&s));
	err = perf_session__for_each_event_ordered(&s, collect, &seen);
	ret = err ? TEST_FAIL : check_order(ctx, &seen);
	if (!ret)
		ret = check_unordered(ctx, &s);
	/* A callback's error stops the delivery and comes back. */
	memset(&seen, 0, sizeof(seen));
	seen.stop_after = 4;
	if (!ret && perf_session__for_each_event_ordered(&s, collect, &seen) !=
		    -EINTR)
		ret = TEST_FAIL;
	perf_session__close(&s);
	TEST_ASSERT(ctx, !ret, "ordered delivery from a file");
	if (check_big_ordered(ctx, false, BIG_ROUNDS) ||
	    check_big_ordered(ctx, true, BIG_ROUNDS))
		return TEST_FAIL;
	tmp_cleanup();

	/* From a pipe, queued records are copies of the read buffer. */
	TEST_ASSERT(ctx, !pipe(fds), "pipe");
	pid = fork();
	TEST_ASSERT(ctx, pid >= 0, "fork");
	if (!pid) {
		close(fds[0]);
		err = perf_data_writer__open_fd(&w, fds[1], true);
		_exit(err || write_ordered(&w) ? 1 : 0);
	}
	close(fds[1]);
	memset(&seen, 0, sizeof(seen));
	err = perf_session__open_fd(&s, fds[0], "pipe");
	if (!err)
		err = perf_session__for_each_event_ordered(&s, collect, &seen);
	ret = err ? TEST_FAIL : check_order(ctx, &seen);
	if (err)
		printf("    pipe: %d %s\n", err, perf_session__error(&s));
	perf_session__close(&s);
	close(fds[0]);
	TEST_ASSERT(ctx, waitpid(pid, &status, 0) == pid &&
		    WIFEXITED(status) && !WEXITSTATUS(status), "writer failed");
	return ret;
}

/* ---- a reader thread ---- */

/*
 * Rounds of samples with an EVENT_UPDATE renaming the attr in the
 * middle: the callback must see the name change where one thread sees
 * it, which with a reader thread far ahead means the reader waits for
 * the records before the update to be delivered.
 */
#define RENAME_ROUNDS	20
#define RENAME_PER_ROUND 1000

static void put_rename(struct perf_fbuf *b, u64 id, const char *name)
{
	put_header(b, PERF_RECORD_EVENT_UPDATE, 0,
		   24 + PERF_ALIGN8(strlen(name) + 1));
	perf_fbuf__put_u64(b, PERF_EVENT_UPDATE__NAME);
	perf_fbuf__put_u64(b, id);
	put_string8(b, name);
}

static int write_renamed(const char *path)
{
	struct perf_counter_attr a = test_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct tsample t = { 0x401000, 7, 7, 0, 101, 0, 1, 0, { 0 } };
	struct perf_data_writer w;
	struct perf_fbuf b = { 0 };
	int err, r, k;

	a.sample_id_all = 0;
	for (r = 0; r < RENAME_ROUNDS; r++) {
		for (k = 0; k < RENAME_PER_ROUND; k++) {
			t.time = 1 + (u64)r * RENAME_PER_ROUND + k;
			put_sample(&b, &t);
		}
		if (r == RENAME_ROUNDS / 2)
			put_rename(&b, 101, "renamed");
		put_round(&b);
	}
	err = perf_data_writer__open(&w, path);
	if (err)
		goto out;
	err = perf_data_writer__add_attr(&w, &a, "task-clock", ids_a, 1);
	if (!err)
		err = perf_data_writer__write(&w, b.data, b.len);
	err = perf_data_writer__finish(&w) ?: err;
out:
	perf_fbuf__free(&b);
	return err;
}

/* A callback slower than reading: the reader gets ahead of it. */
static void take_time(void)
{
	unsigned int i;

	/* An empty asm the compiler cannot drop or merge keeps the loop. */
	for (i = 0; i < 500; i++)
		__asm__ __volatile__("" ::: "memory");
}

struct names_seen {
	u32 nr;
	u32 renamed_at;			/* the first sample under the new name */
};

static int note_name(struct perf_session *s, const union perf_event *ev,
		     u64 off, const struct perf_sample *sample,
		     struct perf_session_attr *attr, void *ctx)
{
	struct names_seen *seen = ctx;

	if (ev->header.type != PERF_RECORD_SAMPLE || !attr)
		return 0;
	if (!seen->renamed_at && !strcmp(attr->name, "renamed"))
		seen->renamed_at = seen->nr;
	seen->nr++;
	take_time();
	return 0;
}

/* One time-ordered pass over @path, on one thread or with a reader. */
static int read_ordered(const char *path, enum perf_session_reader mode,
			perf_session_event_fn fn, void *ctx)
{
	struct perf_session s;
	int err = perf_session__open(&s, path);

	s.reader_thread = mode;
	if (!err)
		err = perf_session__for_each_event_ordered(&s, fn, ctx);
	perf_session__close(&s);
	return err;
}

static int check_rename_order(struct test_ctx *ctx)
{
	const char *path = tmp_path("order.data");
	struct names_seen one = { 0 }, two = { 0 };

	TEST_ASSERT(ctx, !write_renamed(path), "write");
	TEST_ASSERT(ctx, !read_ordered(path, PERF_SESSION_READER_OFF, note_name,
				       &one) &&
		    !read_ordered(path, PERF_SESSION_READER_ON, note_name, &two),
		    "read");
	TEST_ASSERT(ctx, one.nr == RENAME_ROUNDS * RENAME_PER_ROUND &&
		    one.renamed_at > 0, "one thread: %u samples, renamed at %u",
		    one.nr, one.renamed_at);
	TEST_ASSERT(ctx, two.nr == one.nr && two.renamed_at == one.renamed_at,
		    "reader thread: %u samples, renamed at %u; one thread: at %u",
		    two.nr, two.renamed_at, one.renamed_at);
	return TEST_OK;
}

/* What a pass delivered, in order: a count and a hash of it all. */
struct trail {
	u64 nr;
	u64 hash;
};

static int follow(struct perf_session *s, const union perf_event *ev,
		  u64 off, const struct perf_sample *sample,
		  struct perf_session_attr *attr, void *ctx)
{
	struct trail *tr = ctx;
	u64 v = off ^ ((u64)ev->header.type << 56);

	if (sample)
		v ^= sample->time * 31 + sample->ip + sample->period * 7;
	tr->hash = (tr->hash ^ v) * 0x100000001b3ULL;
	tr->nr++;
	take_time();
	return 0;
}

/*
 * A file of @rounds rounds of samples (build_big_ordered()), after
 * @lead_len bytes of records @lead.
 */
static int write_rounds(const char *path, int rounds, const void *lead,
			size_t lead_len)
{
	struct perf_counter_attr a = test_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct perf_data_writer w;
	struct perf_fbuf b = { 0 };
	int err;

	a.sample_id_all = 0;
	build_big_ordered(&b, -rounds);
	err = perf_data_writer__open(&w, path);
	if (!err)
		err = perf_data_writer__add_attr(&w, &a, "task-clock", ids_a, 1);
	if (!err && lead_len)
		err = perf_data_writer__write(&w, lead, lead_len);
	if (!err)
		err = perf_data_writer__write(&w, b.data, b.len);
	err = perf_data_writer__finish(&w) ?: err;
	perf_fbuf__free(&b);
	return err;
}

/*
 * Every record in the order one thread delivers it: a flushed round
 * must be out before the next round's FINISHED_ROUND, and before a
 * sample of time 0, however far ahead the reader got.
 */
static int check_same_trail(struct test_ctx *ctx, int rounds)
{
	const char *path = tmp_path("order.data");
	struct trail one = { 0 }, two = { 0 };
	int err = write_rounds(path, rounds, NULL, 0);

	TEST_ASSERT(ctx, !err, "write: %s", strerror(-err));
	TEST_ASSERT(ctx, !read_ordered(path, PERF_SESSION_READER_OFF, follow,
				       &one) &&
		    !read_ordered(path, PERF_SESSION_READER_ON, follow, &two),
		    "read");
	TEST_ASSERT(ctx, one.nr == (u64)rounds * (2 * BIG_PER_CPU + 1) +
		    rounds / 2 &&
		    two.nr == one.nr && two.hash == one.hash,
		    "%d rounds: %llu records, %llu with a reader thread, %s order",
		    rounds, one.nr, two.nr,
		    two.hash == one.hash ? "the same" : "another");
	return TEST_OK;
}

/*
 * Records that do not lie 8-byte aligned in the read buffer: after an
 * AUXTRACE record whose data is 4 bytes, every record is 4 bytes off.
 * They are copied on their way to the reader thread's ring, one by one
 * among the others: the same records in the same order as one thread
 * delivers them.
 */
static int check_unaligned_trail(struct test_ctx *ctx)
{
	const char *path = tmp_path("order.data");
	struct perf_counter_header aux = {
		.type = PERF_RECORD_AUXTRACE, .size = 48,
	};
	struct trail one = { 0 }, two = { 0 };
	u8 first[48 + 4] = { 0 };
	u64 aux_size = 4;
	int err;

	memcpy(first, &aux, sizeof(aux));
	memcpy(first + 8, &aux_size, sizeof(aux_size));
	err = write_rounds(path, 4, first, sizeof(first));
	TEST_ASSERT(ctx, !err, "write: %s", strerror(-err));
	TEST_ASSERT(ctx, !read_ordered(path, PERF_SESSION_READER_OFF, follow,
				       &one) &&
		    !read_ordered(path, PERF_SESSION_READER_ON, follow, &two),
		    "read");
	TEST_ASSERT(ctx, one.nr == 4 * (2 * BIG_PER_CPU + 1) + 2 + 1 &&
		    two.nr == one.nr && two.hash == one.hash,
		    "unaligned: %llu records, %llu with a reader thread, %s order",
		    one.nr, two.nr,
		    two.hash == one.hash ? "the same" : "another");
	return TEST_OK;
}

/* The tests of files, read again with a reader thread for every pass. */
static int (*const reread_tests[])(struct test_ctx *ctx) = {
	test__data_file, test__data_truncated, test__data_garbage,
	test__data_unfinished, test__data_ordered, test__data_ids,
	test__data_dump, test__sched_kvm, test__sched_exiting,
	test__sched_corrupt, test__compress_records,
};

static int reread_all(struct test_ctx *ctx)
{
	char *old = getenv("PERF_READER_THREAD");
	int ret = TEST_OK;
	size_t i;

	if (old)
		old = strdup(old);
	setenv("PERF_READER_THREAD", "1", 1);
	for (i = 0; i < ARRAY_SIZE(reread_tests) && ret == TEST_OK; i++)
		ret = reread_tests[i](ctx);
	/* More records than the ring holds, and more bytes. */
	if (ret == TEST_OK)
		ret = check_big_ordered(ctx, false, 40);
	if (old)
		setenv("PERF_READER_THREAD", old, 1);
	else
		unsetenv("PERF_READER_THREAD");
	free(old);
	return ret;
}

/* With the ring's size, and a small ring that both threads wait on. */
int test__data_reader(struct test_ctx *ctx)
{
	static const unsigned int ring[] = { 0, 128 };
	unsigned int slots = session_reader_slots;
	int ret = TEST_OK;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ring) && ret == TEST_OK; i++) {
		if (ring[i])
			session_reader_slots = ring[i];
		ret = reread_all(ctx);
		if (ret == TEST_OK)
			ret = check_same_trail(ctx, 10);
		if (ret == TEST_OK)
			ret = check_unaligned_trail(ctx);
		if (ret == TEST_OK)
			ret = check_rename_order(ctx);
		session_reader_slots = slots;
		if (ret != TEST_OK)
			printf("    with a ring of %u records\n",
			       ring[i] ? ring[i] : slots);
	}
	/* Every file the tests wrote is gone with their directory. */
	TEST_ASSERT(ctx, !tmp_cleanup() || ret != TEST_OK,
		    "files left in the tests' temporary directory");
	return ret;
}

/* ---- the id table ---- */

#define NR_IDS 20000

static u64 spread_id(int attr, int i)
{
	/* Ids that collide in their low bits, and the extremes. */
	if (attr == 0 && i == 0)
		return 0;
	if (attr == 1 && i == 0)
		return UINT64_MAX;
	return ((u64)(attr + 1) << 40) + (u64)i * 4096;
}

int test__data_ids(struct test_ctx *ctx)
{
	const char *path = tmp_path("ids.data");
	struct perf_counter_attr a = test_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct perf_data_writer w;
	struct perf_fbuf b = { 0 };
	struct perf_session s;
	struct seen seen = { 0 };
	u64 *ids = calloc(NR_IDS, sizeof(u64));
	int err, k, i;

	TEST_ASSERT(ctx, ids, "calloc");
	a.sample_type |= PERF_SAMPLE_IDENTIFIER;
	err = perf_data_writer__open(&w, path);
	for (k = 0; k < 3 && !err; k++) {
		for (i = 0; i < NR_IDS; i++)
			ids[i] = spread_id(k, i);
		a.config = k;
		err = perf_data_writer__add_attr(&w, &a, NULL, ids, NR_IDS);
	}
	free(ids);
	/* Samples of each attr, found by the IDENTIFIER in front. */
	for (i = 0; i < 30; i++) {
		put_header(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 96);
		perf_fbuf__put_u64(&b, spread_id(i % 3, i * 661 % NR_IDS));
		perf_fbuf__zero(&b, 80);
	}
	if (!err)
		err = perf_data_writer__write(&w, b.data, b.len);
	perf_fbuf__free(&b);
	if (!err)
		err = perf_data_writer__finish(&w);
	TEST_ASSERT(ctx, !err, "write: %s", strerror(-err));
	err = perf_session__open(&s, path);
	TEST_ASSERT(ctx, !err, "open: %s", perf_session__error(&s));
	for (k = 0; k < 3 && !err; k++)
		for (i = 0; i < NR_IDS && !err; i++)
			err = perf_session__find_attr(&s, spread_id(k, i)) !=
			      &s.attrs[k];
	if (!err)
		err = perf_session__find_attr(&s, 4096 + 1) ||
		      perf_session__find_attr(&s, (4ULL << 40));
	if (!err)
		err = perf_session__for_each_event(&s, collect, &seen);
	for (i = 0; i < 30 && !err; i++)
		err = seen.attr[i] != i % 3;
	if (!err)
		err = strcmp(s.attrs[0].name, "cpu-clock") ||
		      strcmp(s.attrs[1].name, "task-clock");
	perf_session__close(&s);
	tmp_cleanup();
	TEST_ASSERT(ctx, !err, "lookup failed at attr %d id %d", k, i);
	return TEST_OK;
}

/* ---- the raw dump ---- */

static char *dump_text(struct perf_session *s, bool ordered, int *ret)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	*ret = perf_session__dump(s, f, ordered);
	fclose(f);
	return text;
}

/* The dump of the test file; "%s" stands for its path. */
static const char * const dump_lines[] = {
	"\n0x1a8@%s [0x40]: event: 3\n.\n. ... raw event: size 64 bytes\n",
	".  0000:  03 00 00 00 00 00 40 00 64 00 00 00 64 00 00 00  ......@.d...d...\n",
	"0 900 0x1a8 [0x40]: PERF_RECORD_COMM: test-comm:100/100\n",
	"1 950 0x1e8 [0x78]: PERF_RECORD_MMAP2 100/100: [0x400000(0x10000) @ 0 08:01 1234 0]: r-xp /usr/bin/test\n",
	"0 1000 0x260 [0x50]: PERF_RECORD_SAMPLE(IP, 0x2): 100/100: 0x401000 period: 100000 addr: 0\n",
	"... FP chain: nr:2\n.....  0: 0000000000401000\n.....  1: 0000000000402000\n",
	"0 0 0x350 [0x8]: PERF_RECORD_FINISHED_ROUND\n",
	"\nAggregated stats:\n           TOTAL events:         10\n",
	"            COMM events:          1  (10.0%%)\n",
	"          SAMPLE events:          6  (60.0%%)\n",
	"task-clock stats:\n          SAMPLE events:          3\n",
};

int test__data_dump(struct test_ctx *ctx)
{
	const char *path = tmp_path("perf.data");
	struct perf_session s;
	char *text;
	int err, ret;

	TEST_ASSERT(ctx, !write_test_file(path, 0), "write");
	err = perf_session__open(&s, path);
	TEST_ASSERT(ctx, !err, "open: %s", perf_session__error(&s));
	TEST_ASSERT(ctx, s.data_offset == 0x1a8, "data at %#llx",
		    s.data_offset);
	text = dump_text(&s, true, &err);
	pr_test(ctx, "%s", text ? text : "");
	ret = err ? TEST_FAIL : has_lines(text, dump_lines,
					  ARRAY_SIZE(dump_lines), path);
	free(text);
	perf_session__close(&s);
	tmp_cleanup();
	return ret;
}

/* ---- test aids for the shell test ---- */

/*
 * perf test -w dump-data [--header|--header-full] FILE: the raw dump as
 * perf report -D prints it, or the header as --header-only (-I) does.
 */
int workload_dump_data(int argc, const char **argv)
{
	int header = 0, err;
	struct perf_session s;

	if (argc > 1 && !strcmp(argv[0], "--header"))
		header = 1;
	else if (argc > 1 && !strcmp(argv[0], "--header-full"))
		header = 2;
	if (header) {
		argc--;
		argv++;
	}
	if (argc < 1) {
		fprintf(stderr, "usage: perf test -w dump-data [--header|--header-full] FILE\n");
		return 1;
	}
	err = perf_session__open(&s, argv[0]);
	if (err) {
		fprintf(stderr, "%s\n", perf_session__error(&s));
		perf_session__close(&s);
		return err != PERF_SESSION_EMPTY;
	}
	if (*perf_session__warning(&s))
		fprintf(stderr, "Warning:\n%s\n", perf_session__warning(&s));
	if (header) {
		perf_session__fprintf_header(&s, stdout, header > 1);
		perf_session__close(&s);
		return 0;
	}
	err = perf_session__dump(&s, stdout, true);
	if (err == PERF_SESSION_DATA_ERROR)
		fprintf(stderr, "Warning:\n%s\n", perf_session__error(&s));
	else if (err)
		fprintf(stderr, "%s\n", perf_session__error(&s));
	perf_session__close(&s);
	return err && err != PERF_SESSION_DATA_ERROR;
}

/* The executable mapping of this binary, from /proc/self/maps. */
static int self_text(u64 *start, u64 *end, u64 *pgoff, u32 *maj, u32 *min,
		     u64 *ino, char *path, size_t size)
{
	char exe[PATH_MAX], line[PATH_MAX + 128], file[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f = fopen("/proc/self/maps", "r");
	int ret = -ENOENT;

	if (n <= 0 || !f) {
		if (f)
			fclose(f);
		return -ENOENT;
	}
	exe[n] = '\0';
	while (ret && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off, inode;
		char perms[8];

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %s", &s, &e,
			   perms, &off, maj, min, &inode, file) != 8)
			continue;
		if (strcmp(file, exe) || perms[2] != 'x')
			continue;
		*start = s;
		*end = e;
		*pgoff = off;
		*ino = inode;
		snprintf(path, size, "%s", file);
		ret = 0;
	}
	fclose(f);
	return ret;
}

static void put_real_mmap2(struct perf_fbuf *b, u32 pid, u64 start, u64 end,
			   u64 pgoff, u32 maj, u32 min, u64 ino,
			   const char *file, u64 time, u64 id)
{
	size_t size = 72 + PERF_ALIGN8(strlen(file) + 1) + 32;

	put_header(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, size);
	perf_fbuf__put_u32(b, pid);
	perf_fbuf__put_u32(b, pid);
	perf_fbuf__put_u64(b, start);
	perf_fbuf__put_u64(b, end - start);
	perf_fbuf__put_u64(b, pgoff);
	perf_fbuf__put_u32(b, maj);
	perf_fbuf__put_u32(b, min);
	perf_fbuf__put_u64(b, ino);
	perf_fbuf__put_u64(b, 0);
	perf_fbuf__put_u32(b, 5);		/* PROT_READ | PROT_EXEC */
	perf_fbuf__put_u32(b, 2);		/* MAP_PRIVATE */
	put_string8(b, file);
	put_id(b, pid, pid, time, id, 0);
}

/* IP|TID|TIME|ID|CPU|PERIOD, the layout of the samples below. */
static void put_real_sample(struct perf_fbuf *b, u64 ip, u32 pid, u64 time,
			    u64 id, u32 cpu)
{
	put_header(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 56);
	perf_fbuf__put_u64(b, ip);
	perf_fbuf__put_u32(b, pid);
	perf_fbuf__put_u32(b, pid);
	perf_fbuf__put_u64(b, time);
	perf_fbuf__put_u64(b, id);
	perf_fbuf__put_u32(b, cpu);
	perf_fbuf__put_u32(b, 0);
	perf_fbuf__put_u64(b, 100000);
}

static int write_data_records(struct perf_data_writer *w, int nr)
{
	u64 start, end, pgoff, ino, now, id0 = 1000;
	u32 maj, min, pid = getpid();
	struct perf_fbuf b = { 0 };
	char file[PATH_MAX];
	struct timespec ts;
	int i, err;

	if (self_text(&start, &end, &pgoff, &maj, &min, &ino, file,
		      sizeof(file)))
		return -ENOENT;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	put_header(&b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, 56);
	perf_fbuf__put_u32(&b, pid);
	perf_fbuf__put_u32(&b, pid);
	put_string8(&b, "perf");
	put_id(&b, pid, pid, now, id0, 0);
	put_real_mmap2(&b, pid, start, end, pgoff, maj, min, ino, file,
		       now + 1000, id0);
	for (i = 0; i < nr; i++) {
		u64 ip = (u64)(uintptr_t)&workload_write_data + (i % 16) * 4;

		if (ip < start || ip >= end)
			ip = start + (i % 16) * 4;
		put_real_sample(&b, ip, pid, now + 2000 + i * 100000ULL,
				id0 + i % 2, i % 2);
		if (i % 50 == 49)
			put_round(&b);
	}
	put_round(&b);
	err = b.err ? b.err : perf_data_writer__write(w, b.data, b.len);
	perf_fbuf__free(&b);
	return err;
}

/*
 * perf test -w write-data FILE [N]: a small realistic recording of this
 * process ("-" writes a pipe to stdout) for Linux perf to read.
 */
int workload_write_data(int argc, const char **argv)
{
	struct perf_counter_attr a;
	struct perf_data_writer w;
	u64 ids[2] = { 1000, 1001 };
	int nr = argc > 1 ? atoi(argv[1]) : 100, err;

	if (argc < 1 || nr < 0) {
		fprintf(stderr, "usage: perf test -w write-data FILE [SAMPLES]\n");
		return 1;
	}
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_ID;
	a.read_format = PERF_FORMAT_ID;
	/* What perf record asks for, so that the file looks like its. */
	a.disabled = 1;
	a.inherit = 1;
	a.mmap = 1;
	a.comm = 1;
	a.enable_on_exec = 1;
	a.task = 1;
	a.sample_id_all = 1;
	a.exclude_guest = 1;
	a.mmap2 = 1;
	a.comm_exec = 1;
	err = perf_data_writer__open(&w, argv[0]);
	if (err) {
		fprintf(stderr, "write-data: cannot create %s: %s\n", argv[0],
			strerror(-err));
		return 1;
	}
	err = perf_header_info__set_cmdline(&w.info, 4, (const char *[]) {
					    "test", "-w", "write-data", argv[0],
					    });
	if (!err)
		err = perf_data_writer__add_attr(&w, &a, "task-clock", ids, 2);
	if (!err)
		err = write_data_records(&w, nr);
	if (err)
		perf_data_writer__abort(&w);
	else
		err = perf_data_writer__finish(&w);
	if (err) {
		fprintf(stderr, "write-data: %s: %s\n", argv[0], strerror(-err));
		return 1;
	}
	return 0;
}

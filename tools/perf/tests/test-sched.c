// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the tracing data feature and of perf sched timehist on
 * perf.data files built here from constructed records, with the real
 * tracepoint formats of this machine.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event-parse.h>
#include <perf/evlist.h>
#include <perf/tracefs.h>
#include "tests.h"
#include "../util/data.h"
#include "../util/flight-store.h"
#include "../util/header.h"
#include "../util/sched.h"
#include "../util/sched-daemon.h"
#include "../util/trace-data.h"

static bool have_tracepoint(const char *sys, const char *name)
{
	return tracefs_event_id(sys, name) >= 0;
}

int test__tracing_data(struct test_ctx *ctx)
{
	static const char * const events[] = {
		"sched:sched_switch", "sched:sched_wakeup",
		"sched:sched_migrate_task",
	};
	struct perf_fbuf b = { 0 };
	struct tep_handle *tep;
	char err[256];
	size_t i, cut;
	int ret;

	if (!have_tracepoint("sched", "sched_switch"))
		return test_skip(ctx, "no tracefs with sched tracepoints (mount tracefs, run as root)");
	ret = trace_data__build(&b, events, 3);
	TEST_ASSERT(ctx, !ret, "build: %s", strerror(-ret));
	TEST_ASSERT(ctx, b.len > 20 && !memcmp(b.data, "\027\010\104tracing0.6", 14),
		    "magic and version 0.6 first");
	TEST_ASSERT(ctx, b.data[14] == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) &&
		    b.data[15] == sizeof(long), "endianness and long size");
	tep = trace_data__parse(b.data, b.len, err, sizeof(err));
	TEST_ASSERT(ctx, tep, "parse: %s", err);
	for (i = 0; i < 3; i++) {
		const char *name = strchr(events[i], ':') + 1;
		struct tep_event *e = tep_find_event_by_name(tep, "sched", name);

		TEST_ASSERT(ctx, e, "%s parsed", events[i]);
		TEST_ASSERT(ctx, e->id == tracefs_event_id("sched", name),
			    "%s has the id of tracefs", events[i]);
	}
	TEST_ASSERT(ctx, tep_find_field(tep_find_event_by_name(tep, "sched",
							       "sched_switch"),
					"prev_state"), "sched_switch fields");
	TEST_ASSERT(ctx, tep_get_events_count(tep) == 3, "only what was asked");
	tep_free(tep);
	/* Cut anywhere before the event formats end: refused, no crash. */
	for (cut = 0; cut < b.len / 2; cut += 7) {
		tep = trace_data__parse(b.data, cut, err, sizeof(err));
		TEST_ASSERT(ctx, !tep && err[0], "blob cut at %zu refused", cut);
	}
	perf_fbuf__free(&b);
	return TEST_OK;
}

/* Tracing data with no events, the given printk formats. */
static void put_printk_blob(struct perf_fbuf *b, const char *printk)
{
	static const char head[] = "\027\010\104tracing0.6";
	static const char page[] =
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

	perf_fbuf__put(b, head, sizeof(head));	/* with the NUL */
	perf_fbuf__put(b, "\0\10", 2);		/* little endian, long 8 */
	perf_fbuf__put_u32(b, 4096);
	perf_fbuf__put(b, "header_page", sizeof("header_page"));
	perf_fbuf__put_u64(b, strlen(page));
	perf_fbuf__put(b, page, strlen(page));
	perf_fbuf__put(b, "header_event", sizeof("header_event"));
	perf_fbuf__put_u64(b, 0);
	perf_fbuf__put_u32(b, 0);		/* ftrace events */
	perf_fbuf__put_u32(b, 0);		/* systems */
	perf_fbuf__put_u32(b, 0);		/* kallsyms */
	perf_fbuf__put_u32(b, strlen(printk));
	perf_fbuf__put(b, printk, strlen(printk));
	perf_fbuf__put_u64(b, 0);		/* saved cmdlines */
}

/* Rename the field of the tracing data that its print fmt names. */
static bool rename_field(struct perf_fbuf *b, const char *decl,
			 const char *print_ref)
{
	u8 *p = memmem(b->data, b->len, decl, strlen(decl));

	if (!p || !memmem(p, b->data + b->len - p, print_ref,
			  strlen(print_ref)))
		return false;
	p[strlen(decl) - 2] ^= 0x20;	/* "comm;" becomes "comM;" */
	return true;
}

/*
 * Insert @byte after @at in the first event format of @b that has it,
 * growing the format's u64 length (just before its "name: " line).
 */
static bool insert_in_format(struct perf_fbuf *b, const char *at, u8 byte)
{
	u8 *p = memmem(b->data, b->len, at, strlen(at)), *name;
	u64 len;

	if (!p)
		return false;
	for (name = p; name > b->data + 8 && memcmp(name, "name: ", 6); name--)
		;
	if (name <= b->data + 8)
		return false;
	perf_fbuf__put(b, "", 1);		/* room for one more byte */
	if (b->err)
		return false;
	p = b->data + (p - (u8 *)b->data) + strlen(at);
	name = b->data + (name - (u8 *)b->data);
	memmove(p + 1, p, b->data + b->len - 1 - p);
	*p = byte;
	memcpy(&len, name - 8, 8);
	len++;
	memcpy(name - 8, &len, 8);
	return true;
}

/*
 * Tracing data that made libtraceevent read out of bounds or follow a
 * NULL pointer is refused before libtraceevent sees it.
 */
int test__tracing_data_corrupt(struct test_ctx *ctx)
{
	static const char * const events[] = { "sched:sched_process_fork" };
	struct perf_fbuf b = { 0 };
	struct tep_handle *tep;
	char err[256] = "";

	put_printk_blob(&b, "0xffffffff81000000 : \"ok\"\n");
	tep = trace_data__parse(b.data, b.len, err, sizeof(err));
	TEST_ASSERT(ctx, tep, "a good printk line: %s", err);
	tep_free(tep);
	perf_fbuf__free(&b);
	put_printk_blob(&b, "0xffffffff81000000 : \"ok\"\n0xffffffff81000008\n");
	tep = trace_data__parse(b.data, b.len, err, sizeof(err));
	TEST_ASSERT(ctx, !tep && strstr(err, "malformed line at byte 26"),
		    "a printk line without ': \"...\"' refused: %s", err);
	perf_fbuf__free(&b);

	if (!have_tracepoint("sched", "sched_process_fork"))
		return test_skip(ctx, "no tracefs with sched tracepoints (mount tracefs, run as root)");
	TEST_ASSERT(ctx, !trace_data__build(&b, events, 1), "build");
	if (!rename_field(&b, " parent_comm;", "__get_str(parent_comm)")) {
		perf_fbuf__free(&b);
		return test_skip(ctx, "sched_process_fork has no __data_loc parent_comm here");
	}
	tep = trace_data__parse(b.data, b.len, err, sizeof(err));
	TEST_ASSERT(ctx, !tep && strstr(err, "cannot parse the format"),
		    "a print fmt of a missing field refused: %s", err);
	perf_fbuf__free(&b);
	/* A byte no format has, inside a field's type: "char[\x85]". */
	TEST_ASSERT(ctx, !trace_data__build(&b, events, 1), "build");
	TEST_ASSERT(ctx, insert_in_format(&b, "__data_loc char[", 0x85),
		    "a __data_loc char[] field to spoil");
	tep = trace_data__parse(b.data, b.len, err, sizeof(err));
	TEST_ASSERT(ctx, !tep && strstr(err, "cannot parse the format"),
		    "a format with a byte that is no text refused: %s", err);
	perf_fbuf__free(&b);
	return TEST_OK;
}

/* ---- a constructed recording of two vCPU threads ---- */

#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		     PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
		     PERF_SAMPLE_RAW)
#define MS 1000000ULL
#define T0 (1000ULL * MS)

enum { EV_SWITCH, EV_ENTRY, EV_EXIT, NR_EV };

static const char * const kvm_events[NR_EV] = {
	"sched:sched_switch", "kvm:kvm_entry", "kvm:kvm_exit",
};

struct kvm_file {
	const char * const *names;	/* "sys:name" of each attr */
	int nr;
	struct tep_handle *tep;
	struct tep_event *ev[NR_EV];
	struct perf_fbuf recs;
	void (*put_records)(struct kvm_file *kf);
	bool no_cpu;			/* samples without PERF_SAMPLE_CPU */
	u32 nr_cpus;			/* NRCPUS to write, when not 0 */
	u32 vcpu;			/* the first vCPU's tid */
};

static void set_field(struct tep_event *e, u8 *raw, const char *name, u64 v)
{
	struct tep_format_field *f = tep_find_any_field(e, name);

	if (f && f->size <= 8)
		memcpy(raw + f->offset, &v, f->size);
}

/* One sample of event @ev by thread @tid of process @pid. */
static void put_sample(struct kvm_file *kf, int ev, u32 pid, u32 tid,
		       u64 time, u32 cpu, const char *field, u64 value)
{
	struct tep_event *e = kf->ev[ev];
	u8 raw[128] = { 0 };
	u32 raw_size = 0, cpu_res[2] = { cpu, 0 }, pt[2] = { pid, tid };
	struct perf_counter_header h = { .type = PERF_RECORD_SAMPLE };
	struct tep_format_field *f;

	for (f = e->format.fields; f; f = f->next) {
		if ((u32)(f->offset + f->size) > raw_size)
			raw_size = f->offset + f->size;
	}
	/* The raw size field and the data end on an 8-byte boundary. */
	raw_size = ((raw_size + 4 + 7) & ~7u) - 4;
	set_field(e, raw, "common_type", e->id);
	set_field(e, raw, "common_pid", tid);
	if (field)
		set_field(e, raw, field, value);
	if (ev == EV_EXIT)
		set_field(e, raw, "isa", 1);	/* VMX */
	h.size = sizeof(h) + (kf->no_cpu ? 5 : 6) * sizeof(u64) +
		 sizeof(u32) + raw_size;
	perf_fbuf__put(&kf->recs, &h, sizeof(h));
	perf_fbuf__put_u64(&kf->recs, ev + 1);		/* id */
	perf_fbuf__put_u64(&kf->recs, 0xffffffff81000000ULL);
	perf_fbuf__put(&kf->recs, pt, sizeof(pt));
	perf_fbuf__put_u64(&kf->recs, time);
	if (!kf->no_cpu)
		perf_fbuf__put(&kf->recs, cpu_res, sizeof(cpu_res));
	perf_fbuf__put_u64(&kf->recs, 1);		/* period */
	perf_fbuf__put_u32(&kf->recs, raw_size);
	perf_fbuf__put(&kf->recs, raw, raw_size);
}

static void put_comm(struct kvm_file *kf, u32 pid, u32 tid, const char *comm)
{
	struct perf_counter_header h = {
		.type = PERF_RECORD_COMM,
		.size = sizeof(h) + 8 + 16,
	};
	char name[16] = { 0 };

	snprintf(name, sizeof(name), "%s", comm);
	perf_fbuf__put(&kf->recs, &h, sizeof(h));
	perf_fbuf__put_u32(&kf->recs, pid);
	perf_fbuf__put_u32(&kf->recs, tid);
	perf_fbuf__put(&kf->recs, name, sizeof(name));
}

/*
 * The first vCPU (kf->vcpu, process 4194400) enters at 0, exits for
 * I/O at 2 ms, enters at 2.3, exits with HLT at 5, enters at 6, exits
 * for I/O at 6.5: 5.2 ms in the guest; I/O handled in 0.3 ms (the last
 * exit is still pending), HLT in 1 ms.  vCPU 4194402 is in the guest
 * from 1 to 4 ms (EPT violation).  The ids are above PID_MAX_LIMIT,
 * where no live task can have them; the daemon's test gives the first
 * vCPU the tid of a live task of another process.
 */
static void put_vcpu_records(struct kvm_file *kf)
{
	u32 v = kf->vcpu;

	put_comm(kf, 4194400, v, "qemu-vcpu");
	put_comm(kf, 4194400, 4194402, "qemu-vcpu");
	put_sample(kf, EV_ENTRY, 4194400, v, T0, 0, NULL, 0);
	put_sample(kf, EV_ENTRY, 4194400, 4194402, T0 + 1 * MS, 1, NULL, 0);
	put_sample(kf, EV_EXIT, 4194400, v, T0 + 2 * MS, 0, "exit_reason", 30);
	put_sample(kf, EV_ENTRY, 4194400, v, T0 + 2300000, 0, NULL, 0);
	put_sample(kf, EV_EXIT, 4194400, 4194402, T0 + 4 * MS, 1, "exit_reason", 48);
	put_sample(kf, EV_EXIT, 4194400, v, T0 + 5 * MS, 0, "exit_reason", 12);
	put_sample(kf, EV_ENTRY, 4194400, v, T0 + 6 * MS, 0, NULL, 0);
	put_sample(kf, EV_EXIT, 4194400, v, T0 + 6500000, 0, "exit_reason", 30);
	put_sample(kf, EV_SWITCH, 4194400, v, T0 + 7 * MS, 0, "prev_pid", v);
}

/* The tracing data of the events, and the events parsed back from it. */
static int kvm_prepare(struct kvm_file *kf, struct perf_fbuf *td)
{
	char err[256];
	int i, ret;

	ret = trace_data__build(td, kf->names, kf->nr);
	if (ret)
		return ret;
	kf->tep = trace_data__parse(td->data, td->len, err, sizeof(err));
	for (i = 0; kf->tep && i < kf->nr; i++) {
		const char *colon = strchr(kf->names[i], ':');
		char sys[16];

		snprintf(sys, sizeof(sys), "%.*s", (int)(colon - kf->names[i]),
			 kf->names[i]);
		kf->ev[i] = tep_find_event_by_name(kf->tep, sys, colon + 1);
		if (!kf->ev[i])
			return -ENOENT;
	}
	return kf->tep ? 0 : -EINVAL;
}

/* The attr of event @i: one sample per tracepoint hit. */
static struct perf_counter_attr kvm_attr(const struct kvm_file *kf, int i)
{
	struct perf_counter_attr a = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(a),
		.config = kf->ev[i]->id,
		.sample_period = 1,
		.sample_type = SAMPLE_TYPE,
	};

	if (kf->no_cpu)
		a.sample_type &= ~PERF_SAMPLE_CPU;
	return a;
}

static int write_kvm_file(struct kvm_file *kf, const char *path)
{
	struct perf_data_writer w;
	struct perf_fbuf td = { 0 };
	int i, ret;

	ret = kvm_prepare(kf, &td);
	if (ret)
		return ret;
	ret = perf_data_writer__open(&w, path);
	if (ret)
		return ret;
	for (i = 0; i < kf->nr && !ret; i++) {
		struct perf_counter_attr a = kvm_attr(kf, i);
		u64 id = i + 1;

		ret = perf_data_writer__add_attr(&w, &a, kf->names[i], &id, 1);
	}
	if (kf->nr_cpus)
		w.info.nr_cpus_online = kf->nr_cpus;
	w.info.tracing_data = td.data;
	w.info.tracing_data_size = td.len;
	perf_feat_set(w.info.features, HEADER_TRACING_DATA);
	kf->put_records(kf);
	if (!ret)
		ret = perf_data_writer__write(&w, kf->recs.data, kf->recs.len);
	ret = ret ? ret : perf_data_writer__finish(&w);
	perf_fbuf__free(&kf->recs);
	return ret;
}

static bool has_line(const char *text, const char *line)
{
	const char *p = text;
	size_t len = strlen(line);

	while ((p = strstr(p, line))) {
		if ((p == text || p[-1] == '\n') && (p[len] == '\n' || !p[len]))
			return true;
		p += len;
	}
	return false;
}

static int run_timehist(const char *path, char **text)
{
	struct sched_timehist th = { .opts.max_stack = 5, .opts.summary = true };
	struct perf_session s;
	size_t len;
	FILE *out = open_memstream(text, &len);
	int ret;

	if (!out)
		return -ENOMEM;
	ret = perf_session__open(&s, path);
	if (!ret)
		ret = sched_timehist__run(&th, &s, out);
	sched_timehist__exit(&th);
	perf_session__close(&s);
	fclose(out);
	return ret;
}

/*
 * Write @kf to a temporary file and run timehist on it: the result is
 * timehist's, an error of writing the file comes back in *write_err.
 */
static int timehist_of_file(struct kvm_file *kf, int *write_err, char **text)
{
	char path[] = "/tmp/perf-test-sched-XXXXXX";
	int fd, ret = 0;

	fd = mkstemp(path);
	if (fd < 0) {
		*write_err = -errno;
		return 0;
	}
	close(fd);
	*write_err = write_kvm_file(kf, path);
	if (kf->tep)
		tep_free(kf->tep);
	kf->tep = NULL;
	if (!*write_err)
		ret = run_timehist(path, text);
	unlink(path);
	return ret;
}

static int check_kvm_table(struct test_ctx *ctx, const char *text, u32 vcpu);

int test__sched_kvm(struct test_ctx *ctx)
{
	struct kvm_file kf = {
		.names = kvm_events, .nr = NR_EV,
		.put_records = put_vcpu_records, .vcpu = 4194401,
	};
	char *text = NULL;
	int ret, write_err;

	if (!have_tracepoint("kvm", "kvm_entry") ||
	    !have_tracepoint("kvm", "kvm_exit") ||
	    !have_tracepoint("sched", "sched_switch"))
		return test_skip(ctx, "kvm:kvm_entry/kvm_exit formats not in tracefs (load the kvm module, mount tracefs as root)");
	ret = timehist_of_file(&kf, &write_err, &text);
	TEST_ASSERT(ctx, !write_err, "write the file: %s", strerror(-write_err));
	TEST_ASSERT(ctx, !ret && text, "timehist ran");
	pr_test(ctx, "%s", text);
	ret = check_kvm_table(ctx, text, kf.vcpu);
	free(text);
	return ret;
}

/* The guest time table of put_vcpu_records()'s two vCPUs. */
static int check_kvm_table(struct test_ctx *ctx, const char *text, u32 vcpu)
{
	char line[160], task[32];

	snprintf(task, sizeof(task), "qemu-vcpu[%u/4194400]", vcpu);
	snprintf(line, sizeof(line), "%30s  %9u.%03u  %9u", task, 5, 200, 3);
	TEST_ASSERT(ctx, has_line(text, line), "vcpu %u: 5.200 ms in the guest, 3 entries", vcpu);
	snprintf(line, sizeof(line), "%30s  %-22s %9u  %9u.%03u", "",
		 "IO_INSTRUCTION", 2, 0, 300);
	TEST_ASSERT(ctx, has_line(text, line), "vcpu %u: 2 I/O exits, 0.3 ms in the host", vcpu);
	snprintf(line, sizeof(line), "%30s  %-22s %9u  %9u.%03u", "", "HLT", 1,
		 1, 0);
	TEST_ASSERT(ctx, has_line(text, line), "vcpu %u: 1 HLT exit, 1 ms in the host", vcpu);
	snprintf(line, sizeof(line), "%30s  %9u.%03u  %9u", "qemu-vcpu[4194402/4194400]",
		 3, 0, 1);
	TEST_ASSERT(ctx, has_line(text, line), "vcpu 4194402: 3 ms in the guest");
	return TEST_OK;
}

static void put_wakeup(struct kvm_file *kf)
{
	put_sample(kf, 0, 10, 10, T0, 0, "pid", 11);
}

int test__sched_no_switch(struct test_ctx *ctx)
{
	static const char * const events[] = { "sched:sched_wakeup" };
	struct kvm_file kf = {
		.names = events, .nr = 1, .put_records = put_wakeup,
	};
	char *text = NULL;
	int ret, write_err;

	if (!have_tracepoint("sched", "sched_wakeup"))
		return test_skip(ctx, "no tracefs with sched tracepoints (mount tracefs, run as root)");
	ret = timehist_of_file(&kf, &write_err, &text);
	TEST_ASSERT(ctx, !write_err, "write the file: %s", strerror(-write_err));
	TEST_ASSERT(ctx, ret == -EINVAL && text && !strstr(text, "task name"),
		    "a file without sched_switch is refused before any line (%d)",
		    ret);
	free(text);
	return TEST_OK;
}

/*
 * An exiting task's last switches carry tid -1 (its pid is gone): as
 * in Linux perf, a task ":-1[-1/PID]" of its own, listed first among
 * the tids that are 255 modulo 256.
 */
static void put_exiting(struct kvm_file *kf)
{
	put_comm(kf, 255, 255, "alpha");
	put_sample(kf, 0, 255, 255, T0, 0, "prev_pid", 255);
	put_sample(kf, 0, 511, (u32)-1, T0 + 1 * MS, 0, "prev_pid", 767);
	put_sample(kf, 0, 255, 255, T0 + 3 * MS, 0, "prev_pid", 255);
	put_sample(kf, 0, 511, (u32)-1, T0 + 4 * MS, 0, "prev_pid", 767);
}

int test__sched_exiting(struct test_ctx *ctx)
{
	static const char * const events[] = { "sched:sched_switch" };
	struct kvm_file kf = {
		.names = events, .nr = 1, .put_records = put_exiting,
	};
	char *text = NULL, *gone, *alpha;
	int ret, write_err;

	if (!have_tracepoint("sched", "sched_switch"))
		return test_skip(ctx, "no tracefs with sched tracepoints (mount tracefs, run as root)");
	ret = timehist_of_file(&kf, &write_err, &text);
	TEST_ASSERT(ctx, !write_err, "write the file: %s", strerror(-write_err));
	TEST_ASSERT(ctx, !ret && text, "timehist ran");
	pr_test(ctx, "%s", text);
	gone = strstr(text, ":-1[-1/511]");
	alpha = strstr(text, "alpha[255]");
	TEST_ASSERT(ctx, gone && alpha, "both tasks listed");
	gone = strstr(strstr(text, "Runtime summary") ?: text, ":-1[-1/511]");
	alpha = strstr(strstr(text, "Runtime summary") ?: text, "alpha[255]");
	TEST_ASSERT(ctx, gone && alpha && gone < alpha,
		    "the exiting task comes first in the summary");
	free(text);
	return TEST_OK;
}

/*
 * Files a fuzzer made crash or hang timehist, rebuilt from their
 * essence.  Each runs under an alarm: a hang is a failure, not a stuck
 * test run.
 */
#define CORRUPT_ALARM 20

static void put_comm_only(struct kvm_file *kf)
{
	put_comm(kf, 10, 10, "alpha");
}

static void put_cpu_beyond(struct kvm_file *kf)
{
	put_comm(kf, 10, 10, "alpha");
	put_sample(kf, 0, 10, 10, T0, 0, "prev_pid", 10);
	put_sample(kf, 0, 10, 10, T0 + MS, 0x80000000u, "prev_pid", 10);
}

static void put_two_switches(struct kvm_file *kf)
{
	put_comm(kf, 10, 10, "alpha");
	put_sample(kf, 0, 10, 10, T0, 0, "prev_pid", 10);
	put_sample(kf, 0, 10, 10, T0 + MS, 0, "prev_pid", 0);
}

/*
 * Two CPUs online; CPU 7 only in a sched_stat_runtime sample, which
 * timehist reads for nothing else (the session skips it).
 */
static void put_runtime_beyond(struct kvm_file *kf)
{
	put_comm(kf, 10, 10, "alpha");
	put_sample(kf, 0, 10, 10, T0, 0, "prev_pid", 10);
	put_sample(kf, 1, 10, 10, T0 + MS / 2, 7, "runtime", 100);
	put_sample(kf, 0, 10, 10, T0 + MS, 1, "prev_pid", 0);
}

/*
 * Its CPU still counts in the summary's "(x CPUs)", as in Linux perf,
 * and the sample in the session's stats.
 */
int test__sched_skipped(struct test_ctx *ctx)
{
	static const char * const events[] = {
		"sched:sched_switch", "sched:sched_stat_runtime",
	};
	struct kvm_file kf = { .names = events, .nr = 2, .nr_cpus = 2,
			       .put_records = put_runtime_beyond };
	struct sched_timehist th = { .opts.max_stack = 5,
				     .opts.summary_only = true };
	char path[] = "/tmp/perf-test-sched-XXXXXX";
	struct perf_session s;
	char *text = NULL;
	size_t len;
	FILE *out;
	int fd, ret;

	if (!have_tracepoint("sched", "sched_switch") ||
	    !have_tracepoint("sched", "sched_stat_runtime"))
		return test_skip(ctx, "no tracefs with sched tracepoints (mount tracefs, run as root)");
	fd = mkstemp(path);
	TEST_ASSERT(ctx, fd >= 0, "mkstemp: %s", strerror(errno));
	close(fd);
	ret = write_kvm_file(&kf, path);
	if (kf.tep)
		tep_free(kf.tep);
	TEST_ASSERT(ctx, !ret, "write the file: %s", strerror(-ret));
	out = open_memstream(&text, &len);
	ret = out ? perf_session__open(&s, path) : -ENOMEM;
	unlink(path);
	TEST_ASSERT(ctx, !ret, "open: %d", ret);
	ret = sched_timehist__run(&th, &s, out);
	fclose(out);
	pr_test(ctx, "%s", text);
	if (!ret && (!strstr(text, " (x 7)\n") || s.nr_attrs != 2 ||
		     s.attrs[1].nr_samples != 1 ||
		     s.stats.nr_events[PERF_RECORD_SAMPLE] != 3))
		ret = -EINVAL;
	TEST_ASSERT(ctx, !ret,
		    "CPU 7 in the summary, 3 samples counted, 1 of the skipped attr (%d: %llu samples, %llu of it)",
		    ret, (unsigned long long)s.stats.nr_events[PERF_RECORD_SAMPLE],
		    (unsigned long long)(s.nr_attrs > 1 ? s.attrs[1].nr_samples : 0));
	sched_timehist__exit(&th);
	perf_session__close(&s);
	free(text);
	return TEST_OK;
}

/* timehist of kf: its result, output and the reader's error. */
static int corrupt_timehist(struct test_ctx *ctx, struct kvm_file *kf,
			    char **text, char *err, size_t err_size)
{
	struct sched_timehist th = { .opts.max_stack = 5, .opts.summary = true,
				     .opts.cpu_visual = true };
	char path[] = "/tmp/perf-test-sched-XXXXXX";
	struct perf_session s;
	size_t len;
	FILE *out;
	int fd, ret;

	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	close(fd);
	ret = write_kvm_file(kf, path);
	if (kf->tep)
		tep_free(kf->tep);
	kf->tep = NULL;
	out = open_memstream(text, &len);
	if (!ret && !out)
		ret = -ENOMEM;
	if (!ret)
		ret = perf_session__open(&s, path);
	if (!ret) {
		ret = sched_timehist__run(&th, &s, out);
		snprintf(err, err_size, "%s%s", perf_session__error(&s),
			 perf_session__warning(&s));
		perf_session__close(&s);
	}
	sched_timehist__exit(&th);
	if (out)
		fclose(out);
	unlink(path);
	pr_test(ctx, "%s\n%s\n", *text ? *text : "", err);
	return ret;
}

int test__sched_corrupt(struct test_ctx *ctx)
{
	static const char * const events[] = { "sched:sched_switch" };
	struct kvm_file kf = { .names = events, .nr = 1 };
	char *text = NULL, err[1024] = "";
	int ret;

	if (!have_tracepoint("sched", "sched_switch"))
		return test_skip(ctx, "no tracefs with sched tracepoints (mount tracefs, run as root)");
	alarm(CORRUPT_ALARM);

	/* No switches: a summary of nothing (UBSan saw qsort(NULL)). */
	kf.put_records = put_comm_only;
	ret = corrupt_timehist(ctx, &kf, &text, err, sizeof(err));
	TEST_ASSERT(ctx, !ret && strstr(text, "Total number of unique tasks: 0"),
		    "no switches give an empty summary (%d)", ret);
	free(text);
	text = NULL;

	/* CPU 2^31: per-CPU tables grew forever. */
	kf.put_records = put_cpu_beyond;
	ret = corrupt_timehist(ctx, &kf, &text, err, sizeof(err));
	TEST_ASSERT(ctx, !ret && strstr(err, "a CPU beyond the 4096") &&
		    strstr(err, "the 2 records before it were read"),
		    "CPU 2^31 refused with the offset: '%s'", err);
	free(text);
	text = NULL;

	/* 2^31 CPUs online in the header: one idle task each. */
	kf.put_records = put_two_switches;
	kf.nr_cpus = 0x80000000u;
	ret = corrupt_timehist(ctx, &kf, &text, err, sizeof(err));
	TEST_ASSERT(ctx, !ret && strstr(err, "feature NRCPUS") &&
		    strstr(text, "alpha[10]"),
		    "NRCPUS 2^31 ignored with a warning: '%s'", err);
	free(text);
	text = NULL;

	/* Switches without a CPU: idle task -1 was read out of bounds. */
	kf.nr_cpus = 0;
	kf.no_cpu = true;
	ret = corrupt_timehist(ctx, &kf, &text, err, sizeof(err));
	TEST_ASSERT(ctx, !ret && !strstr(text, "alpha[10]"),
		    "switches without a CPU are left out (%d)", ret);
	free(text);
	alarm(0);
	return TEST_OK;
}

/* ---- the same records through perf sched daemon's store and dump ---- */

static struct perf_evlist *kvm_evlist(const struct kvm_file *kf)
{
	struct perf_evlist *evlist = perf_evlist__new();
	int i;

	for (i = 0; evlist && i < kf->nr; i++) {
		struct perf_counter_attr a = kvm_attr(kf, i);
		struct perf_evsel *e;

		/* The daemon's synthesized records carry sample_id. */
		a.sample_id_all = 1;
		e = perf_evsel__new(&a, kf->names[i]);

		if (!e)
			break;
		perf_evlist__add(evlist, e);
		e->nr_cpus = e->nr_threads = 1;
		e->id = calloc(1, sizeof(u64));
		if (!e->id)
			break;
		e->id[0] = i + 1;
	}
	return evlist;
}

static void kvm_evlist_delete(struct perf_evlist *evlist)
{
	struct perf_evsel *pos;

	perf_evlist__for_each(evlist, pos) {
		free(pos->id);
		pos->id = NULL;
	}
	perf_evlist__delete(evlist);
}

/*
 * The vCPU threads' names are in the store's table (their COMMs were
 * before the window), their samples in its chunks.
 */
static int kvm_store(struct kvm_file *kf, struct flight_store *st)
{
	size_t off = 0;
	int ret = flight_store__init(st, SAMPLE_TYPE, 2, 4 << 20, 60000 * MS);

	kf->put_records(kf);
	while (!ret && off < kf->recs.len) {
		const struct perf_counter_header *h =
			(const void *)(kf->recs.data + off);

		if (h->type == PERF_RECORD_COMM)
			ret = flight_store__seed(st, h, h->size);
		else
			ret = flight_store__add(st, h);
		off += h->size;
	}
	perf_fbuf__free(&kf->recs);
	return ret;
}

static int daemon_dump(struct kvm_file *kf, const char *path, bool compress,
		       struct sched_dump_stats *stats)
{
	struct sched_daemon_opts o = { .compress = compress, .comp_level = 1 };
	struct perf_fbuf td = { 0 };
	struct perf_evlist *evlist;
	struct flight_store st;
	int ret = kvm_prepare(kf, &td);

	perf_fbuf__free(&td);
	if (ret)
		return ret;
	evlist = kvm_evlist(kf);
	ret = evlist && perf_evlist__nr_entries(evlist) == kf->nr ? kvm_store(kf, &st) : -ENOMEM;
	if (!ret)
		ret = sched_daemon__write(evlist, &st, 0, path, &o, NULL, stats);
	flight_store__exit(&st);
	if (evlist)
		kvm_evlist_delete(evlist);
	tep_free(kf->tep);
	kf->tep = NULL;
	return ret;
}

int test__sched_daemon_kvm(struct test_ctx *ctx)
{
	/*
	 * The first vCPU's tid is this process's: a live task of another
	 * process, as a recorded task's tid is once reused.  The dump adds
	 * the tasks of now from /proc, and the recorded pid must win.
	 */
	struct kvm_file kf = {
		.names = kvm_events, .nr = NR_EV,
		.put_records = put_vcpu_records, .vcpu = getpid(),
	};
	struct sched_dump_stats stats;
	char path[] = "/tmp/perf-test-daemon-XXXXXX";
	int compress, ret, fd;
	char *text;

	if (!have_tracepoint("kvm", "kvm_entry") ||
	    !have_tracepoint("kvm", "kvm_exit") ||
	    !have_tracepoint("sched", "sched_switch"))
		return test_skip(ctx, "kvm:kvm_entry/kvm_exit formats not in tracefs (load the kvm module, mount tracefs as root)");
	fd = mkstemp(path);
	TEST_ASSERT(ctx, fd >= 0, "temporary file");
	close(fd);
	for (compress = 0; compress < 2; compress++) {
		text = NULL;
		ret = daemon_dump(&kf, path, compress, &stats);
		TEST_ASSERT(ctx, !ret, "dump: %s", strerror(-ret));
		TEST_ASSERT(ctx, stats.records == 9 && !compress == !stats.ratio,
			    "9 records written, compressed with -C only");
		ret = run_timehist(path, &text);
		unlink(path);
		TEST_ASSERT(ctx, !ret && text, "timehist ran on the dump");
		pr_test(ctx, "%s", text);
		ret = check_kvm_table(ctx, text, kf.vcpu);
		free(text);
		if (ret)
			return ret;
	}
	return TEST_OK;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * perf trace: syscall lines and summaries from raw_syscalls samples;
 * see trace.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <elf.h>
#include <event-parse.h>
#include <perf/tracefs.h>
#include "arena.h"
#include "array.h"
#include "data.h"
#include "dso.h"
#include "event.h"
#include "machine.h"
#include "symbol.h"
#include "syscall-args.h"
#include "syscalltbl.h"
#include "tod.h"
#include "trace-data.h"
#include "trace.h"

#define ABI_UNKNOWN (-1)
#define CALL_COLUMNS 69		/* "= ret" lines up after this, as in Linux perf */

struct sc_stats {
	u64 calls;
	u64 errors;
	u64 total_ns;
	u64 min_ns;
	u64 max_ns;
	double mean;		/* running mean and sum of squared */
	double m2;		/* differences (Welford), in ns */
};

struct trace_thread {
	struct thread *thread;
	int abi;			/* enum syscall_abi, or ABI_UNKNOWN */
	bool pending;			/* a sys_enter waits for its exit */
	bool pending_shown;		/* it passes -e, --pid, --comm */
	int pending_abi;
	long pending_nr;
	u64 pending_args[6];
	u64 pending_time;
	u64 nr_events;
	struct sc_stats *stats[SYSCALL_NR_ABIS];
	struct trace_thread *next;	/* in order of first event */
};

struct exe_abi {
	const char *path;		/* interned by dsos__findnew */
	int abi;
};

struct trace {
	const struct trace_opts *o;
	FILE *out;
	struct perf_session *session;
	struct machine machine;
	struct tep_handle *tep;
	struct tep_handle *fmt_tep;	/* sys_enter_* formats: tep's, or */
	struct tep_handle *own_fmt_tep;	/* this machine's when it has none */
	int enter_id, exit_id;
	struct tep_format_field *enter_nr, *enter_args;
	struct tep_format_field *exit_nr, *exit_ret;
	struct syscall_fmt *fmts[SYSCALL_NR_ABIS];
	bool *selected[SYSCALL_NR_ABIS];	/* -e; NULL: all */
	bool any_syscall;		/* -e leaves some syscall shown */
	int *pids;
	u32 nr_pids, pids_alloc;
	const char **comms;		/* interned */
	u32 nr_comms, comms_alloc;
	bool have_first;
	u64 first_time;
	u64 nr_events;
	u64 nr_lost;
	struct trace_thread *threads, **threads_tail;
	struct exe_abi *exes;
	u32 nr_exes, exes_alloc;
};

/* ---- options ---- */

typedef int (*item_fn)(const char *item, void *arg);

/* Calls @fn for each comma-separated item of @list; stops on non-zero. */
static int walk_items(const char *list, item_fn fn, void *arg)
{
	char item[256];
	const char *p = list, *comma;
	int err;

	while (p && *p) {
		comma = strchr(p, ',');
		snprintf(item, sizeof(item), "%.*s",
			 (int)(comma ? comma - p : (long)strlen(p)), p);
		err = item[0] ? fn(item, arg) : 0;
		if (err)
			return err;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

/*
 * The syscalls of either table that @pattern names: how many, and with
 * @selected, each one's entry there set to @on.
 */
static int match_syscalls(const char *pattern, bool **selected, bool on)
{
	int abi, nr, n = 0;

	for (abi = 0; abi < SYSCALL_NR_ABIS; abi++)
		for (nr = 0; nr < syscalltbl_size(abi); nr++) {
			const char *name = syscalltbl_name(abi, nr);

			if (!name || fnmatch(pattern, name, 0))
				continue;
			n++;
			if (selected)
				selected[abi][nr] = on;
		}
	return n;
}

static char bad_item[300];

bool trace__is_event(const char *item)
{
	return strchr(item, ':') != NULL;
}

struct event_walk {
	trace_event_fn fn;
	void *arg;
};

static int event_item(const char *item, void *arg)
{
	struct event_walk *w = arg;

	return trace__is_event(item) ? w->fn(item, w->arg) : 0;
}

/* The tracepoints of -e, for the recorder. */
int trace__walk_events(const char *list, trace_event_fn fn, void *arg)
{
	struct event_walk w = { fn, arg };

	return walk_items(list, event_item, &w);
}

/* A tracepoint of this machine's tracefs (live tracing records it). */
static int check_event(const char *item)
{
	char group[128], name[128];
	const char *colon = strchr(item, ':');

	snprintf(group, sizeof(group), "%.*s", (int)(colon - item), item);
	snprintf(name, sizeof(name), "%s", colon + 1);
	if (strpbrk(item, "*?[") || tracefs_event_id(group, name) >= 0)
		return 0;
	snprintf(bad_item, sizeof(bad_item),
		 "-e: no tracepoint %s here (see 'perf list tracepoint', and 'perf probe -l' for probes)",
		 item);
	return -1;
}

static int check_syscall(const char *item, void *arg)
{
	const struct trace_opts *o = arg;

	if (trace__is_event(item))
		return o->live ? check_event(item) : 0;
	if (*item == '!')
		item++;
	if (match_syscalls(item, NULL, false))
		return 0;
	snprintf(bad_item, sizeof(bad_item),
		 "-e: no syscall is named '%s' (see the names in 'man 2 syscalls')",
		 item);
	return -1;
}

static int check_pid(const char *item, void *arg)
{
	char *end;

	(void)arg;
	if (strtol(item, &end, 10) > 0 && !*end)
		return 0;
	snprintf(bad_item, sizeof(bad_item), "--pid: '%s' is not a process id",
		 item);
	return -1;
}

const char *trace_opts__check(const struct trace_opts *o)
{
	if (o->syscalls && walk_items(o->syscalls, check_syscall, (void *)o))
		return bad_item;
	if (o->pids && walk_items(o->pids, check_pid, NULL))
		return bad_item;
	if (o->duration_ms < 0)
		return "--duration needs a positive number of milliseconds";
	return NULL;
}

static int has_positive(const char *item, void *arg)
{
	(void)arg;
	return *item != '!';
}

static int select_item(const char *item, void *arg)
{
	struct trace *t = arg;
	bool on = *item != '!';

	if (trace__is_event(item))
		return 0;
	match_syscalls(on ? item : item + 1, t->selected, on);
	return 0;
}

/*
 * -e: with names, only those; with !names only, all but those.  A
 * tracepoint counts as a name: -e GROUP:NAME alone shows no syscalls.
 */
static int setup_selection(struct trace *t)
{
	bool all = !walk_items(t->o->syscalls, has_positive, NULL);
	int abi;

	int nr;

	for (abi = 0; abi < SYSCALL_NR_ABIS; abi++) {
		t->selected[abi] = malloc(syscalltbl_size(abi));
		if (!t->selected[abi])
			return -ENOMEM;
		memset(t->selected[abi], all, syscalltbl_size(abi));
	}
	walk_items(t->o->syscalls, select_item, t);
	t->any_syscall = false;
	for (abi = 0; abi < SYSCALL_NR_ABIS; abi++)
		for (nr = 0; nr < syscalltbl_size(abi); nr++)
			t->any_syscall |= t->selected[abi][nr];
	return 0;
}

static int add_pid(const char *item, void *arg)
{
	struct trace *t = arg;

	if (array_reserve_one((void **)&t->pids, &t->pids_alloc, t->nr_pids,
			      sizeof(*t->pids)))
		return -ENOMEM;
	t->pids[t->nr_pids++] = atoi(item);
	return 0;
}

/* Interned as threads' names are: a name matches by its pointer. */
static int add_comm(const char *item, void *arg)
{
	struct trace *t = arg;

	if (array_reserve_one((void **)&t->comms, &t->comms_alloc,
			      t->nr_comms, sizeof(*t->comms)))
		return -ENOMEM;
	t->comms[t->nr_comms] = machine__intern_comm(&t->machine, item);
	return t->comms[t->nr_comms++] ? 0 : -ENOMEM;
}

/* --pid and --comm. */
static bool thread_shown(const struct trace *t, const struct thread *th)
{
	u32 i;

	for (i = 0; i < t->nr_comms && t->comms[i] != th->comm; i++)
		;
	if (t->nr_comms && i == t->nr_comms)
		return false;
	if (!t->nr_pids)
		return true;
	for (i = 0; i < t->nr_pids; i++)
		if ((u32)t->pids[i] == th->pid)
			return true;
	return false;
}

static bool syscall_selected(const struct trace *t, int abi, long nr)
{
	if (!t->selected[abi])
		return true;
	return nr >= 0 && nr < syscalltbl_size(abi) && t->selected[abi][nr];
}

/* ---- which table a task uses ---- */

/* The ELF class of @path (under --symfs), or ABI_UNKNOWN. */
static int file_abi(const char *path)
{
	unsigned char ident[EI_NIDENT];
	char buf[4096];
	int fd, abi = ABI_UNKNOWN;

	if (symfs__path(path, buf, sizeof(buf)))
		return ABI_UNKNOWN;
	fd = open(buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ABI_UNKNOWN;
	if (read(fd, ident, sizeof(ident)) == sizeof(ident) &&
	    !memcmp(ident, ELFMAG, SELFMAG))
		abi = ident[EI_CLASS] == ELFCLASS32 ? SYSCALL_ABI_32 :
		      ident[EI_CLASS] == ELFCLASS64 ? SYSCALL_ABI_64 :
		      ABI_UNKNOWN;
	close(fd);
	return abi;
}

static int exe_abi(struct trace *t, const char *path)
{
	struct dso *dso = dsos__findnew(path);
	const char *key = dso ? dso->long_name : NULL;
	u32 i;

	for (i = 0; key && i < t->nr_exes; i++)
		if (t->exes[i].path == key)
			return t->exes[i].abi;
	if (!key || array_reserve_one((void **)&t->exes, &t->exes_alloc,
				      t->nr_exes, sizeof(*t->exes)))
		return file_abi(path);
	t->exes[t->nr_exes].path = key;
	t->exes[t->nr_exes].abi = file_abi(path);
	return t->exes[t->nr_exes++].abi;
}

static struct trace_thread *trace_thread(struct trace *t, u32 pid, u32 tid)
{
	struct thread *th = machine__findnew_thread(&t->machine, pid, tid);
	struct trace_thread *tt;

	if (!th)
		return NULL;
	if (th->priv)
		return th->priv;
	tt = arena__alloc(t->machine.arena, sizeof(*tt));
	if (!tt)
		return NULL;
	tt->thread = th;
	tt->abi = ABI_UNKNOWN;
	th->priv = tt;
	*t->threads_tail = tt;
	t->threads_tail = &tt->next;
	return tt;
}

/* A task no record told about: its process's, or (live) /proc's. */
static int thread_abi(struct trace *t, struct trace_thread *tt)
{
	struct thread *leader;
	char path[64];

	if (tt->abi != ABI_UNKNOWN)
		return tt->abi;
	leader = machine__find_thread(&t->machine, tt->thread->pid);
	if (leader && leader->priv &&
	    ((struct trace_thread *)leader->priv)->abi != ABI_UNKNOWN)
		return ((struct trace_thread *)leader->priv)->abi;
	if (t->o->live) {
		snprintf(path, sizeof(path), "/proc/%u/exe", tt->thread->tid);
		tt->abi = file_abi(path);
	}
	if (tt->abi == ABI_UNKNOWN)
		return SYSCALL_ABI_64;
	return tt->abi;
}

static int side_band(struct trace *t, const union perf_event *ev,
		     const struct perf_sample *sample)
{
	struct trace_thread *tt, *parent;
	int err = machine__process_event(&t->machine, ev, sample);

	if (err)
		return err;
	switch (ev->header.type) {
	case PERF_RECORD_COMM:
		/* A new program: its table comes with its first mapping. */
		if (ev->header.misc & PERF_RECORD_MISC_COMM_EXEC) {
			tt = trace_thread(t, ev->comm.pid, ev->comm.tid);
			if (tt)
				tt->abi = ABI_UNKNOWN;
		}
		break;
	case PERF_RECORD_MMAP2:
		if (!(ev->mmap2.prot & PROT_EXEC) || ev->mmap2.filename[0] != '/')
			break;
		tt = trace_thread(t, ev->mmap2.pid, ev->mmap2.tid);
		if (tt && tt->abi == ABI_UNKNOWN)
			tt->abi = exe_abi(t, ev->mmap2.filename);
		break;
	case PERF_RECORD_FORK:
		parent = trace_thread(t, ev->fork.ppid, ev->fork.ptid);
		tt = trace_thread(t, ev->fork.pid, ev->fork.tid);
		if (tt && parent)
			tt->abi = parent->abi;
		break;
	default:
		break;
	}
	return 0;
}

/* ---- lines ---- */

static const struct syscall_fmt *syscall_fmt(struct trace *t, int abi,
					     long nr)
{
	int size = syscalltbl_size(abi);
	static struct syscall_fmt unknown = { .nr_args = -1 };
	struct syscall_fmt *f;
	const char *name;
	char ev[64];

	if (nr < 0 || nr >= size)
		return &unknown;
	if (!t->fmts[abi]) {
		t->fmts[abi] = calloc(size, sizeof(*t->fmts[abi]));
		if (!t->fmts[abi])
			return &unknown;
	}
	f = &t->fmts[abi][nr];
	if (f->ready)
		return f;
	name = syscalltbl_name(abi, nr);
	if (!name)
		return &unknown;
	snprintf(ev, sizeof(ev), "sys_enter_%s", name);
	syscall_fmt__init(f, name, t->fmt_tep ?
			  tep_find_event_by_name(t->fmt_tep, "syscalls", ev) :
			  NULL);
	return f;
}

static void syscall_name(int abi, long nr, char *buf, size_t size)
{
	const char *name = syscalltbl_name(abi, nr);

	if (name)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "syscall_%ld", nr);
}

static void print_time(struct trace *t, u64 time)
{
	char tod[32];

	switch (t->o->time) {
	case TRACE_TIME_TOD:
		tod_format(tod_of(&t->session->tod, time), tod, sizeof(tod));
		fprintf(t->out, "%s ", tod);
		break;
	case TRACE_TIME_PERF:
		fprintf(t->out, "%10.3f ", time / 1e6);
		break;
	default:
		fprintf(t->out, "%10.3f ", (time - t->first_time) / 1e6);
		break;
	}
}

/* time (duration): comm/tid call ret */
static void print_line(struct trace *t, struct trace_thread *tt, u64 time,
		       const u64 *duration, const char *call, const char *ret)
{
	print_time(t, time);
	if (duration)
		fprintf(t->out, "(%6.3f ms): ", *duration / 1e6);
	else
		fprintf(t->out, "(         ): ");
	fprintf(t->out, "%s/%u ", tt->thread->comm, tt->thread->tid);
	if (ret)
		fprintf(t->out, "%-*s %s\n", CALL_COLUMNS, call, ret);
	else
		fprintf(t->out, "%s\n", call);
}

/* name(args) of the call @tt waits in. */
static void format_call(struct trace *t, struct trace_thread *tt, char *buf,
			size_t size)
{
	const struct syscall_fmt *f = syscall_fmt(t, tt->pending_abi,
						  tt->pending_nr);
	char name[64], args[512] = "";

	syscall_name(tt->pending_abi, tt->pending_nr, name, sizeof(name));
	syscall_fmt__args(f, tt->pending_args,
			  tt->pending_abi == SYSCALL_ABI_32, args, sizeof(args));
	snprintf(buf, size, "%s(%s)", name, args);
}

/*
 * --duration and --failure choose by what a call took and returned: a
 * call without an exit (unfinished, or exit_group) has no line.
 */
static bool whole_calls_only(const struct trace *t)
{
	return t->o->duration_ms > 0 || t->o->failure;
}

/* A call whose exit never came (the trace ended, or records were lost). */
static void print_unfinished(struct trace *t, struct trace_thread *tt)
{
	char call[640];

	if (!t->o->lines || !tt->pending_shown || whole_calls_only(t))
		return;
	format_call(t, tt, call, sizeof(call));
	strcat(call, " ...");
	print_line(t, tt, tt->pending_time, NULL, call, NULL);
}

static void update_stats(struct trace_thread *tt, int abi, long nr,
			 u64 duration, bool failed)
{
	int size = syscalltbl_size(abi);
	struct sc_stats *s;
	double delta;

	if (nr < 0 || nr >= size)
		return;
	if (!tt->stats[abi]) {
		tt->stats[abi] = calloc(size, sizeof(*tt->stats[abi]));
		if (!tt->stats[abi])
			return;
	}
	s = &tt->stats[abi][nr];
	if (!s->calls || duration < s->min_ns)
		s->min_ns = duration;
	if (duration > s->max_ns)
		s->max_ns = duration;
	s->calls++;
	s->errors += failed;
	s->total_ns += duration;
	delta = duration - s->mean;
	s->mean += delta / s->calls;
	s->m2 += delta * (duration - s->mean);
}

/* ---- samples ---- */

static u64 raw_num(const struct perf_sample *s, struct tep_format_field *f)
{
	unsigned long long v = 0;

	if (f && (u32)f->offset + f->size <= s->raw_size)
		tep_read_number_field(f, s->raw_data, &v);
	return v;
}

static void sys_enter(struct trace *t, const struct perf_sample *s)
{
	struct trace_thread *tt = trace_thread(t, s->pid, s->tid);
	const struct syscall_fmt *f;
	char call[640];
	int i;

	if (!tt)
		return;
	if (tt->pending)
		print_unfinished(t, tt);
	tt->pending_abi = thread_abi(t, tt);
	tt->pending_nr = (long)raw_num(s, t->enter_nr);
	for (i = 0; i < 6; i++) {
		u32 off = t->enter_args ? t->enter_args->offset + 8 * i : 0;

		tt->pending_args[i] = 0;
		if (off && off + 8 <= s->raw_size)
			memcpy(&tt->pending_args[i],
			       (const u8 *)s->raw_data + off, 8);
	}
	tt->pending_time = s->time;
	tt->pending = true;
	tt->pending_shown = thread_shown(t, tt->thread) &&
			    syscall_selected(t, tt->pending_abi,
					     tt->pending_nr);
	if (!tt->pending_shown)
		return;
	tt->nr_events++;
	t->nr_events++;
	f = syscall_fmt(t, tt->pending_abi, tt->pending_nr);
	if (!f->no_return)
		return;
	/* exit_group() does not come back: its line is printed now. */
	tt->pending = false;
	update_stats(tt, tt->pending_abi, tt->pending_nr, 0, false);
	if (!t->o->lines || whole_calls_only(t))
		return;
	format_call(t, tt, call, sizeof(call));
	print_line(t, tt, s->time, NULL, call, "= ?");
}

/* ---- other tracepoints (-e GROUP:NAME) ---- */

/* A __data_loc string, or a char array: its text within the record. */
static bool tp_string(const struct perf_sample *s, struct tep_format_field *f,
		      const char **str, int *len)
{
	u32 off = f->offset, size = f->size;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		u32 loc = (u32)raw_num(s, f);

		off = loc & 0xffff;
		size = loc >> 16;
	}
	if (off > s->raw_size || size > s->raw_size - off)
		return false;
	*str = (const char *)s->raw_data + off;
	*len = strnlen(*str, size);
	return true;
}

/* An integer field, sign-extended where the format says signed. */
static s64 tp_number(const struct perf_sample *s, struct tep_format_field *f)
{
	u64 v = raw_num(s, f);
	int bits = f->size * 8;

	if ((f->flags & TEP_FIELD_IS_SIGNED) && bits < 64 &&
	    (v & (1ULL << (bits - 1))))
		v |= ~0ULL << bits;
	return (s64)v;
}

/*
 * "name: value, ..." as Linux perf trace prints an event's fields:
 * integers in decimal, strings quoted, fields that are 0 left out.
 */
static void tp_args(struct tep_event *ev, const struct perf_sample *s,
		    char *buf, size_t size)
{
	struct tep_format_field *f;
	size_t len = 0;

	buf[0] = '\0';
	for (f = ev->format.fields; f && len < size; f = f->next) {
		const char *sep = len ? ", " : "";
		const char *str;
		int n;

		if (f->flags & TEP_FIELD_IS_STRING) {
			if (tp_string(s, f, &str, &n))
				len += snprintf(buf + len, size - len,
						"%s%s: \"%.*s\"", sep, f->name,
						n, str);
		} else if (!(f->flags & (TEP_FIELD_IS_ARRAY |
					 TEP_FIELD_IS_DYNAMIC)) &&
			   f->size <= 8 && raw_num(s, f)) {
			len += snprintf(buf + len, size - len, "%s%s: %lld",
					sep, f->name,
					(long long)tp_number(s, f));
		}
	}
}

/* time [(         ): ]comm/tid GROUP:NAME(fields) */
static void tp_event(struct trace *t, const struct perf_sample *s, int id)
{
	struct trace_thread *tt = trace_thread(t, s->pid, s->tid);
	struct tep_event *ev = t->tep ? tep_find_event(t->tep, id) : NULL;
	char args[1024];

	if (!tt || !ev || !thread_shown(t, tt->thread))
		return;
	tt->nr_events++;
	t->nr_events++;
	if (!t->o->lines || whole_calls_only(t))
		return;
	tp_args(ev, s, args, sizeof(args));
	print_time(t, s->time);
	/* Beside syscall lines, the duration column stays empty. */
	if (t->any_syscall)
		fprintf(t->out, "(         ): ");
	fprintf(t->out, "%s/%u %s:%s(%s)\n", tt->thread->comm,
		tt->thread->tid, ev->system, ev->name, args);
}

/* An exit whose enter came before the trace started. */
static void sys_exit_continued(struct trace *t, struct trace_thread *tt,
			       const struct perf_sample *s, s64 ret)
{
	int abi = thread_abi(t, tt);
	long nr = (long)raw_num(s, t->exit_nr);
	char name[64], call[128], rets[128];

	if (!thread_shown(t, tt->thread) || !syscall_selected(t, abi, nr))
		return;
	tt->nr_events++;
	t->nr_events++;
	if (!t->o->lines || t->o->duration_ms > 0 ||
	    (t->o->failure && !syscall_ret_failed(ret)))
		return;
	syscall_name(abi, nr, name, sizeof(name));
	snprintf(call, sizeof(call), "... [continued]: %s()", name);
	syscall_fmt__ret(syscall_fmt(t, abi, nr), ret, rets, sizeof(rets));
	print_line(t, tt, s->time, NULL, call, rets);
}

static void sys_exit(struct trace *t, const struct perf_sample *s)
{
	struct trace_thread *tt = trace_thread(t, s->pid, s->tid);
	s64 ret = (s64)raw_num(s, t->exit_ret);
	char call[640], rets[128];
	u64 duration;

	if (!tt)
		return;
	if (!tt->pending) {
		sys_exit_continued(t, tt, s, ret);
		return;
	}
	tt->pending = false;
	if (!tt->pending_shown)
		return;
	tt->nr_events++;
	t->nr_events++;
	duration = s->time - tt->pending_time;
	update_stats(tt, tt->pending_abi, tt->pending_nr, duration,
		     syscall_ret_failed(ret));
	if (!t->o->lines || duration < t->o->duration_ms * 1e6 ||
	    (t->o->failure && !syscall_ret_failed(ret)))
		return;
	format_call(t, tt, call, sizeof(call));
	syscall_fmt__ret(syscall_fmt(t, tt->pending_abi, tt->pending_nr),
			 ret, rets, sizeof(rets));
	print_line(t, tt, tt->pending_time, &duration, call, rets);
}

static int trace_event(struct perf_session *s, const union perf_event *ev,
		       u64 offset, const struct perf_sample *sample,
		       struct perf_session_attr *attr, void *ctx)
{
	struct trace *t = ctx;

	(void)s;
	(void)offset;
	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		if (!sample || !attr ||
		    attr->attr.type != PERF_TYPE_TRACEPOINT)
			return 0;
		/*
		 * Times count from the first event of the trace: with only
		 * tracepoints shown, the first of those (the syscalls are
		 * recorded all the same).
		 */
		if (!t->have_first && (t->any_syscall ||
				       (attr->attr.config != (u64)t->enter_id &&
					attr->attr.config != (u64)t->exit_id))) {
			t->first_time = sample->time;
			t->have_first = true;
		}
		if (attr->attr.config == (u64)t->enter_id)
			sys_enter(t, sample);
		else if (attr->attr.config == (u64)t->exit_id)
			sys_exit(t, sample);
		else
			tp_event(t, sample, (int)attr->attr.config);
		return 0;
	case PERF_RECORD_LOST:
		t->nr_lost += ev->lost.lost;
		return 0;
	case PERF_RECORD_COMM:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return side_band(t, ev, sample);
	default:
		return 0;
	}
}

/* ---- summary ---- */

/* A summary row: a number without a name is shown as syscall_NR. */
struct stat_row {
	char name[32];
	const struct sc_stats *s;
};

static int cmp_rows(const void *a, const void *b)
{
	const struct stat_row *x = a, *y = b;

	if (x->s->total_ns != y->s->total_ns)
		return x->s->total_ns < y->s->total_ns ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void print_thread_summary(struct trace *t, struct trace_thread *tt)
{
	struct stat_row *rows;
	int abi, nr, n = 0, i;

	rows = calloc(syscalltbl_size(SYSCALL_ABI_64) +
		      syscalltbl_size(SYSCALL_ABI_32), sizeof(*rows));
	if (!rows)
		return;
	for (abi = 0; abi < SYSCALL_NR_ABIS; abi++)
		for (nr = 0; tt->stats[abi] && nr < syscalltbl_size(abi); nr++)
			if (tt->stats[abi][nr].calls) {
				syscall_name(abi, nr, rows[n].name,
					     sizeof(rows[n].name));
				rows[n++].s = &tt->stats[abi][nr];
			}
	qsort(rows, n, sizeof(*rows), cmp_rows);
	fprintf(t->out, " %s (%u), %llu events, %.1f%%\n\n", tt->thread->comm,
		tt->thread->tid, (unsigned long long)tt->nr_events,
		100.0 * tt->nr_events / t->nr_events);
	fprintf(t->out, "   syscall            calls  errors  total       min       avg       max       stddev\n");
	fprintf(t->out, "                                     (msec)    (msec)    (msec)    (msec)        (%%)\n");
	fprintf(t->out, "   --------------- --------  ------ -------- --------- --------- ---------     ------\n");
	for (i = 0; i < n; i++) {
		const struct sc_stats *s = rows[i].s;
		double rel = 0;

		/* The standard error of the average, relative to it. */
		if (s->calls > 1 && s->mean > 0)
			rel = 100.0 * sqrt(s->m2 / (s->calls - 1)) /
			      sqrt(s->calls) / s->mean;
		fprintf(t->out, "   %-15s %8llu %6llu %9.3f %9.3f %9.3f %9.3f %9.2f%%\n",
			rows[i].name, (unsigned long long)s->calls,
			(unsigned long long)s->errors, s->total_ns / 1e6,
			s->min_ns / 1e6, s->mean / 1e6, s->max_ns / 1e6, rel);
	}
	fprintf(t->out, "\n");
	free(rows);
}

static void trace_finish(struct trace *t)
{
	struct trace_thread *tt;

	for (tt = t->threads; tt; tt = tt->next)
		if (tt->pending)
			print_unfinished(t, tt);
	if (t->o->summary) {
		fprintf(t->out, "\n Summary of events:\n\n");
		for (tt = t->threads; tt; tt = tt->next)
			if (tt->nr_events)
				print_thread_summary(t, tt);
	}
	if (t->nr_lost)
		fprintf(stderr, "Warning: %llu events were lost: the ring buffer was full (use a larger -m, or trace less).\n",
			(unsigned long long)t->nr_lost);
}

/* ---- setup ---- */

static bool has_attr(struct perf_session *s, int id)
{
	u32 i;

	for (i = 0; i < s->nr_attrs; i++)
		if (s->attrs[i].attr.type == PERF_TYPE_TRACEPOINT &&
		    s->attrs[i].attr.config == (u64)id)
			return true;
	return false;
}

/*
 * Files of Linux perf trace record hold no syscalls:sys_enter_*
 * formats; this machine's, when it has them, name the arguments.
 */
static void load_local_formats(struct trace *t)
{
	static const char * const raw[] = { "raw_syscalls:sys_enter" };
	struct perf_fbuf b = { 0 };
	char err[256];

	if (tep_find_event_by_name(t->tep, "syscalls", "sys_enter_openat")) {
		t->fmt_tep = t->tep;
		return;
	}
	if (!trace_data__build(&b, raw, 1))
		t->own_fmt_tep = trace_data__parse(b.data, b.len, err,
						   sizeof(err));
	perf_fbuf__free(&b);
	t->fmt_tep = t->own_fmt_tep;
}

static int trace_setup(struct trace *t, struct perf_session *s)
{
	struct tep_event *enter = NULL, *exit = NULL;
	char err[256] = "";
	const void *data;
	u64 size;

	data = perf_session__tracing_data(s, &size);
	if (data)
		t->tep = trace_data__parse(data, size, err, sizeof(err));
	if (t->tep) {
		enter = tep_find_event_by_name(t->tep, "raw_syscalls",
					       "sys_enter");
		exit = tep_find_event_by_name(t->tep, "raw_syscalls",
					      "sys_exit");
	}
	if (!enter || !exit || !has_attr(s, enter->id) ||
	    !has_attr(s, exit->id)) {
		fprintf(stderr, "perf trace: %s has no raw_syscalls:sys_enter and sys_exit events%s%s: record them with 'perf trace record'.\n",
			s->name, err[0] ? ": " : "", err);
		return -EINVAL;
	}
	t->enter_id = enter->id;
	t->exit_id = exit->id;
	t->enter_nr = tep_find_field(enter, "id");
	t->enter_args = tep_find_field(enter, "args");
	t->exit_nr = tep_find_field(exit, "id");
	t->exit_ret = tep_find_field(exit, "ret");
	load_local_formats(t);
	if (t->o->time == TRACE_TIME_TOD &&
	    tod_show(&t->o->tod, &s->tod, "perf trace -TT", s->name) < 0)
		return -EINVAL;
	return 0;
}

static void trace_exit(struct trace *t)
{
	struct trace_thread *tt;
	int abi;

	for (tt = t->threads; tt; tt = tt->next)
		for (abi = 0; abi < SYSCALL_NR_ABIS; abi++)
			free(tt->stats[abi]);
	for (abi = 0; abi < SYSCALL_NR_ABIS; abi++) {
		free(t->fmts[abi]);
		free(t->selected[abi]);
	}
	free(t->pids);
	free(t->comms);
	free(t->exes);
	if (t->tep)
		tep_free(t->tep);
	if (t->own_fmt_tep)
		tep_free(t->own_fmt_tep);
	machine__exit(&t->machine);
}

int trace__run(const struct trace_opts *o, struct perf_session *s,
	       FILE *out)
{
	struct trace t = { .o = o, .out = out, .session = s };
	int err;

	t.threads_tail = &t.threads;
	err = machine__init(&t.machine);
	if (!err && o->syscalls)
		err = setup_selection(&t);
	if (!err && o->pids)
		err = walk_items(o->pids, add_pid, &t);
	if (!err && o->comms)
		err = walk_items(o->comms, add_comm, &t);
	if (err) {
		fprintf(stderr, "perf trace: %s\n", strerror(-err));
		trace_exit(&t);
		return 1;
	}
	if (trace_setup(&t, s)) {
		trace_exit(&t);
		return 1;
	}
	err = perf_session__process_events_ordered(s, trace_event, &t);
	trace_finish(&t);
	if (err)
		fprintf(stderr, "perf trace: %s%s\n", perf_session__error(s),
			err == PERF_SESSION_DATA_ERROR ?
			" (what came before was traced)" : "");
	trace_exit(&t);
	return err ? 1 : 0;
}

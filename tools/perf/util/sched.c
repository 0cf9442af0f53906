// SPDX-License-Identifier: GPL-2.0
/*
 * perf sched timehist: scheduling latency and run time per switch-out,
 * computed from sched_switch, sched_waking/sched_wakeup(_new) and
 * sched_migrate_task samples, in time order.
 *
 * For a task switched out at t on a CPU whose previous switch was at
 * tprev (so the task ran from tprev to t):
 *
 *	run time   = t - tprev
 *	sch delay  = tprev - (its first wakeup since its last switch-out)
 *	wait time  = tprev - (its last switch-out)
 *
 * The wait is booked as sleep, iowait or preemption by the state the
 * task was switched out in.  The idle task is tracked per CPU.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <event-parse.h>
#include <perf/cpumap.h>
#include "array.h"
#include "report.h"
#include "sched.h"
#include "sched-kvm.h"
#include "symbol.h"
#include "trace-data.h"

#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL
#define COMMSTR_SIZE 32
#define TASK_RUNNING 0
#define TASK_UNINTERRUPTIBLE 2

/* The state letters perf prints, by the lowest bit set in prev_state. */
static const char task_state_chars[] = "RSDTtZXxKWP";

enum sched_kind {
	SCHED_OTHER,
	SCHED_SWITCH,
	SCHED_WAKEUP,
	SCHED_MIGRATE,
	SCHED_KVM_ENTRY,
	SCHED_KVM_EXIT,
};

struct sched_attr_info {
	enum sched_kind kind;
	struct tep_format_field *prev_pid, *prev_state, *next_pid, *next_comm;
	struct tep_format_field *pid, *orig_cpu, *dest_cpu;
	struct tep_format_field *exit_reason, *isa;
	struct tep_event *event;
	bool native;		/* the file's byte order is ours */
	u64 *last_time;		/* per CPU, of this event's samples */
	u32 nr_cpus;
};

/* ---- small helpers ---- */

/*
 * A number field of @ai's event, unsigned, as tep_read_number_field()
 * reads it (0 for a size it does not read).  In the file's byte order
 * when that is ours, it is read here: a sched record reads two or three
 * and the library's call cost a tenth of timehist -s.
 */
static u64 field_num(const struct sched_attr_info *ai,
		     const struct tep_format_field *f,
		     const struct perf_sample *s)
{
	const u8 *p = (const u8 *)s->raw_data;
	unsigned long long v = 0;
	u16 v16;
	u32 v32;
	u64 v64;

	if (!f || f->offset + f->size > (int)s->raw_size)
		return 0;
	if (!ai->native) {
		tep_read_number_field((struct tep_format_field *)f, p, &v);
		return v;
	}
	p += f->offset;
	switch (f->size) {
	case 1:
		return *p;
	case 2:
		memcpy(&v16, p, sizeof(v16));
		return v16;
	case 4:
		memcpy(&v32, p, sizeof(v32));
		return v32;
	case 8:
		memcpy(&v64, p, sizeof(v64));
		return v64;
	default:
		return 0;
	}
}

static void field_str(const struct tep_format_field *f,
		      const struct perf_sample *s, char *buf, size_t size)
{
	size_t len;

	buf[0] = 0;
	if (!f || f->offset + f->size > (int)s->raw_size)
		return;
	len = strnlen((const char *)s->raw_data + f->offset, f->size);
	if (len >= size)
		len = size - 1;
	memcpy(buf, (const char *)s->raw_data + f->offset, len);
	buf[len] = 0;
}

/*
 * The line of every switch-in is built by hand: with millions of lines,
 * printf's format parsing is most of the run time.
 */

/* v in decimal, right-aligned in width columns padded with pad. */
static char *put_u64(char *p, u64 v, int width, char pad)
{
	char digits[20];
	int n = 0;

	do {
		digits[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	for (; width > n; width--)
		*p++ = pad;
	while (n)
		*p++ = digits[--n];
	return p;
}

/* "%d" of v. */
static char *put_int(char *p, int v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u64(p, -(s64)v, 0, ' ');
	}
	return put_u64(p, v, 0, ' ');
}

/* s, at most max bytes of it, left-aligned in width columns. */
static char *put_str(char *p, const char *s, int max, int width)
{
	int n = 0;

	while (n < max && s[n]) {
		*p++ = s[n];
		n++;
	}
	for (; width > n; width--)
		*p++ = ' ';
	return p;
}

/* "%*llu.%03llu " of nsecs in msecs: truncated, as Linux perf prints. */
static char *put_msec(char *p, u64 nsecs, int width)
{
	u64 msecs = nsecs / NSEC_PER_MSEC;

	p = put_u64(p, msecs, width, ' ');
	*p++ = '.';
	p = put_u64(p, (nsecs - msecs * NSEC_PER_MSEC) / NSEC_PER_USEC, 3, '0');
	*p++ = ' ';
	return p;
}

/* "secs.usecs", or with --tod "HH:MM:SS.uuuuuu"; returns the end. */
static char *put_time(char *tstr, struct tod *tod, u64 t)
{
	char *e;

	if (tod) {
		tod_format(tod_of(tod, t), tstr, 16);
		return tstr + strlen(tstr);
	}
	e = put_u64(tstr, t / 1000000000ULL, 0, ' ');
	*e++ = '.';
	e = put_u64(e, t % 1000000000ULL / NSEC_PER_USEC, 6, '0');
	*e = 0;
	return e;
}

/* "%15s [%04d] " of the time and the cpu. */
static char *put_timestamp(char *p, struct tod *tod, u64 t, int cpu)
{
	char tstr[32], *e = put_time(tstr, tod, t);

	p = put_str(p, "", 0, 15 - (int)(e - tstr));
	p = put_str(p, tstr, sizeof(tstr), 0);
	if (cpu < 0)
		return p + sprintf(p, " [%04d] ", cpu);
	*p++ = ' ';
	*p++ = '[';
	p = put_u64(p, cpu, 4, '0');
	*p++ = ']';
	*p++ = ' ';
	return p;
}

static void print_msec(FILE *out, u64 nsecs, int width)
{
	char buf[48];

	fwrite(buf, 1, put_msec(buf, nsecs, width) - buf, out);
}

static void print_timestamp(struct sched_timehist *th, u64 t, int cpu)
{
	char buf[64];

	fwrite(buf, 1, put_timestamp(buf, th->tod, t, cpu) - buf, th->out);
}

/*
 * "comm[tid/pid]", "comm[tid]" for a process leader, "comm" for pid 0;
 * at most COMMSTR_SIZE - 1 bytes, cut as snprintf would cut it.  The
 * name column widens to the longest seen.
 */
static const char *commstr(struct sched_timehist *th, const struct thread *t)
{
	static char str[COMMSTR_SIZE];
	char full[COMMSTR_SIZE + 48], *p;
	int n;

	p = put_str(full, t->comm, COMMSTR_SIZE, 0);
	if (t->pid != 0) {
		*p++ = '[';
		p = put_int(p, t->tid);
		if (t->tid != t->pid) {
			*p++ = '/';
			p = put_int(p, t->pid);
		}
		*p++ = ']';
	}
	n = p - full;
	if (n > COMMSTR_SIZE - 1)
		n = COMMSTR_SIZE - 1;
	memcpy(str, full, n);
	str[n] = 0;
	if (n > th->comm_width)
		th->comm_width = n;
	return str;
}

static const char dotted_line[] =
	"---------------------------------------------------------------------"
	"---------------------------------------------------------------------";

static void stats__init(struct sched_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->min = (u64)-1;
}

/* Welford's running mean and variance, as perf's stat code keeps them. */
static void stats__update(struct sched_stats *st, u64 val)
{
	double delta;

	st->n++;
	delta = val - st->mean;
	st->mean += delta / st->n;
	st->m2 += delta * (val - st->mean);
	if (val > st->max)
		st->max = val;
	if (val < st->min)
		st->min = val;
}

static double stats__rel_stddev(const struct sched_stats *st)
{
	double variance;

	if (st->n < 2 || !st->mean)
		return 0.0;
	variance = st->m2 / (st->n - 1);
	return 100.0 * sqrt(variance / st->n) / st->mean;
}

/* ---- lists given on the command line ---- */

/* "1,20,300": at most one id more than there are commas. */
static int parse_id_list(const char *str, u32 **list, u32 *nr)
{
	const char *p = str;
	size_t room = 1;
	char *end;

	for (; *p; p++)
		room += *p == ',';
	*list = calloc(room, sizeof(**list));
	if (!*list)
		return -ENOMEM;
	for (p = str; *p; p = *end ? end + 1 : end) {
		long v = strtol(p, &end, 10);

		if (end == p || v < 0 || v > UINT32_MAX ||
		    (*end && *end != ','))
			return -EINVAL;
		(*list)[(*nr)++] = v;
	}
	return 0;
}

static bool id_listed(const u32 *list, u32 nr, u32 id)
{
	u32 i;

	for (i = 0; i < nr; i++)
		if (list[i] == id)
			return true;
	return false;
}

/* "0,2-3": the CPUs to show. */
static int parse_cpu_list(struct sched_timehist *th, const char *str)
{
	th->cpus = perf_cpu_map__parse(str);
	return th->cpus ? 0 : -EINVAL;
}

static bool cpu_shown(const struct sched_timehist *th, u32 cpu)
{
	return !th->cpus || perf_cpu_map__has(th->cpus, cpu);
}

static bool thread_filtered(struct sched_timehist *th, const struct thread *t)
{
	if (th->pid_list && !id_listed(th->pid_list, th->nr_pids, t->pid))
		return true;
	if (th->tid_list && !id_listed(th->tid_list, th->nr_tids, t->tid))
		return true;
	return false;
}

/* ---- runtimes ---- */

static struct sched_runtime *runtime_new(struct thread *t)
{
	struct sched_runtime *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->thread = t;
	stats__init(&r->run_stats);
	t->priv = r;
	return r;
}

static struct sched_runtime *thread_runtime(struct sched_timehist *th,
					    struct thread *t)
{
	struct sched_runtime *r = t->priv;

	if (r)
		return r;
	if (array_reserve_one((void **)&th->runtimes, &th->runtimes_alloc,
			      th->nr_runtimes, sizeof(*th->runtimes)))
		return NULL;
	r = runtime_new(t);
	if (r)
		th->runtimes[th->nr_runtimes++] = r;
	return r;
}

/* The idle task of each CPU is a thread of its own, outside the machine. */
static struct thread *idle_thread(struct sched_timehist *th, u32 cpu)
{
	struct thread *t;

	if (cpu >= PERF_MAX_CPUS)	/* the table grows to cpu + 1 */
		return NULL;
	if (cpu >= th->nr_idle) {
		u32 n = 1, i;
		struct thread **p;

		while (n < cpu + 1)
			n <<= 1;
		p = realloc(th->idle, n * sizeof(*p));
		if (!p)
			return NULL;
		for (i = th->nr_idle; i < n; i++)
			p[i] = NULL;
		th->idle = p;
		th->nr_idle = n;
	}
	if (th->idle[cpu])
		return th->idle[cpu];
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->comm = "<idle>";
	t->ppid = (u32)-1;
	if (!runtime_new(t)) {
		free(t);
		return NULL;
	}
	th->idle[cpu] = t;
	return t;
}

static u64 *attr_last_time(struct sched_attr_info *ai, u32 cpu)
{
	if (cpu >= PERF_MAX_CPUS)	/* the table grows to cpu + 1 */
		return NULL;
	if (cpu >= ai->nr_cpus) {
		u32 n = 1, i;
		u64 *p;

		while (n < cpu + 1)
			n <<= 1;
		p = realloc(ai->last_time, n * sizeof(*p));
		if (!p)
			return NULL;
		for (i = ai->nr_cpus; i < n; i++)
			p[i] = 0;
		ai->last_time = p;
		ai->nr_cpus = n;
	}
	return &ai->last_time[cpu];
}

/* ---- call chains ---- */

static bool sched_function(const char *name)
{
	return name && (!strcmp(name, "schedule") ||
			!strcmp(name, "__schedule") ||
			!strcmp(name, "preempt_schedule"));
}

/*
 * Where the task was when switched out: the first max_stack + 2 frames
 * of its chain (of its kernel or user part only, when asked), resolved
 * in its process.
 */
static void resolve_chain(struct sched_timehist *th,
			  const struct perf_sample *s)
{
	const struct ip_callchain *cc;
	struct thread *leader;
	u8 cpumode = s->cpumode;
	u32 limit = th->opts.max_stack + 2, frames = 0;
	u64 i;

	leader = machine__findnew_thread(&th->machine, s->pid, s->pid);
	if (!th->opts.callchain || !s->callchain || !leader)
		return;
	cc = machine__callchain(&th->machine, leader, s);
	th->chain.nr = 0;
	for (i = 0; i < cc->nr && frames < limit; i++) {
		struct addr_location al;
		u64 ip = cc->ips[i];
		int ret;

		ret = machine__resolve_callchain_ip(&th->machine, leader,
						    &cpumode, ip, &al);
		if (ret < 0) {
			th->chain.nr = 0;
			return;
		}
		if (ret || !callchain_frame_wanted(th->opts.frames, al.cpumode))
			continue;
		frames++;
		if (array_reserve_one((void **)&th->chain.names,
				      &th->chain.alloc, th->chain.nr,
				      sizeof(*th->chain.names)))
			return;
		th->chain.names[th->chain.nr++] = al.sym ? al.sym->name : NULL;
	}
}

static void print_chain(struct sched_timehist *th)
{
	bool first = true;
	u32 i;

	for (i = 0; i < th->chain.nr; i++) {
		const char *name = th->chain.names[i];

		if (sched_function(name))
			continue;
		fputs(first ? " " : " <- ", th->out);
		fputs(name ? name : "[unknown]", th->out);
		first = false;
	}
}

/* The stack of the task going idle, folded, for the idle summary. */
static void save_idle_chain(struct sched_timehist *th, struct sched_runtime *idle)
{
	size_t len = 1, pos = 0;
	char *folded;
	u32 i;

	for (i = 0; i < th->chain.nr; i++)
		len += strlen(th->chain.names[i] ? th->chain.names[i] :
			      "[unknown]") + 4;
	folded = malloc(len);
	if (!folded)
		return;
	folded[0] = 0;
	for (i = 0; i < th->chain.nr; i++) {
		const char *name = th->chain.names[i];

		if (sched_function(name))
			continue;
		pos += snprintf(folded + pos, len - pos, "%s%s",
				pos ? " <- " : "", name ? name : "[unknown]");
	}
	free(idle->entry_chain);
	idle->entry_chain = folded;
}

static void add_idle_chain(struct sched_runtime *idle, u64 idle_ns)
{
	struct sched_idle_chain *c;
	u32 i;

	if (!idle->entry_chain || !idle->entry_chain[0])
		return;
	for (i = 0; i < idle->nr_chains; i++) {
		c = &idle->chains[i];
		if (!strcmp(c->folded, idle->entry_chain))
			goto found;
	}
	if (array_reserve_one((void **)&idle->chains, &idle->chains_alloc,
			      idle->nr_chains, sizeof(*idle->chains)))
		return;
	c = &idle->chains[idle->nr_chains];
	c->folded = strdup(idle->entry_chain);
	if (!c->folded)
		return;
	c->hit = 0;
	c->count = 0;
	idle->nr_chains++;
found:
	c->hit += idle_ns;
	c->count++;
}

/* ---- the lines ---- */

static void print_header(struct sched_timehist *th)
{
	FILE *out = th->out;
	u32 ncpus = th->max_cpu + 1, i;
	int w = th->comm_width;

	fprintf(out, "%15s %6s ", "time", "cpu");
	if (th->opts.cpu_visual) {
		fprintf(out, " ");
		for (i = 0; i < ncpus; i++)
			fprintf(out, "%x", i % 16);
		fprintf(out, " ");
	}
	fprintf(out, " %-*s  %9s  %9s  %9s", w, "task name", "wait time",
		"sch delay", "run time");
	if (th->opts.state)
		fprintf(out, "  %s", "state");
	fprintf(out, "\n%15s %-6s ", "", "");
	if (th->opts.cpu_visual)
		fprintf(out, " %*s ", ncpus, "");
	fprintf(out, " %-*s  %9s  %9s  %9s", w, "[tid/pid]", "(msec)",
		"(msec)", "(msec)");
	if (th->opts.state)
		fprintf(out, "  %5s", "");
	fprintf(out, "\n%.15s %.6s ", dotted_line, dotted_line);
	if (th->opts.cpu_visual)
		fprintf(out, " %.*s ", ncpus, dotted_line);
	fprintf(out, " %.*s  %.9s  %.9s  %.9s", w, dotted_line, dotted_line,
		dotted_line, dotted_line);
	if (th->opts.state)
		fprintf(out, "  %.5s", dotted_line);
	fprintf(out, "\n");
}

static char state_char(const struct thread *t, int state)
{
	unsigned int bit = state ? ffs(state) : 0;

	if (t->tid == 0)
		return 'I';
	return bit < sizeof(task_state_chars) - 1 ? task_state_chars[bit] : '?';
}

static void print_switch_line(struct sched_timehist *th,
			      struct sched_attr_info *ai,
			      const struct perf_sample *s, struct thread *t,
			      u64 time, int state)
{
	struct sched_runtime *r = t->priv;
	FILE *out = th->out;
	char next_comm[32], nstr[30];
	char buf[COMMSTR_SIZE + 128], *p;
	u32 i;

	if (!cpu_shown(th, s->cpu))
		return;
	print_timestamp(th, time, s->cpu);
	if (th->opts.cpu_visual) {
		fputc(' ', out);
		for (i = 0; i <= th->max_cpu; i++)
			fputc(i != s->cpu ? ' ' : t->tid ? 's' : 'i', out);
		fputc(' ', out);
	}
	p = buf;
	*p++ = ' ';
	p = put_str(p, commstr(th, t), COMMSTR_SIZE, th->comm_width);
	*p++ = ' ';
	p = put_msec(p, r->dt_sleep + r->dt_iowait + r->dt_preempt, 6);
	p = put_msec(p, r->dt_delay, 6);
	p = put_msec(p, r->dt_run, 6);
	fwrite(buf, 1, p - buf, out);
	if (th->opts.state)
		fprintf(out, " %5c ", state_char(t, state));
	if (th->opts.next) {
		field_str(ai->next_comm, s, next_comm, sizeof(next_comm));
		snprintf(nstr, sizeof(nstr), "next: %s[%d]", next_comm,
			 (int)field_num(ai, ai->next_pid, s));
		fprintf(out, " %-*s", th->comm_width, nstr);
	}
	if (th->opts.wakeups && !th->opts.next)
		fprintf(out, "  %-*s", th->comm_width, "");
	if (t->tid) {
		if (th->opts.callchain)
			fprintf(out, "  ");
		print_chain(th);
	}
	fputc('\n', out);
}

static void runtime__update(struct sched_runtime *r, u64 t, u64 tprev)
{
	r->dt_delay = r->dt_sleep = r->dt_iowait = r->dt_preempt = 0;
	r->dt_run = 0;
	if (tprev) {
		r->dt_run = t - tprev;
		if (r->ready_to_run && r->ready_to_run <= tprev)
			r->dt_delay = tprev - r->ready_to_run;
		if (r->last_time && r->last_time <= tprev) {
			u64 wait = tprev - r->last_time;

			if (r->last_state == TASK_RUNNING)
				r->dt_preempt = wait;
			else if (r->last_state == TASK_UNINTERRUPTIBLE)
				r->dt_iowait = wait;
			else
				r->dt_sleep = wait;
		}
	}
	stats__update(&r->run_stats, r->dt_run);
	r->total_run += r->dt_run;
	r->total_delay += r->dt_delay;
	r->total_sleep += r->dt_sleep;
	r->total_iowait += r->dt_iowait;
	r->total_preempt += r->dt_preempt;
}

/* -I: a CPU's idle time counts as run time of the task before it. */
static void idle_hist_update(struct sched_timehist *th,
			     struct sched_runtime *idle, u64 t, u64 tprev)
{
	struct sched_runtime *last;

	last = thread_runtime(th, idle->last_thread);
	if (!last)
		return;
	runtime__update(last, t, tprev);
	last->dt_run = last->dt_delay = last->dt_sleep = 0;
	last->dt_iowait = last->dt_preempt = 0;
	if (th->opts.callchain)
		add_idle_chain(idle, t - tprev);
	idle->last_thread = NULL;
}

static bool skip_sample(struct sched_timehist *th, struct thread *t,
			struct sched_attr_info *ai, const struct perf_sample *s)
{
	bool skip = false;

	if (thread_filtered(th, t)) {
		skip = true;
		th->skipped++;
	}
	if (th->opts.idle_hist) {
		if (ai->kind != SCHED_SWITCH)
			skip = true;
		else if (field_num(ai, ai->prev_pid, s) && field_num(ai, ai->next_pid, s))
			skip = true;
	}
	return skip;
}

/* The task switched out, or the CPU's idle task. */
static struct thread *switch_thread(struct sched_timehist *th,
				    struct sched_attr_info *ai,
				    const struct perf_sample *s)
{
	struct thread *t, *idle;

	if (field_num(ai, ai->prev_pid, s) == 0)
		return idle_thread(th, s->cpu);
	t = machine__findnew_thread(&th->machine, s->pid,
				    s->tid ? s->tid : s->pid);
	resolve_chain(th, s);
	if (!t || !th->opts.idle_hist)
		return t;
	idle = idle_thread(th, s->cpu);
	if (!idle)
		return NULL;
	((struct sched_runtime *)idle->priv)->last_thread = t;
	if (th->opts.callchain && s->callchain && !field_num(ai, ai->next_pid, s))
		save_idle_chain(th, idle->priv);
	return t;
}

/* Clip to --time; false when the switch lies outside it. */
static bool clip_to_window(struct sched_timehist *th, u64 *t, u64 *tprev)
{
	u64 start = th->opts.time_start, end = th->opts.time_end;

	if (start && start > *t)
		return false;
	if (*tprev && start > *tprev)
		*tprev = start;
	if (end) {
		if (!*tprev || *tprev > end)
			return false;
		if (*t > end)
			*t = end;
	}
	return true;
}

/*
 * Book the run; false when nothing is to be shown: with -I, an idle
 * period whose task before it is unknown.
 */
static bool account_switch(struct sched_timehist *th, struct thread *t,
			   struct sched_runtime *r, const struct perf_sample *s,
			   u64 time, u64 tprev)
{
	if (th->opts.idle_hist && t->tid != 0)
		return true;
	if (cpu_shown(th, s->cpu))
		runtime__update(r, time, tprev);
	if (!th->opts.idle_hist)
		return true;
	if (!r->last_thread)
		return false;
	idle_hist_update(th, r, time, tprev);
	return true;
}

static int process_switch(struct sched_timehist *th,
			  struct sched_attr_info *ai,
			  const struct perf_sample *s)
{
	int state = field_num(ai, ai->prev_state, s);
	struct sched_runtime *r = NULL;
	u64 time = s->time, tprev, *last;
	struct thread *t;

	last = attr_last_time(ai, s->cpu);
	if (!last || !machine__findnew_thread(&th->machine, s->pid, s->tid))
		return -ENOMEM;
	t = switch_thread(th, ai, s);
	if (!t)
		return -ENOMEM;
	if (skip_sample(th, t, ai, s))
		goto out;
	r = thread_runtime(th, t);
	if (!r)
		return -ENOMEM;
	tprev = *last;
	if (!clip_to_window(th, &time, &tprev))
		goto out;
	if (!account_switch(th, t, r, s, time, tprev))
		goto out;
	if (!th->opts.summary_only)
		print_switch_line(th, ai, s, t, time, state);
out:
	if (!th->hist_start && time >= th->opts.time_start)
		th->hist_start = time;
	if (!th->opts.time_end || time <= th->opts.time_end)
		th->hist_end = time;
	if (r) {
		r->last_time = s->time;
		r->last_state = state;
		r->ready_to_run = 0;
	}
	*last = s->time;
	return 0;
}

/* A wakeup or migration line: who did it, to whom. */
static void print_event_line(struct sched_timehist *th,
			     const struct perf_sample *s, struct thread *actor,
			     char mark)
{
	u32 i;

	print_timestamp(th, s->time, s->cpu);
	if (th->opts.cpu_visual && mark == 'm') {
		fprintf(th->out, "  ");
		for (i = 0; i <= th->max_cpu; i++)
			fputc(i == s->cpu ? 'm' : ' ', th->out);
		fprintf(th->out, "  ");
	} else if (th->opts.cpu_visual) {
		fprintf(th->out, " %*s ", th->max_cpu + 1, "");
	}
	fprintf(th->out, " %-*s ", th->comm_width, commstr(th, actor));
	fprintf(th->out, "  %9s  %9s  %9s ", "", "", "");
}

static int process_wakeup(struct sched_timehist *th,
			  struct sched_attr_info *ai,
			  const struct perf_sample *s)
{
	struct thread *t, *waker;
	struct sched_runtime *r;
	u64 start = th->opts.time_start, end = th->opts.time_end;

	t = machine__findnew_thread(&th->machine, 0, field_num(ai, ai->pid, s));
	r = t ? thread_runtime(th, t) : NULL;
	if (!r)
		return -ENOMEM;
	if (!r->ready_to_run)
		r->ready_to_run = s->time;
	if (!th->opts.wakeups || (start && s->time < start) ||
	    (end && s->time > end))
		return 0;
	waker = machine__findnew_thread(&th->machine, s->pid, s->tid);
	if (!waker)
		return -ENOMEM;
	/* Shown unless both ends are filtered out. */
	if (skip_sample(th, waker, ai, s) && skip_sample(th, t, ai, s))
		return 0;
	print_event_line(th, s, waker, 'w');
	fprintf(th->out, "awakened: %s\n", commstr(th, t));
	return 0;
}

static int process_migrate(struct sched_timehist *th,
			   struct sched_attr_info *ai,
			   const struct perf_sample *s)
{
	struct thread *t, *actor;
	struct sched_runtime *r;

	t = machine__findnew_thread(&th->machine, 0, field_num(ai, ai->pid, s));
	r = t ? thread_runtime(th, t) : NULL;
	if (!r)
		return -ENOMEM;
	r->migrations++;
	if (th->opts.summary_only)
		return 0;
	actor = machine__findnew_thread(&th->machine, s->pid, s->tid);
	if (!actor)
		return -ENOMEM;
	if (skip_sample(th, actor, ai, s) && skip_sample(th, t, ai, s))
		return 0;
	print_event_line(th, s, actor, 'm');
	fprintf(th->out, "migrated: %s", commstr(th, t));
	fprintf(th->out, " cpu %d => %d\n", (int)field_num(ai, ai->orig_cpu, s),
		(int)field_num(ai, ai->dest_cpu, s));
	return 0;
}

/* ---- the summary ---- */

/*
 * Tasks in the order Linux perf keeps its threads: by tid modulo 256,
 * current threads by tid as a signed number (the -1 the kernel gives
 * an exiting task comes first), then those whose tid was reused,
 * oldest first.  Scripts that compare summaries line by line rely on it.
 */
static u64 runtime_key(const struct thread *t)
{
	u64 key = ((u64)(t->tid & 255) << 40) | ((u64)!!t->replaced_seq << 39);

	if (t->replaced_seq)
		return key | t->replaced_seq;
	return key | (u32)((s32)t->tid + 0x80000000U);
}

static int runtime_order(const void *pa, const void *pb)
{
	u64 ka = runtime_key((*(struct sched_runtime * const *)pa)->thread);
	u64 kb = runtime_key((*(struct sched_runtime * const *)pb)->thread);

	return ka < kb ? -1 : ka > kb;
}

struct sched_totals {
	u64 sched_count;
	u64 task_count;
	u64 total_run;
};

static void print_task_runtime(struct sched_timehist *th,
			       const struct sched_runtime *r)
{
	const struct sched_stats *st = &r->run_stats;
	FILE *out = th->out;
	const char *name = commstr(th, r->thread);

	fprintf(out, "%*s   %5d  %9llu ", th->comm_width, name,
		(int)r->thread->ppid, (unsigned long long)st->n);
	print_msec(out, r->total_run, 8);
	if (th->opts.state) {
		print_msec(out, r->total_sleep, 6);
		fprintf(out, " ");
		print_msec(out, r->total_iowait, 6);
		fprintf(out, " ");
		print_msec(out, r->total_preempt, 6);
		fprintf(out, " ");
		print_msec(out, r->total_delay, 6);
		fprintf(out, "\n");
		return;
	}
	print_msec(out, st->min, 6);
	fprintf(out, " ");
	print_msec(out, (u64)st->mean, 6);
	fprintf(out, " ");
	print_msec(out, st->max, 6);
	fprintf(out, "  %5.2f   %5llu\n", (float)stats__rel_stddev(st),
		(unsigned long long)r->migrations);
}

static void print_tasks(struct sched_timehist *th, struct sched_totals *tot,
			bool exited)
{
	u32 i;

	for (i = 0; i < th->nr_runtimes; i++) {
		const struct sched_runtime *r = th->runtimes[i];

		if (r->thread->exited != exited ||
		    thread_filtered(th, r->thread) || !r->run_stats.n)
			continue;
		tot->task_count++;
		tot->sched_count += r->run_stats.n;
		tot->total_run += r->total_run;
		print_task_runtime(th, r);
	}
}

static void print_summary_header(struct sched_timehist *th)
{
	FILE *out = th->out;
	int w = th->comm_width;

	if (th->opts.idle_hist) {
		fprintf(out, "\nIdle-time summary\n%*s  parent  sched-out  ", w,
			"comm");
		fprintf(out, "  idle-time   min-idle    avg-idle    max-idle  stddev  migrations\n");
	} else if (th->opts.state) {
		fprintf(out, "\nWait-time summary\n%*s  parent   sched-in  ", w,
			"comm");
		fprintf(out, "   run-time      sleep      iowait     preempt       delay\n");
	} else {
		fprintf(out, "\nRuntime summary\n%*s  parent   sched-in  ", w,
			"comm");
		fprintf(out, "   run-time    min-run     avg-run     max-run  stddev  migrations\n");
	}
	fprintf(out, "%*s            (count)  ", w, "");
	fprintf(out, "     (msec)     (msec)      (msec)      (msec)       %s\n",
		th->opts.state ? "(msec)" : "%");
	fprintf(out, "%.117s\n", dotted_line);
}

static void print_idle_stats(struct sched_timehist *th,
			     struct sched_totals *tot)
{
	u64 window = th->hist_end - th->hist_start;
	u32 i;

	fprintf(th->out, "\nIdle stats:\n");
	for (i = 0; i < th->nr_idle; i++) {
		const struct sched_runtime *r;

		if (!cpu_shown(th, i) || !th->idle[i])
			continue;
		r = th->idle[i]->priv;
		if (!r->run_stats.n) {
			fprintf(th->out, "    CPU %2d idle entire time window\n",
				(int)i);
			continue;
		}
		tot->sched_count += r->run_stats.n;
		fprintf(th->out, "    CPU %2d idle for ", (int)i);
		print_msec(th->out, r->total_run, 6);
		fprintf(th->out, " msec  (%6.2f%%)\n",
			100.0 * r->total_run / window);
	}
}

static int chain_by_hit(const void *pa, const void *pb)
{
	const struct sched_idle_chain *a = pa, *b = pb;

	return a->hit < b->hit ? 1 : a->hit > b->hit ? -1 : 0;
}

/* -I -g: per CPU, the stacks tasks left the CPU idle with. */
static void print_idle_chains(struct sched_timehist *th)
{
	FILE *out = th->out;
	u32 i, j;

	fprintf(out, "\nIdle stats by callchain:\n");
	for (i = 0; i < th->nr_idle; i++) {
		struct sched_runtime *r;

		if (!th->idle[i])
			continue;
		r = th->idle[i]->priv;
		if (r->nr_chains)
			qsort(r->chains, r->nr_chains, sizeof(*r->chains),
			      chain_by_hit);
		fprintf(out, "  CPU %2d:", (int)i);
		print_msec(out, r->total_run, 6);
		fprintf(out, " msec\n  %16s  %8s  %s\n", "Idle time (msec)",
			"Count", "Callchains");
		fprintf(out, "  %.16s  %.8s  %.50s\n", dotted_line, dotted_line,
			dotted_line);
		for (j = 0; j < r->nr_chains; j++) {
			fprintf(out, "  ");
			print_msec(out, r->chains[j].hit, 12);
			fprintf(out, " %8u  %s\n", r->chains[j].count,
				r->chains[j].folded);
		}
		fprintf(out, "\n");
	}
}

void sched_timehist__print_summary(struct sched_timehist *th)
{
	struct sched_totals tot = { 0 };
	FILE *out = th->out;
	u64 running;

	print_summary_header(th);
	if (th->nr_runtimes)	/* qsort() wants a table, even of none */
		qsort(th->runtimes, th->nr_runtimes, sizeof(*th->runtimes),
		      runtime_order);
	print_tasks(th, &tot, false);
	running = tot.task_count;
	if (!running)
		fprintf(out, "<no still running tasks>\n");
	fprintf(out, "\nTerminated tasks:\n");
	print_tasks(th, &tot, true);
	if (running == tot.task_count)
		fprintf(out, "<no terminated tasks>\n");
	/* Idle time is unknown when filters dropped switches. */
	if (th->skipped && !th->opts.idle_hist)
		return;
	print_idle_stats(th, &tot);
	if (th->opts.idle_hist && th->opts.callchain)
		print_idle_chains(th);
	fprintf(out, "\n    Total number of unique tasks: %llu\n"
		"Total number of context switches: %llu\n",
		(unsigned long long)tot.task_count,
		(unsigned long long)tot.sched_count);
	fprintf(out, "           Total run time (msec): ");
	print_msec(out, tot.total_run, 2);
	fprintf(out, "\n    Total scheduling time (msec): ");
	print_msec(out, th->hist_end - th->hist_start, 2);
	fprintf(out, " (x %d)\n", (int)th->max_cpu);
}

/* ---- the session ---- */

static int process_sample(struct sched_timehist *th,
			  struct perf_session_attr *attr,
			  const struct perf_sample *s)
{
	struct sched_attr_info *ai;

	/*
	 * Per-CPU state is indexed by the CPU: a sample without one
	 * (no PERF_SAMPLE_CPU) has no place.  The reader refuses CPUs
	 * beyond PERF_MAX_CPUS.
	 */
	if (s->cpu >= PERF_MAX_CPUS)
		return 0;
	if (s->cpu > th->max_cpu)
		th->max_cpu = s->cpu;
	if (attr->idx < 0 || (u32)attr->idx >= th->nr_attrs)
		return 0;
	ai = &th->attrs[attr->idx];
	switch (ai->kind) {
	case SCHED_SWITCH:
		return process_switch(th, ai, s);
	case SCHED_WAKEUP:
		return process_wakeup(th, ai, s);
	case SCHED_MIGRATE:
		return th->opts.migrations ? process_migrate(th, ai, s) : 0;
	case SCHED_KVM_ENTRY:
	case SCHED_KVM_EXIT:
		return sched_kvm__sample(th, ai->kind == SCHED_KVM_ENTRY,
					 ai->exit_reason, ai->isa, s);
	default:
		return 0;
	}
}

static void print_lost(struct sched_timehist *th, const union perf_event *ev,
		       const struct perf_sample *s)
{
	char tstr[64];

	snprintf(tstr, sizeof(tstr), "%llu.%06llu",
		 (unsigned long long)(s->time / 1000000000ULL),
		 (unsigned long long)(s->time % 1000000000ULL / 1000));
	fprintf(th->out, "%15s lost %llu events on cpu %d\n", tstr,
		(unsigned long long)ev->lost.lost, (int)s->cpu);
}

static int timehist_event(struct perf_session *s, const union perf_event *ev,
			  u64 offset, const struct perf_sample *sample,
			  struct perf_session_attr *attr, void *ctx)
{
	struct sched_timehist *th = ctx;

	if (!sample)
		return 0;
	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		return attr ? process_sample(th, attr, sample) : 0;
	case PERF_RECORD_LOST:
		print_lost(th, ev, sample);
		return 0;
	default:
		return machine__process_event(&th->machine, ev, sample) == -ENOMEM ?
		       -ENOMEM : 0;
	}
}

static enum sched_kind kind_of(const struct tep_event *e)
{
	if (!strcmp(e->system, "kvm"))
		return !strcmp(e->name, "kvm_entry") ? SCHED_KVM_ENTRY :
		       !strcmp(e->name, "kvm_exit") ? SCHED_KVM_EXIT :
		       SCHED_OTHER;
	if (strcmp(e->system, "sched"))
		return SCHED_OTHER;
	if (!strcmp(e->name, "sched_switch"))
		return SCHED_SWITCH;
	if (!strcmp(e->name, "sched_waking") ||
	    !strcmp(e->name, "sched_wakeup") ||
	    !strcmp(e->name, "sched_wakeup_new"))
		return SCHED_WAKEUP;
	if (!strcmp(e->name, "sched_migrate_task"))
		return SCHED_MIGRATE;
	return SCHED_OTHER;
}

static void attr_fields(struct sched_attr_info *ai, struct tep_event *e)
{
	ai->event = e;
	ai->native = tep_is_file_bigendian(e->tep) ==
		     tep_is_local_bigendian(e->tep);
	ai->prev_pid = tep_find_field(e, "prev_pid");
	ai->prev_state = tep_find_field(e, "prev_state");
	ai->next_pid = tep_find_field(e, "next_pid");
	ai->next_comm = tep_find_field(e, "next_comm");
	ai->pid = tep_find_field(e, "pid");
	ai->orig_cpu = tep_find_field(e, "orig_cpu");
	ai->dest_cpu = tep_find_field(e, "dest_cpu");
	ai->exit_reason = tep_find_field(e, "exit_reason");
	ai->isa = tep_find_field(e, "isa");
}

/*
 * Whether samples of @ai do nothing but raise the highest CPU seen (a
 * third of a sched record is sched_stat_runtime).  That CPU shows only
 * in -V's columns and at the end, so without -V they need no time
 * order.
 */
static bool sample_ignored(const struct sched_timehist *th,
			   const struct sched_attr_info *ai)
{
	if (th->opts.cpu_visual)
		return false;
	return ai->kind == SCHED_OTHER ||
	       (ai->kind == SCHED_MIGRATE && !th->opts.migrations);
}

/* Which attr is which tracepoint, and whether all have call chains. */
static int setup_attrs(struct sched_timehist *th, struct perf_session *s,
		       bool *have_switch, bool *chains)
{
	u32 i;

	th->attrs = calloc(s->nr_attrs + 1, sizeof(*th->attrs));
	if (!th->attrs)
		return -ENOMEM;
	th->nr_attrs = s->nr_attrs;
	*have_switch = false;
	*chains = true;
	for (i = 0; i < s->nr_attrs; i++) {
		const struct perf_counter_attr *a = &s->attrs[i].attr;
		struct tep_event *e = NULL;

		if (!(a->sample_type & PERF_SAMPLE_CALLCHAIN))
			*chains = false;
		if (a->type == PERF_TYPE_TRACEPOINT)
			e = tep_find_event(th->tep, a->config);
		if (!e)
			continue;
		th->attrs[i].kind = kind_of(e);
		attr_fields(&th->attrs[i], e);
		if (th->attrs[i].kind == SCHED_SWITCH)
			*have_switch = true;
		if (!strcmp(e->system, "sched") &&
		    !strcmp(e->name, "sched_waking"))
			th->have_waking = true;
	}
	/* With sched_waking the wakeup itself would count twice. */
	for (i = 0; i < th->nr_attrs && th->have_waking; i++)
		if (th->attrs[i].event &&
		    !strcmp(th->attrs[i].event->name, "sched_wakeup"))
			th->attrs[i].kind = SCHED_OTHER;
	for (i = 0; i < th->nr_attrs; i++) {
		s->attrs[i].unordered = sample_ignored(th, &th->attrs[i]);
		s->attrs[i].skipped = s->attrs[i].unordered;
	}
	return 0;
}

static int load_formats(struct sched_timehist *th, struct perf_session *s)
{
	if (trace_data__from_session(s, "perf sched timehist", &th->tep))
		return -EINVAL;
	if (!th->tep) {
		fprintf(stderr,
			"perf sched timehist: %s has no tracing data, so it holds no scheduler tracepoints.\n"
			"Record them with 'perf sched record -- <command>' (or 'perf sched record -a sleep N').\n",
			s->name);
		return -EINVAL;
	}
	return 0;
}

static int setup_filters(struct sched_timehist *th)
{
	const struct sched_opts *o = &th->opts;

	if (o->pids && parse_id_list(o->pids, &th->pid_list, &th->nr_pids)) {
		fprintf(stderr, "perf sched timehist: bad pid list '%s' (e.g. 12,34)\n",
			o->pids);
		return -EINVAL;
	}
	if (o->tids && parse_id_list(o->tids, &th->tid_list, &th->nr_tids)) {
		fprintf(stderr, "perf sched timehist: bad tid list '%s' (e.g. 12,34)\n",
			o->tids);
		return -EINVAL;
	}
	if (o->cpus && parse_cpu_list(th, o->cpus)) {
		fprintf(stderr, "perf sched timehist: bad cpu list '%s' (e.g. 0,2-3)\n",
			o->cpus);
		return -EINVAL;
	}
	return 0;
}

static int timehist_prepare(struct sched_timehist *th, struct perf_session *s)
{
	bool have_switch, chains;
	u32 i;
	int err;

	th->comm_width = 30;
	err = setup_filters(th);
	if (!err)
		err = load_formats(th, s);
	if (!err)
		err = setup_attrs(th, s, &have_switch, &chains);
	if (err)
		return err;
	if (!have_switch) {
		fprintf(stderr,
			"perf sched timehist: %s has no sched:sched_switch samples.\n"
			"Record them with 'perf sched record -- <command>', or add -e sched:sched_switch to perf record.\n",
			s->name);
		return -EINVAL;
	}
	if (th->opts.callchain && !chains) {
		fprintf(stderr, "Samples do not have callchains.\n");
		th->opts.callchain = false;
	}
	if (machine__init(&th->machine))
		return -ENOMEM;
	th->max_cpu = s->info.nr_cpus_online ? s->info.nr_cpus_online : 4;
	for (i = 0; i < th->max_cpu; i++)
		if (!idle_thread(th, i))
			return -ENOMEM;
	return 0;
}

/* The samples the session skipped (sample_ignored()) saw these CPUs. */
static void note_skipped_cpus(struct sched_timehist *th,
			      const struct perf_session *s)
{
	u32 i;

	for (i = 0; i < s->nr_attrs; i++)
		if (s->attrs[i].max_skipped_cpu > (s32)th->max_cpu)
			th->max_cpu = s->attrs[i].max_skipped_cpu;
}

int sched_timehist__run(struct sched_timehist *th, struct perf_session *s,
			FILE *out)
{
	int err;

	th->out = out;
	err = tod_show(&th->opts.tod, &s->tod, "perf sched timehist", s->name);
	if (err < 0)
		return err;
	th->tod = err ? &s->tod : NULL;
	err = timehist_prepare(th, s);
	if (err)
		return err;
	if (th->opts.summary_only)
		th->opts.summary = true;
	if (!th->opts.summary_only)
		print_header(th);
	/*
	 * Reading and ordering are half of a timehist's work: a second
	 * CPU takes them (measured in bench/README).
	 */
	s->reader_thread = PERF_SESSION_READER_AUTO;
	err = perf_session__process_events_ordered(s, timehist_event, th);
	if (err < 0) {
		fprintf(stderr, "perf sched timehist: %s: %s\n", s->name,
			err == -ENOMEM ? "out of memory" :
			perf_session__error(s));
		return err;
	}
	if (err == PERF_SESSION_DATA_ERROR)
		fprintf(stderr, "perf sched timehist: %s\n",
			perf_session__error(s));
	note_skipped_cpus(th, s);
	if (th->opts.summary)
		sched_timehist__print_summary(th);
	sched_kvm__print(th);
	return 0;
}

static void runtime__free(struct sched_runtime *r)
{
	u32 i;

	for (i = 0; i < r->nr_chains; i++)
		free(r->chains[i].folded);
	free(r->chains);
	free(r->entry_chain);
	free(r);
}

void sched_timehist__exit(struct sched_timehist *th)
{
	u32 i;

	for (i = 0; i < th->nr_runtimes; i++)
		runtime__free(th->runtimes[i]);
	for (i = 0; i < th->nr_idle; i++) {
		if (th->idle[i])
			runtime__free(th->idle[i]->priv);
		free(th->idle[i]);
	}
	for (i = 0; i < th->nr_attrs; i++)
		free(th->attrs[i].last_time);
	sched_kvm__exit(th);
	free(th->attrs);
	free(th->idle);
	free(th->runtimes);
	free(th->chain.names);
	perf_cpu_map__put(th->cpus);
	free(th->pid_list);
	free(th->tid_list);
	if (th->tep)
		tep_free(th->tep);
	if (th->machine.arena)
		machine__exit(&th->machine);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Guest time per vCPU thread from kvm_entry/kvm_exit samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include <trace-seq.h>
#include "array.h"
#include "event.h"
#include "sched.h"
#include "sched-kvm.h"

struct kvm_exit_stat {
	u32 reason;
	u32 isa;
	char *name;		/* from the event's print format */
	u64 count;
	u64 host_ns;		/* from the exit to the next entry */
};

struct kvm_vcpu {
	struct thread *thread;
	u64 entry_time;		/* 0: not in the guest */
	u64 exit_time;		/* 0: no exit pending */
	u32 pending_idx;	/* the exit being handled, in exits[] */
	u64 guest_ns;
	u64 entries;
	struct kvm_exit_stat *exits;
	u32 nr_exits, exits_alloc;
};

struct sched_kvm {
	struct kvm_vcpu *vcpus;
	u32 nr, alloc;
};

/*
 * The name the event's own print format gives the exit reason ("HLT",
 * "npf", ...): kvm_exit prints "... reason NAME rip ...".
 */
static char *exit_reason_name(struct tep_handle *tep,
			      const struct perf_sample *s)
{
	struct tep_record rec = {
		.size = s->raw_size,
		.data = (void *)s->raw_data,
		.cpu = s->cpu,
	};
	struct trace_seq seq;
	char *name = NULL;
	const char *p, *end;

	trace_seq_init(&seq);
	tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&seq);
	p = seq.buffer ? strstr(seq.buffer, "reason ") : NULL;
	if (p) {
		p += strlen("reason ");
		end = strstr(p, " rip ");
		name = strndup(p, end ? (size_t)(end - p) : strlen(p));
	}
	trace_seq_destroy(&seq);
	return name;
}

static struct kvm_vcpu *vcpu_of(struct sched_timehist *th, struct thread *t)
{
	struct sched_kvm *k = th->kvm;
	u32 i;

	if (!k) {
		k = calloc(1, sizeof(*k));
		if (!k)
			return NULL;
		th->kvm = k;
	}
	for (i = 0; i < k->nr; i++)
		if (k->vcpus[i].thread == t)
			return &k->vcpus[i];
	if (array_reserve_one((void **)&k->vcpus, &k->alloc, k->nr,
			      sizeof(*k->vcpus)))
		return NULL;
	memset(&k->vcpus[k->nr], 0, sizeof(k->vcpus[0]));
	k->vcpus[k->nr].thread = t;
	return &k->vcpus[k->nr++];
}

/* Index of the stats of an exit reason; -1 when out of memory. */
static int exit_stat(struct sched_timehist *th, struct kvm_vcpu *v,
		     u32 isa, u32 reason, const struct perf_sample *s)
{
	struct kvm_exit_stat *e;
	u32 i;

	for (i = 0; i < v->nr_exits; i++)
		if (v->exits[i].reason == reason && v->exits[i].isa == isa)
			return i;
	if (array_reserve_one((void **)&v->exits, &v->exits_alloc,
			      v->nr_exits, sizeof(*v->exits)))
		return -1;
	e = &v->exits[v->nr_exits];
	memset(e, 0, sizeof(*e));
	e->reason = reason;
	e->isa = isa;
	e->name = exit_reason_name(th->tep, s);
	return v->nr_exits++;
}

static u64 raw_num(const struct tep_format_field *f,
		   const struct perf_sample *s)
{
	unsigned long long v = 0;

	if (f && f->offset + f->size <= (int)s->raw_size)
		tep_read_number_field((struct tep_format_field *)f,
				      s->raw_data, &v);
	return v;
}

static void vcpu_entry(struct kvm_vcpu *v, u64 time)
{
	if (v->exit_time && time >= v->exit_time)
		v->exits[v->pending_idx].host_ns += time - v->exit_time;
	v->exit_time = 0;
	v->entry_time = time;
	v->entries++;
}

static int vcpu_exit(struct sched_timehist *th, struct kvm_vcpu *v,
		     u32 isa, u32 reason, const struct perf_sample *s)
{
	int idx = exit_stat(th, v, isa, reason, s);

	if (idx < 0)
		return -ENOMEM;
	v->exits[idx].count++;
	if (v->entry_time && s->time >= v->entry_time)
		v->guest_ns += s->time - v->entry_time;
	v->entry_time = 0;
	v->exit_time = s->time;
	v->pending_idx = idx;
	return 0;
}

int sched_kvm__sample(struct sched_timehist *th, bool entry,
		      const struct tep_format_field *exit_reason,
		      const struct tep_format_field *isa,
		      const struct perf_sample *s)
{
	struct thread *t = machine__findnew_thread(&th->machine, s->pid,
						   s->tid);
	struct kvm_vcpu *v = t ? vcpu_of(th, t) : NULL;

	if (!v)
		return -ENOMEM;
	if (entry) {
		vcpu_entry(v, s->time);
		return 0;
	}
	return vcpu_exit(th, v, raw_num(isa, s), raw_num(exit_reason, s), s);
}

static void print_msec3(FILE *out, u64 ns)
{
	fprintf(out, "%9llu.%03llu", (unsigned long long)(ns / 1000000),
		(unsigned long long)(ns % 1000000 / 1000));
}

static void print_vcpu(struct sched_timehist *th, const struct kvm_vcpu *v)
{
	const struct thread *t = v->thread;
	char name[64];
	u32 i;

	if (t->tid != t->pid)
		snprintf(name, sizeof(name), "%s[%d/%d]", t->comm, (int)t->tid,
			 (int)t->pid);
	else
		snprintf(name, sizeof(name), "%s[%d]", t->comm, (int)t->tid);
	fprintf(th->out, "%30s  ", name);
	print_msec3(th->out, v->guest_ns);
	fprintf(th->out, "  %9llu\n", (unsigned long long)v->entries);
	for (i = 0; i < v->nr_exits; i++) {
		const struct kvm_exit_stat *e = &v->exits[i];
		const char *rname = e->name;
		char rbuf[32];

		if (!rname || !*rname) {
			snprintf(rbuf, sizeof(rbuf), "reason %u", e->reason);
			rname = rbuf;
		}
		fprintf(th->out, "%30s  %-22s %9llu  ", "", rname,
			(unsigned long long)e->count);
		print_msec3(th->out, e->host_ns);
		fprintf(th->out, "\n");
	}
}

void sched_kvm__print(struct sched_timehist *th)
{
	struct sched_kvm *k = th->kvm;
	u32 i;

	if (!k || !k->nr)
		return;
	fprintf(th->out, "\nKVM guest time per vCPU thread\n");
	fprintf(th->out, "%30s  %13s  %9s\n", "vcpu thread", "guest (msec)",
		"entries");
	fprintf(th->out, "%30s  %-22s %9s  %13s\n", "", "exit reason", "exits",
		"host (msec)");
	for (i = 0; i < k->nr; i++)
		print_vcpu(th, &k->vcpus[i]);
}

void sched_kvm__exit(struct sched_timehist *th)
{
	struct sched_kvm *k = th->kvm;
	u32 i, j;

	if (!k)
		return;
	for (i = 0; i < k->nr; i++) {
		for (j = 0; j < k->vcpus[i].nr_exits; j++)
			free(k->vcpus[i].exits[j].name);
		free(k->vcpus[i].exits);
	}
	free(k->vcpus);
	free(k);
	th->kvm = NULL;
}

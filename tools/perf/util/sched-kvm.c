// SPDX-License-Identifier: GPL-2.0
/*
 * Guest time per vCPU thread from kvm_entry/kvm_exit samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "array.h"
#include "event.h"
#include "sched.h"
#include "sched-kvm.h"

#define KVM_ISA_VMX 1

struct kvm_exit_stat {
	u32 reason;
	u64 count;
	u64 host_ns;		/* from the exit to the next entry */
};

struct kvm_vcpu {
	struct thread *thread;
	u64 entry_time;		/* 0: not in the guest */
	u64 exit_time;		/* 0: no exit pending */
	u32 exit_reason;
	u32 isa;
	u64 guest_ns;
	u64 entries;
	struct kvm_exit_stat *exits;
	u32 nr_exits, exits_alloc;
};

struct sched_kvm {
	struct kvm_vcpu *vcpus;
	u32 nr, alloc;
};

/* VMX basic exit reasons (Intel SDM, appendix C) that guests hit most. */
static const char *vmx_exit_name(u32 reason)
{
	static const struct { u32 nr; const char *name; } names[] = {
		{ 0, "EXCEPTION_NMI" }, { 1, "EXTERNAL_INTERRUPT" },
		{ 2, "TRIPLE_FAULT" }, { 7, "PENDING_INTERRUPT" },
		{ 8, "NMI_WINDOW" }, { 10, "CPUID" }, { 12, "HLT" },
		{ 14, "INVLPG" }, { 18, "VMCALL" }, { 28, "CR_ACCESS" },
		{ 29, "DR_ACCESS" }, { 30, "IO_INSTRUCTION" },
		{ 31, "MSR_READ" }, { 32, "MSR_WRITE" }, { 40, "PAUSE_INSTRUCTION" },
		{ 44, "APIC_ACCESS" }, { 45, "EOI_INDUCED" },
		{ 48, "EPT_VIOLATION" }, { 49, "EPT_MISCONFIG" },
		{ 52, "PREEMPTION_TIMER" }, { 55, "XSETBV" },
		{ 56, "APIC_WRITE" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].nr == reason)
			return names[i].name;
	return NULL;
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

static struct kvm_exit_stat *exit_stat(struct kvm_vcpu *v, u32 reason)
{
	u32 i;

	for (i = 0; i < v->nr_exits; i++)
		if (v->exits[i].reason == reason)
			return &v->exits[i];
	if (array_reserve_one((void **)&v->exits, &v->exits_alloc,
			      v->nr_exits, sizeof(*v->exits)))
		return NULL;
	memset(&v->exits[v->nr_exits], 0, sizeof(v->exits[0]));
	v->exits[v->nr_exits].reason = reason;
	return &v->exits[v->nr_exits++];
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
	if (v->exit_time && time >= v->exit_time) {
		struct kvm_exit_stat *e = exit_stat(v, v->exit_reason);

		if (e)
			e->host_ns += time - v->exit_time;
	}
	v->exit_time = 0;
	v->entry_time = time;
	v->entries++;
}

static int vcpu_exit(struct kvm_vcpu *v, u64 time, u32 reason)
{
	struct kvm_exit_stat *e = exit_stat(v, reason);

	if (!e)
		return -ENOMEM;
	e->count++;
	if (v->entry_time && time >= v->entry_time)
		v->guest_ns += time - v->entry_time;
	v->entry_time = 0;
	v->exit_time = time;
	v->exit_reason = reason;
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
	v->isa = raw_num(isa, s);
	return vcpu_exit(v, s->time, raw_num(exit_reason, s));
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
		const char *rname = v->isa == KVM_ISA_VMX ?
				    vmx_exit_name(e->reason) : NULL;
		char rbuf[32];

		if (!rname) {
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
	u32 i;

	if (!k)
		return;
	for (i = 0; i < k->nr; i++)
		free(k->vcpus[i].exits);
	free(k->vcpus);
	free(k);
	th->kvm = NULL;
}

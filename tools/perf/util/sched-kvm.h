/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_SCHED_KVM_H
#define __PERF_UTIL_SCHED_KVM_H

/*
 * Guest time of vCPU threads for perf sched timehist, from kvm:kvm_entry
 * and kvm:kvm_exit samples: a vCPU thread is in the guest from an entry
 * to the next exit on the same thread, and handles the exit in the host
 * from that exit to its next entry.  Per thread: guest time, entries,
 * and per exit reason the count and the host time spent on it.
 */
#include <perf/types.h>

struct sched_timehist;
struct perf_sample;
struct tep_format_field;

int sched_kvm__sample(struct sched_timehist *th, bool entry,
		      const struct tep_format_field *exit_reason,
		      const struct tep_format_field *isa,
		      const struct perf_sample *s);
/* The "KVM guest time" section; nothing when no kvm samples were seen. */
void sched_kvm__print(struct sched_timehist *th);
void sched_kvm__exit(struct sched_timehist *th);

#endif /* __PERF_UTIL_SCHED_KVM_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: the x86 PMU backend.
 *
 * Counters of PERF_TYPE_HARDWARE, PERF_TYPE_HW_CACHE and PERF_TYPE_RAW
 * go on the general-purpose and fixed counters of the CPU they run on.
 * The core offers them one at a time (add), and a group whole or not at
 * all; here each offer re-plans the CPU's counters so that events that
 * only some counters can count get one, moving the others if need be.
 *
 * Overflows arrive as NMIs.  The handler looks only at counters of ours
 * that are on the PMU, and claims the NMI only when one of them
 * overflowed: NMIs of the watchdog, of tests, of other drivers go on to
 * their owners, and none is taken for an unknown one.  Samples written
 * from the handler go through the ring buffer, which is safe in NMI
 * context; wakeups and stops it asks for are deferred to irq_work.
 *
 * The hardware is shared with perf_events through the kernel's counter
 * reservation: the first hardware counter reserves every general-purpose
 * counter as perf_events does, or fails with EBUSY while perf_events
 * holds them; the last gives them back.  Fixed counters and the global
 * control MSRs go with that reservation, since perf_events cannot
 * program any counter without it.
 */

#include <linux/bitops.h>
#include <linux/cpuhotplug.h>
#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/mmu_context.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/apic.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/processor.h>
#include <asm/timer.h>

#include "perf_counter.h"

struct x86_pc_pmu x86_pc_live;
atomic_long_t x86_pc_nmi_handled;
static DEFINE_PER_CPU(struct x86_pc_cpu, x86_pc_cpus);
/* Stops asked for from an NMI (a REFRESH limit reached) are made here. */
static DEFINE_PER_CPU(struct irq_work, x86_pc_stop_work);

static bool slot_is_fixed(int idx)
{
	return idx >= X86_PC_FIXED_BASE;
}

static unsigned int slot_width(const struct x86_pc_pmu *pmu, int idx)
{
	return slot_is_fixed(idx) ? pmu->fixed_width : pmu->gp_width;
}

static unsigned int sel_msr(const struct x86_pc_pmu *pmu, int idx)
{
	return pmu->sel_base + idx * pmu->msr_stride;
}

static unsigned int ctr_msr(const struct x86_pc_pmu *pmu, int idx)
{
	if (slot_is_fixed(idx))
		return MSR_CORE_PERF_FIXED_CTR0 + idx - X86_PC_FIXED_BASE;
	return pmu->ctr_base + idx * pmu->msr_stride;
}

/*
 * The longest period a counter takes: half its range, so that the top
 * bit tells a counter that has overflowed from one that has not.
 * Intel's counter MSRs take 32 bits, sign-extended, when written.
 */
u64 x86_pc_max_period(const struct x86_pc_pmu *pmu, int idx)
{
	u64 max = (1ULL << (slot_width(pmu, idx) - 1)) - 1;

	if (pmu->vendor == X86_PC_INTEL)
		max = min_t(u64, max, (1ULL << 31) - 1);
	return max;
}

static bool counter_samples(const struct perf_counter *counter)
{
	return counter->attr.freq || counter->attr.sample_period;
}

/* --- Events --- */

static int hw_event(const struct x86_pc_pmu *pmu, u64 config, u64 *sel)
{
	if (config >= PERF_COUNT_HW_MAX)
		return -EINVAL;
	if (!pmu->hw_events[config])
		return -ENOENT;
	*sel = pmu->hw_events[config];
	return 0;
}

/* config: cache | operation << 8 | result << 16 */
static int cache_event(const struct x86_pc_pmu *pmu, u64 config, u64 *sel)
{
	unsigned int type = config & 0xff;
	unsigned int op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;
	u64 val;

	if (config >> 24 || type >= X86_PC_CACHE_TYPES ||
	    op >= X86_PC_CACHE_OPS || result >= X86_PC_CACHE_RESULTS)
		return -EINVAL;
	if (!pmu->cache)
		return -ENOENT;
	val = (*pmu->cache)[type][op][result];
	if (val == X86_PC_CACHE_INVALID)
		return -EINVAL;
	if (!val)
		return -ENOENT;
	*sel = val;
	return 0;
}

/* The slots @config may use: its constraint, and a fixed counter of it. */
static u64 config_slots(const struct x86_pc_pmu *pmu, u64 config)
{
	u64 event = config & (X86_PC_SEL_EVENT_UMASK | X86_PC_SEL_AMD_EVENT_HI);
	u64 slots = X86_PC_GP_MASK(pmu->nr_gp);
	const struct x86_pc_constraint *c;
	unsigned int i;

	for (c = pmu->constraints; c && c->mask; c++) {
		if ((config & c->mask) == c->code) {
			slots = c->slots & X86_PC_GP_MASK(pmu->nr_gp);
			break;
		}
	}
	/* A fixed counter has no edge, invert or threshold to set. */
	if (config & (X86_PC_SEL_EDGE | X86_PC_SEL_INV | X86_PC_SEL_CMASK))
		return slots;
	for (i = 0; i < pmu->nr_fixed; i++) {
		u64 slot = BIT_ULL(X86_PC_FIXED_BASE + i);

		if ((pmu->fixed_present & slot) && pmu->fixed_events[i] &&
		    event == pmu->fixed_events[i])
			slots |= slot;
	}
	return slots;
}

/*
 * The event select value of @counter, from its attr: what it counts and
 * in which modes.  Refused are what this PMU cannot do: precise samples
 * (no PEBS or IBS here) and leaving idle out (the PMU cannot tell).
 */
int x86_pc_event_config(const struct x86_pc_pmu *pmu,
			struct perf_counter *counter)
{
	const struct perf_counter_attr *attr = &counter->attr;
	u64 sel = 0;
	int err;

	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
		/* The upper half names a PMU of a hybrid CPU: not ours. */
		if (attr->config >> 32)
			return -ENOENT;
		err = attr->type == PERF_TYPE_HARDWARE ?
		      hw_event(pmu, attr->config, &sel) :
		      cache_event(pmu, attr->config, &sel);
		break;
	case PERF_TYPE_RAW:
		err = attr->config & ~pmu->raw_mask ? -EINVAL : 0;
		sel = attr->config;
		break;
	default:
		err = -ENOENT;
	}
	if (err)
		return err;
	if (attr->precise_ip || attr->exclude_idle)
		return -EOPNOTSUPP;
	counter->hw_slots = config_slots(pmu, sel);
	if (!counter->hw_slots)
		return -ENOENT;
	if (!attr->exclude_user)
		sel |= X86_PC_SEL_USR;
	if (!attr->exclude_kernel)
		sel |= X86_PC_SEL_OS;
	counter->hw_config = sel;
	counter->hw_idx = -1;
	return 0;
}

/* --- Counters on slots --- */

/* Fold what the slot counted since the last look into the counter. */
static void slot_fold(const struct x86_pc_pmu *pmu, struct perf_counter *counter)
{
	unsigned int shift = 64 - slot_width(pmu, counter->hw_idx);
	unsigned int msr = ctr_msr(pmu, counter->hw_idx);
	u64 prev, now, delta;

	/* An NMI may fold the same slot between our read and our store. */
	do {
		prev = local64_read(&counter->hw_prev);
		now = pmu->ops->read_msr(msr);
	} while (local64_cmpxchg(&counter->hw_prev, prev, now) != prev);
	delta = ((now << shift) - (prev << shift)) >> shift;
	atomic64_add(delta, &counter->count);
	counter->period_left -= delta;
}

/* The events to count until the slot next overflows. */
static u64 slot_period(const struct x86_pc_pmu *pmu,
		       struct perf_counter *counter, int idx)
{
	u64 max = x86_pc_max_period(pmu, idx);

	if (!counter_samples(counter))
		return max;
	if (counter->period_left <= 0)
		counter->period_left = perf_counter_event_period(counter);
	return clamp_t(u64, counter->period_left, 1, max);
}

static void slot_load(const struct x86_pc_pmu *pmu,
		      struct perf_counter *counter, int idx)
{
	unsigned int width = slot_width(pmu, idx);
	u64 val = -slot_period(pmu, counter, idx) & GENMASK_ULL(width - 1, 0);

	local64_set(&counter->hw_prev, val);
	pmu->ops->write_msr(ctr_msr(pmu, idx), val);
}

static void slot_enable(const struct x86_pc_pmu *pmu, struct x86_pc_cpu *cpuc,
			struct perf_counter *counter, int idx, bool on)
{
	const struct x86_pc_ops *ops = pmu->ops;

	if (slot_is_fixed(idx)) {
		unsigned int shift = (idx - X86_PC_FIXED_BASE) * 4;
		u64 bits = 0;

		if (on && (counter->hw_config & X86_PC_SEL_OS))
			bits |= X86_PC_FIXED_OS;
		if (on && (counter->hw_config & X86_PC_SEL_USR))
			bits |= X86_PC_FIXED_USR;
		if (bits)
			bits |= X86_PC_FIXED_PMI;
		cpuc->fixed_ctrl &= ~(0xfULL << shift);
		cpuc->fixed_ctrl |= bits << shift;
		ops->write_msr(MSR_CORE_PERF_FIXED_CTR_CTRL, cpuc->fixed_ctrl);
	} else {
		ops->write_msr(sel_msr(pmu, idx), on ? counter->hw_config |
			       X86_PC_SEL_INT | X86_PC_SEL_EN : 0);
	}
	if (!pmu->global_ctrl)
		return;
	if (on)
		cpuc->global_ctrl |= BIT_ULL(idx);
	else
		cpuc->global_ctrl &= ~BIT_ULL(idx);
	ops->write_msr(MSR_CORE_PERF_GLOBAL_CTRL, cpuc->global_ctrl);
}

static void slot_start(const struct x86_pc_pmu *pmu, struct x86_pc_cpu *cpuc,
		       struct perf_counter *counter, int idx)
{
	counter->hw_idx = idx;
	cpuc->slots[idx] = counter;
	slot_load(pmu, counter, idx);
	/* Seen by the NMI handler only once the slot is loaded. */
	barrier();
	cpuc->used |= BIT_ULL(idx);
	slot_enable(pmu, cpuc, counter, idx, true);
}

static void slot_stop(const struct x86_pc_pmu *pmu, struct x86_pc_cpu *cpuc,
		      struct perf_counter *counter)
{
	int idx = counter->hw_idx;

	slot_enable(pmu, cpuc, counter, idx, false);
	slot_fold(pmu, counter);
	cpuc->used &= ~BIT_ULL(idx);
	barrier();
	cpuc->slots[idx] = NULL;
	counter->hw_idx = -1;
	/* An overflow it had pending is no longer anybody's. */
	if (pmu->global_ctrl)
		pmu->ops->write_msr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, BIT_ULL(idx));
}

/* --- Scheduling --- */

struct x86_pc_plan {
	struct perf_counter	*counter;
	u64			slots;
	int			idx;	/* now; -1: not on the PMU yet */
	int			new_idx;
};

/*
 * A free slot of @slots for one counter: where it is now if it can stay,
 * else a fixed counter (which leaves the general ones to events that
 * need them), else the lowest general-purpose counter.
 */
static int pick_slot(u64 slots, u64 *taken, int now)
{
	u64 free = slots & ~*taken;
	int idx;

	if (!free)
		return -1;
	if (now >= 0 && (free & BIT_ULL(now)))
		idx = now;
	else if (free >> X86_PC_FIXED_BASE)
		idx = __ffs64(free >> X86_PC_FIXED_BASE) + X86_PC_FIXED_BASE;
	else
		idx = __ffs64(free);
	*taken |= BIT_ULL(idx);
	return idx;
}

/*
 * Place the counters of @plan: the most constrained first, so that a
 * counter that could go anywhere never takes the only slot another
 * could use.
 */
static bool plan_slots(struct x86_pc_plan *plan, int n)
{
	u64 taken = 0;
	unsigned int weight;
	int i;

	for (weight = 1; weight <= X86_PC_MAX_SLOTS; weight++) {
		for (i = 0; i < n; i++) {
			if (hweight64(plan[i].slots) != weight)
				continue;
			plan[i].new_idx = pick_slot(plan[i].slots, &taken,
						    plan[i].idx);
			if (plan[i].new_idx < 0)
				return false;
		}
	}
	return true;
}

static bool excluded_by_group(struct x86_pc_cpu *cpuc,
			      struct perf_counter *counter)
{
	struct perf_counter *leader = counter->group_leader;

	if (cpuc->excl_leader)
		return cpuc->excl_leader != leader;
	return leader->attr.exclusive && cpuc->used;
}

/*
 * Put @counter on this CPU's PMU, moving the counters there if that makes
 * room.  -EAGAIN when no placement fits (or an exclusive group is in the
 * way); nothing has changed then.
 */
int x86_pc_add(const struct x86_pc_pmu *pmu, struct x86_pc_cpu *cpuc,
	       struct perf_counter *counter)
{
	struct x86_pc_plan plan[X86_PC_MAX_SLOTS + 1];
	int n = 0, i, idx;

	if (excluded_by_group(cpuc, counter))
		return -EAGAIN;
	for (idx = 0; idx < X86_PC_MAX_SLOTS; idx++) {
		if (!(cpuc->used & BIT_ULL(idx)))
			continue;
		plan[n].counter = cpuc->slots[idx];
		plan[n].slots = cpuc->slots[idx]->hw_slots;
		plan[n++].idx = idx;
	}
	plan[n].counter = counter;
	plan[n].slots = counter->hw_slots;
	plan[n++].idx = -1;
	if (!plan_slots(plan, n))
		return -EAGAIN;
	for (i = 0; i < n - 1; i++)
		if (plan[i].new_idx != plan[i].idx)
			slot_stop(pmu, cpuc, plan[i].counter);
	for (i = 0; i < n; i++)
		if (plan[i].new_idx != plan[i].idx)
			slot_start(pmu, cpuc, plan[i].counter, plan[i].new_idx);
	if (counter->group_leader->attr.exclusive) {
		cpuc->excl_leader = counter->group_leader;
		cpuc->excl_nr++;
	}
	return 0;
}

void x86_pc_del(const struct x86_pc_pmu *pmu, struct x86_pc_cpu *cpuc,
		struct perf_counter *counter)
{
	if (counter->hw_idx < 0)
		return;
	slot_stop(pmu, cpuc, counter);
	if (cpuc->excl_leader == counter->group_leader && !--cpuc->excl_nr)
		cpuc->excl_leader = NULL;
}

void x86_pc_read(const struct x86_pc_pmu *pmu, struct perf_counter *counter)
{
	if (counter->hw_idx >= 0)
		slot_fold(pmu, counter);
}

/* --- Overflows --- */

/* Without a status register: a slot whose top bit fell has wrapped. */
static u64 overflowed_by_value(const struct x86_pc_pmu *pmu, u64 used)
{
	u64 pending = 0;
	unsigned int idx;

	for_each_set_bit(idx, (unsigned long *)&used, X86_PC_MAX_SLOTS) {
		u64 top = BIT_ULL(slot_width(pmu, idx) - 1);

		if (!(pmu->ops->read_msr(ctr_msr(pmu, idx)) & top))
			pending |= BIT_ULL(idx);
	}
	return pending;
}

/*
 * One overflow of @counter: its period is over (a sample is due) or, for
 * a counter that only counts, its range is; either way the slot starts
 * a new period.  A sample that uses up a REFRESH limit stops the slot at
 * once; the core takes the counter off later, out of NMI context.
 */
static void slot_overflow(const struct x86_pc_pmu *pmu,
			  struct x86_pc_cpu *cpuc,
			  struct perf_counter *counter, struct pt_regs *regs)
{
	unsigned int level;
	bool stop = false;
	u64 period;

	slot_fold(pmu, counter);
	if (counter_samples(counter) && counter->period_left <= 0) {
		period = perf_counter_event_period(counter);
		if (counter->attr.freq)
			perf_counter_adjust_freq(counter);
		counter->period_left += perf_counter_event_period(counter);
		if (perf_counter_recursion_enter(&level)) {
			stop = perf_counter_overflow(counter, regs, 0, period,
						     NULL, true);
			perf_counter_recursion_exit(level);
		}
	}
	if (stop) {
		slot_enable(pmu, cpuc, counter, counter->hw_idx, false);
		irq_work_queue(this_cpu_ptr(&x86_pc_stop_work));
		return;
	}
	slot_load(pmu, counter, counter->hw_idx);
	/* Count and hw_prev moved: what rdpmc readers add changed. */
	perf_counter_user_page_nmi(counter);
}

/*
 * The overflows among our counters on this CPU's PMU, handled; returns
 * how many.  Zero means the NMI was not ours.
 */
int x86_pc_handle_overflows(const struct x86_pc_pmu *pmu,
			    struct x86_pc_cpu *cpuc, struct pt_regs *regs)
{
	u64 used = READ_ONCE(cpuc->used), pending;
	unsigned int idx;
	int handled = 0;

	if (!used)
		return 0;
	if (pmu->global_ctrl)
		pending = pmu->ops->read_msr(MSR_CORE_PERF_GLOBAL_STATUS) & used;
	else
		pending = overflowed_by_value(pmu, used);
	if (!pending)
		return 0;
	regs = pmu->ops->sample_regs(regs);
	for_each_set_bit(idx, (unsigned long *)&pending, X86_PC_MAX_SLOTS) {
		slot_overflow(pmu, cpuc, cpuc->slots[idx], regs);
		handled++;
	}
	if (pmu->global_ctrl)
		pmu->ops->write_msr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, pending);
	pmu->ops->pmi_ack();
	return handled;
}

int x86_pc_nmi(unsigned int type, struct pt_regs *regs)
{
	int handled;

	handled = x86_pc_handle_overflows(&x86_pc_live,
					  this_cpu_ptr(&x86_pc_cpus), regs);
	if (!handled)
		return NMI_DONE;
	atomic_long_add(handled, &x86_pc_nmi_handled);
	return handled;
}
NOKPROBE_SYMBOL(x86_pc_nmi);

static void x86_pc_stop_pending(struct irq_work *work)
{
	perf_counter_disable_pending_here();
}

/* Every counter of the PMU off and cleared, as a CPU comes up. */
void x86_pc_cpu_reset(const struct x86_pc_pmu *pmu, struct x86_pc_cpu *cpuc)
{
	const struct x86_pc_ops *ops = pmu->ops;
	unsigned int i;

	memset(cpuc, 0, sizeof(*cpuc));
	if (pmu->global_ctrl)
		ops->write_msr(MSR_CORE_PERF_GLOBAL_CTRL, 0);
	for (i = 0; i < pmu->nr_gp; i++) {
		ops->write_msr(sel_msr(pmu, i), 0);
		ops->write_msr(ctr_msr(pmu, i), 0);
	}
	if (pmu->nr_fixed)
		ops->write_msr(MSR_CORE_PERF_FIXED_CTR_CTRL, 0);
	if (pmu->global_ctrl)
		ops->write_msr(MSR_CORE_PERF_GLOBAL_OVF_CTRL,
			       pmu->fixed_present | X86_PC_GP_MASK(pmu->nr_gp));
	ops->pmi_ack();
}

/* --- Sharing the hardware with perf_events --- */

static DEFINE_SPINLOCK(x86_pc_reserve_lock);
static unsigned int x86_pc_reserve_count;

/*
 * The MSR by which perf_events reserves general-purpose counter @idx on
 * this CPU.  The model stands for the CPU's own PMU, so it reserves the
 * same counters.
 */
unsigned int x86_pc_reserve_msr(unsigned int idx, bool evntsel)
{
	switch (boot_cpu_data.x86_vendor) {
	case X86_VENDOR_AMD:
	case X86_VENDOR_HYGON:
		if (boot_cpu_has(X86_FEATURE_PERFCTR_CORE))
			return (evntsel ? MSR_F15H_PERF_CTL : MSR_F15H_PERF_CTR) +
			       2 * idx;
		return (evntsel ? MSR_K7_EVNTSEL0 : MSR_K7_PERFCTR0) + idx;
	default:
		return (evntsel ? MSR_ARCH_PERFMON_EVENTSEL0 :
				  MSR_ARCH_PERFMON_PERFCTR0) + idx;
	}
}

static void release_counters(unsigned int nr)
{
	while (nr--) {
		release_evntsel_nmi(x86_pc_reserve_msr(nr, true));
		release_perfctr_nmi(x86_pc_reserve_msr(nr, false));
	}
}

static int reserve_counters(unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (!reserve_perfctr_nmi(x86_pc_reserve_msr(i, false)))
			goto busy;
		if (!reserve_evntsel_nmi(x86_pc_reserve_msr(i, true))) {
			release_perfctr_nmi(x86_pc_reserve_msr(i, false));
			goto busy;
		}
	}
	return 0;
busy:
	release_counters(i);
	return -EBUSY;
}

/* Taken by each hardware counter; the first one reserves the PMU. */
int x86_pc_reserve(const struct x86_pc_pmu *pmu)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&x86_pc_reserve_lock, flags);
	if (!x86_pc_reserve_count)
		err = reserve_counters(pmu->nr_gp);
	if (!err)
		x86_pc_reserve_count++;
	spin_unlock_irqrestore(&x86_pc_reserve_lock, flags);
	return err;
}

/* The last reference to a counter may go in any context. */
void x86_pc_release(const struct x86_pc_pmu *pmu)
{
	unsigned long flags;

	spin_lock_irqsave(&x86_pc_reserve_lock, flags);
	if (!WARN_ON(!x86_pc_reserve_count) && !--x86_pc_reserve_count)
		release_counters(pmu->nr_gp);
	spin_unlock_irqrestore(&x86_pc_reserve_lock, flags);
}

/* --- rdpmc: counters user space reads itself --- */

/* The ECX with which rdpmc reads slot @idx. */
static u32 slot_rdpmc_ecx(int idx)
{
	if (slot_is_fixed(idx))
		return X86_PC_RDPMC_FIXED | (idx - X86_PC_FIXED_BASE);
	return idx;
}

/* The slot rdpmc reads with @ecx, or -1 where it would fault. */
int x86_pc_rdpmc_slot(const struct x86_pc_pmu *pmu, u32 ecx)
{
	u32 nr = ecx & ~X86_PC_RDPMC_FIXED;

	if (!(ecx & X86_PC_RDPMC_FIXED))
		return nr < pmu->nr_gp ? nr : -1;
	if (pmu->vendor != X86_PC_INTEL || nr >= X86_PC_MAX_FIXED ||
	    !(pmu->fixed_present & BIT_ULL(X86_PC_FIXED_BASE + nr)))
		return -1;
	return X86_PC_FIXED_BASE + nr;
}

/*
 * Where user space reads @counter, on its CPU with interrupts off: the
 * slot it is on there (index 0 elsewhere, or off the PMU) and the value
 * the slot held when its count was last folded.
 */
void x86_pc_user_read(const struct x86_pc_pmu *pmu,
		      struct perf_counter *counter,
		      struct perf_counter_user_read *ur)
{
	int idx = counter->hw_idx;
	unsigned int shift;

	ur->index = 0;
	ur->width = pmu->gp_width;
	ur->base = 0;
	if (counter->state != PERF_COUNTER_STATE_ACTIVE || idx < 0 ||
	    counter->oncpu != smp_processor_id())
		return;
	ur->index = slot_rdpmc_ecx(idx) + 1;
	ur->width = slot_width(pmu, idx);
	shift = 64 - ur->width;
	ur->base = (s64)(local64_read(&counter->hw_prev) << shift) >> shift;
}

/*
 * On hardware rdpmc works in user mode where CR4.PCE is set, which the
 * kernel does per mm (switch_mm) for the mms that count in
 * perf_rdpmc_allowed: those that map a buffer of a hardware counter,
 * of ours or of perf events.  perf events' sysfs switch 'rdpmc' = 0
 * turns it off for both.  Under the model a user rdpmc traps (CR4.PCE
 * stays clear) and perf_counter_rdpmc_fixup() answers it.
 */
static bool rdpmc_offered(void)
{
	if (x86_pc_live.ops->simulated)
		return true;
#ifdef CONFIG_PERF_EVENTS
	return !static_branch_unlikely(&rdpmc_never_available_key);
#else
	return false;
#endif
}

static bool live_user_read(struct perf_counter *counter,
			   struct perf_counter_user_read *ur)
{
	if (!rdpmc_offered())
		return false;
	x86_pc_user_read(&x86_pc_live, counter, ur);
	return true;
}

static void rdpmc_allow(struct mm_struct *mm, bool allow)
{
#ifdef CONFIG_PERF_EVENTS
	atomic_t *users = &mm->context.perf_rdpmc_allowed;

	if (x86_pc_live.ops->simulated)
		return;
	if (allow ? atomic_inc_return(users) == 1 : atomic_dec_and_test(users))
		on_each_cpu_mask(mm_cpumask(mm), cr4_update_pce, NULL, 1);
#endif
}

static void live_mapped(struct perf_counter *counter, struct mm_struct *mm)
{
	rdpmc_allow(mm, true);
}

static void live_unmapped(struct perf_counter *counter, struct mm_struct *mm)
{
	rdpmc_allow(mm, false);
}

/*
 * A user rdpmc that faulted with #GP: under the model, where no
 * hardware counter is there to read, the model's slot is read in its
 * place and the instruction completes.  Anything else (hardware, an
 * ECX that names no counter, not rdpmc at all) is left to fault.
 */
bool perf_counter_rdpmc_fixup(struct pt_regs *regs)
{
	static const u8 rdpmc_insn[2] = { 0x0f, 0x33 };
	const struct x86_pc_pmu *pmu = &x86_pc_live;
	unsigned long flags;
	u8 insn[2];
	int idx;
	u64 val;

	/* No backend registered: the model may be there, but not live. */
	if (!perf_counter_hw_get() || !pmu->ops->simulated)
		return false;
	if (copy_from_user(insn, (const void __user *)regs->ip, sizeof(insn)) ||
	    memcmp(insn, rdpmc_insn, sizeof(insn)))
		return false;
	idx = x86_pc_rdpmc_slot(pmu, regs->cx);
	if (idx < 0)
		return false;
	local_irq_save(flags);
	val = pmu->ops->read_msr(ctr_msr(pmu, idx));
	local_irq_restore(flags);
	val &= GENMASK_ULL(slot_width(pmu, idx) - 1, 0);
	regs->ax = lower_32_bits(val);
	regs->dx = upper_32_bits(val);
	regs->ip += sizeof(insn);
	return true;
}

/*
 * The control page's clock fields: perf_counter_clock() is local_clock(),
 * which with a stable TSC sched_clock is the TSC scaled by cyc2ns plus
 * the offsets here.  Where it is not (unstable TSC, a paravirt clock),
 * user space has only the times as of the last update.
 */
void perf_counter_arch_user_time(struct perf_counter_mmap_page *up,
				 const struct perf_counter *counter, u64 now)
{
	struct cyc2ns_data data;
	u64 zero;

	up->cap_user_time = 0;
	up->cap_user_time_zero = 0;
	if (!using_native_sched_clock() || !sched_clock_stable())
		return;
	cyc2ns_read_begin(&data);
	zero = data.cyc2ns_offset + __sched_clock_offset;
	up->time_mult = data.cyc2ns_mul;
	up->time_shift = data.cyc2ns_shift;
	up->time_offset = zero - now;
	up->cap_user_time = 1;
	/* Samples of another clock (use_clockid) are not on this one. */
	if (!counter->attr.use_clockid) {
		up->time_zero = zero;
		up->cap_user_time_zero = 1;
	}
	cyc2ns_read_end();
}

/* --- The live backend --- */

static int live_add(struct perf_counter *counter)
{
	return x86_pc_add(&x86_pc_live, this_cpu_ptr(&x86_pc_cpus), counter);
}

static void live_del(struct perf_counter *counter)
{
	x86_pc_del(&x86_pc_live, this_cpu_ptr(&x86_pc_cpus), counter);
}

static void live_read(struct perf_counter *counter)
{
	x86_pc_read(&x86_pc_live, counter);
}

static int live_init(struct perf_counter *counter)
{
	int err = x86_pc_event_config(&x86_pc_live, counter);

	return err ? err : x86_pc_reserve(&x86_pc_live);
}

static void live_destroy(struct perf_counter *counter)
{
	x86_pc_release(&x86_pc_live);
}

static const struct perf_counter_hw_pmu x86_pc_hw = {
	.pmu = {
		.name		= "cpu",
		.add		= live_add,
		.del		= live_del,
		.read		= live_read,
		.user_read	= live_user_read,
		.mapped		= live_mapped,
		.unmapped	= live_unmapped,
	},
	.init		= live_init,
	.destroy	= live_destroy,
};

static int x86_pc_cpu_online(unsigned int cpu)
{
	if (x86_pc_live.ops->simulated)
		x86_pc_model_cpu_init(cpu);
	x86_pc_cpu_reset(&x86_pc_live, this_cpu_ptr(&x86_pc_cpus));
	return 0;
}

/* --- Real hardware --- */

static u64 real_read_msr(unsigned int msr)
{
	u64 val;

	rdmsrl(msr, val);
	return val;
}

static void real_write_msr(unsigned int msr, u64 val)
{
	wrmsrl(msr, val);
}

static void real_cpuid(unsigned int leaf, unsigned int sub, u32 *regs)
{
	cpuid_count(leaf, sub, &regs[0], &regs[1], &regs[2], &regs[3]);
}

/* The local APIC masks its PMU entry when it delivers one: unmask. */
static void real_pmi_ack(void)
{
	apic_write(APIC_LVTPC, APIC_DM_NMI);
}

/* On hardware the NMI lands where the counter overflowed (give or take). */
static struct pt_regs *real_sample_regs(struct pt_regs *nmi_regs)
{
	return nmi_regs;
}

/* Under a hypervisor without a virtual PMU the MSRs fault. */
static bool real_msr_exists(unsigned int msr)
{
	u64 val;

	return !rdmsrl_safe(msr, &val);
}

static const struct x86_pc_ops x86_pc_real_ops = {
	.name		= "hardware",
	.read_msr	= real_read_msr,
	.write_msr	= real_write_msr,
	.cpuid		= real_cpuid,
	.pmi_ack	= real_pmi_ack,
	.sample_regs	= real_sample_regs,
};

static int detect_real(struct x86_pc_pmu *pmu)
{
	static struct x86_pc_ops ops;
	int err;

	if (!boot_cpu_has(X86_FEATURE_APIC))
		return -ENODEV;
	ops = x86_pc_real_ops;
	switch (boot_cpu_data.x86_vendor) {
	case X86_VENDOR_INTEL:
		if (!boot_cpu_has(X86_FEATURE_ARCH_PERFMON))
			return -ENODEV;
		ops.vendor = X86_PC_INTEL;
		err = x86_pc_intel_detect(pmu, &ops);
		break;
	case X86_VENDOR_AMD:
	case X86_VENDOR_HYGON:
		if (boot_cpu_data.x86 < 6)
			return -ENODEV;
		ops.vendor = X86_PC_AMD;
		err = x86_pc_amd_detect(pmu, &ops);
		break;
	default:
		return -ENODEV;
	}
	if (err)
		return err;
	if (!real_msr_exists(sel_msr(pmu, 0)) ||
	    !real_msr_exists(ctr_msr(pmu, 0)))
		return -ENODEV;
	return 0;
}

static int __init x86_pc_init(void)
{
	unsigned int cpu;
	int err;

	if (x86_pc_model_arg())
		err = x86_pc_model_setup(&x86_pc_live);
	else
		err = detect_real(&x86_pc_live);
	if (err) {
		pr_info("perf_counter: no hardware PMU to drive (%d); software counters only\n",
			err);
		return 0;
	}
	for_each_possible_cpu(cpu)
		init_irq_work(per_cpu_ptr(&x86_pc_stop_work, cpu),
			      x86_pc_stop_pending);
	err = register_nmi_handler(NMI_LOCAL, x86_pc_nmi, 0, "perf_counter");
	if (err)
		return err;
	err = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "x86/perf_counter:online",
				x86_pc_cpu_online, NULL);
	if (err < 0) {
		unregister_nmi_handler(NMI_LOCAL, "perf_counter");
		return err;
	}
	perf_counter_hw_register(&x86_pc_hw);
	pr_info("perf_counter: %s PMU (%s): %u general-purpose counters of %u bits, %lu fixed of %u bits\n",
		x86_pc_live.name, x86_pc_live.ops->name, x86_pc_live.nr_gp,
		x86_pc_live.gp_width, hweight64(x86_pc_live.fixed_present),
		x86_pc_live.fixed_width);
	return 0;
}
device_initcall(x86_pc_init);

// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter x86 backend: a PMU model, for machines without a PMU to
 * test on (QEMU's TCG emulation has none).
 *
 * Booted with
 *
 *	perf_counter.pmu_model=intel[,v=V][,gp=N][,fixed=M][,width=W][,rate=R]
 *	perf_counter.pmu_model=amd[,gp=4|6][,rate=R]
 *
 * the backend reaches this model instead of the MSRs and CPUID: the same
 * detection, scheduling and interrupt code runs as on hardware.  The
 * model answers CPUID leaf 0xA (Intel) or 0x80000001 (AMD) as such a PMU
 * would, and keeps per CPU the event selects, counters, fixed counter
 * control and the global MSRs.  Every enabled counter advances by R
 * events a microsecond of time (default 1000: one event a nanosecond),
 * whatever its event and whether the CPU runs user or kernel code.  When
 * a counter with its interrupt bit set wraps, the model sets its
 * overflow status and sends this CPU a real NMI through the local APIC,
 * so that the NMI path, with the other NMI handlers, is the real one.
 *
 * Counts advance when the model is touched (any MSR access outside NMI
 * context) and on a per-CPU timer set for the next wrap, at most 10 ms
 * away: an overflow is seen up to the timer's latency late, and the
 * events counted meanwhile are carried over into the next period as
 * hardware carries its skid.
 */

#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/hardirq.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <asm/apic.h>
#include <asm/irq_regs.h>
#include <asm/msr-index.h>
#include <asm/nmi.h>

#include "perf_counter.h"

#define MODEL_MAX_WAIT_NS	(10 * NSEC_PER_MSEC)
#define MODEL_MIN_WAIT_NS	(20 * NSEC_PER_USEC)

struct model_config {
	enum x86_pc_vendor	vendor;
	unsigned int		version;
	unsigned int		nr_gp;
	unsigned int		nr_fixed;
	unsigned int		width;
	u64			rate;	/* events a microsecond */
};

struct model_cpu {
	u64			sel[X86_PC_MAX_GP];
	u64			ctr[X86_PC_MAX_GP];
	u64			fixed[X86_PC_MAX_FIXED];
	u64			fixed_ctrl;
	u64			global_ctrl;
	u64			global_status;
	/* Overflows that become visible in the status at the next NMI. */
	u64			latched;
	u64			stamp;		/* counts are up to here */
	u64			frac;		/* events * 1000 not counted yet */
	/* Where our self-NMI is: see model_raise(). */
	int			nmi_state;
	/*
	 * Where the CPU was when the timer found the overflows: what their
	 * samples show, rather than the timer code the NMI interrupts.
	 */
	struct pt_regs		where;
	bool			where_set;
	bool			where_valid;
	struct hrtimer		timer;
	unsigned long		nmis_sent;
	unsigned long		nmis_claimed;
};

static char model_arg[64] __initdata;
static bool model_on;
static struct model_config model;
static struct x86_pc_ops model_ops;
static DEFINE_PER_CPU(struct model_cpu, model_cpus);

static int __init model_param(char *arg)
{
	strscpy(model_arg, arg, sizeof(model_arg));
	model_on = true;
	return 1;
}
__setup("perf_counter.pmu_model=", model_param);

const char * __init x86_pc_model_arg(void)
{
	return model_on ? model_arg : NULL;
}

/* --- Counting --- */

static unsigned int model_gp_index(unsigned int msr, unsigned int base,
				   unsigned int stride)
{
	unsigned int i;

	if (msr < base)
		return UINT_MAX;
	i = (msr - base) / stride;
	if ((msr - base) % stride || i >= model.nr_gp)
		return UINT_MAX;
	return i;
}

static bool model_global_on(const struct model_cpu *m, unsigned int slot)
{
	return model.vendor != X86_PC_INTEL || model.version < 2 ||
	       (m->global_ctrl & BIT_ULL(slot));
}

static bool gp_counts(const struct model_cpu *m, unsigned int i)
{
	u64 sel = m->sel[i];

	return (sel & X86_PC_SEL_EN) &&
	       (sel & (X86_PC_SEL_USR | X86_PC_SEL_OS)) && model_global_on(m, i);
}

static u64 fixed_field(const struct model_cpu *m, unsigned int i)
{
	return (m->fixed_ctrl >> (4 * i)) & 0xf;
}

static bool fixed_counts(const struct model_cpu *m, unsigned int i)
{
	return (fixed_field(m, i) & (X86_PC_FIXED_OS | X86_PC_FIXED_USR)) &&
	       model_global_on(m, X86_PC_FIXED_BASE + i);
}

/* Add @events to *@ctr; true when it wrapped. */
static bool model_count(u64 *ctr, u64 events)
{
	u64 mask = GENMASK_ULL(model.width - 1, 0);
	u64 next = *ctr + events;
	bool wrapped = next > mask || events > mask;

	WRITE_ONCE(*ctr, next & mask);
	return wrapped;
}

/*
 * Our self-NMI, as model_raise() and model_nmi() see it.  An NMI of
 * another sender may land after we decide to send ours and before ours
 * is sent: it shows the overflows, and ours must still be claimed when
 * it comes.  NMIs cannot tell where they come from, so the states say
 * what may still arrive.
 */
enum {
	MODEL_NMI_IDLE,		/* none of ours on its way */
	MODEL_NMI_ARMING,	/* about to send; not sent or not seen yet */
	MODEL_NMI_SERVED,	/* an NMI came while arming: ours may follow */
	MODEL_NMI_SENT,		/* sent, not arrived yet */
};

/*
 * Send this CPU an NMI for the overflows just latched.  Under emulation
 * a self-NMI arrives before the next instruction block, so by the end
 * of the send ours has come unless the state says it has not.
 */
static void model_raise(struct model_cpu *m)
{
	WRITE_ONCE(m->nmi_state, MODEL_NMI_ARMING);
	apic->send_IPI_self(NMI_VECTOR);
	if (cmpxchg(&m->nmi_state, MODEL_NMI_ARMING, MODEL_NMI_SENT) !=
	    MODEL_NMI_ARMING)
		WRITE_ONCE(m->nmi_state, MODEL_NMI_IDLE);
	m->nmis_sent++;
}

/*
 * Overflows the timer finds happened in the code its interrupt stopped;
 * others (found on an MSR access) in the kernel code that made it.
 */
static void model_note_where(struct model_cpu *m)
{
	struct pt_regs *regs = in_hardirq() ? get_irq_regs() : NULL;

	WRITE_ONCE(m->where_set, false);
	barrier();
	if (!regs)
		return;
	m->where = *regs;
	barrier();
	WRITE_ONCE(m->where_set, true);
}

/*
 * Bring the counts up to now.  Never in NMI context, where this CPU may
 * be in the middle of the same work: there the model only shows what it
 * has.
 */
static void model_advance(struct model_cpu *m)
{
	u64 now = local_clock(), scaled, events, wrapped = 0;
	unsigned int i;

	if (in_nmi() || (s64)(now - m->stamp) <= 0)
		return;
	scaled = (now - m->stamp) * model.rate + m->frac;
	m->stamp = now;
	events = div64_u64(scaled, 1000);
	m->frac = scaled - events * 1000;
	if (!events)
		return;
	for (i = 0; i < model.nr_gp; i++)
		if (gp_counts(m, i) && model_count(&m->ctr[i], events) &&
		    (m->sel[i] & X86_PC_SEL_INT))
			wrapped |= BIT_ULL(i);
	for (i = 0; i < model.nr_fixed; i++)
		if (fixed_counts(m, i) && model_count(&m->fixed[i], events) &&
		    (fixed_field(m, i) & X86_PC_FIXED_PMI))
			wrapped |= BIT_ULL(X86_PC_FIXED_BASE + i);
	if (!wrapped)
		return;
	model_note_where(m);
	WRITE_ONCE(m->latched, m->latched | wrapped);
	model_raise(m);
}

/* Nanoseconds until the first counter that interrupts wraps. */
static u64 model_next_wrap(const struct model_cpu *m, bool *counting)
{
	u64 mask = GENMASK_ULL(model.width - 1, 0), least = U64_MAX;
	unsigned int i;

	*counting = false;
	for (i = 0; i < model.nr_gp; i++) {
		if (!gp_counts(m, i))
			continue;
		*counting = true;
		least = min(least, mask - m->ctr[i] + 1);
	}
	for (i = 0; i < model.nr_fixed; i++) {
		if (!fixed_counts(m, i))
			continue;
		*counting = true;
		least = min(least, mask - m->fixed[i] + 1);
	}
	if (least == U64_MAX)
		return MODEL_MAX_WAIT_NS;
	return div64_u64(least * NSEC_PER_USEC, model.rate) + 1;
}

/*
 * Have the timer look again by the next wrap.  Called on every MSR write
 * (counter switches make several), so a timer already due before then
 * is left alone: it finds the new deadline when it runs.
 */
static void model_arm(struct model_cpu *m)
{
	bool counting;
	u64 wait = model_next_wrap(m, &counting);

	if (!counting)
		return;
	wait = clamp_t(u64, wait, MODEL_MIN_WAIT_NS, MODEL_MAX_WAIT_NS);
	if (hrtimer_is_queued(&m->timer) &&
	    ktime_to_ns(hrtimer_get_remaining(&m->timer)) <= (s64)wait)
		return;
	hrtimer_start(&m->timer, ns_to_ktime(wait),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static enum hrtimer_restart model_tick(struct hrtimer *timer)
{
	struct model_cpu *m = this_cpu_ptr(&model_cpus);
	unsigned long sent = m->nmis_sent;
	bool counting;
	u64 wait;

	model_advance(m);
	wait = model_next_wrap(m, &counting);
	if (!counting)
		return HRTIMER_NORESTART;
	/* After an overflow, look again once the handler has reloaded. */
	if (m->nmis_sent != sent)
		wait = MODEL_MIN_WAIT_NS;
	wait = clamp_t(u64, wait, MODEL_MIN_WAIT_NS, MODEL_MAX_WAIT_NS);
	hrtimer_forward_now(timer, ns_to_ktime(wait));
	return HRTIMER_RESTART;
}

/*
 * First of the NMI handlers: an NMI the model sent makes the overflows
 * it latched visible, and is claimed here, so that the backend's
 * handler, like on hardware, sees the status and nothing else.  While
 * ours may still come (SERVED), every NMI is claimed: at worst one of
 * another sender's is claimed twice, never one of ours left unknown.
 */
static int model_nmi(unsigned int type, struct pt_regs *regs)
{
	struct model_cpu *m = this_cpu_ptr(&model_cpus);
	u64 latched;

	m->where_valid = false;
	switch (READ_ONCE(m->nmi_state)) {
	case MODEL_NMI_IDLE:
		return NMI_DONE;
	case MODEL_NMI_ARMING:
		WRITE_ONCE(m->nmi_state, MODEL_NMI_SERVED);
		break;
	case MODEL_NMI_SENT:
		WRITE_ONCE(m->nmi_state, MODEL_NMI_IDLE);
		break;
	}
	latched = xchg(&m->latched, 0);
	m->where_valid = latched && READ_ONCE(m->where_set);
	if (model.vendor == X86_PC_INTEL)
		m->global_status |= latched;
	m->nmis_claimed++;
	return NMI_HANDLED;
}
NOKPROBE_SYMBOL(model_nmi);

/* --- MSRs and CPUID --- */

static u64 *model_msr(struct model_cpu *m, unsigned int msr)
{
	unsigned int i;

	if (model.vendor == X86_PC_AMD) {
		bool core = model.nr_gp == 6;

		i = model_gp_index(msr, core ? MSR_F15H_PERF_CTL :
				   MSR_K7_EVNTSEL0, core ? 2 : 1);
		if (i != UINT_MAX)
			return &m->sel[i];
		i = model_gp_index(msr, core ? MSR_F15H_PERF_CTR :
				   MSR_K7_PERFCTR0, core ? 2 : 1);
		return i != UINT_MAX ? &m->ctr[i] : NULL;
	}
	i = model_gp_index(msr, MSR_ARCH_PERFMON_EVENTSEL0, 1);
	if (i != UINT_MAX)
		return &m->sel[i];
	i = model_gp_index(msr, MSR_ARCH_PERFMON_PERFCTR0, 1);
	if (i != UINT_MAX)
		return &m->ctr[i];
	if (msr >= MSR_CORE_PERF_FIXED_CTR0 &&
	    msr < MSR_CORE_PERF_FIXED_CTR0 + model.nr_fixed)
		return &m->fixed[msr - MSR_CORE_PERF_FIXED_CTR0];
	switch (msr) {
	case MSR_CORE_PERF_FIXED_CTR_CTRL:
		return &m->fixed_ctrl;
	case MSR_CORE_PERF_GLOBAL_CTRL:
		return &m->global_ctrl;
	case MSR_CORE_PERF_GLOBAL_STATUS:
		return &m->global_status;
	}
	return NULL;
}

static u64 model_read_msr(unsigned int msr)
{
	struct model_cpu *m = this_cpu_ptr(&model_cpus);
	u64 *reg;

	model_advance(m);
	reg = model_msr(m, msr);
	if (WARN_ON_ONCE(!reg && msr != MSR_CORE_PERF_GLOBAL_OVF_CTRL))
		return 0;
	return reg ? READ_ONCE(*reg) : 0;
}

/*
 * Intel's counter MSRs take the low 32 bits of what is written and
 * extend its sign to the counter's width; AMD's take all 48 bits.
 */
static u64 model_counter_value(u64 val)
{
	u64 mask = GENMASK_ULL(model.width - 1, 0);

	if (model.vendor == X86_PC_INTEL)
		return (u64)(s64)(s32)val & mask;
	return val & mask;
}

static bool model_is_counter(struct model_cpu *m, const u64 *reg)
{
	return (reg >= m->ctr && reg < m->ctr + X86_PC_MAX_GP) ||
	       (reg >= m->fixed && reg < m->fixed + X86_PC_MAX_FIXED);
}

static void model_write_msr(unsigned int msr, u64 val)
{
	struct model_cpu *m = this_cpu_ptr(&model_cpus);
	u64 *reg;

	model_advance(m);
	if (model.vendor == X86_PC_INTEL &&
	    msr == MSR_CORE_PERF_GLOBAL_OVF_CTRL) {
		m->global_status &= ~val;
		return;
	}
	reg = model_msr(m, msr);
	if (WARN_ON_ONCE(!reg) || reg == &m->global_status)
		return;
	if (model_is_counter(m, reg))
		val = model_counter_value(val);
	WRITE_ONCE(*reg, val);
	if (!in_nmi())
		model_arm(m);
}

static void model_cpuid(unsigned int leaf, unsigned int sub, u32 *r)
{
	memset(r, 0, 4 * sizeof(*r));
	switch (leaf) {
	case 0:
		r[0] = 0xd;
		break;
	case 0xa:
		if (model.vendor != X86_PC_INTEL)
			break;
		r[0] = model.version | model.nr_gp << 8 | model.width << 16 |
		       7 << 24;
		if (model.version >= 2)
			r[3] = model.nr_fixed | model.width << 5;
		if (model.version >= 5)
			r[2] = GENMASK(model.nr_fixed, 0) >> 1;
		break;
	case 0x80000000:
		r[0] = 0x80000001;
		break;
	case 0x80000001:
		if (model.vendor == X86_PC_AMD && model.nr_gp == 6)
			r[2] = BIT(23);
		break;
	}
}

static void model_pmi_ack(void)
{
}

static struct pt_regs *model_sample_regs(struct pt_regs *nmi_regs)
{
	struct model_cpu *m = this_cpu_ptr(&model_cpus);

	return m->where_valid ? &m->where : nmi_regs;
}

/* --- Setup --- */

static int __init model_parse(char *arg)
{
	char *opt, *val;
	unsigned int n;

	opt = strsep(&arg, ",");
	if (!strcmp(opt, "intel"))
		model = (struct model_config){ X86_PC_INTEL, 5, 4, 3, 48, 1000 };
	else if (!strcmp(opt, "amd"))
		model = (struct model_config){ X86_PC_AMD, 0, 6, 0, 48, 1000 };
	else
		return -EINVAL;
	while ((opt = strsep(&arg, ","))) {
		val = strchr(opt, '=');
		if (!val || kstrtouint(val + 1, 0, &n))
			return -EINVAL;
		*val = '\0';
		if (!strcmp(opt, "v") && model.vendor == X86_PC_INTEL)
			model.version = n;
		else if (!strcmp(opt, "gp"))
			model.nr_gp = n;
		else if (!strcmp(opt, "fixed") && model.vendor == X86_PC_INTEL)
			model.nr_fixed = n;
		else if (!strcmp(opt, "width") && model.vendor == X86_PC_INTEL)
			model.width = n;
		else if (!strcmp(opt, "rate"))
			model.rate = n;
		else
			return -EINVAL;
	}
	if (model.vendor == X86_PC_AMD && model.nr_gp != 4 && model.nr_gp != 6)
		return -EINVAL;
	if (model.vendor == X86_PC_INTEL &&
	    (!model.version || model.version > 5))
		return -EINVAL;
	if (!model.nr_gp ||
	    model.nr_gp > X86_PC_MAX_GP || model.nr_fixed > X86_PC_MAX_FIXED ||
	    model.width < 32 || model.width > 48 || !model.rate)
		return -EINVAL;
	if (model.version < 2)
		model.nr_fixed = 0;
	return 0;
}

static int model_show(struct seq_file *s, void *unused)
{
	unsigned long sent = 0, claimed = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		sent += per_cpu(model_cpus, cpu).nmis_sent;
		claimed += per_cpu(model_cpus, cpu).nmis_claimed;
	}
	seq_printf(s, "%s version=%u gp=%u fixed=%u width=%u rate=%llu\n",
		   model.vendor == X86_PC_INTEL ? "intel" : "amd",
		   model.version, model.nr_gp, model.nr_fixed, model.width,
		   model.rate);
	seq_printf(s, "nmis_sent %lu\nnmis_claimed %lu\noverflows_handled %ld\n",
		   sent, claimed, atomic_long_read(&x86_pc_nmi_handled));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(model);

/*
 * The live backend on the model: @pmu described by the same detection
 * code as hardware, through the model's CPUID.
 */
int __init x86_pc_model_setup(struct x86_pc_pmu *pmu)
{
	unsigned int cpu;
	int err;

	if (model_parse(model_arg)) {
		pr_err("perf_counter: pmu_model=%s is not a model (intel[,v=,gp=,fixed=,width=,rate=] or amd[,gp=4|6,rate=])\n",
		       x86_pc_model_arg());
		return -EINVAL;
	}
	model_ops = (struct x86_pc_ops){
		.name		= "model",
		.vendor		= model.vendor,
		.simulated	= true,
		.read_msr	= model_read_msr,
		.write_msr	= model_write_msr,
		.cpuid		= model_cpuid,
		.pmi_ack	= model_pmi_ack,
		.sample_regs	= model_sample_regs,
	};
	if (model.vendor == X86_PC_INTEL)
		err = x86_pc_intel_detect(pmu, &model_ops);
	else
		err = x86_pc_amd_detect(pmu, &model_ops);
	if (err)
		return err;
	for_each_possible_cpu(cpu) {
		struct model_cpu *m = per_cpu_ptr(&model_cpus, cpu);

		hrtimer_init(&m->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		m->timer.function = model_tick;
	}
	err = register_nmi_handler(NMI_LOCAL, model_nmi, NMI_FLAG_FIRST,
				   "perf_counter_model");
	if (err)
		return err;
	debugfs_create_file("perf_counter_model", 0444, NULL, NULL,
			    &model_fops);
	return 0;
}

/* @cpu comes up: its PMU is as after reset.  On @cpu itself. */
void x86_pc_model_cpu_init(unsigned int cpu)
{
	struct model_cpu *m = per_cpu_ptr(&model_cpus, cpu);

	hrtimer_cancel(&m->timer);
	memset(m->sel, 0, sizeof(m->sel));
	memset(m->ctr, 0, sizeof(m->ctr));
	memset(m->fixed, 0, sizeof(m->fixed));
	m->fixed_ctrl = 0;
	m->global_ctrl = 0;
	m->global_status = 0;
	m->latched = 0;
	m->frac = 0;
	m->stamp = local_clock();
}

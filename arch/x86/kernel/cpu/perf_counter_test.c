// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the x86 PMU backend.
 *
 * Most cases drive the backend on a private PMU whose MSRs are a plain
 * register file (fake_ops below): the test sets what the hardware would
 * show (a counter past its wrap, an overflow status bit) and checks what
 * the backend wrote back.  Nothing there depends on time.  The rotation
 * cases run the core's scheduler on that PMU with made-up times.  The
 * reservation case uses the live backend and the kernel's real counter
 * reservation, the one perf_events takes.
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/irqflags.h>
#include <linux/slab.h>
#include <asm/msr-index.h>
#include <asm/nmi.h>

#include "perf_counter.h"

/* --- A PMU that is a register file --- */

#define FAKE_REGS	64

static struct {
	unsigned int	msr[FAKE_REGS];
	u64		val[FAKE_REGS];
	unsigned int	nr;
	unsigned int	reads;
	unsigned int	acks;
	/* CPUID: Intel leaf 0xA, or AMD PerfCtrExtCore */
	u32		leaf_a[4];
	bool		amd_core;
} fake;

static u64 *fake_reg(unsigned int msr)
{
	unsigned int i;

	for (i = 0; i < fake.nr; i++)
		if (fake.msr[i] == msr)
			return &fake.val[i];
	if (WARN_ON(fake.nr == FAKE_REGS))
		return &fake.val[0];
	fake.msr[fake.nr] = msr;
	fake.val[fake.nr] = 0;
	return &fake.val[fake.nr++];
}

static u64 fake_read(unsigned int msr)
{
	fake.reads++;
	return *fake_reg(msr);
}

static void fake_write(unsigned int msr, u64 val)
{
	if (msr == MSR_CORE_PERF_GLOBAL_OVF_CTRL) {
		*fake_reg(MSR_CORE_PERF_GLOBAL_STATUS) &= ~val;
		return;
	}
	*fake_reg(msr) = val;
}

static void fake_cpuid(unsigned int leaf, unsigned int sub, u32 *r)
{
	memset(r, 0, 4 * sizeof(*r));
	if (leaf == 0)
		r[0] = 0xd;
	else if (leaf == 0xa)
		memcpy(r, fake.leaf_a, sizeof(fake.leaf_a));
	else if (leaf == 0x80000000)
		r[0] = 0x80000001;
	else if (leaf == 0x80000001 && fake.amd_core)
		r[2] = BIT(23);
}

static void fake_ack(void)
{
	fake.acks++;
}

static struct pt_regs *fake_sample_regs(struct pt_regs *regs)
{
	return regs;
}

static const struct x86_pc_ops fake_intel_ops = {
	.vendor = X86_PC_INTEL, .name = "fake", .simulated = true,
	.read_msr = fake_read, .write_msr = fake_write, .cpuid = fake_cpuid,
	.pmi_ack = fake_ack, .sample_regs = fake_sample_regs,
};

static const struct x86_pc_ops fake_amd_ops = {
	.vendor = X86_PC_AMD, .name = "fake", .simulated = true,
	.read_msr = fake_read, .write_msr = fake_write, .cpuid = fake_cpuid,
	.pmi_ack = fake_ack, .sample_regs = fake_sample_regs,
};

/* The PMU under test, its one CPU, and the core's view of it. */
static struct x86_pc_pmu *test_pmu;
static struct x86_pc_cpu test_cpuc;

static int test_add(struct perf_counter *counter)
{
	return x86_pc_add(test_pmu, &test_cpuc, counter);
}

static void test_del(struct perf_counter *counter)
{
	x86_pc_del(test_pmu, &test_cpuc, counter);
}

static void test_read(struct perf_counter *counter)
{
	x86_pc_read(test_pmu, counter);
}

static const struct perf_counter_pmu test_core_pmu = {
	.add = test_add, .del = test_del, .read = test_read, .name = "x86-test",
};

static int pmu_init(struct kunit *test)
{
	memset(&fake, 0, sizeof(fake));
	memset(&test_cpuc, 0, sizeof(test_cpuc));
	test_pmu = kunit_kzalloc(test, sizeof(*test_pmu), GFP_KERNEL);
	return test_pmu ? 0 : -ENOMEM;
}

/* Intel v@version, @gp counters and @fixed fixed ones, 48 bits wide. */
static void intel_pmu(struct kunit *test, unsigned int version,
		      unsigned int gp, unsigned int fixed, u32 unavailable)
{
	fake.leaf_a[0] = version | gp << 8 | 48 << 16 | 7 << 24;
	fake.leaf_a[1] = unavailable;
	fake.leaf_a[3] = fixed | 48 << 5;
	KUNIT_ASSERT_EQ(test, x86_pc_intel_detect(test_pmu, &fake_intel_ops), 0);
	x86_pc_cpu_reset(test_pmu, &test_cpuc);
}

static void amd_pmu(struct kunit *test, bool core)
{
	fake.amd_core = core;
	KUNIT_ASSERT_EQ(test, x86_pc_amd_detect(test_pmu, &fake_amd_ops), 0);
	x86_pc_cpu_reset(test_pmu, &test_cpuc);
}

static struct perf_counter_context *test_ctx(struct kunit *test)
{
	struct perf_counter_context *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	perf_counter_ctx_init(ctx, NULL, 0);
	return ctx;
}

/* A counter of @type/@config, set up by the backend, not on the PMU. */
static struct perf_counter *hw_counter(struct kunit *test, u32 type,
				       u64 config, u64 period)
{
	struct perf_counter_attr attr = {
		.type = type, .config = config, .sample_period = period,
	};
	struct perf_counter *counter;

	counter = kunit_kzalloc(test, sizeof(*counter), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, counter);
	perf_counter_init(counter, &attr, &test_core_pmu, -1, NULL);
	KUNIT_ASSERT_EQ(test, x86_pc_event_config(test_pmu, counter), 0);
	counter->ctx = test_ctx(test);
	return counter;
}

static struct perf_counter *raw_counter(struct kunit *test, u64 config)
{
	return hw_counter(test, PERF_TYPE_RAW, config, 0);
}

static int config_err(struct kunit *test, struct perf_counter_attr *attr)
{
	struct perf_counter counter = { };

	perf_counter_init(&counter, attr, &test_core_pmu, -1, NULL);
	return x86_pc_event_config(test_pmu, &counter);
}

#define CACHE(c, op, res)	(PERF_COUNT_HW_CACHE_##c | \
				 PERF_COUNT_HW_CACHE_OP_##op << 8 | \
				 PERF_COUNT_HW_CACHE_RESULT_##res << 16)

/* --- Events --- */

static void event_config_test(struct kunit *test)
{
	struct perf_counter_attr attr = { .type = PERF_TYPE_HARDWARE };
	struct perf_counter *counter;

	/* Branch instructions marked unavailable in CPUID.0xA:EBX. */
	intel_pmu(test, 5, 4, 3, BIT(5));
	counter = hw_counter(test, PERF_TYPE_HARDWARE,
			     PERF_COUNT_HW_CPU_CYCLES, 0);
	KUNIT_EXPECT_EQ(test, counter->hw_config,
			0x003cULL | X86_PC_SEL_USR | X86_PC_SEL_OS);
	attr.config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
	KUNIT_EXPECT_EQ(test, config_err(test, &attr), -ENOENT);
	attr.config = PERF_COUNT_HW_MAX;
	KUNIT_EXPECT_EQ(test, config_err(test, &attr), -EINVAL);
	attr.config = PERF_COUNT_HW_CPU_CYCLES | 8ULL << 32;
	KUNIT_EXPECT_EQ(test, config_err(test, &attr), -ENOENT);
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.precise_ip = 1;
	KUNIT_EXPECT_EQ(test, config_err(test, &attr), -EOPNOTSUPP);
	attr.precise_ip = 0;
	attr.exclude_idle = 1;
	KUNIT_EXPECT_EQ(test, config_err(test, &attr), -EOPNOTSUPP);
	attr.exclude_idle = 0;
	attr.exclude_kernel = 1;
	KUNIT_EXPECT_EQ(test, config_err(test, &attr), 0);

	attr = (struct perf_counter_attr){ .type = PERF_TYPE_HW_CACHE };
	attr.config = CACHE(L1D, READ, MISS);
	KUNIT_EXPECT_EQ(test, config_err(test, &attr), 0);
	attr.config = CACHE(LL, READ, MISS);
	KUNIT_EXPECT_EQ(test, config_err(test, &attr), -ENOENT);
	attr.config = CACHE(L1D, PREFETCH, ACCESS);
	KUNIT_EXPECT_EQ(test, config_err(test, &attr), -EINVAL);
	attr.config = PERF_COUNT_HW_CACHE_MAX;
	KUNIT_EXPECT_EQ(test, config_err(test, &attr), -EINVAL);

	attr = (struct perf_counter_attr){ .type = PERF_TYPE_RAW };
	attr.config = 0x01000000c4ULL;		/* AMD's high event bits */
	KUNIT_EXPECT_EQ(test, config_err(test, &attr), -EINVAL);
	attr.config = X86_PC_SEL_INT | 0xc4;	/* the backend's own bit */
	KUNIT_EXPECT_EQ(test, config_err(test, &attr), -EINVAL);
	attr.exclude_user = 1;
	attr.config = 0x03c4 | X86_PC_SEL_CMASK | X86_PC_SEL_INV;
	KUNIT_EXPECT_EQ(test, config_err(test, &attr), 0);
}

static void amd_layout_test(struct kunit *test)
{
	struct perf_counter *a, *b;

	amd_pmu(test, true);
	KUNIT_EXPECT_EQ(test, test_pmu->nr_gp, 6U);
	KUNIT_EXPECT_EQ(test, test_pmu->nr_fixed, 0U);
	a = raw_counter(test, 0x0076);
	b = raw_counter(test, 0x1000000c0ULL);	/* event 0x1c0 */
	KUNIT_ASSERT_EQ(test, x86_pc_add(test_pmu, &test_cpuc, a), 0);
	KUNIT_ASSERT_EQ(test, x86_pc_add(test_pmu, &test_cpuc, b), 0);
	/* Select and count interleave: counter 1 at 0xc0010202/3. */
	KUNIT_EXPECT_EQ(test, *fake_reg(MSR_F15H_PERF_CTL + 2),
			0x1000000c0ULL | X86_PC_SEL_USR | X86_PC_SEL_OS |
			X86_PC_SEL_INT | X86_PC_SEL_EN);
	KUNIT_EXPECT_EQ(test, *fake_reg(MSR_F15H_PERF_CTR + 2),
			GENMASK_ULL(47, 0) - x86_pc_max_period(test_pmu, 1) + 1);

	pmu_init(test);
	amd_pmu(test, false);
	KUNIT_EXPECT_EQ(test, test_pmu->nr_gp, 4U);
	a = raw_counter(test, 0x0076);
	KUNIT_ASSERT_EQ(test, x86_pc_add(test_pmu, &test_cpuc, a), 0);
	KUNIT_EXPECT_EQ(test, *fake_reg(MSR_K7_EVNTSEL0) & 0xffff, 0x76ULL);
}

/* --- Scheduling --- */

static void fixed_placement_test(struct kunit *test)
{
	struct perf_counter *cyc, *ins, *ref, *ref2, *cyc_cmask;
	u64 field = X86_PC_FIXED_OS | X86_PC_FIXED_USR | X86_PC_FIXED_PMI;

	intel_pmu(test, 5, 4, 3, 0);
	cyc = hw_counter(test, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0);
	ins = hw_counter(test, PERF_TYPE_HARDWARE,
			 PERF_COUNT_HW_INSTRUCTIONS, 0);
	ref = hw_counter(test, PERF_TYPE_HARDWARE,
			 PERF_COUNT_HW_REF_CPU_CYCLES, 0);
	ref2 = hw_counter(test, PERF_TYPE_HARDWARE,
			  PERF_COUNT_HW_REF_CPU_CYCLES, 0);
	/* A threshold makes cycles an event only a general counter takes. */
	cyc_cmask = raw_counter(test, 0x0100003c);

	KUNIT_ASSERT_EQ(test, test_add(cyc), 0);
	KUNIT_ASSERT_EQ(test, test_add(ins), 0);
	KUNIT_ASSERT_EQ(test, test_add(ref), 0);
	KUNIT_EXPECT_EQ(test, cyc->hw_idx, X86_PC_FIXED_BASE + 1);
	KUNIT_EXPECT_EQ(test, ins->hw_idx, X86_PC_FIXED_BASE + 0);
	KUNIT_EXPECT_EQ(test, ref->hw_idx, X86_PC_FIXED_BASE + 2);
	/* Reference cycles have one counter only. */
	KUNIT_EXPECT_EQ(test, test_add(ref2), -EAGAIN);
	KUNIT_ASSERT_EQ(test, test_add(cyc_cmask), 0);
	KUNIT_EXPECT_EQ(test, cyc_cmask->hw_idx, 0);
	KUNIT_EXPECT_EQ(test, *fake_reg(MSR_CORE_PERF_FIXED_CTR_CTRL),
			field | field << 4 | field << 8);
	KUNIT_EXPECT_EQ(test, *fake_reg(MSR_CORE_PERF_GLOBAL_CTRL),
			BIT_ULL(0) | 7ULL << X86_PC_FIXED_BASE);
	test_del(cyc);
	KUNIT_EXPECT_EQ(test, *fake_reg(MSR_CORE_PERF_FIXED_CTR_CTRL),
			field | field << 8);
	KUNIT_EXPECT_EQ(test, *fake_reg(MSR_CORE_PERF_GLOBAL_CTRL),
			BIT_ULL(0) | 5ULL << X86_PC_FIXED_BASE);
}

static const struct x86_pc_constraint counter0_only[] = {
	{ .code = 0x00cd, .mask = X86_PC_SEL_EVENT_UMASK, .slots = BIT_ULL(0) },
	{ }
};

/*
 * A counter that can go anywhere makes way for one that has a single
 * counter it can use, and keeps what it had counted.
 */
static void constraint_moves_test(struct kunit *test)
{
	struct perf_counter *any, *only0, *only0_again, *c[3], *fifth;
	u64 used;
	int i;

	intel_pmu(test, 5, 4, 3, 0);
	test_pmu->constraints = counter0_only;
	any = raw_counter(test, 0x00c4);
	only0 = raw_counter(test, 0x00cd);
	only0_again = raw_counter(test, 0x00cd);
	KUNIT_ASSERT_EQ(test, test_add(any), 0);
	KUNIT_EXPECT_EQ(test, any->hw_idx, 0);
	/* 100 events happen on counter 0. */
	*fake_reg(MSR_ARCH_PERFMON_PERFCTR0) += 100;
	KUNIT_ASSERT_EQ(test, test_add(only0), 0);
	KUNIT_EXPECT_EQ(test, only0->hw_idx, 0);
	KUNIT_EXPECT_EQ(test, any->hw_idx, 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&any->count), 100LL);
	KUNIT_EXPECT_EQ(test, *fake_reg(MSR_ARCH_PERFMON_EVENTSEL0 + 1),
			0x00c4ULL | X86_PC_SEL_USR | X86_PC_SEL_OS |
			X86_PC_SEL_INT | X86_PC_SEL_EN);
	KUNIT_EXPECT_EQ(test, *fake_reg(MSR_ARCH_PERFMON_EVENTSEL0) & 0xffff,
			0xcdULL);
	/* Its one counter is taken. */
	KUNIT_EXPECT_EQ(test, test_add(only0_again), -EAGAIN);
	for (i = 0; i < 2; i++) {
		c[i] = raw_counter(test, 0x00c5);
		KUNIT_ASSERT_EQ(test, test_add(c[i]), 0);
	}
	/* Four general counters in use: a fifth finds none, nothing moves. */
	used = test_cpuc.used;
	fifth = raw_counter(test, 0x00c5);
	KUNIT_EXPECT_EQ(test, test_add(fifth), -EAGAIN);
	KUNIT_EXPECT_EQ(test, test_cpuc.used, used);
	KUNIT_EXPECT_EQ(test, fifth->hw_idx, -1);
	c[2] = raw_counter(test, 0x003c);	/* cycles: a fixed one is free */
	KUNIT_EXPECT_EQ(test, test_add(c[2]), 0);
	KUNIT_EXPECT_EQ(test, c[2]->hw_idx, X86_PC_FIXED_BASE + 1);
}

static void exclusive_group_test(struct kunit *test)
{
	struct perf_counter *other, *excl, *later;

	intel_pmu(test, 5, 4, 3, 0);
	other = raw_counter(test, 0x00c4);
	excl = raw_counter(test, 0x00c5);
	excl->attr.exclusive = 1;
	later = raw_counter(test, 0x00c4);
	KUNIT_ASSERT_EQ(test, test_add(other), 0);
	KUNIT_EXPECT_EQ(test, test_add(excl), -EAGAIN);
	test_del(other);
	KUNIT_ASSERT_EQ(test, test_add(excl), 0);
	KUNIT_EXPECT_EQ(test, test_add(later), -EAGAIN);
	test_del(excl);
	KUNIT_EXPECT_EQ(test, test_add(later), 0);
}

/* --- Overflows --- */

static void overflow_reload_test(struct kunit *test)
{
	u64 mask = GENMASK_ULL(47, 0);
	struct perf_counter *sampler, *counting;
	struct pt_regs regs = { };
	unsigned long flags;
	int handled;

	intel_pmu(test, 5, 4, 3, 0);
	sampler = hw_counter(test, PERF_TYPE_RAW, 0x00c4, 1000);
	sampler->event_limit = 5;
	counting = raw_counter(test, 0x00c5);
	KUNIT_ASSERT_EQ(test, test_add(sampler), 0);
	KUNIT_ASSERT_EQ(test, test_add(counting), 0);
	KUNIT_EXPECT_EQ(test, *fake_reg(MSR_ARCH_PERFMON_PERFCTR0),
			-1000ULL & mask);
	KUNIT_EXPECT_EQ(test, *fake_reg(MSR_ARCH_PERFMON_PERFCTR0 + 1),
			-x86_pc_max_period(test_pmu, 1) & mask);

	/* 1005 events: 5 past the wrap, and the status says so. */
	*fake_reg(MSR_ARCH_PERFMON_PERFCTR0) = 5;
	*fake_reg(MSR_CORE_PERF_GLOBAL_STATUS) = BIT_ULL(0);
	local_irq_save(flags);
	handled = x86_pc_handle_overflows(test_pmu, &test_cpuc, &regs);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, handled, 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&sampler->count), 1005LL);
	/* A sample was due: the REFRESH-style limit went down by one. */
	KUNIT_EXPECT_EQ(test, sampler->event_limit, 4);
	/* The next period starts 5 events in. */
	KUNIT_EXPECT_EQ(test, *fake_reg(MSR_ARCH_PERFMON_PERFCTR0),
			-995ULL & mask);
	KUNIT_EXPECT_EQ(test, *fake_reg(MSR_CORE_PERF_GLOBAL_STATUS), 0ULL);
	KUNIT_EXPECT_EQ(test, fake.acks, 2U);	/* reset, then this one */

	/* A counter that only counts wraps too: folded, range restarted. */
	*fake_reg(MSR_ARCH_PERFMON_PERFCTR0 + 1) = 7;
	*fake_reg(MSR_CORE_PERF_GLOBAL_STATUS) = BIT_ULL(1);
	local_irq_save(flags);
	handled = x86_pc_handle_overflows(test_pmu, &test_cpuc, &regs);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, handled, 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&counting->count),
			(s64)x86_pc_max_period(test_pmu, 1) + 7);
	KUNIT_EXPECT_EQ(test, sampler->event_limit, 4);
}

static int handle(void)
{
	struct pt_regs regs = { };
	unsigned long flags;
	int handled;

	local_irq_save(flags);
	handled = x86_pc_handle_overflows(test_pmu, &test_cpuc, &regs);
	local_irq_restore(flags);
	return handled;
}

/* NMIs that are not ours are left to their owners: NMI_DONE. */
static void foreign_nmi_test(struct kunit *test)
{
	struct perf_counter *counter;
	unsigned int reads;

	intel_pmu(test, 5, 4, 3, 0);
	/* No counter on the PMU: not even a look at the MSRs. */
	reads = fake.reads;
	KUNIT_EXPECT_EQ(test, handle(), NMI_DONE);
	KUNIT_EXPECT_EQ(test, fake.reads, reads);

	counter = raw_counter(test, 0x00c4);
	KUNIT_ASSERT_EQ(test, test_add(counter), 0);
	KUNIT_EXPECT_EQ(test, handle(), NMI_DONE);
	/* An overflow bit of a counter that is not ours stays. */
	*fake_reg(MSR_CORE_PERF_GLOBAL_STATUS) = BIT_ULL(3);
	KUNIT_EXPECT_EQ(test, handle(), NMI_DONE);
	KUNIT_EXPECT_EQ(test, *fake_reg(MSR_CORE_PERF_GLOBAL_STATUS),
			BIT_ULL(3));

	/* AMD: no status; counters whose top bit is set have not wrapped. */
	pmu_init(test);
	amd_pmu(test, true);
	counter = raw_counter(test, 0x0076);
	KUNIT_ASSERT_EQ(test, test_add(counter), 0);
	KUNIT_EXPECT_EQ(test, handle(), NMI_DONE);
	*fake_reg(MSR_F15H_PERF_CTR) = 3;
	KUNIT_EXPECT_EQ(test, handle(), 1);
	KUNIT_EXPECT_EQ(test, handle(), NMI_DONE);

	/* The live handler, with nothing of ours on this CPU's PMU. */
	if (x86_pc_live.ops) {
		struct pt_regs regs = { };

		local_irq_disable();
		KUNIT_EXPECT_EQ(test, x86_pc_nmi(NMI_LOCAL, &regs), NMI_DONE);
		local_irq_enable();
	}
}

/* --- Rotation --- */

static void expect_share(struct kunit *test, struct perf_counter *counter,
			 unsigned int permille)
{
	u64 enabled, running;

	perf_counter_read_local(counter, &enabled, &running);
	KUNIT_EXPECT_GT(test, enabled, 0ULL);
	/* Within 5% of the expected share of the time. */
	KUNIT_EXPECT_GE(test, running * 1000, enabled * permille * 95 / 100);
	KUNIT_EXPECT_LE(test, running * 1000, enabled * permille * 105 / 100);
}

/* @n counters of @configs, attached to a running context, rotated. */
static void rotate_counters(struct kunit *test, const u64 *configs,
			    struct perf_counter **c, int n, int rotations)
{
	struct perf_counter_context *ctx = test_ctx(test);
	u64 now = 0;
	int i;

	for (i = 0; i < n; i++)
		c[i] = raw_counter(test, configs[i]);
	local_irq_disable();
	perf_counter_ctx_sched_in(ctx, now);
	for (i = 0; i < n; i++)
		perf_counter_attach(ctx, c[i]);
	for (i = 0; i < rotations; i++) {
		now += PERF_COUNTER_ROTATE_NS;
		KUNIT_EXPECT_TRUE(test, perf_counter_ctx_rotate(ctx, now));
	}
	now += PERF_COUNTER_ROTATE_NS;
	perf_counter_ctx_sched_out(ctx, now);
	local_irq_enable();
}

/* 8 counters on 4: each runs half the time over 100 rotations. */
static void rotation_fairness_test(struct kunit *test)
{
	static const u64 configs[8] = {
		0x00c4, 0x00c5, 0x4f2e, 0x412e, 0x013c, 0x01c2, 0x02c2, 0x04c2,
	};
	struct perf_counter *c[8];
	int i;

	intel_pmu(test, 5, 4, 3, 0);
	rotate_counters(test, configs, c, 8, 100);
	for (i = 0; i < 8; i++)
		expect_share(test, c[i], 500);
}

/*
 * Counters on fixed counters between them do not skew the turns of the
 * others: 5 on 4 general counters run 80% each, the fixed ones always.
 */
static void rotation_with_fixed_test(struct kunit *test)
{
	static const u64 configs[7] = {
		0x003c, 0x00c0, 0x00c4, 0x00c5, 0x4f2e, 0x412e, 0x01c2,
	};
	struct perf_counter *c[7];
	int i;

	intel_pmu(test, 5, 4, 3, 0);
	rotate_counters(test, configs, c, 7, 100);
	expect_share(test, c[0], 1000);
	expect_share(test, c[1], 1000);
	for (i = 2; i < 7; i++)
		expect_share(test, c[i], 800);
}

/* A pinned counter that cannot go on is in error, and reads nothing. */
static void pinned_error_test(struct kunit *test)
{
	struct perf_counter_context *ctx = test_ctx(test);
	struct perf_counter *c[5];
	int i;

	intel_pmu(test, 5, 4, 3, 0);
	for (i = 0; i < 5; i++) {
		c[i] = raw_counter(test, 0x00c4);
		c[i]->attr.pinned = 1;
	}
	local_irq_disable();
	perf_counter_ctx_sched_in(ctx, 0);
	for (i = 0; i < 5; i++)
		perf_counter_attach(ctx, c[i]);
	KUNIT_EXPECT_EQ(test, c[3]->state, PERF_COUNTER_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, c[4]->state, PERF_COUNTER_STATE_ERROR);
	/* Pinned counters are not rotated. */
	KUNIT_EXPECT_FALSE(test, perf_counter_ctx_rotate(ctx, 1000));
	/* Room made, enabled again: it goes on. */
	perf_counter_ctx_update_time(ctx, 2000);
	perf_counter_do_disable(c[0]);
	perf_counter_do_enable(c[4]);
	KUNIT_EXPECT_EQ(test, c[4]->state, PERF_COUNTER_STATE_ACTIVE);
	perf_counter_ctx_sched_out(ctx, 3000);
	local_irq_enable();
}

/* --- Sharing with perf_events --- */

static struct perf_counter *live_cycles(void)
{
	struct perf_counter_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.disabled = 1,
	};

	return perf_counter_alloc(&attr, -1, NULL, NULL);
}

/*
 * Whoever reserves the counters first has them: perf_events (here, the
 * test taking the reservation as perf_events does) makes our hardware
 * counters fail with EBUSY, and ours make perf_events' reservation fail.
 */
static void reservation_handshake_test(struct kunit *test)
{
	unsigned int ctr0 = x86_pc_reserve_msr(0, false);
	unsigned int sel0 = x86_pc_reserve_msr(0, true);
	struct perf_counter *counter;

	if (!perf_counter_hw_get())
		kunit_skip(test, "no live PMU backend (boot with perf_counter.pmu_model=)");
	if (!reserve_perfctr_nmi(ctr0))
		kunit_skip(test, "counter 0 is reserved by someone else");
	if (reserve_perfctr_nmi(ctr0)) {
		release_perfctr_nmi(ctr0);
		kunit_skip(test, "this CPU's counters are not in the reservation map");
	}
	/* perf_events first. */
	counter = live_cycles();
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(counter), -EBUSY);
	if (!IS_ERR(counter))
		perf_counter_put(counter);
	release_perfctr_nmi(ctr0);

	/* Ours first. */
	counter = live_cycles();
	KUNIT_ASSERT_FALSE(test, IS_ERR(counter));
	KUNIT_EXPECT_FALSE(test, reserve_perfctr_nmi(ctr0));
	KUNIT_EXPECT_FALSE(test, reserve_evntsel_nmi(sel0));
	perf_counter_put(counter);
	KUNIT_EXPECT_TRUE(test, reserve_perfctr_nmi(ctr0));
	release_perfctr_nmi(ctr0);
}

/* --- rdpmc --- */

/* What user space would compute from @ur and the slot's raw value. */
static s64 user_count(struct perf_counter *counter,
		      const struct perf_counter_user_read *ur, u64 raw)
{
	unsigned int shift = 64 - ur->width;

	return atomic64_read(&counter->count) - ur->base +
	       ((s64)(raw << shift) >> shift);
}

/*
 * The ECX with which rdpmc reads each slot (a fixed counter's with bit
 * 30, on Intel only), and what a counter on a slot tells user space:
 * index ECX + 1 while it is on this CPU, the slot's width, and the raw
 * start sign-extended, so that offset plus rdpmc is the count before
 * and after a fold.
 */
static void rdpmc_index_test(struct kunit *test)
{
	struct perf_counter_user_read ur;
	struct perf_counter *cyc;
	u64 *raw;

	intel_pmu(test, 5, 4, 3, 0);
	KUNIT_EXPECT_EQ(test, x86_pc_rdpmc_slot(test_pmu, 3), 3);
	KUNIT_EXPECT_EQ(test, x86_pc_rdpmc_slot(test_pmu, 4), -1);
	KUNIT_EXPECT_EQ(test, x86_pc_rdpmc_slot(test_pmu,
						X86_PC_RDPMC_FIXED | 2),
			X86_PC_FIXED_BASE + 2);
	KUNIT_EXPECT_EQ(test, x86_pc_rdpmc_slot(test_pmu,
						X86_PC_RDPMC_FIXED | 3), -1);

	cyc = hw_counter(test, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
			 1000);
	cyc->state = PERF_COUNTER_STATE_ACTIVE;
	cyc->oncpu = get_cpu();
	x86_pc_user_read(test_pmu, cyc, &ur);
	KUNIT_EXPECT_EQ(test, ur.index, 0U);
	KUNIT_ASSERT_EQ(test, test_add(cyc), 0);
	KUNIT_ASSERT_EQ(test, cyc->hw_idx, X86_PC_FIXED_BASE + 1);
	x86_pc_user_read(test_pmu, cyc, &ur);
	KUNIT_EXPECT_EQ(test, ur.index, (u32)X86_PC_RDPMC_FIXED + 1 + 1);
	KUNIT_EXPECT_EQ(test, ur.width, 48);
	KUNIT_EXPECT_EQ(test, ur.base, -1000LL);
	raw = fake_reg(MSR_CORE_PERF_FIXED_CTR0 + 1);
	*raw += 300;
	KUNIT_EXPECT_EQ(test, user_count(cyc, &ur, *raw), 300LL);
	test_read(cyc);
	x86_pc_user_read(test_pmu, cyc, &ur);
	KUNIT_EXPECT_EQ(test, ur.base, -700LL);
	*raw += 50;
	KUNIT_EXPECT_EQ(test, user_count(cyc, &ur, *raw), 350LL);
	/* Elsewhere than on this CPU it cannot be read with rdpmc. */
	cyc->oncpu = -1;
	x86_pc_user_read(test_pmu, cyc, &ur);
	KUNIT_EXPECT_EQ(test, ur.index, 0U);
	put_cpu();
	test_del(cyc);

	amd_pmu(test, true);
	KUNIT_EXPECT_EQ(test, x86_pc_rdpmc_slot(test_pmu, 5), 5);
	KUNIT_EXPECT_EQ(test, x86_pc_rdpmc_slot(test_pmu, 6), -1);
	KUNIT_EXPECT_EQ(test, x86_pc_rdpmc_slot(test_pmu,
						X86_PC_RDPMC_FIXED), -1);
}

static struct kunit_case x86_pc_cases[] = {
	KUNIT_CASE(event_config_test),
	KUNIT_CASE(amd_layout_test),
	KUNIT_CASE(fixed_placement_test),
	KUNIT_CASE(constraint_moves_test),
	KUNIT_CASE(exclusive_group_test),
	KUNIT_CASE(overflow_reload_test),
	KUNIT_CASE(foreign_nmi_test),
	KUNIT_CASE(rotation_fairness_test),
	KUNIT_CASE(rotation_with_fixed_test),
	KUNIT_CASE(pinned_error_test),
	KUNIT_CASE(reservation_handshake_test),
	KUNIT_CASE(rdpmc_index_test),
	{ }
};

static struct kunit_suite x86_pc_suite = {
	.name		= "perf_counter_x86",
	.init		= pmu_init,
	.test_cases	= x86_pc_cases,
};
kunit_test_suite(x86_pc_suite);

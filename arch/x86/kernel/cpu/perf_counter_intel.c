// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter x86 backend: Intel architectural performance monitoring,
 * versions 1 to 5, as CPUID leaf 0xA describes it.
 *
 *   v1  general-purpose counters, enabled one by one in their event select
 *   v2  fixed counters and GLOBAL_CTRL, GLOBAL_STATUS, GLOBAL_OVF_CTRL
 *   v3  AnyThread (not used here)
 *   v4  GLOBAL_OVF_CTRL becomes GLOBAL_STATUS_RESET, same MSR, same use
 *   v5  a bitmap of the fixed counters that exist (ECX)
 */

#include <linux/bitops.h>
#include <linux/kernel.h>
#include <asm/processor.h>

#include "perf_counter.h"

/* The architectural events, in CPUID.0xA:EBX bit order. */
static const struct {
	unsigned int	hw_id;
	u64		sel;
} intel_arch_events[] = {
	{ PERF_COUNT_HW_CPU_CYCLES,		0x003c },
	{ PERF_COUNT_HW_INSTRUCTIONS,		0x00c0 },
	{ PERF_COUNT_HW_BUS_CYCLES,		0x013c },
	{ PERF_COUNT_HW_CACHE_REFERENCES,	0x4f2e },
	{ PERF_COUNT_HW_CACHE_MISSES,		0x412e },
	{ PERF_COUNT_HW_BRANCH_INSTRUCTIONS,	0x00c4 },
	{ PERF_COUNT_HW_BRANCH_MISSES,		0x00c5 },
};

/*
 * What fixed counters 0-3 count.  Reference cycles and topdown slots
 * have no general-purpose encoding: the pseudo events 0x0300 and 0x0400
 * name them, and only their fixed counter takes them.
 */
static const u64 intel_fixed_events[X86_PC_MAX_FIXED] = {
	0x00c0, 0x003c, 0x0300, 0x0400,
};

static const struct x86_pc_constraint intel_constraints[] = {
	{ .code = 0x0300, .mask = X86_PC_SEL_EVENT_UMASK, .slots = 0 },
	{ .code = 0x0400, .mask = X86_PC_SEL_EVENT_UMASK, .slots = 0 },
	{ }
};

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define ACCESS	C(RESULT_ACCESS)
#define MISS	C(RESULT_MISS)

/*
 * Cache events of the big cores from Skylake on (architectural perfmon
 * v4 and later): the encodings of their event lists.  Last-level and
 * node events need the offcore response MSRs, which this backend does
 * not drive; they are absent (ENOENT).
 */
static const x86_pc_cache_table intel_skl_cache = {
	[C(L1D)] = {
		[C(OP_READ)]	= { [ACCESS] = 0x81d0, [MISS] = 0x0151 },
		[C(OP_WRITE)]	= { [ACCESS] = 0x82d0 },
		[C(OP_PREFETCH)] = { [ACCESS] = X86_PC_CACHE_INVALID,
				     [MISS] = X86_PC_CACHE_INVALID },
	},
	[C(L1I)] = {
		[C(OP_READ)]	= { [MISS] = 0x0283 },
		[C(OP_WRITE)]	= { [ACCESS] = X86_PC_CACHE_INVALID,
				    [MISS] = X86_PC_CACHE_INVALID },
	},
	[C(DTLB)] = {
		[C(OP_READ)]	= { [ACCESS] = 0x81d0, [MISS] = 0x0e08 },
		[C(OP_WRITE)]	= { [ACCESS] = 0x82d0, [MISS] = 0x0e49 },
	},
	[C(ITLB)] = {
		[C(OP_READ)]	= { [ACCESS] = 0x2085, [MISS] = 0x0e85 },
	},
	[C(BPU)] = {
		[C(OP_READ)]	= { [ACCESS] = 0x00c4, [MISS] = 0x00c5 },
	},
};

#undef MISS
#undef ACCESS
#undef C

static void intel_events(struct x86_pc_pmu *pmu, u32 unavailable,
			 unsigned int known)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(intel_arch_events); i++) {
		if (i >= known || (unavailable & BIT(i)))
			continue;
		pmu->hw_events[intel_arch_events[i].hw_id] =
			intel_arch_events[i].sel;
	}
	/* Reference cycles only on their fixed counter. */
	if (pmu->fixed_present & BIT_ULL(X86_PC_FIXED_BASE + 2))
		pmu->hw_events[PERF_COUNT_HW_REF_CPU_CYCLES] = 0x0300;
}

/* The fixed counters there: v5 lists them, before that they are 0..n-1. */
static void intel_fixed(struct x86_pc_pmu *pmu, const u32 *r)
{
	unsigned long present = 0;
	unsigned int i, nr = r[3] & 0x1f;

	if (pmu->version < 2)
		return;
	present = GENMASK(nr, 0) >> 1;
	if (pmu->version >= 5)
		present |= r[2];
	present &= GENMASK(X86_PC_MAX_FIXED - 1, 0);
	for (i = 0; i < X86_PC_MAX_FIXED; i++) {
		if (!(present & BIT(i)))
			continue;
		pmu->fixed_present |= BIT_ULL(X86_PC_FIXED_BASE + i);
		pmu->nr_fixed = i + 1;
		pmu->fixed_events[i] = intel_fixed_events[i];
	}
	pmu->fixed_width = (r[3] >> 5) & 0xff;
}

static bool intel_skl_or_later(const struct x86_pc_ops *ops,
			       unsigned int version)
{
	return ops->simulated || (boot_cpu_data.x86 == 6 && version >= 4);
}

int x86_pc_intel_detect(struct x86_pc_pmu *pmu, const struct x86_pc_ops *ops)
{
	u32 r[4];
	unsigned int known;

	memset(pmu, 0, sizeof(*pmu));
	ops->cpuid(0, 0, r);
	if (r[0] < 0xa)
		return -ENODEV;
	ops->cpuid(0xa, 0, r);
	pmu->version = r[0] & 0xff;
	pmu->nr_gp = min_t(unsigned int, (r[0] >> 8) & 0xff, X86_PC_MAX_GP);
	pmu->gp_width = (r[0] >> 16) & 0xff;
	if (!pmu->version || !pmu->nr_gp || pmu->gp_width < 32)
		return -ENODEV;
	/* EBX bits past the length EAX gives are events not described. */
	known = r[0] >> 24;
	pmu->ops = ops;
	pmu->vendor = X86_PC_INTEL;
	intel_fixed(pmu, r);
	pmu->global_ctrl = pmu->version >= 2;
	pmu->sel_base = MSR_ARCH_PERFMON_EVENTSEL0;
	pmu->ctr_base = MSR_ARCH_PERFMON_PERFCTR0;
	pmu->msr_stride = 1;
	pmu->raw_mask = X86_PC_SEL_EVENT_UMASK | X86_PC_SEL_EDGE |
			X86_PC_SEL_INV | X86_PC_SEL_CMASK;
	pmu->constraints = intel_constraints;
	intel_events(pmu, r[1], known);
	if (intel_skl_or_later(ops, pmu->version))
		pmu->cache = &intel_skl_cache;
	snprintf(pmu->name, sizeof(pmu->name), "intel-v%u", pmu->version);
	return 0;
}

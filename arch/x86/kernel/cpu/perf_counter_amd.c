// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter x86 backend: AMD core counters.  K7 to family 14h have
 * four 48-bit counters at MSRs 0xc0010000 (event selects) and 0xc0010004
 * (counts); with PerfCtrExtCore (CPUID 0x80000001 ECX bit 23) there are
 * six, select and count interleaved from 0xc0010200.  No fixed counters
 * and no global status: an overflow shows as a counter whose top bit
 * has fallen.
 */

#include <linux/bitops.h>
#include <linux/kernel.h>

#include "perf_counter.h"

#define AMD_PERFCTR_CORE	BIT(23)

static const u64 amd_k7_events[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= 0x0076,
	[PERF_COUNT_HW_INSTRUCTIONS]		= 0x00c0,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= 0x077d,
	[PERF_COUNT_HW_CACHE_MISSES]		= 0x077e,
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= 0x00c2,
	[PERF_COUNT_HW_BRANCH_MISSES]		= 0x00c3,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= 0x00d0,
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= 0x00d1,
};

/* Family 17h on (Zen): the cache and stall events moved. */
static const u64 amd_zen_events[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= 0x0076,
	[PERF_COUNT_HW_INSTRUCTIONS]		= 0x00c0,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= 0xff60,
	[PERF_COUNT_HW_CACHE_MISSES]		= 0x0964,
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= 0x00c2,
	[PERF_COUNT_HW_BRANCH_MISSES]		= 0x00c3,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= 0x0287,
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= 0x0187,
};

#define C(x)	PERF_COUNT_HW_CACHE_##x
#define ACCESS	C(RESULT_ACCESS)
#define MISS	C(RESULT_MISS)

/* K8 to family 10h, from their event lists. */
static const x86_pc_cache_table amd_k8_cache = {
	[C(L1D)] = {
		[C(OP_READ)]	 = { [ACCESS] = 0x0040, [MISS] = 0x0141 },
		[C(OP_PREFETCH)] = { [ACCESS] = 0x0267 },
	},
	[C(L1I)] = {
		[C(OP_READ)]	= { [ACCESS] = 0x0080, [MISS] = 0x0081 },
		[C(OP_WRITE)]	= { [ACCESS] = X86_PC_CACHE_INVALID,
				    [MISS] = X86_PC_CACHE_INVALID },
	},
	[C(DTLB)] = {
		[C(OP_READ)]	= { [ACCESS] = 0x0040, [MISS] = 0x0746 },
	},
	[C(ITLB)] = {
		[C(OP_READ)]	= { [ACCESS] = 0x0080, [MISS] = 0x0385 },
		[C(OP_WRITE)]	= { [ACCESS] = X86_PC_CACHE_INVALID,
				    [MISS] = X86_PC_CACHE_INVALID },
	},
	[C(BPU)] = {
		[C(OP_READ)]	= { [ACCESS] = 0x00c2, [MISS] = 0x00c3 },
	},
};

#undef MISS
#undef ACCESS
#undef C

static bool amd_has_perfctr_core(const struct x86_pc_ops *ops)
{
	u32 r[4];

	ops->cpuid(0x80000000, 0, r);
	if (r[0] < 0x80000001)
		return false;
	ops->cpuid(0x80000001, 0, r);
	return r[2] & AMD_PERFCTR_CORE;
}

int x86_pc_amd_detect(struct x86_pc_pmu *pmu, const struct x86_pc_ops *ops)
{
	bool core = amd_has_perfctr_core(ops);
	bool zen = !ops->simulated && boot_cpu_data.x86 >= 0x17;

	memset(pmu, 0, sizeof(*pmu));
	pmu->ops = ops;
	pmu->vendor = X86_PC_AMD;
	pmu->nr_gp = core ? 6 : 4;
	pmu->gp_width = 48;
	if (core) {
		pmu->sel_base = MSR_F15H_PERF_CTL;
		pmu->ctr_base = MSR_F15H_PERF_CTR;
		pmu->msr_stride = 2;
	} else {
		pmu->sel_base = MSR_K7_EVNTSEL0;
		pmu->ctr_base = MSR_K7_PERFCTR0;
		pmu->msr_stride = 1;
	}
	pmu->raw_mask = X86_PC_SEL_EVENT_UMASK | X86_PC_SEL_EDGE |
			X86_PC_SEL_INV | X86_PC_SEL_CMASK |
			X86_PC_SEL_AMD_EVENT_HI;
	memcpy(pmu->hw_events, zen ? amd_zen_events : amd_k7_events,
	       sizeof(pmu->hw_events));
	if (!zen)
		pmu->cache = &amd_k8_cache;
	snprintf(pmu->name, sizeof(pmu->name), "amd-%s",
		 core ? "perfctr-core" : "k7");
	return 0;
}

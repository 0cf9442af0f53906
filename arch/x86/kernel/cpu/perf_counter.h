/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter x86 PMU backend: what its files share.
 *
 * Every MSR and CPUID access goes through a struct x86_pc_ops: the real
 * one reaches the hardware, the model (perf_counter_model.c) simulates a
 * PMU so that the same code runs, interrupts included, where there is
 * none.  A struct x86_pc_pmu describes one PMU as the vendor code found
 * it; a struct x86_pc_cpu holds what one CPU has on it.
 */
#ifndef _ARCH_X86_PERF_COUNTER_H
#define _ARCH_X86_PERF_COUNTER_H

#include <linux/types.h>

#include "../../../../kernel/perf_counter/internal.h"

/*
 * Slots: general-purpose counters from 0, fixed ones from bit 32, as in
 * the GLOBAL_CTRL and GLOBAL_STATUS MSRs.
 */
#define X86_PC_MAX_GP		8
#define X86_PC_MAX_FIXED	4
#define X86_PC_FIXED_BASE	32
#define X86_PC_MAX_SLOTS	(X86_PC_FIXED_BASE + X86_PC_MAX_FIXED)
/* rdpmc's ECX for a fixed counter (Intel), with its number. */
#define X86_PC_RDPMC_FIXED	BIT(30)
#define X86_PC_GP_MASK(n)	((1ULL << (n)) - 1)

/* Event select bits both vendors share. */
#define X86_PC_SEL_USR		BIT_ULL(16)
#define X86_PC_SEL_OS		BIT_ULL(17)
#define X86_PC_SEL_EDGE		BIT_ULL(18)
#define X86_PC_SEL_INT		BIT_ULL(20)
#define X86_PC_SEL_EN		BIT_ULL(22)
#define X86_PC_SEL_INV		BIT_ULL(23)
#define X86_PC_SEL_CMASK	0xff000000ULL
#define X86_PC_SEL_EVENT_UMASK	0xffffULL
/* AMD: event select bits 11:8 live in bits 35:32. */
#define X86_PC_SEL_AMD_EVENT_HI	0xf00000000ULL

/* Fixed counter control: four bits a counter. */
#define X86_PC_FIXED_OS		0x1ULL
#define X86_PC_FIXED_USR	0x2ULL
#define X86_PC_FIXED_PMI	0x8ULL

enum x86_pc_vendor {
	X86_PC_INTEL,
	X86_PC_AMD,
};

struct x86_pc_ops {
	const char	*name;
	enum x86_pc_vendor vendor;
	bool		simulated;
	u64		(*read_msr)(unsigned int msr);
	void		(*write_msr)(unsigned int msr, u64 val);
	void		(*cpuid)(unsigned int leaf, unsigned int sub, u32 *regs);
	/* After an overflow interrupt: let the next one be delivered. */
	void		(*pmi_ack)(void);
	/* Where the overflows of this NMI happened, for their samples. */
	struct pt_regs	*(*sample_regs)(struct pt_regs *nmi_regs);
};

/*
 * Events that only some counters can count: an event matches when
 * (config & mask) == code, and may then use the slots in @slots only.
 * A table ends with mask 0.
 */
struct x86_pc_constraint {
	u64		code;
	u64		mask;
	u64		slots;
};

#define X86_PC_CACHE_TYPES	PERF_COUNT_HW_CACHE_MAX
#define X86_PC_CACHE_OPS	PERF_COUNT_HW_CACHE_OP_MAX
#define X86_PC_CACHE_RESULTS	PERF_COUNT_HW_CACHE_RESULT_MAX
/* A cache table entry the hardware cannot count at all: EINVAL. */
#define X86_PC_CACHE_INVALID	(~0ULL)

typedef u64 x86_pc_cache_table[X86_PC_CACHE_TYPES][X86_PC_CACHE_OPS]
			      [X86_PC_CACHE_RESULTS];

struct x86_pc_pmu {
	char		name[32];
	const struct x86_pc_ops *ops;
	enum x86_pc_vendor vendor;
	unsigned int	version;	/* Intel architectural perfmon; AMD 0 */
	unsigned int	nr_gp;
	unsigned int	nr_fixed;	/* highest fixed counter + 1 */
	u64		fixed_present;	/* slots of the fixed counters there */
	unsigned int	gp_width;
	unsigned int	fixed_width;
	bool		global_ctrl;	/* GLOBAL_CTRL, _STATUS, _OVF_CTRL */
	unsigned int	sel_base, ctr_base, msr_stride;
	u64		raw_mask;	/* what PERF_TYPE_RAW may set */
	u64		hw_events[PERF_COUNT_HW_MAX];	/* 0: not here */
	u64		fixed_events[X86_PC_MAX_FIXED];	/* what each counts */
	const x86_pc_cache_table *cache;
	const struct x86_pc_constraint *constraints;
};

/* What one CPU's PMU carries. */
struct x86_pc_cpu {
	struct perf_counter	*slots[X86_PC_MAX_SLOTS];
	u64			used;
	u64			global_ctrl;
	u64			fixed_ctrl;
	/* An exclusive group owns the PMU: nothing else goes on. */
	struct perf_counter	*excl_leader;
	unsigned int		excl_nr;
};

/* perf_counter_intel.c, perf_counter_amd.c: detection */
int x86_pc_intel_detect(struct x86_pc_pmu *pmu, const struct x86_pc_ops *ops);
int x86_pc_amd_detect(struct x86_pc_pmu *pmu, const struct x86_pc_ops *ops);

/* perf_counter.c: the backend, on any PMU description and CPU state */
int x86_pc_event_config(const struct x86_pc_pmu *pmu,
			struct perf_counter *counter);
int x86_pc_add(const struct x86_pc_pmu *pmu, struct x86_pc_cpu *cpuc,
	       struct perf_counter *counter);
void x86_pc_del(const struct x86_pc_pmu *pmu, struct x86_pc_cpu *cpuc,
		struct perf_counter *counter);
void x86_pc_read(const struct x86_pc_pmu *pmu, struct perf_counter *counter);
int x86_pc_handle_overflows(const struct x86_pc_pmu *pmu,
			    struct x86_pc_cpu *cpuc, struct pt_regs *regs);
void x86_pc_cpu_reset(const struct x86_pc_pmu *pmu, struct x86_pc_cpu *cpuc);
int x86_pc_nmi(unsigned int type, struct pt_regs *regs);
int x86_pc_reserve(const struct x86_pc_pmu *pmu);
void x86_pc_release(const struct x86_pc_pmu *pmu);
unsigned int x86_pc_reserve_msr(unsigned int idx, bool evntsel);
u64 x86_pc_max_period(const struct x86_pc_pmu *pmu, int idx);
int x86_pc_rdpmc_slot(const struct x86_pc_pmu *pmu, u32 ecx);
void x86_pc_user_read(const struct x86_pc_pmu *pmu,
		      struct perf_counter *counter,
		      struct perf_counter_user_read *ur);

/* The PMU the live backend drives, and its NMIs handled so far. */
extern struct x86_pc_pmu x86_pc_live;
extern atomic_long_t x86_pc_nmi_handled;

/* perf_counter_model.c: built into test kernels only */
#ifdef CONFIG_PERF_COUNTERS_KUNIT_TEST
const char *x86_pc_model_arg(void);
int x86_pc_model_setup(struct x86_pc_pmu *pmu);
void x86_pc_model_cpu_init(unsigned int cpu);
#else
static inline const char *x86_pc_model_arg(void)
{
	return NULL;
}

static inline int x86_pc_model_setup(struct x86_pc_pmu *pmu)
{
	return -ENODEV;
}

static inline void x86_pc_model_cpu_init(unsigned int cpu) { }
#endif

#endif /* _ARCH_X86_PERF_COUNTER_H */

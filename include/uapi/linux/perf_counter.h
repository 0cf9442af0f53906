/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * perf_counter: the interface between user space and the kernel's
 * performance counter subsystem.
 *
 * This file describes everything that crosses the syscall boundary:
 * the perf_counter_attr block handed to sys_perf_event_open(), the
 * ioctl commands accepted on a counter file descriptor, the layout of
 * the control page at the start of the mmap()ed ring buffer, and the
 * records the kernel writes into that ring buffer.
 *
 * All of it is binary compatible with the Linux 6.1 perf_event ABI:
 * every structure has the same size and member offsets, and every
 * constant has the same numeric value, so existing binaries and
 * perf.data files interoperate with this subsystem unchanged.
 */
#ifndef _UAPI_LINUX_PERF_COUNTER_H
#define _UAPI_LINUX_PERF_COUNTER_H

#include <linux/types.h>
#include <linux/ioctl.h>
#include <asm/byteorder.h>

/*
 * Living next to <linux/perf_event.h>
 * ----------------------------------
 *
 * Most constants, enums and helper structures below keep the names used
 * by <linux/perf_event.h> (PERF_TYPE_*, PERF_SAMPLE_*, PERF_RECORD_*,
 * struct perf_branch_entry, union perf_mem_data_src, ...), because they
 * are the very same ABI values.  A translation unit is allowed to pull
 * in both headers (for instance kernel code that deals with both
 * interfaces, or a tool that compares them).  C forbids defining an
 * enumerator, macro value or structure tag twice, so every definition
 * that shares its name with <linux/perf_event.h> sits in a block that is
 * skipped when that header has already been seen; the identical
 * definitions from it are then used instead.
 *
 * Both guard spellings are tested: inside a kernel tree the header is
 * guarded by _UAPI_LINUX_PERF_EVENT_H, while the copy exported to
 * /usr/include has that prefix stripped to _LINUX_PERF_EVENT_H.
 *
 * Definitions carrying a perf_counter name are always provided.  Where
 * one of our enum tags wraps shared enumerators, the tag is mapped onto
 * the perf_event spelling when the shared block is skipped, so that
 * "enum perf_counter_type" and friends remain usable either way.
 *
 * Only the order "perf_event.h first, then perf_counter.h" is supported;
 * the opposite order would make perf_event.h redefine our values.
 */
#if !defined(_UAPI_LINUX_PERF_EVENT_H) && !defined(_LINUX_PERF_EVENT_H)
#define __PERF_COUNTER_OWNS_SHARED_DEFS	1
#else
#define __PERF_COUNTER_OWNS_SHARED_DEFS	0
#endif

#if __PERF_COUNTER_OWNS_SHARED_DEFS

/*
 * perf_counter_attr::type - which kind of counter is requested.
 * Values from PERF_TYPE_MAX upwards are dynamic PMU types published
 * in sysfs.
 */
enum perf_type_id {
	PERF_TYPE_HARDWARE			= 0,
	PERF_TYPE_SOFTWARE			= 1,
	PERF_TYPE_TRACEPOINT			= 2,
	PERF_TYPE_HW_CACHE			= 3,
	PERF_TYPE_RAW				= 4,
	PERF_TYPE_BREAKPOINT			= 5,

	PERF_TYPE_MAX,				/* not part of the ABI */
};

/*
 * For PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE the upper 32 bits of
 * perf_counter_attr::config may name a specific PMU (its dynamic type
 * number); zero there means "the default CPU PMU".  The low 32 bits hold
 * the generic event:
 *
 *   HARDWARE: bits  0..7  enum perf_hw_id
 *   HW_CACHE: bits  0..7  enum perf_hw_cache_id
 *             bits  8..15 enum perf_hw_cache_op_id
 *             bits 16..23 enum perf_hw_cache_op_result_id
 */
#define PERF_PMU_TYPE_SHIFT		32
#define PERF_HW_EVENT_MASK		0xffffffff

/*
 * Generic hardware events (config for PERF_TYPE_HARDWARE).  Each PMU
 * driver maps them to its own raw events where it can.
 */
enum perf_hw_id {
	PERF_COUNT_HW_CPU_CYCLES		= 0,
	PERF_COUNT_HW_INSTRUCTIONS		= 1,
	PERF_COUNT_HW_CACHE_REFERENCES		= 2,
	PERF_COUNT_HW_CACHE_MISSES		= 3,
	PERF_COUNT_HW_BRANCH_INSTRUCTIONS	= 4,
	PERF_COUNT_HW_BRANCH_MISSES		= 5,
	PERF_COUNT_HW_BUS_CYCLES		= 6,
	PERF_COUNT_HW_STALLED_CYCLES_FRONTEND	= 7,
	PERF_COUNT_HW_STALLED_CYCLES_BACKEND	= 8,
	PERF_COUNT_HW_REF_CPU_CYCLES		= 9,

	PERF_COUNT_HW_MAX,			/* not part of the ABI */
};

/*
 * Generic cache events (config for PERF_TYPE_HW_CACHE) are the product
 * of three selectors: which cache, which kind of access, which outcome.
 */
enum perf_hw_cache_id {
	PERF_COUNT_HW_CACHE_L1D			= 0,
	PERF_COUNT_HW_CACHE_L1I			= 1,
	PERF_COUNT_HW_CACHE_LL			= 2,
	PERF_COUNT_HW_CACHE_DTLB		= 3,
	PERF_COUNT_HW_CACHE_ITLB		= 4,
	PERF_COUNT_HW_CACHE_BPU			= 5,
	PERF_COUNT_HW_CACHE_NODE		= 6,

	PERF_COUNT_HW_CACHE_MAX,		/* not part of the ABI */
};

enum perf_hw_cache_op_id {
	PERF_COUNT_HW_CACHE_OP_READ		= 0,
	PERF_COUNT_HW_CACHE_OP_WRITE		= 1,
	PERF_COUNT_HW_CACHE_OP_PREFETCH		= 2,

	PERF_COUNT_HW_CACHE_OP_MAX,		/* not part of the ABI */
};

enum perf_hw_cache_op_result_id {
	PERF_COUNT_HW_CACHE_RESULT_ACCESS	= 0,
	PERF_COUNT_HW_CACHE_RESULT_MISS		= 1,

	PERF_COUNT_HW_CACHE_RESULT_MAX,		/* not part of the ABI */
};

/*
 * Software counters (config for PERF_TYPE_SOFTWARE).  They are
 * implemented by the kernel itself and exist on every machine, with or
 * without a hardware PMU.
 */
enum perf_sw_ids {
	PERF_COUNT_SW_CPU_CLOCK			= 0,
	PERF_COUNT_SW_TASK_CLOCK		= 1,
	PERF_COUNT_SW_PAGE_FAULTS		= 2,
	PERF_COUNT_SW_CONTEXT_SWITCHES		= 3,
	PERF_COUNT_SW_CPU_MIGRATIONS		= 4,
	PERF_COUNT_SW_PAGE_FAULTS_MIN		= 5,
	PERF_COUNT_SW_PAGE_FAULTS_MAJ		= 6,
	PERF_COUNT_SW_ALIGNMENT_FAULTS		= 7,
	PERF_COUNT_SW_EMULATION_FAULTS		= 8,
	PERF_COUNT_SW_DUMMY			= 9,
	PERF_COUNT_SW_BPF_OUTPUT		= 10,
	PERF_COUNT_SW_CGROUP_SWITCHES		= 11,

	PERF_COUNT_SW_MAX,			/* not part of the ABI */
};

/*
 * perf_counter_attr::sample_type - each set bit adds a field to every
 * PERF_RECORD_SAMPLE (see the layout documented at PERF_RECORD_SAMPLE).
 */
enum perf_counter_sample_format {
	PERF_SAMPLE_IP				= 1U << 0,
	PERF_SAMPLE_TID				= 1U << 1,
	PERF_SAMPLE_TIME			= 1U << 2,
	PERF_SAMPLE_ADDR			= 1U << 3,
	PERF_SAMPLE_READ			= 1U << 4,
	PERF_SAMPLE_CALLCHAIN			= 1U << 5,
	PERF_SAMPLE_ID				= 1U << 6,
	PERF_SAMPLE_CPU				= 1U << 7,
	PERF_SAMPLE_PERIOD			= 1U << 8,
	PERF_SAMPLE_STREAM_ID			= 1U << 9,
	PERF_SAMPLE_RAW				= 1U << 10,
	PERF_SAMPLE_BRANCH_STACK		= 1U << 11,
	PERF_SAMPLE_REGS_USER			= 1U << 12,
	PERF_SAMPLE_STACK_USER			= 1U << 13,
	PERF_SAMPLE_WEIGHT			= 1U << 14,
	PERF_SAMPLE_DATA_SRC			= 1U << 15,
	PERF_SAMPLE_IDENTIFIER			= 1U << 16,
	PERF_SAMPLE_TRANSACTION			= 1U << 17,
	PERF_SAMPLE_REGS_INTR			= 1U << 18,
	PERF_SAMPLE_PHYS_ADDR			= 1U << 19,
	PERF_SAMPLE_AUX				= 1U << 20,
	PERF_SAMPLE_CGROUP			= 1U << 21,
	PERF_SAMPLE_DATA_PAGE_SIZE		= 1U << 22,
	PERF_SAMPLE_CODE_PAGE_SIZE		= 1U << 23,
	PERF_SAMPLE_WEIGHT_STRUCT		= 1U << 24,

	PERF_SAMPLE_MAX = 1U << 25,		/* not part of the ABI */
};

/* Either form of the sample weight (they are mutually exclusive). */
#define PERF_SAMPLE_WEIGHT_TYPE	(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)

/*
 * perf_counter_attr::branch_sample_type, used with
 * PERF_SAMPLE_BRANCH_STACK.
 *
 * The privilege bits (USER/KERNEL/HV) select whose branches are kept;
 * when none of them is given, the counter's own exclude_* settings
 * decide.  The remaining bits filter by branch kind and can be OR'ed
 * together; ANY accepts every kind and thus makes the others moot.
 */
enum perf_branch_sample_type_shift {
	PERF_SAMPLE_BRANCH_USER_SHIFT		= 0,  /* user-mode branches */
	PERF_SAMPLE_BRANCH_KERNEL_SHIFT		= 1,  /* kernel-mode branches */
	PERF_SAMPLE_BRANCH_HV_SHIFT		= 2,  /* hypervisor branches */

	PERF_SAMPLE_BRANCH_ANY_SHIFT		= 3,  /* all kinds */
	PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT	= 4,  /* every call */
	PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT	= 5,  /* every return */
	PERF_SAMPLE_BRANCH_IND_CALL_SHIFT	= 6,  /* calls through a pointer */
	PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT	= 7,  /* HW transaction aborts */
	PERF_SAMPLE_BRANCH_IN_TX_SHIFT		= 8,  /* inside a HW transaction */
	PERF_SAMPLE_BRANCH_NO_TX_SHIFT		= 9,  /* outside a HW transaction */
	PERF_SAMPLE_BRANCH_COND_SHIFT		= 10, /* conditional branches */

	PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT	= 11, /* call/return stack mode */
	PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT	= 12, /* jumps through a pointer */
	PERF_SAMPLE_BRANCH_CALL_SHIFT		= 13, /* direct calls */

	PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT	= 14, /* omit the flag bits */
	PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT	= 15, /* omit the cycle counts */

	PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT	= 16, /* fill in the type field */

	PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT	= 17, /* emit the hw_idx word */

	PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT	= 18, /* fill in the priv field */

	PERF_SAMPLE_BRANCH_MAX_SHIFT		/* not part of the ABI */
};

enum perf_branch_sample_type {
	PERF_SAMPLE_BRANCH_USER		= 1U << PERF_SAMPLE_BRANCH_USER_SHIFT,
	PERF_SAMPLE_BRANCH_KERNEL	= 1U << PERF_SAMPLE_BRANCH_KERNEL_SHIFT,
	PERF_SAMPLE_BRANCH_HV		= 1U << PERF_SAMPLE_BRANCH_HV_SHIFT,

	PERF_SAMPLE_BRANCH_ANY		= 1U << PERF_SAMPLE_BRANCH_ANY_SHIFT,
	PERF_SAMPLE_BRANCH_ANY_CALL	= 1U << PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT,
	PERF_SAMPLE_BRANCH_ANY_RETURN	= 1U << PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT,
	PERF_SAMPLE_BRANCH_IND_CALL	= 1U << PERF_SAMPLE_BRANCH_IND_CALL_SHIFT,
	PERF_SAMPLE_BRANCH_ABORT_TX	= 1U << PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT,
	PERF_SAMPLE_BRANCH_IN_TX	= 1U << PERF_SAMPLE_BRANCH_IN_TX_SHIFT,
	PERF_SAMPLE_BRANCH_NO_TX	= 1U << PERF_SAMPLE_BRANCH_NO_TX_SHIFT,
	PERF_SAMPLE_BRANCH_COND		= 1U << PERF_SAMPLE_BRANCH_COND_SHIFT,

	PERF_SAMPLE_BRANCH_CALL_STACK	= 1U << PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT,
	PERF_SAMPLE_BRANCH_IND_JUMP	= 1U << PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT,
	PERF_SAMPLE_BRANCH_CALL		= 1U << PERF_SAMPLE_BRANCH_CALL_SHIFT,

	PERF_SAMPLE_BRANCH_NO_FLAGS	= 1U << PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT,
	PERF_SAMPLE_BRANCH_NO_CYCLES	= 1U << PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT,

	PERF_SAMPLE_BRANCH_TYPE_SAVE	= 1U << PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT,

	PERF_SAMPLE_BRANCH_HW_INDEX	= 1U << PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT,

	PERF_SAMPLE_BRANCH_PRIV_SAVE	= 1U << PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT,

	PERF_SAMPLE_BRANCH_MAX		= 1U << PERF_SAMPLE_BRANCH_MAX_SHIFT,
};

/* All three privilege levels. */
#define PERF_SAMPLE_BRANCH_PLM_ALL	(PERF_SAMPLE_BRANCH_USER | \
					 PERF_SAMPLE_BRANCH_KERNEL | \
					 PERF_SAMPLE_BRANCH_HV)

/* perf_branch_entry::type - the generic class of a recorded branch. */
enum {
	PERF_BR_UNKNOWN		= 0,	/* could not be classified */
	PERF_BR_COND		= 1,	/* conditional jump */
	PERF_BR_UNCOND		= 2,	/* unconditional jump */
	PERF_BR_IND		= 3,	/* jump through a register/memory */
	PERF_BR_CALL		= 4,	/* direct call */
	PERF_BR_IND_CALL	= 5,	/* call through a register/memory */
	PERF_BR_RET		= 6,	/* return from a call */
	PERF_BR_SYSCALL		= 7,	/* system call entry */
	PERF_BR_SYSRET		= 8,	/* system call exit */
	PERF_BR_COND_CALL	= 9,	/* call taken only if a condition holds */
	PERF_BR_COND_RET	= 10,	/* return taken only if a condition holds */
	PERF_BR_ERET		= 11,	/* return from an exception */
	PERF_BR_IRQ		= 12,	/* interrupt entry */
	PERF_BR_SERROR		= 13,	/* system error exception */
	PERF_BR_NO_TX		= 14,	/* outside of a HW transaction */
	PERF_BR_EXTEND_ABI	= 15,	/* see perf_branch_entry::new_type */
	PERF_BR_MAX,
};

/* perf_branch_entry::spec - what speculation said about the branch. */
enum {
	PERF_BR_SPEC_NA			= 0,	/* unknown */
	PERF_BR_SPEC_WRONG_PATH		= 1,	/* speculated, wrong path */
	PERF_BR_NON_SPEC_CORRECT_PATH	= 2,	/* not speculated, right path */
	PERF_BR_SPEC_CORRECT_PATH	= 3,	/* speculated, right path */
	PERF_BR_SPEC_MAX,
};

/*
 * perf_branch_entry::new_type - further classes, valid when
 * type == PERF_BR_EXTEND_ABI.
 */
enum {
	PERF_BR_NEW_FAULT_ALGN		= 0,	/* misaligned access fault */
	PERF_BR_NEW_FAULT_DATA		= 1,	/* data abort */
	PERF_BR_NEW_FAULT_INST		= 2,	/* instruction abort */
	PERF_BR_NEW_ARCH_1		= 3,	/* meaning defined per arch */
	PERF_BR_NEW_ARCH_2		= 4,	/* meaning defined per arch */
	PERF_BR_NEW_ARCH_3		= 5,	/* meaning defined per arch */
	PERF_BR_NEW_ARCH_4		= 6,	/* meaning defined per arch */
	PERF_BR_NEW_ARCH_5		= 7,	/* meaning defined per arch */
	PERF_BR_NEW_MAX,
};

/* perf_branch_entry::priv - privilege level of the branch target. */
enum {
	PERF_BR_PRIV_UNKNOWN	= 0,
	PERF_BR_PRIV_USER	= 1,
	PERF_BR_PRIV_KERNEL	= 2,
	PERF_BR_PRIV_HV		= 3,
};

/* The arm64 meaning of the per-arch new_type slots. */
#define PERF_BR_ARM64_FIQ		PERF_BR_NEW_ARCH_1
#define PERF_BR_ARM64_DEBUG_HALT	PERF_BR_NEW_ARCH_2
#define PERF_BR_ARM64_DEBUG_EXIT	PERF_BR_NEW_ARCH_3
#define PERF_BR_ARM64_DEBUG_INST	PERF_BR_NEW_ARCH_4
#define PERF_BR_ARM64_DEBUG_DATA	PERF_BR_NEW_ARCH_5

/*
 * The first u64 of a PERF_SAMPLE_REGS_USER / PERF_SAMPLE_REGS_INTR block
 * says how the register words that follow are to be interpreted.
 */
enum perf_sample_regs_abi {
	PERF_SAMPLE_REGS_ABI_NONE	= 0,	/* no registers follow */
	PERF_SAMPLE_REGS_ABI_32		= 1,
	PERF_SAMPLE_REGS_ABI_64		= 2,
};

/*
 * Bits of the PERF_SAMPLE_TRANSACTION word, describing a hardware
 * transactional memory abort.  Several may be set at once; the upper
 * 32 bits carry the abort code supplied by the program.
 */
enum {
	PERF_TXN_ELISION	= (1 << 0), /* lock elision region */
	PERF_TXN_TRANSACTION	= (1 << 1), /* explicit transaction */
	PERF_TXN_SYNC		= (1 << 2), /* caused by the sampled insn */
	PERF_TXN_ASYNC		= (1 << 3), /* not caused by the sampled insn */
	PERF_TXN_RETRY		= (1 << 4), /* retrying may succeed */
	PERF_TXN_CONFLICT	= (1 << 5), /* data conflict with another CPU */
	PERF_TXN_CAPACITY_WRITE	= (1 << 6), /* write set too large */
	PERF_TXN_CAPACITY_READ	= (1 << 7), /* read set too large */

	PERF_TXN_MAX		= (1 << 8), /* not part of the ABI */

	PERF_TXN_ABORT_MASK	= (0xffffffffULL << 32),
	PERF_TXN_ABORT_SHIFT	= 32,
};

/*
 * perf_counter_attr::read_format - selects what read() on a counter fd
 * (and PERF_SAMPLE_READ, PERF_RECORD_READ) returns.  All words are u64;
 * bracketed items are present only when the named flag is set.
 *
 * Without PERF_FORMAT_GROUP, the counter alone:
 *
 *	value
 *	[time_enabled]		TOTAL_TIME_ENABLED
 *	[time_running]		TOTAL_TIME_RUNNING
 *	[id]			ID
 *	[lost]			LOST
 *
 * With PERF_FORMAT_GROUP (read on the group leader), every member:
 *
 *	nr			number of counters in the group
 *	[time_enabled]		TOTAL_TIME_ENABLED
 *	[time_running]		TOTAL_TIME_RUNNING
 *	then nr times, leader first:
 *		value
 *		[id]		ID
 *		[lost]		LOST
 */
enum perf_counter_read_format {
	PERF_FORMAT_TOTAL_TIME_ENABLED		= 1U << 0,
	PERF_FORMAT_TOTAL_TIME_RUNNING		= 1U << 1,
	PERF_FORMAT_ID				= 1U << 2,
	PERF_FORMAT_GROUP			= 1U << 3,
	PERF_FORMAT_LOST			= 1U << 4,

	PERF_FORMAT_MAX = 1U << 5,		/* not part of the ABI */
};

#else /* perf_event.h came first: reuse its definitions */

#define perf_counter_sample_format	perf_event_sample_format
#define perf_counter_read_format	perf_event_read_format

#endif /* __PERF_COUNTER_OWNS_SHARED_DEFS */

/*
 * Known sizes of struct perf_counter_attr.  User space puts the size it
 * was built with into attr.size; the kernel accepts smaller (older)
 * sizes by treating the missing tail as zero, and larger ones as long
 * as the unknown tail is all zeroes.
 */
#define PERF_ATTR_SIZE_VER0	64	/* the original layout */
#define PERF_ATTR_SIZE_VER1	72	/* + config2 */
#define PERF_ATTR_SIZE_VER2	80	/* + branch_sample_type */
#define PERF_ATTR_SIZE_VER3	96	/* + sample_regs_user, sample_stack_user */
#define PERF_ATTR_SIZE_VER4	104	/* + sample_regs_intr */
#define PERF_ATTR_SIZE_VER5	112	/* + aux_watermark */
#define PERF_ATTR_SIZE_VER6	120	/* + aux_sample_size */
#define PERF_ATTR_SIZE_VER7	128	/* + sig_data */

/*
 * struct perf_counter_attr - what to count and how to report it.
 *
 * Passed to sys_perf_event_open() and to PERF_COUNTER_IOC_MODIFY_ATTRIBUTES.
 */
struct perf_counter_attr {
	__u32			type;		/* enum perf_type_id or a PMU's type */
	__u32			size;		/* sizeof() as known to the caller */
	__u64			config;		/* event selector, type specific */

	union {
		__u64		sample_period;	/* sample every N events... */
		__u64		sample_freq;	/* ...or N times a second if freq */
	};

	__u64			sample_type;	/* enum perf_counter_sample_format */
	__u64			read_format;	/* enum perf_counter_read_format */

	__u64			disabled	:  1, /* created stopped */
				inherit		:  1, /* follow into new children */
				pinned		:  1, /* must stay on the PMU */
				exclusive	:  1, /* sole group on the PMU */
				exclude_user	:  1, /* skip user mode */
				exclude_kernel	:  1, /* skip kernel mode */
				exclude_hv	:  1, /* skip the hypervisor */
				exclude_idle	:  1, /* skip the idle task */
				mmap		:  1, /* emit PERF_RECORD_MMAP */
				comm		:  1, /* emit PERF_RECORD_COMM */
				freq		:  1, /* sample_freq is in use */
				inherit_stat	:  1, /* keep per-task totals */
				enable_on_exec	:  1, /* start at the next exec */
				task		:  1, /* emit FORK/EXIT records */
				watermark	:  1, /* wakeup_watermark is in use */
				/*
				 * precise_ip - how far the sampled IP may be
				 * from the instruction that overflowed:
				 * 0: any distance, 1: a fixed distance,
				 * 2: zero requested, 3: zero required.
				 * PERF_RECORD_MISC_EXACT_IP flags exact hits.
				 */
				precise_ip	:  2,
				mmap_data	:  1, /* MMAP records for data too */
				sample_id_all	:  1, /* sample_id on every record */

				exclude_host	:  1, /* skip while in the host */
				exclude_guest	:  1, /* skip while in a guest */

				exclude_callchain_kernel : 1, /* no kernel frames */
				exclude_callchain_user   : 1, /* no user frames */
				mmap2		:  1, /* MMAP2 instead of MMAP */
				comm_exec	:  1, /* mark COMM caused by exec */
				use_clockid	:  1, /* timestamps use clockid */
				context_switch	:  1, /* emit SWITCH records */
				write_backward	:  1, /* ring buffer fills downward */
				namespaces	:  1, /* emit NAMESPACES records */
				ksymbol		:  1, /* emit KSYMBOL records */
				bpf_event	:  1, /* emit BPF_EVENT records */
				aux_output	:  1, /* route output to the AUX area */
				cgroup		:  1, /* emit CGROUP records */
				text_poke	:  1, /* emit TEXT_POKE records */
				build_id	:  1, /* MMAP2 carries a build id */
				inherit_thread	:  1, /* inherit on CLONE_THREAD only */
				remove_on_exec	:  1, /* drop the counter on exec */
				sigtrap		:  1, /* SIGTRAP on every overflow */
				__reserved_1	: 26;

	union {
		__u32		wakeup_events;	  /* wake after N records... */
		__u32		wakeup_watermark; /* ...or after N bytes */
	};

	__u32			bp_type;	/* breakpoint kind */
	union {
		__u64		bp_addr;	/* breakpoint address */
		__u64		kprobe_func;	/* kprobe PMU: symbol name */
		__u64		uprobe_path;	/* uprobe PMU: binary path */
		__u64		config1;	/* more config bits */
	};
	union {
		__u64		bp_len;		/* breakpoint length */
		__u64		kprobe_addr;	/* kprobe PMU: address, no symbol */
		__u64		probe_offset;	/* k/uprobe PMU: offset */
		__u64		config2;	/* yet more config bits */
	};

	__u64			branch_sample_type; /* enum perf_branch_sample_type */

	/* Bitmask of user registers saved by PERF_SAMPLE_REGS_USER (arch defined). */
	__u64			sample_regs_user;

	/* Bytes of user stack copied by PERF_SAMPLE_STACK_USER. */
	__u32			sample_stack_user;

	__s32			clockid;	/* clock used when use_clockid */

	/*
	 * Bitmask of registers saved by PERF_SAMPLE_REGS_INTR, taken at the
	 * PMU interrupt (precise_ip == 0) or at the sampled instruction.
	 */
	__u64			sample_regs_intr;

	__u32			aux_watermark;	  /* AUX bytes before wakeup */
	__u16			sample_max_stack; /* callchain depth limit */
	__u16			__reserved_2;
	__u32			aux_sample_size;  /* AUX bytes per sample */
	__u32			__reserved_3;

	/*
	 * Cookie delivered in siginfo (si_perf_data) with the sigtrap
	 * signal; only the low 32 bits survive on 32-bit kernels.
	 */
	__u64			sig_data;
};

/*
 * Argument of PERF_COUNTER_IOC_QUERY_BPF: lists the BPF programs that
 * are attached to the same tracepoint as the counter.
 */
struct perf_counter_query_bpf {
	__u32	ids_len;	/* in: room in ids[] */
	__u32	prog_cnt;	/* out: number of programs attached */
	__u32	ids[];		/* out: program ids */
};

/*
 * ioctl() commands on a counter file descriptor.  The numbers are
 * those of the perf_event ioctls.
 */
#define PERF_COUNTER_IOC_ENABLE			_IO('$', 0)
#define PERF_COUNTER_IOC_DISABLE		_IO('$', 1)
#define PERF_COUNTER_IOC_REFRESH		_IO('$', 2)
#define PERF_COUNTER_IOC_RESET			_IO('$', 3)
#define PERF_COUNTER_IOC_PERIOD			_IOW('$', 4, __u64)
#define PERF_COUNTER_IOC_SET_OUTPUT		_IO('$', 5)
#define PERF_COUNTER_IOC_SET_FILTER		_IOW('$', 6, char *)
#define PERF_COUNTER_IOC_ID			_IOR('$', 7, __u64 *)
#define PERF_COUNTER_IOC_SET_BPF		_IOW('$', 8, __u32)
#define PERF_COUNTER_IOC_PAUSE_OUTPUT		_IOW('$', 9, __u32)
#define PERF_COUNTER_IOC_QUERY_BPF		_IOWR('$', 10, struct perf_counter_query_bpf *)
#define PERF_COUNTER_IOC_MODIFY_ATTRIBUTES	_IOW('$', 11, struct perf_counter_attr *)

/*
 * CLOCK_PERF: the clock samples are stamped with (PERF_SAMPLE_TIME and
 * sample_id time, without attr.use_clockid), read with clock_gettime()
 * so that user space can map record times to other clocks.  Ids 12-15
 * are below MAX_CLOCKS and given to no clock by Linux 6.1 (nor since):
 * a kernel without this subsystem answers EINVAL, never another
 * clock's time.  Read-only: no timers, no sleeps, no settime.
 */
#define CLOCK_PERF				12

#if __PERF_COUNTER_OWNS_SHARED_DEFS
/* Argument flag for ENABLE/DISABLE/RESET/REFRESH: act on the whole group. */
enum perf_counter_ioc_flags {
	PERF_IOC_FLAG_GROUP		= 1U << 0,
};
#else
#define perf_counter_ioc_flags		perf_event_ioc_flags
#endif

/*
 * struct perf_counter_mmap_page - first page of the mmap()ed buffer.
 *
 * Self-monitoring tasks can read a counter without a syscall, using
 * @lock as a sequence count:
 *
 *	do {
 *		seq = pg->lock; rmb();
 *		enabled = pg->time_enabled; running = pg->time_running;
 *		idx = pg->index; count = pg->offset;
 *		if (pg->cap_user_rdpmc && idx)
 *			count += sign_extend(rdpmc(idx - 1), pg->pmc_width);
 *		(optionally the time_* extrapolation described below)
 *		rmb();
 *	} while (pg->lock != seq);
 *
 * The ring buffer proper starts one page later (or at @data_offset).
 */
struct perf_counter_mmap_page {
	__u32	version;		/* layout version of this page */
	__u32	compat_version;		/* oldest version it is compatible with */

	__u32	lock;			/* sequence count guarding the fields below */
	__u32	index;			/* hw counter number + 1, 0 when not on a PMU */
	__s64	offset;			/* add to the raw hw counter value */
	__u64	time_enabled;		/* ns the counter was enabled */
	__u64	time_running;		/* ns the counter was on the PMU */
	union {
		__u64	capabilities;
		struct {
			__u64	cap_bit0		: 1, /* obsolete, always 0 */
				cap_bit0_is_deprecated	: 1, /* always 1 */

				cap_user_rdpmc		: 1, /* rdpmc usable */
				cap_user_time		: 1, /* time_{shift,mult,offset} */
				cap_user_time_zero	: 1, /* time_zero */
				cap_user_time_short	: 1, /* time_{cycles,mask} */
				cap_____res		: 58;
		};
	};

	/* Width in bits of the value rdpmc returns, for sign extension. */
	__u16	pmc_width;

	/*
	 * With cap_user_time, the ns elapsed since time_enabled was last
	 * updated follow from a cycle count cyc (e.g. the TSC):
	 *
	 *	delta = time_offset + (cyc >> time_shift) * time_mult +
	 *		(((cyc & ((1 << time_shift) - 1)) * time_mult) >> time_shift)
	 *
	 * delta is added to time_enabled, and to time_running if index != 0.
	 */
	__u16	time_shift;
	__u32	time_mult;
	__u64	time_offset;

	/*
	 * With cap_user_time_zero, sample timestamps and the cycle counter
	 * convert into each other:
	 *
	 *	timestamp = time_zero + scaled(cyc)	(as for delta above)
	 *	cyc = ((t / time_mult) << time_shift) +
	 *	      ((t % time_mult) << time_shift) / time_mult,
	 *	with t = timestamp - time_zero
	 */
	__u64	time_zero;

	__u32	size;			/* bytes in use before __reserved[] */
	__u32	__reserved_1;

	/*
	 * With cap_user_time_short, the cycle counter has fewer than 64
	 * bits; expand a raw reading first:
	 *
	 *	cyc = time_cycles + ((cyc - time_cycles) & time_mask)
	 */
	__u64	time_cycles;
	__u64	time_mask;

	/* Room for future self-monitoring fields; pads the page head to 1 KiB. */
	__u8	__reserved[116 * 8];

	/*
	 * Ring buffer control (offset 1024).
	 *
	 * data_head is advanced by the kernel; read it, then issue a read
	 * barrier before reading the records it covers.  If the buffer was
	 * mapped writable, user space stores data_tail (after a full
	 * barrier) to hand consumed space back; the kernel then never
	 * overwrites unread records.  data_offset/data_size locate the
	 * record area inside the mapping.
	 */
	__u64	data_head;		/* kernel write position */
	__u64	data_tail;		/* user read position */
	__u64	data_offset;		/* start of the record area */
	__u64	data_size;		/* length of the record area */

	/*
	 * AUX area.  User space fills in aux_offset (at or beyond
	 * data_offset + data_size) and aux_size before mapping it with a
	 * second mmap() of aux_size bytes.  aux_head/aux_tail behave like
	 * data_head/data_tail.
	 */
	__u64	aux_head;
	__u64	aux_tail;
	__u64	aux_offset;
	__u64	aux_size;
};

/*
 * struct perf_counter_header - prefix of every record in the ring buffer.
 * @size covers the header itself plus the payload.
 */
struct perf_counter_header {
	__u32	type;			/* enum perf_counter_type */
	__u16	misc;			/* PERF_RECORD_MISC_* */
	__u16	size;
};

#if __PERF_COUNTER_OWNS_SHARED_DEFS

/*
 * perf_counter_header::misc
 *
 * Bits 0-2 hold the CPU mode the record refers to.  Bit 12 flags a
 * synthesized MMAP stream cut short by a timeout.  Bits 13 and 14 mean
 * different things depending on the record type, and bit 15 is kept
 * back for a future extension of the field.
 */
#define PERF_RECORD_MISC_CPUMODE_MASK		(7 << 0)
#define PERF_RECORD_MISC_CPUMODE_UNKNOWN	(0 << 0)
#define PERF_RECORD_MISC_KERNEL			(1 << 0)
#define PERF_RECORD_MISC_USER			(2 << 0)
#define PERF_RECORD_MISC_HYPERVISOR		(3 << 0)
#define PERF_RECORD_MISC_GUEST_KERNEL		(4 << 0)
#define PERF_RECORD_MISC_GUEST_USER		(5 << 0)

/* /proc/PID/maps walk hit its time limit; the MMAP list is incomplete. */
#define PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT	(1 << 12)

/* Bit 13 */
#define PERF_RECORD_MISC_MMAP_DATA		(1 << 13) /* MMAP*: not executable */
#define PERF_RECORD_MISC_COMM_EXEC		(1 << 13) /* COMM: due to exec */
#define PERF_RECORD_MISC_FORK_EXEC		(1 << 13) /* FORK: tool-internal use */
#define PERF_RECORD_MISC_SWITCH_OUT		(1 << 13) /* SWITCH*: task leaves */

/* Bit 14 */
#define PERF_RECORD_MISC_EXACT_IP		(1 << 14) /* SAMPLE: IP has no skid */
#define PERF_RECORD_MISC_SWITCH_OUT_PREEMPT	(1 << 14) /* SWITCH*: preempted */
#define PERF_RECORD_MISC_MMAP_BUILD_ID		(1 << 14) /* MMAP2: has a build id */

/* Bit 15 */
#define PERF_RECORD_MISC_EXT_RESERVED		(1 << 15)

/* One namespace as reported by PERF_RECORD_NAMESPACES. */
struct perf_ns_link_info {
	__u64	dev;
	__u64	ino;
};

/* Slot of each namespace in the PERF_RECORD_NAMESPACES array. */
enum {
	NET_NS_INDEX		= 0,
	UTS_NS_INDEX		= 1,
	IPC_NS_INDEX		= 2,
	PID_NS_INDEX		= 3,
	USER_NS_INDEX		= 4,
	MNT_NS_INDEX		= 5,
	CGROUP_NS_INDEX		= 6,

	NR_NAMESPACES,		/* how many slots there are */
};

/*
 * perf_counter_header::type - the records found in the ring buffer.
 *
 * Each record starts with struct perf_counter_header.  Types are listed
 * with their payload in order; u8/u16/u32/u64 are native-endian
 * integers, "string" is a NUL terminated string zero-padded so the
 * record length stays a multiple of 8.
 *
 * sample_id: when attr.sample_id_all is set, every record type other
 * than SAMPLE ends with the identity fields selected in attr.sample_type,
 * in this order (note that IDENTIFIER comes last here so that it is
 * found at a fixed distance from the end of the record):
 *
 *	pid, tid: u32		PERF_SAMPLE_TID
 *	time: u64		PERF_SAMPLE_TIME
 *	id: u64			PERF_SAMPLE_ID
 *	stream_id: u64		PERF_SAMPLE_STREAM_ID
 *	cpu, res: u32		PERF_SAMPLE_CPU
 *	id: u64			PERF_SAMPLE_IDENTIFIER
 */
enum perf_counter_type {
	/*
	 * An executable mapping appeared.
	 * pid, tid: u32; addr, len, pgoff: u64; filename: string;
	 * then sample_id.
	 */
	PERF_RECORD_MMAP			= 1,

	/*
	 * Records were dropped because the buffer was full.
	 * id, lost: u64 (counter id, number of records dropped);
	 * then sample_id.
	 */
	PERF_RECORD_LOST			= 2,

	/*
	 * A task changed its name (misc COMM_EXEC: because of exec).
	 * pid, tid: u32; comm: string; then sample_id.
	 */
	PERF_RECORD_COMM			= 3,

	/*
	 * A task exited.
	 * pid, ppid, tid, ptid: u32; time: u64; then sample_id.
	 */
	PERF_RECORD_EXIT			= 4,

	/*
	 * Sampling was throttled / resumed because of the interrupt rate.
	 * time, id, stream_id: u64; then sample_id.  Same layout for both.
	 */
	PERF_RECORD_THROTTLE			= 5,
	PERF_RECORD_UNTHROTTLE			= 6,

	/*
	 * A task was created.
	 * pid, ppid, tid, ptid: u32; time: u64; then sample_id.
	 */
	PERF_RECORD_FORK			= 7,

	/*
	 * Counter value of an inherited counter at task exit
	 * (attr.inherit_stat).
	 * pid, tid: u32; values: read_format layout; then sample_id.
	 */
	PERF_RECORD_READ			= 8,

	/*
	 * A sample.  Fields appear in this order, each only when its
	 * PERF_SAMPLE_* bit is set in attr.sample_type (the output order
	 * is not the bit order):
	 *
	 *	id: u64			IDENTIFIER (always first, so the
	 *				counter is found at a fixed offset)
	 *	ip: u64			IP
	 *	pid, tid: u32		TID
	 *	time: u64		TIME
	 *	addr: u64		ADDR
	 *	id: u64			ID
	 *	stream_id: u64		STREAM_ID
	 *	cpu, res: u32		CPU
	 *	period: u64		PERIOD
	 *	values: read_format	READ
	 *	nr: u64, ips: u64[nr]	CALLCHAIN (PERF_CONTEXT_* markers
	 *				separate the contexts)
	 *	size: u32, data: u8[size]
	 *				RAW (contents are not ABI; size is
	 *				such that the record stays 8-aligned)
	 *	nr: u64, [hw_idx: u64], entries: perf_branch_entry[nr]
	 *				BRANCH_STACK (hw_idx only with
	 *				PERF_SAMPLE_BRANCH_HW_INDEX)
	 *	abi: u64, regs: u64[hweight(attr.sample_regs_user)]
	 *				REGS_USER (no regs if abi is NONE)
	 *	size: u64, data: u8[size], dyn_size: u64
	 *				STACK_USER (dyn_size only when
	 *				size != 0; it tells how much of
	 *				data is valid)
	 *	weight: u64		WEIGHT, or union perf_sample_weight
	 *				with WEIGHT_STRUCT
	 *	data_src: u64		DATA_SRC (union perf_mem_data_src)
	 *	transaction: u64	TRANSACTION (PERF_TXN_* bits)
	 *	abi: u64, regs: u64[hweight(attr.sample_regs_intr)]
	 *				REGS_INTR
	 *	phys_addr: u64		PHYS_ADDR
	 *	cgroup: u64		CGROUP (cgroup id)
	 *	data_page_size: u64	DATA_PAGE_SIZE
	 *	code_page_size: u64	CODE_PAGE_SIZE
	 *	size: u64, data: u8[size]
	 *				AUX
	 */
	PERF_RECORD_SAMPLE			= 9,

	/*
	 * Extended MMAP (attr.mmap2).
	 * pid, tid: u32; addr, len, pgoff: u64;
	 * then either (misc MMAP_BUILD_ID clear)
	 *	maj, min: u32; ino, ino_generation: u64
	 * or (misc MMAP_BUILD_ID set; same 24 bytes)
	 *	build_id_size: u8; pad: u8; pad: u16; build_id: u8[20];
	 * prot, flags: u32; filename: string; then sample_id.
	 */
	PERF_RECORD_MMAP2			= 10,

	/*
	 * New data was written to the AUX area.
	 * aux_offset, aux_size: u64; flags: u64 (PERF_AUX_FLAG_*);
	 * then sample_id.
	 */
	PERF_RECORD_AUX				= 11,

	/*
	 * Instruction tracing started for a task.
	 * pid, tid: u32; then sample_id.
	 */
	PERF_RECORD_ITRACE_START		= 12,

	/*
	 * Samples the PMU could not deliver.
	 * lost: u64; then sample_id.
	 */
	PERF_RECORD_LOST_SAMPLES		= 13,

	/*
	 * The monitored task was scheduled in, or out if misc has
	 * SWITCH_OUT (SWITCH_OUT_PREEMPT: while still runnable).
	 * No payload; just sample_id.
	 */
	PERF_RECORD_SWITCH			= 14,

	/*
	 * The same for per-CPU counters, naming the other task: the one
	 * coming in when switching out, the one going out when switching
	 * in.
	 * next_prev_pid, next_prev_tid: u32; then sample_id.
	 */
	PERF_RECORD_SWITCH_CPU_WIDE		= 15,

	/*
	 * The namespaces of a task.
	 * pid, tid: u32; nr_namespaces: u64;
	 * then nr_namespaces times struct perf_ns_link_info (dev, ino: u64),
	 * indexed by *_NS_INDEX; then sample_id.
	 */
	PERF_RECORD_NAMESPACES			= 16,

	/*
	 * A kernel symbol was added or removed (flags:
	 * PERF_RECORD_KSYMBOL_FLAGS_*).
	 * addr: u64; len: u32; ksym_type: u16 (PERF_RECORD_KSYMBOL_TYPE_*);
	 * flags: u16; name: string; then sample_id.
	 */
	PERF_RECORD_KSYMBOL			= 17,

	/*
	 * A BPF program was loaded or unloaded.
	 * type: u16 (PERF_BPF_EVENT_*); flags: u16; id: u32;
	 * tag: u8[8] (BPF_TAG_SIZE); then sample_id.
	 */
	PERF_RECORD_BPF_EVENT			= 18,

	/*
	 * A cgroup was created; maps its id to its path.
	 * id: u64; path: string; then sample_id.
	 */
	PERF_RECORD_CGROUP			= 19,

	/*
	 * Kernel text was rewritten in place.  Either length may be zero
	 * (code inserted or removed).
	 * addr: u64; old_len, new_len: u16;
	 * bytes: u8[old_len + new_len] (old bytes, then new bytes),
	 * zero-padded to 8; then sample_id.
	 */
	PERF_RECORD_TEXT_POKE			= 20,

	/*
	 * Hardware id used in AUX data written because of aux_output, so
	 * that the AUX stream can be tied back to a counter (the counter
	 * itself is identified by sample_id).
	 * hw_id: u64; then sample_id.
	 */
	PERF_RECORD_AUX_OUTPUT_HW_ID		= 21,

	PERF_RECORD_MAX,			/* not part of the ABI */
};

/* PERF_RECORD_KSYMBOL::ksym_type */
enum perf_record_ksymbol_type {
	PERF_RECORD_KSYMBOL_TYPE_UNKNOWN	= 0,
	PERF_RECORD_KSYMBOL_TYPE_BPF		= 1,
	/* Code living outside any symbol: trampolines, optimized kprobes, ... */
	PERF_RECORD_KSYMBOL_TYPE_OOL		= 2,
	PERF_RECORD_KSYMBOL_TYPE_MAX		/* not part of the ABI */
};

/* PERF_RECORD_KSYMBOL::flags */
#define PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER	(1 << 0)

/* PERF_RECORD_BPF_EVENT::type */
enum perf_bpf_event_type {
	PERF_BPF_EVENT_UNKNOWN		= 0,
	PERF_BPF_EVENT_PROG_LOAD	= 1,
	PERF_BPF_EVENT_PROG_UNLOAD	= 2,
	PERF_BPF_EVENT_MAX,		/* not part of the ABI */
};

/* Callchain limits: frames per chain, context markers per chain. */
#define PERF_MAX_STACK_DEPTH		127
#define PERF_MAX_CONTEXTS_PER_STACK	  8

/*
 * Markers inside a PERF_SAMPLE_CALLCHAIN: an ips[] entry with one of
 * these values says that the entries after it belong to that context.
 * They are all in the last page of the address space, which never
 * holds code.
 */
enum perf_callchain_context {
	PERF_CONTEXT_HV			= (__u64)-32,
	PERF_CONTEXT_KERNEL		= (__u64)-128,
	PERF_CONTEXT_USER		= (__u64)-512,

	PERF_CONTEXT_GUEST		= (__u64)-2048,
	PERF_CONTEXT_GUEST_KERNEL	= (__u64)-2176,
	PERF_CONTEXT_GUEST_USER		= (__u64)-2560,

	PERF_CONTEXT_MAX		= (__u64)-4095,
};

/* PERF_RECORD_AUX::flags */
#define PERF_AUX_FLAG_TRUNCATED			0x01	/* data was cut short */
#define PERF_AUX_FLAG_OVERWRITE			0x02	/* snapshot (overwrite) mode */
#define PERF_AUX_FLAG_PARTIAL			0x04	/* data has holes */
#define PERF_AUX_FLAG_COLLISION			0x08	/* overlapped another sample */
#define PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK	0xff00	/* PMU specific data format */

/* Values inside PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK for CoreSight. */
#define PERF_AUX_FLAG_CORESIGHT_FORMAT_CORESIGHT	0x0000 /* classic, the default */
#define PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW		0x0100 /* raw source data */

/* flags argument of sys_perf_event_open() */
#define PERF_FLAG_FD_NO_GROUP		(1UL << 0) /* group_fd is ignored */
#define PERF_FLAG_FD_OUTPUT		(1UL << 1) /* send output to group_fd */
#define PERF_FLAG_PID_CGROUP		(1UL << 2) /* pid is a cgroup fd (per-CPU only) */
#define PERF_FLAG_FD_CLOEXEC		(1UL << 3) /* open with O_CLOEXEC */

/*
 * union perf_mem_data_src - PERF_SAMPLE_DATA_SRC word: where a sampled
 * memory access was satisfied.  The bit positions are fixed (see the
 * PERF_MEM_*_SHIFT values); only the C declaration order flips with
 * the bitfield endianness.
 */
#if defined(__LITTLE_ENDIAN_BITFIELD)
union perf_mem_data_src {
	__u64	val;
	struct {
		__u64	mem_op:5,	/* PERF_MEM_OP_* */
			mem_lvl:14,	/* PERF_MEM_LVL_* */
			mem_snoop:5,	/* PERF_MEM_SNOOP_* */
			mem_lock:2,	/* PERF_MEM_LOCK_* */
			mem_dtlb:7,	/* PERF_MEM_TLB_* */
			mem_lvl_num:4,	/* PERF_MEM_LVLNUM_* */
			mem_remote:1,	/* PERF_MEM_REMOTE_* */
			mem_snoopx:2,	/* PERF_MEM_SNOOPX_* */
			mem_blk:3,	/* PERF_MEM_BLK_* */
			mem_hops:3,	/* PERF_MEM_HOPS_* */
			mem_rsvd:18;
	};
};
#elif defined(__BIG_ENDIAN_BITFIELD)
union perf_mem_data_src {
	__u64	val;
	struct {
		__u64	mem_rsvd:18,
			mem_hops:3,	/* PERF_MEM_HOPS_* */
			mem_blk:3,	/* PERF_MEM_BLK_* */
			mem_snoopx:2,	/* PERF_MEM_SNOOPX_* */
			mem_remote:1,	/* PERF_MEM_REMOTE_* */
			mem_lvl_num:4,	/* PERF_MEM_LVLNUM_* */
			mem_dtlb:7,	/* PERF_MEM_TLB_* */
			mem_lock:2,	/* PERF_MEM_LOCK_* */
			mem_snoop:5,	/* PERF_MEM_SNOOP_* */
			mem_lvl:14,	/* PERF_MEM_LVL_* */
			mem_op:5;	/* PERF_MEM_OP_* */
	};
};
#else
#error "perf_counter.h: bitfield endianness not defined by asm/byteorder.h"
#endif

/* mem_op: kind of access */
#define PERF_MEM_OP_NA		0x01	/* unknown */
#define PERF_MEM_OP_LOAD	0x02
#define PERF_MEM_OP_STORE	0x04
#define PERF_MEM_OP_PFETCH	0x08	/* prefetch */
#define PERF_MEM_OP_EXEC	0x10	/* instruction fetch */
#define PERF_MEM_OP_SHIFT	0

/*
 * mem_lvl: level that served the access, plus HIT/MISS.  Kept for
 * existing users; new code should describe the level with mem_lvl_num,
 * mem_remote and mem_snoopx instead.
 */
#define PERF_MEM_LVL_NA		0x01	/* unknown */
#define PERF_MEM_LVL_HIT	0x02
#define PERF_MEM_LVL_MISS	0x04
#define PERF_MEM_LVL_L1		0x08
#define PERF_MEM_LVL_LFB	0x10	/* line fill buffer */
#define PERF_MEM_LVL_L2		0x20
#define PERF_MEM_LVL_L3		0x40
#define PERF_MEM_LVL_LOC_RAM	0x80	/* DRAM on the local node */
#define PERF_MEM_LVL_REM_RAM1	0x100	/* DRAM one hop away */
#define PERF_MEM_LVL_REM_RAM2	0x200	/* DRAM two hops away */
#define PERF_MEM_LVL_REM_CCE1	0x400	/* remote cache, one hop */
#define PERF_MEM_LVL_REM_CCE2	0x800	/* remote cache, two hops */
#define PERF_MEM_LVL_IO		0x1000	/* I/O memory */
#define PERF_MEM_LVL_UNC	0x2000	/* uncached */
#define PERF_MEM_LVL_SHIFT	5

/* mem_remote */
#define PERF_MEM_REMOTE_REMOTE	0x01	/* served by another node */
#define PERF_MEM_REMOTE_SHIFT	37

/* mem_lvl_num: level number (values 0x05..0x08 are unassigned) */
#define PERF_MEM_LVLNUM_L1	0x01
#define PERF_MEM_LVLNUM_L2	0x02
#define PERF_MEM_LVLNUM_L3	0x03
#define PERF_MEM_LVLNUM_L4	0x04
#define PERF_MEM_LVLNUM_CXL	0x09	/* CXL attached memory */
#define PERF_MEM_LVLNUM_IO	0x0a	/* I/O */
#define PERF_MEM_LVLNUM_ANY_CACHE 0x0b	/* some cache level */
#define PERF_MEM_LVLNUM_LFB	0x0c	/* line fill buffer */
#define PERF_MEM_LVLNUM_RAM	0x0d	/* DRAM */
#define PERF_MEM_LVLNUM_PMEM	0x0e	/* persistent memory */
#define PERF_MEM_LVLNUM_NA	0x0f	/* unknown */

#define PERF_MEM_LVLNUM_SHIFT	33

/* mem_snoop: coherency snoop result */
#define PERF_MEM_SNOOP_NA	0x01	/* unknown */
#define PERF_MEM_SNOOP_NONE	0x02	/* no snoop needed */
#define PERF_MEM_SNOOP_HIT	0x04
#define PERF_MEM_SNOOP_MISS	0x08
#define PERF_MEM_SNOOP_HITM	0x10	/* hit a modified line */
#define PERF_MEM_SNOOP_SHIFT	19

/* mem_snoopx: snoop result, extension */
#define PERF_MEM_SNOOPX_FWD	0x01	/* data forwarded */
#define PERF_MEM_SNOOPX_PEER	0x02	/* data from a peer cache */
#define PERF_MEM_SNOOPX_SHIFT	38

/* mem_lock: atomic (locked) access */
#define PERF_MEM_LOCK_NA	0x01	/* unknown */
#define PERF_MEM_LOCK_LOCKED	0x02	/* part of a locked operation */
#define PERF_MEM_LOCK_SHIFT	24

/* mem_dtlb: data TLB outcome */
#define PERF_MEM_TLB_NA		0x01	/* unknown */
#define PERF_MEM_TLB_HIT	0x02
#define PERF_MEM_TLB_MISS	0x04
#define PERF_MEM_TLB_L1		0x08
#define PERF_MEM_TLB_L2		0x10
#define PERF_MEM_TLB_WK		0x20	/* hardware page walk */
#define PERF_MEM_TLB_OS		0x40	/* software (OS) handler */
#define PERF_MEM_TLB_SHIFT	26

/* mem_blk: why the access was held up */
#define PERF_MEM_BLK_NA		0x01	/* unknown */
#define PERF_MEM_BLK_DATA	0x02	/* data not forwardable */
#define PERF_MEM_BLK_ADDR	0x04	/* address conflict */
#define PERF_MEM_BLK_SHIFT	40

/* mem_hops: distance to the data (values 5..7 are unassigned) */
#define PERF_MEM_HOPS_0		0x01	/* other core, same node */
#define PERF_MEM_HOPS_1		0x02	/* other node, same socket */
#define PERF_MEM_HOPS_2		0x03	/* other socket, same board */
#define PERF_MEM_HOPS_3		0x04	/* other board */
#define PERF_MEM_HOPS_SHIFT	43

/* Place value PERF_MEM_<a>_<s> into its field: PERF_MEM_S(LVL, HIT). */
#define PERF_MEM_S(a, s) \
	(((__u64)PERF_MEM_##a##_##s) << PERF_MEM_##a##_SHIFT)

/*
 * struct perf_branch_entry - one taken branch in a PERF_SAMPLE_BRANCH_STACK.
 *
 * @from is the address of the instruction that branched (on some CPUs
 * not necessarily a branch instruction), @to the target.  Flags the
 * hardware cannot provide read as zero; in particular mispred and
 * predicted are both 0 when prediction is not reported.
 */
struct perf_branch_entry {
	__u64	from;
	__u64	to;
	__u64	mispred:1,	/* target was mispredicted */
		predicted:1,	/* target was predicted */
		in_tx:1,	/* inside a HW transaction */
		abort:1,	/* HW transaction aborted */
		cycles:16,	/* cycles since the previous entry, 0 if unknown */
		type:4,		/* PERF_BR_* */
		spec:2,		/* PERF_BR_SPEC_* etc. */
		new_type:4,	/* PERF_BR_NEW_* when type == PERF_BR_EXTEND_ABI */
		priv:3,		/* PERF_BR_PRIV_* */
		reserved:31;
};

/*
 * union perf_sample_weight - the weight word of a sample.  With
 * PERF_SAMPLE_WEIGHT it is a single u64; with PERF_SAMPLE_WEIGHT_STRUCT
 * it is split into three PMU defined parts (the low 32 bits are
 * var1_dw on either endianness).
 */
union perf_sample_weight {
	__u64		full;
#if defined(__LITTLE_ENDIAN_BITFIELD)
	struct {
		__u32	var1_dw;
		__u16	var2_w;
		__u16	var3_w;
	};
#elif defined(__BIG_ENDIAN_BITFIELD)
	struct {
		__u16	var3_w;
		__u16	var2_w;
		__u32	var1_dw;
	};
#else
#error "perf_counter.h: bitfield endianness not defined by asm/byteorder.h"
#endif
};

#else /* perf_event.h came first: reuse its definitions */

#define perf_counter_type		perf_event_type

#endif /* __PERF_COUNTER_OWNS_SHARED_DEFS */

#endif /* _UAPI_LINUX_PERF_COUNTER_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * X-macro list of everything abi-compat.c compares between our
 * <linux/perf_counter.h> and the system's <linux/perf_event.h>.
 *
 * No include guard: the file is meant to be included several times,
 * each time with some of these macros defined to produce something
 * different (see abi.h, abi-ours.c and abi-sys.c); the ones left
 * undefined expand to nothing.  @kind is struct or union.
 *
 *   T(kind, ours, sys)		a type: sizeof and alignof
 *   F(kind, ours, sys, field)	a member: offsetof, sizeof, signedness
 *   A(kind, ours, sys, field)	an array member: offsetof, sizeof,
 *				signedness of its elements
 *   O(kind, ours, sys, field)	a flexible array member: offsetof only
 *   B(kind, ours, sys, field)	a bitfield: position, width, signedness
 *   C(name)			a constant spelled the same on both sides
 *   C2(ours, sys)		a constant whose name differs
 *
 * All of them are #undef'ed at the end of this file.
 */
#ifndef T
#define T	ABI_SKIP
#endif
#ifndef F
#define F	ABI_SKIP
#endif
#ifndef A
#define A	ABI_SKIP
#endif
#ifndef O
#define O	ABI_SKIP
#endif
#ifndef B
#define B	ABI_SKIP
#endif
#ifndef C
#define C	ABI_SKIP
#endif
#ifndef C2
#define C2	ABI_SKIP
#endif

/* struct perf_counter_attr */
T(struct, perf_counter_attr, perf_event_attr)
F(struct, perf_counter_attr, perf_event_attr, type)
F(struct, perf_counter_attr, perf_event_attr, size)
F(struct, perf_counter_attr, perf_event_attr, config)
F(struct, perf_counter_attr, perf_event_attr, sample_period)
F(struct, perf_counter_attr, perf_event_attr, sample_freq)
F(struct, perf_counter_attr, perf_event_attr, sample_type)
F(struct, perf_counter_attr, perf_event_attr, read_format)
B(struct, perf_counter_attr, perf_event_attr, disabled)
B(struct, perf_counter_attr, perf_event_attr, inherit)
B(struct, perf_counter_attr, perf_event_attr, pinned)
B(struct, perf_counter_attr, perf_event_attr, exclusive)
B(struct, perf_counter_attr, perf_event_attr, exclude_user)
B(struct, perf_counter_attr, perf_event_attr, exclude_kernel)
B(struct, perf_counter_attr, perf_event_attr, exclude_hv)
B(struct, perf_counter_attr, perf_event_attr, exclude_idle)
B(struct, perf_counter_attr, perf_event_attr, mmap)
B(struct, perf_counter_attr, perf_event_attr, comm)
B(struct, perf_counter_attr, perf_event_attr, freq)
B(struct, perf_counter_attr, perf_event_attr, inherit_stat)
B(struct, perf_counter_attr, perf_event_attr, enable_on_exec)
B(struct, perf_counter_attr, perf_event_attr, task)
B(struct, perf_counter_attr, perf_event_attr, watermark)
B(struct, perf_counter_attr, perf_event_attr, precise_ip)
B(struct, perf_counter_attr, perf_event_attr, mmap_data)
B(struct, perf_counter_attr, perf_event_attr, sample_id_all)
B(struct, perf_counter_attr, perf_event_attr, exclude_host)
B(struct, perf_counter_attr, perf_event_attr, exclude_guest)
B(struct, perf_counter_attr, perf_event_attr, exclude_callchain_kernel)
B(struct, perf_counter_attr, perf_event_attr, exclude_callchain_user)
B(struct, perf_counter_attr, perf_event_attr, mmap2)
B(struct, perf_counter_attr, perf_event_attr, comm_exec)
B(struct, perf_counter_attr, perf_event_attr, use_clockid)
B(struct, perf_counter_attr, perf_event_attr, context_switch)
B(struct, perf_counter_attr, perf_event_attr, write_backward)
B(struct, perf_counter_attr, perf_event_attr, namespaces)
B(struct, perf_counter_attr, perf_event_attr, ksymbol)
B(struct, perf_counter_attr, perf_event_attr, bpf_event)
B(struct, perf_counter_attr, perf_event_attr, aux_output)
B(struct, perf_counter_attr, perf_event_attr, cgroup)
B(struct, perf_counter_attr, perf_event_attr, text_poke)
B(struct, perf_counter_attr, perf_event_attr, build_id)
B(struct, perf_counter_attr, perf_event_attr, inherit_thread)
B(struct, perf_counter_attr, perf_event_attr, remove_on_exec)
B(struct, perf_counter_attr, perf_event_attr, sigtrap)
B(struct, perf_counter_attr, perf_event_attr, __reserved_1)
F(struct, perf_counter_attr, perf_event_attr, wakeup_events)
F(struct, perf_counter_attr, perf_event_attr, wakeup_watermark)
F(struct, perf_counter_attr, perf_event_attr, bp_type)
F(struct, perf_counter_attr, perf_event_attr, bp_addr)
F(struct, perf_counter_attr, perf_event_attr, kprobe_func)
F(struct, perf_counter_attr, perf_event_attr, uprobe_path)
F(struct, perf_counter_attr, perf_event_attr, config1)
F(struct, perf_counter_attr, perf_event_attr, bp_len)
F(struct, perf_counter_attr, perf_event_attr, kprobe_addr)
F(struct, perf_counter_attr, perf_event_attr, probe_offset)
F(struct, perf_counter_attr, perf_event_attr, config2)
F(struct, perf_counter_attr, perf_event_attr, branch_sample_type)
F(struct, perf_counter_attr, perf_event_attr, sample_regs_user)
F(struct, perf_counter_attr, perf_event_attr, sample_stack_user)
F(struct, perf_counter_attr, perf_event_attr, clockid)
F(struct, perf_counter_attr, perf_event_attr, sample_regs_intr)
F(struct, perf_counter_attr, perf_event_attr, aux_watermark)
F(struct, perf_counter_attr, perf_event_attr, sample_max_stack)
F(struct, perf_counter_attr, perf_event_attr, __reserved_2)
F(struct, perf_counter_attr, perf_event_attr, aux_sample_size)
F(struct, perf_counter_attr, perf_event_attr, __reserved_3)
F(struct, perf_counter_attr, perf_event_attr, sig_data)

/* struct perf_counter_query_bpf (argument of PERF_COUNTER_IOC_QUERY_BPF) */
T(struct, perf_counter_query_bpf, perf_event_query_bpf)
F(struct, perf_counter_query_bpf, perf_event_query_bpf, ids_len)
F(struct, perf_counter_query_bpf, perf_event_query_bpf, prog_cnt)
O(struct, perf_counter_query_bpf, perf_event_query_bpf, ids)

/* struct perf_counter_mmap_page */
T(struct, perf_counter_mmap_page, perf_event_mmap_page)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, version)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, compat_version)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, lock)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, index)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, offset)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, time_enabled)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, time_running)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, capabilities)
B(struct, perf_counter_mmap_page, perf_event_mmap_page, cap_bit0)
B(struct, perf_counter_mmap_page, perf_event_mmap_page, cap_bit0_is_deprecated)
B(struct, perf_counter_mmap_page, perf_event_mmap_page, cap_user_rdpmc)
B(struct, perf_counter_mmap_page, perf_event_mmap_page, cap_user_time)
B(struct, perf_counter_mmap_page, perf_event_mmap_page, cap_user_time_zero)
B(struct, perf_counter_mmap_page, perf_event_mmap_page, cap_user_time_short)
B(struct, perf_counter_mmap_page, perf_event_mmap_page, cap_____res)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, pmc_width)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, time_shift)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, time_mult)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, time_offset)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, time_zero)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, size)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, __reserved_1)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, time_cycles)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, time_mask)
A(struct, perf_counter_mmap_page, perf_event_mmap_page, __reserved)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, data_head)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, data_tail)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, data_offset)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, data_size)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, aux_head)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, aux_tail)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, aux_offset)
F(struct, perf_counter_mmap_page, perf_event_mmap_page, aux_size)

/* struct perf_counter_header */
T(struct, perf_counter_header, perf_event_header)
F(struct, perf_counter_header, perf_event_header, type)
F(struct, perf_counter_header, perf_event_header, misc)
F(struct, perf_counter_header, perf_event_header, size)

/* struct perf_ns_link_info */
T(struct, perf_ns_link_info, perf_ns_link_info)
F(struct, perf_ns_link_info, perf_ns_link_info, dev)
F(struct, perf_ns_link_info, perf_ns_link_info, ino)

/* union perf_mem_data_src */
T(union, perf_mem_data_src, perf_mem_data_src)
F(union, perf_mem_data_src, perf_mem_data_src, val)
B(union, perf_mem_data_src, perf_mem_data_src, mem_op)
B(union, perf_mem_data_src, perf_mem_data_src, mem_lvl)
B(union, perf_mem_data_src, perf_mem_data_src, mem_snoop)
B(union, perf_mem_data_src, perf_mem_data_src, mem_lock)
B(union, perf_mem_data_src, perf_mem_data_src, mem_dtlb)
B(union, perf_mem_data_src, perf_mem_data_src, mem_lvl_num)
B(union, perf_mem_data_src, perf_mem_data_src, mem_remote)
B(union, perf_mem_data_src, perf_mem_data_src, mem_snoopx)
B(union, perf_mem_data_src, perf_mem_data_src, mem_blk)
B(union, perf_mem_data_src, perf_mem_data_src, mem_hops)
B(union, perf_mem_data_src, perf_mem_data_src, mem_rsvd)

/* struct perf_branch_entry */
T(struct, perf_branch_entry, perf_branch_entry)
F(struct, perf_branch_entry, perf_branch_entry, from)
F(struct, perf_branch_entry, perf_branch_entry, to)
B(struct, perf_branch_entry, perf_branch_entry, mispred)
B(struct, perf_branch_entry, perf_branch_entry, predicted)
B(struct, perf_branch_entry, perf_branch_entry, in_tx)
B(struct, perf_branch_entry, perf_branch_entry, abort)
B(struct, perf_branch_entry, perf_branch_entry, cycles)
B(struct, perf_branch_entry, perf_branch_entry, type)
B(struct, perf_branch_entry, perf_branch_entry, spec)
B(struct, perf_branch_entry, perf_branch_entry, new_type)
B(struct, perf_branch_entry, perf_branch_entry, priv)
B(struct, perf_branch_entry, perf_branch_entry, reserved)

/* union perf_sample_weight */
T(union, perf_sample_weight, perf_sample_weight)
F(union, perf_sample_weight, perf_sample_weight, full)
F(union, perf_sample_weight, perf_sample_weight, var1_dw)
F(union, perf_sample_weight, perf_sample_weight, var2_w)
F(union, perf_sample_weight, perf_sample_weight, var3_w)

/* ioctl commands (our names differ) and their flag */
C2(PERF_COUNTER_IOC_ENABLE, PERF_EVENT_IOC_ENABLE)
C2(PERF_COUNTER_IOC_DISABLE, PERF_EVENT_IOC_DISABLE)
C2(PERF_COUNTER_IOC_REFRESH, PERF_EVENT_IOC_REFRESH)
C2(PERF_COUNTER_IOC_RESET, PERF_EVENT_IOC_RESET)
C2(PERF_COUNTER_IOC_PERIOD, PERF_EVENT_IOC_PERIOD)
C2(PERF_COUNTER_IOC_SET_OUTPUT, PERF_EVENT_IOC_SET_OUTPUT)
C2(PERF_COUNTER_IOC_SET_FILTER, PERF_EVENT_IOC_SET_FILTER)
C2(PERF_COUNTER_IOC_ID, PERF_EVENT_IOC_ID)
C2(PERF_COUNTER_IOC_SET_BPF, PERF_EVENT_IOC_SET_BPF)
C2(PERF_COUNTER_IOC_PAUSE_OUTPUT, PERF_EVENT_IOC_PAUSE_OUTPUT)
C2(PERF_COUNTER_IOC_QUERY_BPF, PERF_EVENT_IOC_QUERY_BPF)
C2(PERF_COUNTER_IOC_MODIFY_ATTRIBUTES, PERF_EVENT_IOC_MODIFY_ATTRIBUTES)
C(PERF_IOC_FLAG_GROUP)

/* attr.type: enum perf_type_id */
C(PERF_TYPE_HARDWARE)
C(PERF_TYPE_SOFTWARE)
C(PERF_TYPE_TRACEPOINT)
C(PERF_TYPE_HW_CACHE)
C(PERF_TYPE_RAW)
C(PERF_TYPE_BREAKPOINT)
C(PERF_TYPE_MAX)

/* attr.config: PMU type in the upper half */
C(PERF_PMU_TYPE_SHIFT)
C(PERF_HW_EVENT_MASK)

/* enum perf_hw_id */
C(PERF_COUNT_HW_CPU_CYCLES)
C(PERF_COUNT_HW_INSTRUCTIONS)
C(PERF_COUNT_HW_CACHE_REFERENCES)
C(PERF_COUNT_HW_CACHE_MISSES)
C(PERF_COUNT_HW_BRANCH_INSTRUCTIONS)
C(PERF_COUNT_HW_BRANCH_MISSES)
C(PERF_COUNT_HW_BUS_CYCLES)
C(PERF_COUNT_HW_STALLED_CYCLES_FRONTEND)
C(PERF_COUNT_HW_STALLED_CYCLES_BACKEND)
C(PERF_COUNT_HW_REF_CPU_CYCLES)
C(PERF_COUNT_HW_MAX)

/* enum perf_hw_cache_id */
C(PERF_COUNT_HW_CACHE_L1D)
C(PERF_COUNT_HW_CACHE_L1I)
C(PERF_COUNT_HW_CACHE_LL)
C(PERF_COUNT_HW_CACHE_DTLB)
C(PERF_COUNT_HW_CACHE_ITLB)
C(PERF_COUNT_HW_CACHE_BPU)
C(PERF_COUNT_HW_CACHE_NODE)
C(PERF_COUNT_HW_CACHE_MAX)

/* enum perf_hw_cache_op_id */
C(PERF_COUNT_HW_CACHE_OP_READ)
C(PERF_COUNT_HW_CACHE_OP_WRITE)
C(PERF_COUNT_HW_CACHE_OP_PREFETCH)
C(PERF_COUNT_HW_CACHE_OP_MAX)

/* enum perf_hw_cache_op_result_id */
C(PERF_COUNT_HW_CACHE_RESULT_ACCESS)
C(PERF_COUNT_HW_CACHE_RESULT_MISS)
C(PERF_COUNT_HW_CACHE_RESULT_MAX)

/* enum perf_sw_ids */
C(PERF_COUNT_SW_CPU_CLOCK)
C(PERF_COUNT_SW_TASK_CLOCK)
C(PERF_COUNT_SW_PAGE_FAULTS)
C(PERF_COUNT_SW_CONTEXT_SWITCHES)
C(PERF_COUNT_SW_CPU_MIGRATIONS)
C(PERF_COUNT_SW_PAGE_FAULTS_MIN)
C(PERF_COUNT_SW_PAGE_FAULTS_MAJ)
C(PERF_COUNT_SW_ALIGNMENT_FAULTS)
C(PERF_COUNT_SW_EMULATION_FAULTS)
C(PERF_COUNT_SW_DUMMY)
C(PERF_COUNT_SW_BPF_OUTPUT)
C(PERF_COUNT_SW_CGROUP_SWITCHES)
C(PERF_COUNT_SW_MAX)

/* attr.sample_type bits */
C(PERF_SAMPLE_IP)
C(PERF_SAMPLE_TID)
C(PERF_SAMPLE_TIME)
C(PERF_SAMPLE_ADDR)
C(PERF_SAMPLE_READ)
C(PERF_SAMPLE_CALLCHAIN)
C(PERF_SAMPLE_ID)
C(PERF_SAMPLE_CPU)
C(PERF_SAMPLE_PERIOD)
C(PERF_SAMPLE_STREAM_ID)
C(PERF_SAMPLE_RAW)
C(PERF_SAMPLE_BRANCH_STACK)
C(PERF_SAMPLE_REGS_USER)
C(PERF_SAMPLE_STACK_USER)
C(PERF_SAMPLE_WEIGHT)
C(PERF_SAMPLE_DATA_SRC)
C(PERF_SAMPLE_IDENTIFIER)
C(PERF_SAMPLE_TRANSACTION)
C(PERF_SAMPLE_REGS_INTR)
C(PERF_SAMPLE_PHYS_ADDR)
C(PERF_SAMPLE_AUX)
C(PERF_SAMPLE_CGROUP)
C(PERF_SAMPLE_DATA_PAGE_SIZE)
C(PERF_SAMPLE_CODE_PAGE_SIZE)
C(PERF_SAMPLE_WEIGHT_STRUCT)
C(PERF_SAMPLE_MAX)
C(PERF_SAMPLE_WEIGHT_TYPE)

/* attr.branch_sample_type bit numbers */
C(PERF_SAMPLE_BRANCH_USER_SHIFT)
C(PERF_SAMPLE_BRANCH_KERNEL_SHIFT)
C(PERF_SAMPLE_BRANCH_HV_SHIFT)
C(PERF_SAMPLE_BRANCH_ANY_SHIFT)
C(PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT)
C(PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT)
C(PERF_SAMPLE_BRANCH_IND_CALL_SHIFT)
C(PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT)
C(PERF_SAMPLE_BRANCH_IN_TX_SHIFT)
C(PERF_SAMPLE_BRANCH_NO_TX_SHIFT)
C(PERF_SAMPLE_BRANCH_COND_SHIFT)
C(PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT)
C(PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT)
C(PERF_SAMPLE_BRANCH_CALL_SHIFT)
C(PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT)
C(PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT)
C(PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT)
C(PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT)
C(PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT)
C(PERF_SAMPLE_BRANCH_MAX_SHIFT)

/* attr.branch_sample_type masks */
C(PERF_SAMPLE_BRANCH_USER)
C(PERF_SAMPLE_BRANCH_KERNEL)
C(PERF_SAMPLE_BRANCH_HV)
C(PERF_SAMPLE_BRANCH_ANY)
C(PERF_SAMPLE_BRANCH_ANY_CALL)
C(PERF_SAMPLE_BRANCH_ANY_RETURN)
C(PERF_SAMPLE_BRANCH_IND_CALL)
C(PERF_SAMPLE_BRANCH_ABORT_TX)
C(PERF_SAMPLE_BRANCH_IN_TX)
C(PERF_SAMPLE_BRANCH_NO_TX)
C(PERF_SAMPLE_BRANCH_COND)
C(PERF_SAMPLE_BRANCH_CALL_STACK)
C(PERF_SAMPLE_BRANCH_IND_JUMP)
C(PERF_SAMPLE_BRANCH_CALL)
C(PERF_SAMPLE_BRANCH_NO_FLAGS)
C(PERF_SAMPLE_BRANCH_NO_CYCLES)
C(PERF_SAMPLE_BRANCH_TYPE_SAVE)
C(PERF_SAMPLE_BRANCH_HW_INDEX)
C(PERF_SAMPLE_BRANCH_PRIV_SAVE)
C(PERF_SAMPLE_BRANCH_MAX)

/* perf_branch_entry.type */
C(PERF_BR_UNKNOWN)
C(PERF_BR_COND)
C(PERF_BR_UNCOND)
C(PERF_BR_IND)
C(PERF_BR_CALL)
C(PERF_BR_IND_CALL)
C(PERF_BR_RET)
C(PERF_BR_SYSCALL)
C(PERF_BR_SYSRET)
C(PERF_BR_COND_CALL)
C(PERF_BR_COND_RET)
C(PERF_BR_ERET)
C(PERF_BR_IRQ)
C(PERF_BR_SERROR)
C(PERF_BR_NO_TX)
C(PERF_BR_EXTEND_ABI)
C(PERF_BR_MAX)

/* perf_branch_entry.spec */
C(PERF_BR_SPEC_NA)
C(PERF_BR_SPEC_WRONG_PATH)
C(PERF_BR_NON_SPEC_CORRECT_PATH)
C(PERF_BR_SPEC_CORRECT_PATH)
C(PERF_BR_SPEC_MAX)

/* perf_branch_entry.new_type */
C(PERF_BR_NEW_FAULT_ALGN)
C(PERF_BR_NEW_FAULT_DATA)
C(PERF_BR_NEW_FAULT_INST)
C(PERF_BR_NEW_ARCH_1)
C(PERF_BR_NEW_ARCH_2)
C(PERF_BR_NEW_ARCH_3)
C(PERF_BR_NEW_ARCH_4)
C(PERF_BR_NEW_ARCH_5)
C(PERF_BR_NEW_MAX)

/* perf_branch_entry.priv */
C(PERF_BR_PRIV_UNKNOWN)
C(PERF_BR_PRIV_USER)
C(PERF_BR_PRIV_KERNEL)
C(PERF_BR_PRIV_HV)

/* arm64 new_type aliases, all privilege levels mask */
C(PERF_BR_ARM64_FIQ)
C(PERF_BR_ARM64_DEBUG_HALT)
C(PERF_BR_ARM64_DEBUG_EXIT)
C(PERF_BR_ARM64_DEBUG_INST)
C(PERF_BR_ARM64_DEBUG_DATA)
C(PERF_SAMPLE_BRANCH_PLM_ALL)

/* enum perf_sample_regs_abi */
C(PERF_SAMPLE_REGS_ABI_NONE)
C(PERF_SAMPLE_REGS_ABI_32)
C(PERF_SAMPLE_REGS_ABI_64)

/* PERF_SAMPLE_TRANSACTION bits */
C(PERF_TXN_ELISION)
C(PERF_TXN_TRANSACTION)
C(PERF_TXN_SYNC)
C(PERF_TXN_ASYNC)
C(PERF_TXN_RETRY)
C(PERF_TXN_CONFLICT)
C(PERF_TXN_CAPACITY_WRITE)
C(PERF_TXN_CAPACITY_READ)
C(PERF_TXN_MAX)
C(PERF_TXN_ABORT_MASK)
C(PERF_TXN_ABORT_SHIFT)

/* attr.read_format bits */
C(PERF_FORMAT_TOTAL_TIME_ENABLED)
C(PERF_FORMAT_TOTAL_TIME_RUNNING)
C(PERF_FORMAT_ID)
C(PERF_FORMAT_GROUP)
C(PERF_FORMAT_LOST)
C(PERF_FORMAT_MAX)

/* attr.size versions */
C(PERF_ATTR_SIZE_VER0)
C(PERF_ATTR_SIZE_VER1)
C(PERF_ATTR_SIZE_VER2)
C(PERF_ATTR_SIZE_VER3)
C(PERF_ATTR_SIZE_VER4)
C(PERF_ATTR_SIZE_VER5)
C(PERF_ATTR_SIZE_VER6)
C(PERF_ATTR_SIZE_VER7)

/* perf_counter_header.misc bits */
C(PERF_RECORD_MISC_CPUMODE_MASK)
C(PERF_RECORD_MISC_CPUMODE_UNKNOWN)
C(PERF_RECORD_MISC_KERNEL)
C(PERF_RECORD_MISC_USER)
C(PERF_RECORD_MISC_HYPERVISOR)
C(PERF_RECORD_MISC_GUEST_KERNEL)
C(PERF_RECORD_MISC_GUEST_USER)
C(PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT)
C(PERF_RECORD_MISC_MMAP_DATA)
C(PERF_RECORD_MISC_COMM_EXEC)
C(PERF_RECORD_MISC_FORK_EXEC)
C(PERF_RECORD_MISC_SWITCH_OUT)
C(PERF_RECORD_MISC_EXACT_IP)
C(PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
C(PERF_RECORD_MISC_MMAP_BUILD_ID)
C(PERF_RECORD_MISC_EXT_RESERVED)

/* PERF_RECORD_NAMESPACES slots */
C(NET_NS_INDEX)
C(UTS_NS_INDEX)
C(IPC_NS_INDEX)
C(PID_NS_INDEX)
C(USER_NS_INDEX)
C(MNT_NS_INDEX)
C(CGROUP_NS_INDEX)
C(NR_NAMESPACES)

/* perf_counter_header.type: record types */
C(PERF_RECORD_MMAP)
C(PERF_RECORD_LOST)
C(PERF_RECORD_COMM)
C(PERF_RECORD_EXIT)
C(PERF_RECORD_THROTTLE)
C(PERF_RECORD_UNTHROTTLE)
C(PERF_RECORD_FORK)
C(PERF_RECORD_READ)
C(PERF_RECORD_SAMPLE)
C(PERF_RECORD_MMAP2)
C(PERF_RECORD_AUX)
C(PERF_RECORD_ITRACE_START)
C(PERF_RECORD_LOST_SAMPLES)
C(PERF_RECORD_SWITCH)
C(PERF_RECORD_SWITCH_CPU_WIDE)
C(PERF_RECORD_NAMESPACES)
C(PERF_RECORD_KSYMBOL)
C(PERF_RECORD_BPF_EVENT)
C(PERF_RECORD_CGROUP)
C(PERF_RECORD_TEXT_POKE)
C(PERF_RECORD_AUX_OUTPUT_HW_ID)
C(PERF_RECORD_MAX)

/* PERF_RECORD_KSYMBOL types and flags */
C(PERF_RECORD_KSYMBOL_TYPE_UNKNOWN)
C(PERF_RECORD_KSYMBOL_TYPE_BPF)
C(PERF_RECORD_KSYMBOL_TYPE_OOL)
C(PERF_RECORD_KSYMBOL_TYPE_MAX)
C(PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER)

/* PERF_RECORD_BPF_EVENT types */
C(PERF_BPF_EVENT_UNKNOWN)
C(PERF_BPF_EVENT_PROG_LOAD)
C(PERF_BPF_EVENT_PROG_UNLOAD)
C(PERF_BPF_EVENT_MAX)

/* callchain limits */
C(PERF_MAX_STACK_DEPTH)
C(PERF_MAX_CONTEXTS_PER_STACK)

/* callchain context markers */
C(PERF_CONTEXT_HV)
C(PERF_CONTEXT_KERNEL)
C(PERF_CONTEXT_USER)
C(PERF_CONTEXT_GUEST)
C(PERF_CONTEXT_GUEST_KERNEL)
C(PERF_CONTEXT_GUEST_USER)
C(PERF_CONTEXT_MAX)

/* PERF_RECORD_AUX flags; sys_perf_event_open() flags */
C(PERF_AUX_FLAG_TRUNCATED)
C(PERF_AUX_FLAG_OVERWRITE)
C(PERF_AUX_FLAG_PARTIAL)
C(PERF_AUX_FLAG_COLLISION)
C(PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK)
C(PERF_AUX_FLAG_CORESIGHT_FORMAT_CORESIGHT)
C(PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW)
C(PERF_FLAG_FD_NO_GROUP)
C(PERF_FLAG_FD_OUTPUT)
C(PERF_FLAG_PID_CGROUP)
C(PERF_FLAG_FD_CLOEXEC)

/* union perf_mem_data_src field values and shifts */
C(PERF_MEM_OP_NA)
C(PERF_MEM_OP_LOAD)
C(PERF_MEM_OP_STORE)
C(PERF_MEM_OP_PFETCH)
C(PERF_MEM_OP_EXEC)
C(PERF_MEM_OP_SHIFT)
C(PERF_MEM_LVL_NA)
C(PERF_MEM_LVL_HIT)
C(PERF_MEM_LVL_MISS)
C(PERF_MEM_LVL_L1)
C(PERF_MEM_LVL_LFB)
C(PERF_MEM_LVL_L2)
C(PERF_MEM_LVL_L3)
C(PERF_MEM_LVL_LOC_RAM)
C(PERF_MEM_LVL_REM_RAM1)
C(PERF_MEM_LVL_REM_RAM2)
C(PERF_MEM_LVL_REM_CCE1)
C(PERF_MEM_LVL_REM_CCE2)
C(PERF_MEM_LVL_IO)
C(PERF_MEM_LVL_UNC)
C(PERF_MEM_LVL_SHIFT)
C(PERF_MEM_REMOTE_REMOTE)
C(PERF_MEM_REMOTE_SHIFT)
C(PERF_MEM_LVLNUM_L1)
C(PERF_MEM_LVLNUM_L2)
C(PERF_MEM_LVLNUM_L3)
C(PERF_MEM_LVLNUM_L4)
C(PERF_MEM_LVLNUM_CXL)
C(PERF_MEM_LVLNUM_IO)
C(PERF_MEM_LVLNUM_ANY_CACHE)
C(PERF_MEM_LVLNUM_LFB)
C(PERF_MEM_LVLNUM_RAM)
C(PERF_MEM_LVLNUM_PMEM)
C(PERF_MEM_LVLNUM_NA)
C(PERF_MEM_LVLNUM_SHIFT)
C(PERF_MEM_SNOOP_NA)
C(PERF_MEM_SNOOP_NONE)
C(PERF_MEM_SNOOP_HIT)
C(PERF_MEM_SNOOP_MISS)
C(PERF_MEM_SNOOP_HITM)
C(PERF_MEM_SNOOP_SHIFT)
C(PERF_MEM_SNOOPX_FWD)
C(PERF_MEM_SNOOPX_PEER)
C(PERF_MEM_SNOOPX_SHIFT)
C(PERF_MEM_LOCK_NA)
C(PERF_MEM_LOCK_LOCKED)
C(PERF_MEM_LOCK_SHIFT)
C(PERF_MEM_TLB_NA)
C(PERF_MEM_TLB_HIT)
C(PERF_MEM_TLB_MISS)
C(PERF_MEM_TLB_L1)
C(PERF_MEM_TLB_L2)
C(PERF_MEM_TLB_WK)
C(PERF_MEM_TLB_OS)
C(PERF_MEM_TLB_SHIFT)
C(PERF_MEM_BLK_NA)
C(PERF_MEM_BLK_DATA)
C(PERF_MEM_BLK_ADDR)
C(PERF_MEM_BLK_SHIFT)
C(PERF_MEM_HOPS_0)
C(PERF_MEM_HOPS_1)
C(PERF_MEM_HOPS_2)
C(PERF_MEM_HOPS_3)
C(PERF_MEM_HOPS_SHIFT)

/* PERF_MEM_S() composes a field value in place */
C(PERF_MEM_S(OP, LOAD))
C(PERF_MEM_S(LVL, HIT))
C(PERF_MEM_S(LVL, REM_CCE2))
C(PERF_MEM_S(REMOTE, REMOTE))
C(PERF_MEM_S(LVLNUM, NA))
C(PERF_MEM_S(SNOOP, HITM))
C(PERF_MEM_S(SNOOPX, PEER))
C(PERF_MEM_S(LOCK, LOCKED))
C(PERF_MEM_S(TLB, OS))
C(PERF_MEM_S(BLK, ADDR))
C(PERF_MEM_S(HOPS, 3))

#undef T
#undef F
#undef A
#undef O
#undef B
#undef C
#undef C2

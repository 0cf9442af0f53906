// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter core: the perf_counter_open() system call, counters as
 * files (read, ioctl, release) and the tunables of the subsystem.
 *
 * The sysctl registered here, /proc/sys/kernel/perf_counter_paranoid,
 * doubles as the subsystem's signature: the perf tool uses the
 * perf_counter_open() system call only on kernels where the file exists.
 */

#include <linux/cache.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/sysctl.h>

#include "internal.h"

/*
 * How much an unprivileged user may count; holders of CAP_PERFMON or
 * CAP_SYS_ADMIN are never restricted.
 *
 *  -1	anything, raw tracepoint data included
 *   0	CPU-wide counters too, but no raw tracepoint data
 *   1	counters on their own tasks, user and kernel mode
 *   2	counters on their own tasks, user mode only (the default)
 *   3	nothing
 *
 * Levels -1 to 2 mean what they mean for perf_event_paranoid, so advice
 * written for one knob holds for the other; 3 is the level distributions
 * use to turn unprivileged use off.  Anything else is refused with
 * -EINVAL rather than rounded to a level the writer did not ask for.
 */
int sysctl_perf_counter_paranoid __read_mostly = PERF_COUNTER_PARANOID_DEFAULT;

static int perf_counter_paranoid_min = PERF_COUNTER_PARANOID_MIN;
static int perf_counter_paranoid_max = PERF_COUNTER_PARANOID_MAX;

/*
 * The most samples a second one counter may write, and the highest
 * sample_freq it may ask for.  A counter that overflows faster is
 * throttled for the rest of the tick (THROTTLE and UNTHROTTLE records
 * say when), so that sampling cannot take a CPU over.
 */
int sysctl_perf_counter_max_sample_rate __read_mostly =
	PERF_COUNTER_DEFAULT_SAMPLE_RATE;

/*
 * The deepest call chain a sample may ask for (attr.sample_max_stack;
 * past it, EOVERFLOW), and what one without a wish gets.
 */
int sysctl_perf_counter_max_stack __read_mostly = PERF_COUNTER_MAX_STACK;
static int perf_counter_max_stack_max = PERF_COUNTER_MAX_STACK;

/*
 * KiB of ring buffer each unprivileged user may map per online CPU
 * without charge; past it, mappings count against RLIMIT_MEMLOCK.  As
 * perf_event_mlock_kb: 512 KiB and a control page.
 */
int sysctl_perf_counter_mlock_kb __read_mostly = 512 + (PAGE_SIZE / 1024);

struct ctl_table perf_counter_sysctl_table[] = {
	{
		.procname	= "perf_counter_paranoid",
		.data		= &sysctl_perf_counter_paranoid,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= &perf_counter_paranoid_min,
		.extra2		= &perf_counter_paranoid_max,
	},
	{
		.procname	= "perf_counter_max_sample_rate",
		.data		= &sysctl_perf_counter_max_sample_rate,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ONE,
		.extra2		= SYSCTL_INT_MAX,
	},
	{
		.procname	= "perf_counter_max_stack",
		.data		= &sysctl_perf_counter_max_stack,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &perf_counter_max_stack_max,
	},
	{
		.procname	= "perf_counter_mlock_kb",
		.data		= &sysctl_perf_counter_mlock_kb,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_INT_MAX,
	},
	{ }
};

struct ctl_table_header *perf_counter_sysctl_header;

static int __init perf_counter_subsys_init(void)
{
	perf_counter_cpus_init();
	perf_counter_sysctl_header = register_sysctl("kernel",
						     perf_counter_sysctl_table);
	if (!perf_counter_sysctl_header)
		return -ENOMEM;
	return 0;
}
core_initcall(perf_counter_subsys_init);

// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter test support: NMIs on demand.
 *
 * Under emulation there is no PMU to raise NMIs, yet output written in
 * NMI context into a buffer that a task-context writer holds is the case
 * the ring buffer is built for.  Writing N to
 * /sys/kernel/debug/perf_counter/test_nmi sends N NMIs to every other
 * online CPU, one at a time: each is handled before the next is sent,
 * so none merge.  Every NMI runs our handler, and the NMI code raises
 * the nmi:nmi_handler tracepoint for it, in NMI context, which the
 * selftests count and sample.  Reading the file gives the number of our
 * NMIs handled so far.
 *
 * Built with the KUnit tests, for test kernels only.
 */

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/smp.h>
#include <linux/time64.h>
#include <asm/apic.h>
#include <asm/nmi.h>

/*
 * Per CPU, where our NMI to it is.  NMIs do not say who sent them, and
 * the CPU may take others (a PMU's) while ours is being sent; one that
 * comes before the send is over may be ours or not.  So:
 *
 *   IDLE	none of ours is on its way: not ours
 *   ARMED	about to be sent: the next NMI may be it (-> EARLY)
 *   EARLY	an NMI came while armed: claimed, not counted yet
 *   SENT	sent: the next NMI is ours, counted (-> IDLE)
 *
 * After an EARLY one the sender waits a while for ours; if none comes,
 * the early one was ours.  Every NMI that may be ours is claimed, so
 * none of ours is ever reported unknown, and each send counts once.
 */
enum {
	TEST_NMI_IDLE,
	TEST_NMI_ARMED,
	TEST_NMI_EARLY,
	TEST_NMI_SENT,
};

/* How long an NMI may take to reach its CPU after an early one. */
#define TEST_NMI_EARLY_WAIT_US	(100 * USEC_PER_MSEC)

static DEFINE_PER_CPU(atomic_t, test_nmi_state);
static atomic_long_t test_nmi_handled;
static DEFINE_MUTEX(test_nmi_mutex);

static int test_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	atomic_t *state = this_cpu_ptr(&test_nmi_state);

	switch (atomic_read(state)) {
	case TEST_NMI_IDLE:
		return NMI_DONE;
	case TEST_NMI_ARMED:
		atomic_cmpxchg(state, TEST_NMI_ARMED, TEST_NMI_EARLY);
		return NMI_HANDLED;
	case TEST_NMI_EARLY:
		return NMI_HANDLED;
	}
	if (atomic_cmpxchg(state, TEST_NMI_SENT, TEST_NMI_IDLE) == TEST_NMI_SENT)
		atomic_long_inc(&test_nmi_handled);
	return NMI_HANDLED;
}

/* Wait up to @limit us for @cpu's NMI to be handled. */
static bool test_nmi_wait(atomic_t *state, unsigned long limit)
{
	unsigned long waited;

	for (waited = 0; atomic_read(state) != TEST_NMI_IDLE; waited++) {
		if (waited >= limit)
			return false;
		udelay(1);
	}
	return true;
}

/* Send one NMI to @cpu and wait up to a second for it to be handled. */
static int test_nmi_send(unsigned int cpu)
{
	atomic_t *state = per_cpu_ptr(&test_nmi_state, cpu);
	bool early;

	atomic_set(state, TEST_NMI_ARMED);
	apic->send_IPI(cpu, NMI_VECTOR);
	early = atomic_xchg(state, TEST_NMI_SENT) == TEST_NMI_EARLY;
	if (test_nmi_wait(state, early ? TEST_NMI_EARLY_WAIT_US :
					 USEC_PER_SEC))
		return 0;
	if (!early)
		return -ETIMEDOUT;
	/* The NMI that came early was ours. */
	if (atomic_cmpxchg(state, TEST_NMI_SENT, TEST_NMI_IDLE) == TEST_NMI_SENT)
		atomic_long_inc(&test_nmi_handled);
	return 0;
}

static int test_nmi_send_all(unsigned long rounds)
{
	unsigned int cpu, self;
	int err = 0;

	while (rounds-- && !err) {
		self = get_cpu();
		for_each_online_cpu(cpu) {
			if (cpu == self)
				continue;
			err = test_nmi_send(cpu);
			if (err)
				break;
		}
		put_cpu();
		if (signal_pending(current))
			err = -EINTR;
		cond_resched();
	}
	return err;
}

static ssize_t test_nmi_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	unsigned long rounds;
	int err;

	err = kstrtoul_from_user(ubuf, len, 0, &rounds);
	if (err)
		return err;
	if (rounds > 10000000)
		return -EINVAL;
	mutex_lock(&test_nmi_mutex);
	err = test_nmi_send_all(rounds);
	mutex_unlock(&test_nmi_mutex);
	return err ? err : len;
}

static ssize_t test_nmi_read(struct file *file, char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	char buf[32];
	int n;

	n = scnprintf(buf, sizeof(buf), "%ld\n",
		      atomic_long_read(&test_nmi_handled));
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static const struct file_operations test_nmi_fops = {
	.read	= test_nmi_read,
	.write	= test_nmi_write,
	.llseek	= default_llseek,
};

static int __init test_nmi_init(void)
{
	struct dentry *dir;
	int err;

	err = register_nmi_handler(NMI_LOCAL, test_nmi_handler, 0,
				   "perf_counter_test");
	if (err)
		return err;
	dir = debugfs_create_dir("perf_counter", NULL);
	debugfs_create_file("test_nmi", 0600, dir, NULL, &test_nmi_fops);
	return 0;
}
late_initcall(test_nmi_init);

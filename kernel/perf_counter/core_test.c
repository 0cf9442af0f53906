// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the perf_counter core: the paranoid sysctl, and what
 * each of its levels lets a caller with and without CAP_PERFMON open.
 *
 * The handler tests write into a private copy of the table entry.  The
 * permission tests write through the real entry, as a root shell would,
 * and put the level back when they end (the suite runs before user space
 * does, so nobody else sees the levels in between).
 */

#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/completion.h>
#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/sysctl.h>

#include "internal.h"

/* Pass @text through the sysctl handler as a write to *@value. */
static int paranoid_write(int *value, const char *text)
{
	struct ctl_table table = perf_counter_sysctl_table[0];
	char buf[16];
	size_t len;
	loff_t pos = 0;

	strscpy(buf, text, sizeof(buf));
	len = strlen(buf);
	table.data = value;
	return table.proc_handler(&table, 1, buf, &len, &pos);
}

static void paranoid_default_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, PERF_COUNTER_PARANOID_DEFAULT, 2);
	KUNIT_EXPECT_EQ(test, sysctl_perf_counter_paranoid, 2);
}

static void paranoid_registered_test(struct kunit *test)
{
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, perf_counter_sysctl_header);
	KUNIT_EXPECT_STREQ(test, perf_counter_sysctl_table[0].procname,
			   "perf_counter_paranoid");
	KUNIT_EXPECT_EQ(test, perf_counter_sysctl_table[0].mode, 0644);
}

static void paranoid_accepts_range_test(struct kunit *test)
{
	static const char * const levels[] = { "-1", "0", "1", "2", "3\n" };
	int i, value;

	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		value = 42;
		KUNIT_EXPECT_EQ_MSG(test, paranoid_write(&value, levels[i]), 0,
				    "level %s", levels[i]);
		KUNIT_EXPECT_EQ(test, value, i - 1);
	}
}

static void paranoid_rejects_test(struct kunit *test)
{
	static const char * const bad[] = { "-2", "4", "100", "two" };
	int i, value;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		value = 2;
		KUNIT_EXPECT_EQ_MSG(test, paranoid_write(&value, bad[i]),
				    -EINVAL, "value '%s'", bad[i]);
		KUNIT_EXPECT_EQ_MSG(test, value, 2, "value '%s'", bad[i]);
	}
}

static void paranoid_read_test(struct kunit *test)
{
	struct ctl_table table = perf_counter_sysctl_table[0];
	int value = -1;
	char buf[16] = "";
	size_t len = sizeof(buf);
	loff_t pos = 0;

	table.data = &value;
	KUNIT_ASSERT_EQ(test, table.proc_handler(&table, 0, buf, &len, &pos), 0);
	KUNIT_EXPECT_EQ(test, len, (size_t)3);
	KUNIT_EXPECT_EQ(test, memcmp(buf, "-1\n", 3), 0);
}

/* Set the live level through the sysctl's own entry and handler. */
static void set_level(struct kunit *test, int level)
{
	struct ctl_table *table = &perf_counter_sysctl_table[0];
	char buf[16];
	size_t len;
	loff_t pos = 0;

	len = scnprintf(buf, sizeof(buf), "%d\n", level);
	KUNIT_ASSERT_EQ(test, table->proc_handler(table, 1, buf, &len, &pos), 0);
	KUNIT_ASSERT_EQ(test, READ_ONCE(sysctl_perf_counter_paranoid), level);
}

/* The ids of an ordinary user. */
#define TEST_UID	1000

enum test_cred {
	CRED_USER,	/* no capabilities */
	CRED_PERFMON,	/* CAP_PERFMON only */
	CRED_SYS_ADMIN,	/* CAP_SYS_ADMIN only, which implies CAP_PERFMON */
	NR_TEST_CREDS,
};

static const char * const test_cred_names[] = {
	"user", "CAP_PERFMON", "CAP_SYS_ADMIN",
};

static void set_ids(struct cred *cred, uid_t id)
{
	kuid_t uid = KUIDT_INIT(id);
	kgid_t gid = KGIDT_INIT(id);

	cred->uid = uid;
	cred->euid = uid;
	cred->suid = uid;
	cred->fsuid = uid;
	cred->gid = gid;
	cred->egid = gid;
	cred->sgid = gid;
	cred->fsgid = gid;
}

static void set_caps(struct cred *cred, kernel_cap_t caps)
{
	cred->cap_effective = caps;
	cred->cap_permitted = caps;
	cred->cap_inheritable = CAP_EMPTY_SET;
	cred->cap_bset = caps;
	cred->cap_ambient = CAP_EMPTY_SET;
}

/* Act as user @id holding @which until revert_creds() of the result. */
static const struct cred *act_as(struct kunit *test, uid_t id,
				 enum test_cred which)
{
	const struct cred *old;
	kernel_cap_t caps = CAP_EMPTY_SET;
	struct cred *cred;

	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	set_ids(cred, id);
	if (which == CRED_PERFMON)
		cap_raise(caps, CAP_PERFMON);
	if (which == CRED_SYS_ADMIN)
		cap_raise(caps, CAP_SYS_ADMIN);
	set_caps(cred, caps);
	old = override_creds(cred);
	put_cred(cred);
	return old;
}

/*
 * Another task: a kernel thread, idle until stopped.  Only callers with
 * ptrace rights over every task (CAP_SYS_PTRACE) may inspect it, so it
 * stands for any task the caller has no business counting.
 */
static int target_fn(void *arg)
{
	complete(arg);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

struct paranoid_ctx {
	int saved_level;
	struct task_struct *target;
};

static int paranoid_init(struct kunit *test)
{
	struct paranoid_ctx *pc = kunit_kzalloc(test, sizeof(*pc), GFP_KERNEL);
	DECLARE_COMPLETION_ONSTACK(ready);

	if (!pc)
		return -ENOMEM;
	pc->saved_level = READ_ONCE(sysctl_perf_counter_paranoid);
	pc->target = kthread_run(target_fn, &ready, "perf_counter_kt");
	if (IS_ERR(pc->target))
		return PTR_ERR(pc->target);
	get_task_struct(pc->target);
	wait_for_completion(&ready);
	test->priv = pc;
	return 0;
}

static void paranoid_exit(struct kunit *test)
{
	struct paranoid_ctx *pc = test->priv;

	if (!pc)
		return;
	WRITE_ONCE(sysctl_perf_counter_paranoid, pc->saved_level);
	kthread_stop(pc->target);
	put_task_struct(pc->target);
}

/*
 * What @which may do at @level; each check is named for the message.
 * Privileged callers may do everything at every level.
 */
struct paranoid_expect {
	int kernel_mode;	/* counting kernel mode too */
	int user_mode;		/* exclude_kernel */
	int cpu_wide;		/* no task */
	int own_task;		/* the caller itself */
	int other_task;		/* a task the caller may not ptrace */
};

static void expect_decisions(struct kunit *test, int level,
			     enum test_cred which,
			     const struct paranoid_expect *e)
{
	struct paranoid_ctx *pc = test->priv;
	struct perf_counter_attr kernel = { .exclude_kernel = 0 };
	struct perf_counter_attr user = { .exclude_kernel = 1 };
	const char *name = test_cred_names[which];
	const struct cred *old;
	int got[5];

	old = act_as(test, TEST_UID, which);
	got[0] = perf_counter_check_mode(&kernel);
	got[1] = perf_counter_check_mode(&user);
	got[2] = perf_counter_check_target(NULL);
	got[3] = perf_counter_check_target(current);
	got[4] = perf_counter_check_target(pc->target);
	revert_creds(old);
	KUNIT_EXPECT_EQ_MSG(test, got[0], e->kernel_mode,
			    "level %d, %s, kernel mode", level, name);
	KUNIT_EXPECT_EQ_MSG(test, got[1], e->user_mode,
			    "level %d, %s, user mode", level, name);
	KUNIT_EXPECT_EQ_MSG(test, got[2], e->cpu_wide,
			    "level %d, %s, CPU-wide", level, name);
	KUNIT_EXPECT_EQ_MSG(test, got[3], e->own_task,
			    "level %d, %s, own task", level, name);
	KUNIT_EXPECT_EQ_MSG(test, got[4], e->other_task,
			    "level %d, %s, another task", level, name);
}

/*
 * Every level, for an ordinary user, one with CAP_PERFMON and one with
 * CAP_SYS_ADMIN: kernel or user mode, CPU-wide, on its own task, and on
 * a task it may not ptrace (refused without a capability at every
 * level, -1 included).
 */
static void paranoid_levels_test(struct kunit *test)
{
	static const struct paranoid_expect user[] = {
		/* -1 */ { 0, 0, 0, 0, -EACCES },
		/*  0 */ { 0, 0, 0, 0, -EACCES },
		/*  1 */ { 0, 0, -EACCES, 0, -EACCES },
		/*  2 */ { -EACCES, 0, -EACCES, 0, -EACCES },
		/*  3 */ { -EACCES, -EACCES, -EACCES, 0, -EACCES },
	};
	static const struct paranoid_expect privileged = { 0 };
	int level, which;

	for (level = PERF_COUNTER_PARANOID_MIN;
	     level <= PERF_COUNTER_PARANOID_MAX; level++) {
		set_level(test, level);
		for (which = 0; which < NR_TEST_CREDS; which++) {
			const struct paranoid_expect *e = which == CRED_USER ?
				&user[level - PERF_COUNTER_PARANOID_MIN] :
				&privileged;

			expect_decisions(test, level, which, e);
		}
	}
}

/* A refused write leaves the live level, and so the decisions, alone. */
static void paranoid_refused_write_keeps_level_test(struct kunit *test)
{
	struct perf_counter_attr kernel = { .exclude_kernel = 0 };
	struct ctl_table *table = &perf_counter_sysctl_table[0];
	const struct cred *old;
	char buf[] = "-2\n";
	size_t len = strlen(buf);
	loff_t pos = 0;
	int err;

	set_level(test, 1);
	KUNIT_EXPECT_EQ(test, table->proc_handler(table, 1, buf, &len, &pos),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, READ_ONCE(sysctl_perf_counter_paranoid), 1);
	old = act_as(test, TEST_UID, CRED_USER);
	err = perf_counter_check_target(NULL);
	revert_creds(old);
	KUNIT_EXPECT_EQ(test, err, -EACCES);
	old = act_as(test, TEST_UID, CRED_USER);
	err = perf_counter_check_mode(&kernel);
	revert_creds(old);
	KUNIT_EXPECT_EQ(test, err, 0);
}

static struct kunit_case perf_counter_core_test_cases[] = {
	KUNIT_CASE(paranoid_default_test),
	KUNIT_CASE(paranoid_registered_test),
	KUNIT_CASE(paranoid_accepts_range_test),
	KUNIT_CASE(paranoid_rejects_test),
	KUNIT_CASE(paranoid_read_test),
	{ }
};

static struct kunit_suite perf_counter_core_test_suite = {
	.name = "perf_counter_core",
	.test_cases = perf_counter_core_test_cases,
};

static struct kunit_case perf_counter_paranoid_test_cases[] = {
	KUNIT_CASE(paranoid_levels_test),
	KUNIT_CASE(paranoid_refused_write_keeps_level_test),
	{ }
};

static struct kunit_suite perf_counter_paranoid_test_suite = {
	.name = "perf_counter_paranoid",
	.init = paranoid_init,
	.exit = paranoid_exit,
	.test_cases = perf_counter_paranoid_test_cases,
};

kunit_test_suites(&perf_counter_core_test_suite,
		  &perf_counter_paranoid_test_suite);

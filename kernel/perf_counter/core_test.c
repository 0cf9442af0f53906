// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the perf_counter core: the paranoid sysctl.
 *
 * Writes go through the real handler, but into a private copy of the
 * table entry, so the tests never change the level the system runs with.
 */

#include <kunit/test.h>
#include <linux/errno.h>
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

kunit_test_suite(perf_counter_core_test_suite);

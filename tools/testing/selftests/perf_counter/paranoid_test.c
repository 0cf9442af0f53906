// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/sys/kernel/perf_counter_paranoid: present, at its default level,
 * and (as root) taking every level in range while refusing the rest.
 * The file is how user space recognises a kernel with perf_counter, so a
 * kernel built with CONFIG_PERF_COUNTERS must have it.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"

#define PARANOID_FILE		"/proc/sys/kernel/perf_counter_paranoid"
#define PARANOID_DEFAULT	2

/* Read the level; returns 0, or -errno. */
static int paranoid_read(int *level)
{
	char buf[32], *end;
	ssize_t n;
	long val;
	int fd;

	fd = open(PARANOID_FILE, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = '\0';
	errno = 0;
	val = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EIO;
	*level = val;
	return 0;
}

/* Write @text as one write(2); returns 0, or -errno. */
static int paranoid_write(const char *text)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(PARANOID_FILE, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

static void test_levels_in_range(void)
{
	static const char * const levels[] = { "-1", "0", "1", "2", "3" };
	unsigned int i;
	int level = 0, err;

	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		err = paranoid_write(levels[i]);
		if (!err)
			err = paranoid_read(&level);
		if (err || level != atoi(levels[i])) {
			ksft_test_result_fail("level %s: %s, reads %d\n", levels[i],
					      strerror(-err), level);
			return;
		}
	}
	ksft_test_result_pass("levels -1..3 accepted\n");
}

static void test_levels_out_of_range(void)
{
	static const char * const bad[] = { "-2", "4", "1000", "high" };
	unsigned int i;
	int level = 0, err;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err = paranoid_write(bad[i]);
		if (err != -EINVAL) {
			ksft_test_result_fail("writing '%s' gave %s, not EINVAL\n",
					      bad[i], strerror(-err));
			return;
		}
		if (paranoid_read(&level) || level != PARANOID_DEFAULT) {
			ksft_test_result_fail("writing '%s' changed the level to %d\n",
					      bad[i], level);
			return;
		}
	}
	ksft_test_result_pass("out-of-range levels refused with EINVAL\n");
}

int main(void)
{
	int level = 0, err;
	bool root = geteuid() == 0;

	ksft_print_header();
	ksft_set_plan(4);

	err = paranoid_read(&level);
	if (err)
		ksft_exit_fail_msg("%s: %s (is CONFIG_PERF_COUNTERS set?)\n",
				   PARANOID_FILE, strerror(-err));
	ksft_test_result_pass("%s exists\n", PARANOID_FILE);
	ksft_test_result(level == PARANOID_DEFAULT,
			 "default level is %d (reads %d)\n", PARANOID_DEFAULT, level);

	if (root && level == PARANOID_DEFAULT) {
		test_levels_out_of_range();
		test_levels_in_range();
		err = paranoid_write("2");
		if (err)
			ksft_exit_fail_msg("cannot restore level 2: %s\n", strerror(-err));
	} else {
		ksft_test_result_skip("writes need root and the default level\n");
		ksft_test_result_skip("writes need root and the default level\n");
	}
	ksft_finished();
}

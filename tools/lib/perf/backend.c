// SPDX-License-Identifier: GPL-2.0
/*
 * Backend selection: which system call opens counters on this kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <perf/backend.h>
#include <perf/strerror.h>

/*
 * Our subsystem adds perf_counter_open as the first free x86_64 syscall
 * slot of 6.1.  Later stock kernels gave that slot to another call, so the
 * number is used only when the subsystem's sysctl proves it is ours.
 */
#ifndef __NR_perf_counter_open
# if defined(__x86_64__)
#  define __NR_perf_counter_open 451
# else
#  define __NR_perf_counter_open -1
# endif
#endif

static int backend_chosen = -1;

static enum perf_backend backend_detect(void)
{
	if (access(PERF_COUNTER_PARANOID_FILE, F_OK) == 0)
		return PERF_BACKEND_COUNTER;
	return PERF_BACKEND_EVENT;
}

/*
 * Returns 0, or -EINVAL when the environment asks for an unknown backend
 * (the caller reports it; the detected backend is used meanwhile).
 */
int perf_backend_init(void)
{
	const char *env = getenv(PERF_BACKEND_ENV);

	if (backend_chosen >= 0)
		return 0;
	backend_chosen = backend_detect();
	if (!env || !*env)
		return 0;
	if (!strcmp(env, "event")) {
		backend_chosen = PERF_BACKEND_EVENT;
		return 0;
	}
	if (!strcmp(env, "counter")) {
		backend_chosen = PERF_BACKEND_COUNTER;
		return 0;
	}
	return -EINVAL;
}

enum perf_backend perf_backend(void)
{
	if (backend_chosen < 0)
		perf_backend_init();
	return backend_chosen;
}

const char *perf_backend_name(enum perf_backend backend)
{
	return backend == PERF_BACKEND_COUNTER ? "perf_counter_open" :
						 "perf_event_open";
}

const char *perf_backend_paranoid_file(void)
{
	return perf_backend() == PERF_BACKEND_COUNTER ?
		PERF_COUNTER_PARANOID_FILE : PERF_EVENT_PARANOID_FILE;
}

/* The paranoid level of the active backend; 2 (the default) if unreadable. */
int perf_backend_paranoid(void)
{
	FILE *f = fopen(perf_backend_paranoid_file(), "r");
	int level = 2;

	if (!f)
		return level;
	if (fscanf(f, "%d", &level) != 1)
		level = 2;
	fclose(f);
	return level;
}

int perf_sys_open(struct perf_counter_attr *attr, pid_t pid, int cpu,
		  int group_fd, unsigned long flags)
{
	long nr = __NR_perf_event_open;

	if (perf_backend() == PERF_BACKEND_COUNTER) {
		nr = __NR_perf_counter_open;
		/* Never call the number on a kernel that is not ours. */
		if (nr < 0 || access(PERF_COUNTER_PARANOID_FILE, F_OK)) {
			errno = ENOSYS;
			return -1;
		}
	}
	return syscall(nr, attr, pid, cpu, group_fd, flags);
}

/*
 * Open @type/@config on the calling thread, disabled and for user space
 * only, and close it again: the errno of the open, or 0.
 */
static int probe_open(u32 type, u64 config, bool backward)
{
	struct perf_counter_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.write_backward = backward;
	fd = perf_sys_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

bool perf_event_supported(u32 type, u64 config, int *err)
{
	int e = probe_open(type, config, false);

	if (err)
		*err = e;
	return !e || !(perf_errno_unsupported(e) || e == EINVAL || e == ENOSYS);
}

bool perf_backward_supported(void)
{
	u32 type = PERF_TYPE_SOFTWARE;
	u64 config = PERF_COUNT_SW_CPU_CLOCK;

	return probe_open(type, config, true) != EINVAL ||
	       probe_open(type, config, false) == EINVAL;
}

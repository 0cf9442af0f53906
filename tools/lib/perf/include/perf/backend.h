/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_BACKEND_H
#define __PERF_BACKEND_H

#include <sys/types.h>
#include <linux/perf_counter.h>
#include <perf/types.h>

/*
 * Two kernels speak the same ABI: stock kernels through perf_event_open(2)
 * and kernels carrying the perf_counter subsystem through
 * perf_counter_open(2).  The backend is chosen once per process.
 */
enum perf_backend {
	PERF_BACKEND_EVENT,	/* perf_event_open, stock kernels */
	PERF_BACKEND_COUNTER,	/* perf_counter_open, our subsystem */
};

/* File whose presence means the running kernel has our subsystem. */
#define PERF_COUNTER_PARANOID_FILE "/proc/sys/kernel/perf_counter_paranoid"
#define PERF_EVENT_PARANOID_FILE "/proc/sys/kernel/perf_event_paranoid"

/*
 * Environment override, for tests: PERF_BACKEND=event or PERF_BACKEND=counter.
 * Any other value is reported by perf_backend_init().
 */
#define PERF_BACKEND_ENV "PERF_BACKEND"

int perf_backend_init(void);
enum perf_backend perf_backend(void);
const char *perf_backend_name(enum perf_backend backend);
const char *perf_backend_paranoid_file(void);
int perf_backend_paranoid(void);

int perf_sys_open(struct perf_counter_attr *attr, pid_t pid, int cpu,
		  int group_fd, unsigned long flags);

/*
 * Whether the running kernel can count the event @type/@config: it is
 * opened on the calling thread, disabled and for user space only, and
 * closed again.  It can when the open succeeds, and also when it is
 * refused for want of permission (EACCES, EPERM) or for a passing
 * reason (EBUSY, EMFILE...): the event is there.  It cannot when the
 * kernel has no such event or cannot do it (ENOENT, EOPNOTSUPP, ENODEV,
 * EINVAL: what perf stat shows as <not supported>) or no system call to
 * count with (ENOSYS).  *@err, when given, gets the errno of the open
 * (0 when it opened).
 */
bool perf_event_supported(u32 type, u64 config, int *err);

/*
 * Whether the kernel takes attr.write_backward (overwritable rings).
 * Kernels without backward buffers refuse the bit with EINVAL; that is
 * told apart from other reasons to refuse the probe's open (which say
 * nothing about the bit: then it is taken to be supported, and the
 * real open reports them better).
 */
bool perf_backward_supported(void);

#endif /* __PERF_BACKEND_H */

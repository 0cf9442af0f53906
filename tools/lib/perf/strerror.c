// SPDX-License-Identifier: GPL-2.0
/*
 * Turning open errors into advice.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <perf/backend.h>
#include <perf/strerror.h>

bool perf_errno_unsupported(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == ENODEV;
}

/* Raw tracepoint records are kernel data, behind the lowest level. */
static bool wants_raw_records(const struct perf_evsel *evsel)
{
	return evsel->attr.type == PERF_TYPE_TRACEPOINT &&
	       (evsel->attr.sample_type & PERF_SAMPLE_RAW);
}

static const char *access_advice(const struct perf_evsel *evsel, char *buf,
				 size_t size)
{
	int level = perf_backend_paranoid();

	if (wants_raw_records(evsel) && level > -1) {
		snprintf(buf, size,
			 "No permission to sample the raw records of tracepoint '%s' (%s is %d).\n"
			 "Raw tracepoint data is kernel data: run as root, add CAP_PERFMON,\n"
			 "or allow it to all users: echo -1 > %s",
			 evsel->name, perf_backend_paranoid_file(), level,
			 perf_backend_paranoid_file());
		return buf;
	}

	snprintf(buf, size,
		 "No permission to open event '%s' (%s is %d).\n"
		 "  -1: allow use of (almost) all events by all users\n"
		 "   0: disallow raw tracepoint access for unprivileged users\n"
		 "   1: disallow CPU event access for unprivileged users\n"
		 "   2: disallow kernel profiling for unprivileged users\n"
		 "Run as root, add CAP_PERFMON, count only user space with the\n"
		 "':u' modifier, or lower the level (CPU-wide counting needs 0): echo 0 > %s",
		 evsel->name, perf_backend_paranoid_file(), level,
		 perf_backend_paranoid_file());
	return buf;
}

const char *perf_strerror_open(int err, const struct perf_evsel *evsel,
			       char *buf, size_t size)
{
	if (evsel->filter_failed) {
		snprintf(buf, size,
			 "The kernel rejected the filter '%s' of '%s' (%s): check the field names in the event's tracefs format file.",
			 evsel->filter, evsel->name, strerror(err));
		return buf;
	}
	switch (err) {
	case EACCES:
	case EPERM:
		return access_advice(evsel, buf, size);
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		snprintf(buf, size,
			 "The event '%s' is not supported on this system (%s): the kernel or the hardware (e.g. no PMU in a VM) does not provide it.",
			 evsel->name, strerror(err));
		return buf;
	case ESRCH:
		snprintf(buf, size,
			 "Cannot open '%s': the target process or thread does not exist.",
			 evsel->name);
		return buf;
	case EMFILE:
		snprintf(buf, size,
			 "Too many open files opening '%s': raise the limit with 'ulimit -n' or count fewer CPUs/threads.",
			 evsel->name);
		return buf;
	case ENOSYS:
		snprintf(buf, size,
			 "The kernel has no %s system call (CONFIG_PERF_EVENTS or the perf_counter subsystem is missing).",
			 perf_backend_name(perf_backend()));
		return buf;
	case EINVAL:
		snprintf(buf, size,
			 "The kernel rejected the attributes of '%s' (EINVAL): the event, its modifiers or the CPU may not be valid here.",
			 evsel->name);
		return buf;
	default:
		snprintf(buf, size, "Cannot open event '%s': %s", evsel->name,
			 strerror(err));
		return buf;
	}
}

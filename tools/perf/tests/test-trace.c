// SPDX-License-Identifier: GPL-2.0
/*
 * perf trace building blocks: the generated syscall tables, argument
 * printing from sys_enter formats, return values, time of day.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <event-parse.h>
#include "tests.h"
#include "../util/syscall-args.h"
#include "../util/syscalltbl.h"
#include "../util/event.h"
#include "../util/tod.h"

int test__syscalltbl(struct test_ctx *ctx)
{
	/* The example of the two tables: getpid is 39 and 20. */
	TEST_ASSERT(ctx, !strcmp(syscalltbl_name(SYSCALL_ABI_64, 39), "getpid"),
		    "64-bit 39 is %s", syscalltbl_name(SYSCALL_ABI_64, 39));
	TEST_ASSERT(ctx, !strcmp(syscalltbl_name(SYSCALL_ABI_32, 20), "getpid"),
		    "32-bit 20 is %s", syscalltbl_name(SYSCALL_ABI_32, 20));
	TEST_ASSERT(ctx, !strcmp(syscalltbl_name(SYSCALL_ABI_32, 64), "getppid") &&
		    !strcmp(syscalltbl_name(SYSCALL_ABI_64, 64), "semget"),
		    "number 64 differs between the tables");
	TEST_ASSERT(ctx, syscalltbl_nr(SYSCALL_ABI_64, "openat") == 257 &&
		    syscalltbl_nr(SYSCALL_ABI_32, "openat") == 295,
		    "openat is 257 / 295");
	TEST_ASSERT(ctx, syscalltbl_nr(SYSCALL_ABI_64, "socketcall") == -1 &&
		    syscalltbl_nr(SYSCALL_ABI_32, "socketcall") == 102,
		    "socketcall is 32-bit only");
	TEST_ASSERT(ctx, !syscalltbl_name(SYSCALL_ABI_64, -1) &&
		    !syscalltbl_name(SYSCALL_ABI_64, 100000),
		    "out of range numbers have no name");
	return TEST_OK;
}

static const char openat_format[] =
	"name: sys_enter_openat\nID: 700\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:umode_t mode;\toffset:40;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"dfd: 0x%08lx\", ((unsigned long)(REC->dfd))\n";

static int check_args(struct test_ctx *ctx, const struct syscall_fmt *f,
		      const u64 *args, bool compat, const char *want)
{
	char buf[256];

	syscall_fmt__args(f, args, compat, buf, sizeof(buf));
	TEST_ASSERT(ctx, !strcmp(buf, want), "args '%s', want '%s'", buf,
		    want);
	return TEST_OK;
}

int test__syscall_args(struct test_ctx *ctx)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *e;
	struct syscall_fmt f;
	u64 open_args[6] = { (u64)-100, 0x1000, 02000101, 0644 };
	u64 compat_args[6] = { 0xffffff9cULL, 0x2000, 0 };
	u64 raw[6] = { 0, 5, 0 };
	char buf[128];

	TEST_ASSERT(ctx, tep && !tep_parse_format(tep, &e, openat_format,
						  strlen(openat_format),
						  "syscalls"),
		    "openat format parses");
	syscall_fmt__init(&f, "openat", e);
	TEST_ASSERT(ctx, f.nr_args == 4, "openat has %d args", f.nr_args);
	if (check_args(ctx, &f, open_args, false,
		       "dfd: CWD, filename: 0x1000, flags: WRONLY|CREAT|CLOEXEC, mode: 0644") ||
	    /* A 32-bit task: AT_FDCWD in 32 bits, O_RDONLY is 0. */
	    check_args(ctx, &f, compat_args, true,
		       "dfd: CWD, filename: 0x2000, flags: RDONLY"))
		return TEST_FAIL;
	syscall_fmt__init(&f, "nosuch", NULL);
	if (check_args(ctx, &f, raw, false, "arg1: 0x5"))
		return TEST_FAIL;
	syscall_fmt__ret(&f, -2, buf, sizeof(buf));
	TEST_ASSERT(ctx, !strcmp(buf, "= -1 ENOENT (No such file or directory)"),
		    "error return '%s'", buf);
	syscall_fmt__ret(&f, 42, buf, sizeof(buf));
	TEST_ASSERT(ctx, !strcmp(buf, "= 42"), "return '%s'", buf);
	syscall_fmt__init(&f, "mmap", NULL);
	syscall_fmt__ret(&f, 0x7f0000001000LL, buf, sizeof(buf));
	TEST_ASSERT(ctx, !strcmp(buf, "= 0x7f0000001000"), "mmap return '%s'",
		    buf);
	TEST_ASSERT(ctx, f.ret_hex && !f.no_return, "mmap returns an address");
	syscall_fmt__init(&f, "exit_group", NULL);
	TEST_ASSERT(ctx, f.no_return, "exit_group does not return");
	tep_free(tep);
	return TEST_OK;
}

int test__tod(struct test_ctx *ctx)
{
	struct tod tod = { .valid = true, .tod_ns = 1000000000ULL * 86400 * 3,
			   .clock_ns = 5000000000ULL };
	struct tod_point p;
	char buf[32];

	TEST_ASSERT(ctx, tod_parse_clockid("monotonic") == 1 &&
		    tod_parse_clockid("CLOCK_MONOTONIC_RAW") == 4 &&
		    tod_parse_clockid("7") == 7 &&
		    tod_parse_clockid("sundial") == -1,
		    "clock names");
	setenv("TZ", "UTC", 1);
	/* 1.5 s and 250 us after the reference, which is midnight. */
	tod_format(tod_of(&tod, 6500250000ULL), buf, sizeof(buf));
	TEST_ASSERT(ctx, !strcmp(buf, "00:00:01.500250"), "tod '%s'", buf);
	tod_format(tod_of(&tod, 4000000000ULL), buf, sizeof(buf));
	TEST_ASSERT(ctx, !strcmp(buf, "23:59:59.000000"), "before: '%s'", buf);
	TEST_ASSERT(ctx, !tod_take_point(1, &p) &&
		    p.tod_ns > 1600000000ULL * 1000000000ULL,
		    "a reference taken now");
	return TEST_OK;
}

#define SEC 1000000000ULL

/* Points 1 s apart; time of day running @ppm fast from the second on. */
static void slewed_points(struct tod *tod, int ppm)
{
	struct tod_point p = { .clock_ns = 100 * SEC, .tod_ns = 1700000000 * SEC };
	int i;

	for (i = 0; i < 4; i++) {
		tod_add_point(tod, &p);
		p.clock_ns += SEC;
		p.tod_ns += SEC + (i ? ppm * 1000ULL : 0);
	}
}

/* The points of perf record --tod: rate, steps, order, the record. */
int test__tod_points(struct test_ctx *ctx)
{
	struct tod tod = { 0 };
	struct tod_point p, q;
	u64 base = 1700000000 * SEC;
	union {
		struct perf_record_tod_point rec;
		union perf_event ev;
	} r;

	slewed_points(&tod, 500);
	/* Between the second and third point: the first interval's rate, 1. */
	TEST_ASSERT(ctx, tod_of(&tod, 101 * SEC + SEC / 2) == base + SEC + SEC / 2,
		    "rate 1 after the first interval: %llu", tod_of(&tod, 101 * SEC + SEC / 2) - base);
	/* After the third: 500 ppm, measured over the interval before. */
	TEST_ASSERT(ctx, tod_of(&tod, 102 * SEC + SEC / 2) ==
		    base + 2 * SEC + 500000 + SEC / 2 + 250000,
		    "500 ppm after the third point: %llu", tod_of(&tod, 102 * SEC + SEC / 2) - base);
	/* Past the last: extrapolated at that rate. */
	TEST_ASSERT(ctx, tod_of(&tod, 105 * SEC) == base + 5 * SEC + 2000000,
		    "extrapolated: %llu", tod_of(&tod, 105 * SEC) - base);
	/* Before the first: its offset. */
	TEST_ASSERT(ctx, tod_of(&tod, 99 * SEC) == base - SEC, "before the first");
	/* --tod=start: CLOCK_DATA's pair alone. */
	tod.start_only = true;
	tod.tod_ns = base;
	tod.clock_ns = 100 * SEC;
	TEST_ASSERT(ctx, tod_of(&tod, 105 * SEC) == base + 5 * SEC, "start only");
	tod.start_only = false;

	/* A step: rate 1 after it, not the jump spread over an interval. */
	p = (struct tod_point){ .clock_ns = 104 * SEC, .tod_ns = base + 6 * SEC,
				.flags = TOD_POINT_STEP };
	tod_add_point(&tod, &p);
	TEST_ASSERT(ctx, tod_of(&tod, 104 * SEC + SEC / 2) == base + 6 * SEC + SEC / 2,
		    "after a step: %llu", tod_of(&tod, 104 * SEC + SEC / 2) - base);
	/* A step not flagged (a rate off by 50%) counts as one too. */
	p = (struct tod_point){ .clock_ns = 105 * SEC, .tod_ns = base + 7 * SEC + SEC / 2 };
	tod_add_point(&tod, &p);
	TEST_ASSERT(ctx, tod_of(&tod, 106 * SEC) == base + 8 * SEC + SEC / 2,
		    "an unflagged step: %llu", tod_of(&tod, 106 * SEC) - base);
	/* Repeated points (dumps) are kept once; late ones go in order. */
	tod_add_point(&tod, &p);
	q = (struct tod_point){ .clock_ns = 99 * SEC, .tod_ns = base - SEC };
	tod_add_point(&tod, &q);
	TEST_ASSERT(ctx, tod.nr_points == 7 && tod.points[0].clock_ns == 99 * SEC,
		    "%u points, first at %llu", tod.nr_points, tod.points[0].clock_ns);
	tod_exit(&tod);

	/* The record: written, parsed back; other event type records not. */
	p = (struct tod_point){ 1, 2, 3, TOD_POINT_STEP };
	tod_point_record(&p, 12, &r.rec);
	TEST_ASSERT(ctx, r.ev.header.type == PERF_RECORD_HEADER_EVENT_TYPE &&
		    r.ev.header.size == 48 && !tod_point_parse(&r.ev, &q) &&
		    !memcmp(&p, &q, sizeof(p)) && r.rec.clockid == 12,
		    "the point record");
	r.rec.magic = 1234;
	TEST_ASSERT(ctx, tod_point_parse(&r.ev, &q) == -EINVAL,
		    "an obsolete event type record is no point");
	return TEST_OK;
}

/* The tracker takes a point a second, and at once after a clock step. */
int test__tod_tracker(struct test_ctx *ctx)
{
	struct tod_tracker t;
	struct tod_point p;

	TEST_ASSERT(ctx, !tod_tracker__init(&t, CLOCK_MONOTONIC, 2), "init");
	TEST_ASSERT(ctx, tod_tracker__poll(&t, &p) == 1 && !p.flags,
		    "the first poll takes a point");
	TEST_ASSERT(ctx, tod_tracker__poll(&t, &p) == 0, "none due yet");
	/* As if the time of day had been set back 2 s since the last point. */
	t.last.tod_ns += 2 * SEC;
	TEST_ASSERT(ctx, tod_tracker__poll(&t, &p) == 0,
		    "the clocks are compared 10 times a second, no more");
	t.next_check = 0;
	TEST_ASSERT(ctx, tod_tracker__poll(&t, &p) == 1 &&
		    (p.flags & TOD_POINT_STEP), "a step is caught at once");
	/* A slew of 0.5 ms since the last point is none. */
	t.last.tod_ns += 500000;
	t.next_check = 0;
	TEST_ASSERT(ctx, tod_tracker__poll(&t, &p) == 0, "a slew is no step");
	/* An interval later, a point is due. */
	t.last.clock_ns -= SEC;
	t.last.tod_ns -= SEC;
	t.next_check = 0;
	TEST_ASSERT(ctx, tod_tracker__poll(&t, &p) == 1 && !p.flags,
		    "a point a second");
	TEST_ASSERT(ctx, t.nr_kept == 2 && tod_tracker__kept(&t, 1)->clock_ns ==
		    p.clock_ns, "the newest two are kept");
	tod_tracker__exit(&t);
	return TEST_OK;
}

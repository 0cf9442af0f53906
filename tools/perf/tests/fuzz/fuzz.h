/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_TESTS_FUZZ_H
#define __PERF_TESTS_FUZZ_H

/*
 * Helpers shared by the libFuzzer targets: they run perf's own commands
 * (cmd_report, cmd_sched, ...) on the fuzz input, so that every
 * input goes through the entry points a user reaches.
 */
#include <stdbool.h>
#include <stddef.h>
#include <perf/types.h>

typedef int (*fuzz_cmd_fn)(int argc, const char **argv);

/* Once per process: output to /dev/null, an empty --symfs and kallsyms. */
void fuzz__init(void);

/* The empty --symfs directory and --kallsyms file made by fuzz__init. */
extern const char *fuzz_symfs;
extern const char *fuzz_kallsyms;

/*
 * The input as a regular, mappable file: its path (in /proc/self/fd),
 * valid until fuzz__put_file().
 */
const char *fuzz__get_file(const u8 *data, size_t size);
void fuzz__put_file(void);

/*
 * Run a command on argv (NULL-terminated), then forget what the command
 * cached across runs (DSOs, symbols) so that memory stays bounded.
 * With pipe_data, the command's standard input is a pipe holding it.
 */
int fuzz__run(fuzz_cmd_fn fn, const char **argv);
int fuzz__run_pipe(fuzz_cmd_fn fn, const char **argv, const u8 *data,
		   size_t size);

/*
 * A command that reads perf.data, with options that reach the most
 * code (report, report -D, sched timehist, trace -i, script, data
 * convert), on the input as a file or through a pipe: which one follows
 * from the size of the input, so that running an input again runs the
 * same one.
 */
void fuzz__run_readers(const u8 *data, size_t size, bool pipe);

#endif /* __PERF_TESTS_FUZZ_H */

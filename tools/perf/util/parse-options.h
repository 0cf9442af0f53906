/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_PARSE_OPTIONS_H
#define __PERF_PARSE_OPTIONS_H

#include <stdbool.h>

enum option_type {
	OPTION_END,
	OPTION_BOOLEAN,		/* bool *; --no-NAME clears */
	OPTION_TRISTATE,	/* int *: 1 --NAME, 0 --no-NAME, else as set */
	OPTION_INCR,		/* int *; each use adds one */
	OPTION_INTEGER,		/* int * */
	OPTION_UINTEGER,	/* unsigned int * */
	OPTION_STRING,		/* const char ** */
	OPTION_CALLBACK,	/* callback(opt, arg, unset) */
	OPTION_GROUP,		/* a heading in the help text */
	OPTION_TABLE,		/* .value: more options, spliced in here */
};

struct option;
typedef int (*option_cb)(const struct option *opt, const char *arg,
			 int unset);

struct option {
	enum option_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;	/* argument placeholder; NULL: no argument */
	const char *help;
	option_cb callback;
	bool optional_arg;
	/*
	 * With optional_arg: the value may also be the next argument, when
	 * that one does not start with '-' ("-g caller", as Linux perf).
	 */
	bool optional_next;
};

#define OPT_END() { .type = OPTION_END }
#define OPT_GROUP(h) { .type = OPTION_GROUP, .help = (h) }
/* Options several commands share, from an array ending in OPT_END(). */
#define OPT_TABLE(t) { .type = OPTION_TABLE, .value = (void *)(t) }
#define OPT_BOOLEAN(s, l, v, h) \
	{ .type = OPTION_BOOLEAN, .short_name = (s), .long_name = (l), \
	  .value = (v), .help = (h) }
/*
 * An on/off option whose absence means "the default, decided later":
 * *v holds TRISTATE_UNSET until --NAME (1) or --no-NAME (0), the last
 * of them winning.
 */
#define TRISTATE_UNSET	-1
#define OPT_TRISTATE(s, l, v, h) \
	{ .type = OPTION_TRISTATE, .short_name = (s), .long_name = (l), \
	  .value = (v), .help = (h) }
#define OPT_INCR(s, l, v, h) \
	{ .type = OPTION_INCR, .short_name = (s), .long_name = (l), \
	  .value = (v), .help = (h) }
#define OPT_INTEGER(s, l, v, a, h) \
	{ .type = OPTION_INTEGER, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h) }
#define OPT_UINTEGER(s, l, v, a, h) \
	{ .type = OPTION_UINTEGER, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h) }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h) }
#define OPT_CALLBACK(s, l, v, a, h, f) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .callback = (f) }
#define OPT_CALLBACK_NOARG(s, l, v, h, f) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .help = (h), .callback = (f) }

/* Stop at the first argument that is not an option (the workload). */
#define PARSE_OPT_STOP_AT_NON_OPTION	(1 << 0)
/*
 * Return -1 on a usage error, -h or --help, printing nothing more than
 * a callback did, instead of exiting: for callers that must go on (the
 * options fuzz target).
 */
#define PARSE_OPT_NO_EXIT		(1 << 1)

/*
 * What a callback returns when it has printed why a value is refused
 * and the option list would only bury that: exit 129 without it.
 */
#define PARSE_OPT_ERROR_SAID	2

/* Exit status for a usage error, as git and perf use. */
#define PARSE_OPT_USAGE_EXIT 129

/*
 * "--help" anywhere among a command's options prints @text (its manual)
 * and exits 0, as "perf help CMD" does; "-h" keeps the short usage.
 */
void parse_options__set_manual(const char *text);

int parse_options(int argc, const char **argv, const struct option *opts,
		  const char * const usage[], int flags);

/*
 * A subcommand: "perf sched timehist", "perf data convert".  @fn gets
 * the arguments from the subcommand's name on, and the caller's @ctx.
 */
struct subcommand {
	const char *name;
	int (*fn)(int argc, const char **argv, void *ctx);
};

/*
 * Run the subcommand of @table that argv[0] names.  Unknown (or no
 * argv[0]): says "perf @cmd: unknown subcommand 'X' (a, b)" on stderr
 * and returns PARSE_OPT_USAGE_EXIT.
 */
int subcommand__run(const char *cmd, const struct subcommand *table,
		    size_t nr, int argc, const char **argv, void *ctx);
void usage_with_options(const char * const usage[],
			const struct option *opts) __attribute__((noreturn));
void usage_with_options_msg(const char * const usage[],
			    const struct option *opts, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));

#endif /* __PERF_PARSE_OPTIONS_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Command-line options in the style perf users know: "-e X", "-eX",
 * "--event X", "--event=X", bundled short flags "-aA", "--no-FLAG", and
 * "--" to end options.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse-options.h"

static void print_option(const struct option *o, FILE *out)
{
	char left[64];
	int n = 0;

	if (o->short_name)
		n += snprintf(left + n, sizeof(left) - n, "-%c", o->short_name);
	if (o->short_name && o->long_name)
		n += snprintf(left + n, sizeof(left) - n, ", ");
	if (o->long_name)
		n += snprintf(left + n, sizeof(left) - n, "--%s", o->long_name);
	if (o->argh)
		snprintf(left + n, sizeof(left) - n, " <%s>", o->argh);
	fprintf(out, "    %-22s %s\n", left, o->help ? o->help : "");
}

/* The command's manual, for "--help"; NULL: the short usage instead. */
static const char *manual_text;

void parse_options__set_manual(const char *text)
{
	manual_text = text;
}

static void print_options(const struct option *opts, FILE *out)
{
	for (; opts->type != OPTION_END; opts++) {
		if (opts->type == OPTION_TABLE)
			print_options(opts->value, out);
		else if (opts->type == OPTION_GROUP)
			fprintf(out, "\n%s\n", opts->help);
		else
			print_option(opts, out);
	}
}

void usage_with_options(const char * const usage[], const struct option *opts)
{
	const char * const *u;

	for (u = usage; *u; u++)
		fprintf(stderr, "%s %s\n", u == usage ? "\n Usage:" : "   or:",
			*u);
	fputc('\n', stderr);
	print_options(opts, stderr);
	fputc('\n', stderr);
	exit(PARSE_OPT_USAGE_EXIT);
}

void usage_with_options_msg(const char * const usage[],
			    const struct option *opts, const char *fmt, ...)
{
	va_list ap;

	fputs("  Error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage_with_options(usage, opts);
}

static int parse_int(const char *arg, long min, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(arg, &end, 0);
	if (errno || end == arg || *end || *out < min || *out > max)
		return -1;
	return 0;
}

/* apply() and the parsers: the error is explained, no usage to add. */
#define ERROR_SAID	(-2)

/* What a parser returns: @used argv entries, or apply()'s error. */
static int applied(int err, int used)
{
	return err == ERROR_SAID ? ERROR_SAID : err ? -1 : used;
}

/*
 * Apply one option.  @arg is its argument or NULL; @unset for --no-X.
 * Returns 0, -1 or ERROR_SAID.
 */
static int apply(const struct option *o, const char *arg, int unset,
		 const char *spelled)
{
	long v;

	switch (o->type) {
	case OPTION_BOOLEAN:
		*(bool *)o->value = !unset;
		return 0;
	case OPTION_TRISTATE:
		*(int *)o->value = !unset;
		return 0;
	case OPTION_INCR:
		*(int *)o->value = unset ? 0 : *(int *)o->value + 1;
		return 0;
	case OPTION_INTEGER:
		if (parse_int(arg, -2147483647L, 2147483647L, &v))
			goto bad_number;
		*(int *)o->value = v;
		return 0;
	case OPTION_UINTEGER:
		if (parse_int(arg, 0, 4294967295L, &v))
			goto bad_number;
		*(unsigned int *)o->value = v;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = unset ? NULL : arg;
		return 0;
	case OPTION_CALLBACK:
		v = o->callback(o, arg, unset);
		return v == PARSE_OPT_ERROR_SAID ? ERROR_SAID : v ? -1 : 0;
	default:
		return -1;
	}
bad_number:
	fprintf(stderr, "  Error: option `%s' expects a number, not '%s'\n",
		spelled, arg);
	return -1;
}

static const struct option *find_short(const struct option *opts, int c)
{
	const struct option *found;

	for (; opts->type != OPTION_END; opts++) {
		if (opts->type == OPTION_TABLE) {
			found = find_short(opts->value, c);
			if (found)
				return found;
		} else if (opts->type != OPTION_GROUP && opts->short_name == c) {
			return opts;
		}
	}
	return NULL;
}

struct long_match {
	const struct option *exact;
	const struct option *prefix;
	int nr_prefixes;
};

static void match_long(const struct option *opts, const char *name,
		       size_t len, struct long_match *m)
{
	for (; opts->type != OPTION_END; opts++) {
		if (opts->type == OPTION_TABLE) {
			match_long(opts->value, name, len, m);
			continue;
		}
		if (!opts->long_name || strncmp(opts->long_name, name, len))
			continue;
		if (strlen(opts->long_name) == len) {
			if (!m->exact)
				m->exact = opts;
			continue;
		}
		m->prefix = opts;
		m->nr_prefixes++;
	}
}

/* Exact long name, or else a unique prefix of one. */
static const struct option *find_long(const struct option *opts,
				      const char *name, size_t len)
{
	struct long_match m = { NULL, NULL, 0 };

	match_long(opts, name, len, &m);
	if (m.exact)
		return m.exact;
	return m.nr_prefixes == 1 ? m.prefix : NULL;
}

static bool takes_arg(const struct option *o)
{
	return o->argh != NULL && o->type != OPTION_BOOLEAN &&
	       o->type != OPTION_TRISTATE && o->type != OPTION_INCR;
}

/* Is the argument after an optional_next option its value? */
static bool optional_value_next(const struct option *o, int argc,
				const char **argv)
{
	return o->optional_next && argc >= 2 && argv[1][0] != '-';
}

/* "--name[=value]" or "--no-name"; returns argv entries consumed or -1. */
static int parse_long(const struct option *opts, int argc, const char **argv)
{
	const char *name = argv[0] + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct option *o = find_long(opts, name, len);
	int unset = 0;

	if (!o && !strncmp(name, "no-", 3)) {
		o = find_long(opts, name + 3, len - 3);
		unset = 1;
		if (o && takes_arg(o) && o->type != OPTION_STRING &&
		    !o->optional_arg)
			o = NULL;
	}
	if (!o) {
		fprintf(stderr, "  Error: unknown option `%.*s'\n", (int)len,
			name);
		return -1;
	}
	if (unset || !takes_arg(o)) {
		if (eq) {
			fprintf(stderr, "  Error: option `%s' takes no value\n",
				o->long_name);
			return -1;
		}
		return applied(apply(o, NULL, unset, argv[0]), 1);
	}
	if (eq)
		return applied(apply(o, eq + 1, 0, argv[0]), 1);
	if (o->optional_arg && optional_value_next(o, argc, argv))
		return applied(apply(o, argv[1], 0, argv[0]), 2);
	if (o->optional_arg)
		return applied(apply(o, NULL, 0, argv[0]), 1);
	if (argc < 2) {
		fprintf(stderr, "  Error: option `%s' requires a value\n",
			o->long_name);
		return -1;
	}
	return applied(apply(o, argv[1], 0, argv[0]), 2);
}

/* "-abc", "-eX" or "-e X"; returns argv entries consumed or -1. */
static int parse_short(const struct option *opts, int argc, const char **argv)
{
	const char *p = argv[0] + 1;
	int used;

	for (; *p; p++) {
		const struct option *o = find_short(opts, *p);
		char spelled[3] = { '-', *p, 0 };

		if (!o) {
			fprintf(stderr, "  Error: unknown switch `%c'\n", *p);
			return -1;
		}
		if (!takes_arg(o)) {
			used = applied(apply(o, NULL, 0, spelled), 0);
			if (used)
				return used;
			continue;
		}
		if (p[1])
			return applied(apply(o, p + 1, 0, spelled), 1);
		if (o->optional_arg && optional_value_next(o, argc, argv))
			return applied(apply(o, argv[1], 0, spelled), 2);
		if (o->optional_arg)
			return applied(apply(o, NULL, 0, spelled), 1);
		if (argc < 2) {
			fprintf(stderr, "  Error: switch `%c' requires a value\n",
				*p);
			return -1;
		}
		return applied(apply(o, argv[1], 0, spelled), 2);
	}
	return 1;
}

/*
 * Parse options, leaving the non-option arguments at the front of argv.
 * Returns their number; on an error prints usage and exits 129 (or,
 * with PARSE_OPT_NO_EXIT, returns -1).
 */
int parse_options(int argc, const char **argv, const struct option *opts,
		  const char * const usage[], int flags)
{
	int i = 0, out = 0, used;

	while (i < argc) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if ((flags & PARSE_OPT_NO_EXIT) &&
		    (!strcmp(arg, "-h") || !strcmp(arg, "--help")))
			return -1;
		if (!strcmp(arg, "--help") && manual_text) {
			fputs(manual_text, stdout);
			exit(0);
		}
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help"))
			usage_with_options(usage, opts);
		if (arg[0] != '-' || arg[1] == '\0') {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[out++] = argv[i++];
			continue;
		}
		if (arg[1] == '-')
			used = parse_long(opts, argc - i, argv + i);
		else
			used = parse_short(opts, argc - i, argv + i);
		if (used < 0 && (flags & PARSE_OPT_NO_EXIT))
			return -1;
		if (used == ERROR_SAID)
			exit(PARSE_OPT_USAGE_EXIT);
		if (used < 0)
			usage_with_options(usage, opts);
		i += used;
	}
	while (i < argc)
		argv[out++] = argv[i++];
	argv[out] = NULL;
	return out;
}

int subcommand__run(const char *cmd, const struct subcommand *table,
		    size_t nr, int argc, const char **argv, void *ctx)
{
	size_t i;

	for (i = 0; argc > 0 && i < nr; i++)
		if (!strcmp(argv[0], table[i].name))
			return table[i].fn(argc, argv, ctx);
	fprintf(stderr, "perf %s: unknown subcommand '%s' (", cmd,
		argc > 0 ? argv[0] : "");
	for (i = 0; i < nr; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", table[i].name);
	fprintf(stderr, ")\n");
	return PARSE_OPT_USAGE_EXIT;
}

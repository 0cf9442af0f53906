// SPDX-License-Identifier: GPL-2.0
/*
 * Argument vectors for the commands perf runs (its own record for top).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strvec.h"

/* Room for one more string and the NULL after it. */
static int strvec_grow(struct strvec *sv)
{
	size_t alloc = sv->alloc ? sv->alloc * 2 : 16;
	char **v;

	if (sv->nr + 2 <= sv->alloc)
		return 0;
	v = realloc(sv->v, alloc * sizeof(*v));
	if (!v)
		return -1;
	sv->v = v;
	sv->alloc = alloc;
	return 0;
}

static void strvec_take(struct strvec *sv, char *s)
{
	if (!s || strvec_grow(sv)) {
		free(s);
		sv->failed = 1;
		return;
	}
	sv->v[sv->nr++] = s;
	sv->v[sv->nr] = NULL;
}

void strvec__push(struct strvec *sv, const char *s)
{
	strvec_take(sv, strdup(s));
}

void strvec__pushf(struct strvec *sv, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	strvec_take(sv, s);
}

void strvec__pushv(struct strvec *sv, int argc, const char * const *argv)
{
	int i;

	for (i = 0; i < argc; i++)
		strvec__push(sv, argv[i]);
}

void strvec__clear(struct strvec *sv)
{
	size_t i;

	for (i = 0; i < sv->nr; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->nr = 0;
	sv->alloc = 0;
	sv->failed = 0;
}

int strvec__run(struct strvec *sv, int (*fn)(int argc, const char **argv),
		const char *who)
{
	const char **argv = NULL;
	int ret = 1;

	if (!sv->failed)
		argv = calloc(sv->nr + 1, sizeof(*argv));
	if (argv) {
		memcpy(argv, sv->v, sv->nr * sizeof(*argv));
		ret = fn(sv->nr, argv);
	} else {
		fprintf(stderr, "%s: out of memory\n", who);
	}
	free(argv);
	strvec__clear(sv);
	return ret;
}

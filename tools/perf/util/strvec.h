/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_STRVEC_H
#define __PERF_UTIL_STRVEC_H

#include <stddef.h>

/*
 * An argument vector built one string at a time, always ending in NULL
 * so that v can go to execv() as it is.  The strings are copies, freed
 * by strvec__clear().  After a failed push the vector is marked failed
 * and keeps its strings: check once, with strvec__failed(), at the end.
 */
struct strvec {
	char **v;
	size_t nr;
	size_t alloc;
	int failed;
};

#define STRVEC_INIT { .v = NULL }

void strvec__push(struct strvec *sv, const char *s);
void strvec__pushf(struct strvec *sv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Pushes each of @argv's @argc strings. */
void strvec__pushv(struct strvec *sv, int argc, const char * const *argv);
static inline int strvec__failed(const struct strvec *sv)
{
	return sv->failed;
}

void strvec__clear(struct strvec *sv);

/*
 * fn(nr, v) on a copy of the vector's pointers, which option parsing
 * may reorder and overwrite, then clear the vector.  fn's result, or 1
 * (said on stderr, naming @who) when a push had failed.
 */
int strvec__run(struct strvec *sv, int (*fn)(int argc, const char **argv),
		const char *who);

#endif /* __PERF_UTIL_STRVEC_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_PARSE_EVENTS_H
#define __PERF_PARSE_EVENTS_H

#include <perf/evlist.h>

/* A named event with a fixed encoding (hardware and software events). */
struct perf_event_symbol {
	const char *name;
	const char *alias;	/* other accepted name, or NULL */
	u32 type;
	u64 config;
};

extern const struct perf_event_symbol perf_hw_symbols[];
extern const struct perf_event_symbol perf_sw_symbols[];
extern const int perf_nr_hw_symbols;
extern const int perf_nr_sw_symbols;

extern const char * const perf_cache_names[PERF_COUNT_HW_CACHE_MAX];
extern const char * const perf_cache_op_names[PERF_COUNT_HW_CACHE_OP_MAX];
extern const char * const perf_cache_op_plurals[PERF_COUNT_HW_CACHE_OP_MAX];
bool perf_cache_op_valid(int cache, int op);

/* Where parsing stopped and why, for a message that points at it. */
struct parse_events_error {
	int pos;
	char msg[256];
};

int parse_events(struct perf_evlist *evlist, const char *str,
		 struct parse_events_error *err);
void parse_events_error__print(const struct parse_events_error *err,
			       const char *str, FILE *out);

#endif /* __PERF_PARSE_EVENTS_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_DATA_CONVERT_JSON_H
#define __PERF_UTIL_DATA_CONVERT_JSON_H

/*
 * perf data convert --to-json: a perf.data file as one JSON document,
 * laid out as Linux perf 6.1 lays it out (same keys, order and tab
 * indentation), so that programs written for its output read ours.
 *
 *	{
 *		"linux-perf-json-version": 1,
 *		"headers": { the file header and features },
 *		"samples": [ one object per sample, in time order ]
 *	}
 */
#include <stdbool.h>

struct data_convert_opts {
	const char *input;	/* perf.data path, "-" for standard input */
	const char *output;	/* the JSON file to write */
	bool force;		/* overwrite output if it exists */
	bool all;		/* --all: refused, as Linux perf does */
	bool tod;		/* --tod: refused, as Linux perf does */
	int verbose;
};

/*
 * Convert o->input into o->output.  Everything that goes wrong is said
 * on stderr, naming the file; returns 0 or 1.  An output that exists
 * is only replaced with o->force, and the input is read before the
 * output is created, so a bad input leaves no output file behind.
 */
int data_convert__json(const struct data_convert_opts *o);

#endif /* __PERF_UTIL_DATA_CONVERT_JSON_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Help texts and command-name suggestions.
 */
#include <stdlib.h>
#include <string.h>
#include "help.h"

struct doc_text {
	const char *cmd;
	const char *text;
};

/* Generated at build time from Documentation/perf-*.txt. */
extern const struct doc_text perf_doc_texts[];
extern const int perf_nr_doc_texts;

const char *help__doc_text(const char *cmd)
{
	int i;

	for (i = 0; i < perf_nr_doc_texts; i++)
		if (!strcmp(perf_doc_texts[i].cmd, cmd))
			return perf_doc_texts[i].text;
	return NULL;
}

int help__levenshtein(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int *row = malloc((lb + 1) * sizeof(int)), d;

	if (!row)
		return 1 << 20;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		int diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			int up = row[j];
			int best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * What the commands that read a file print about it: the header lines,
 * the records they skipped, and the errors of opening it.
 */
#include <stdio.h>
#include <time.h>
#include <sys/stat.h>
#include "data.h"

void perf_session__fprintf_header(struct perf_session *s, FILE *fp, bool full)
{
	const struct perf_file_header *h = &s->header;
	struct stat st;
	time_t t = time(NULL);

	if (s->fd >= 0 && !fstat(s->fd, &st))
		t = st.st_mtime;
	fprintf(fp, "# ========\n");
	fprintf(fp, "# captured on    : %s", ctime(&t));
	fprintf(fp, "# header version : 1\n");
	fprintf(fp, "# data offset    : %llu\n",
		s->pipe ? 0 : h->data.offset);
	fprintf(fp, "# data size      : %llu\n",
		s->pipe ? 0 : h->data.size);
	fprintf(fp, "# feat offset    : %llu\n",
		s->pipe ? 0 : h->data.offset + h->data.size);
	if (s->pipe)
		fprintf(fp, "# ========\n#\n");
	perf_header_info__fprintf(&s->info, fp, full);
	if (s->pipe)
		return;
	perf_header_info__fprintf_missing(&s->info, fp);
	fprintf(fp, "# ========\n#\n");
}

/* "N records of unknown types (T, ...)": the types of the first few. */
static void fprintf_unknown_types(const struct perf_session *s, FILE *fp)
{
	u32 i;

	fprintf(fp, "%llu records of types this perf does not know (",
		(unsigned long long)s->stats.nr_unknown_events);
	for (i = 0; i < s->stats.nr_unknown_types; i++)
		fprintf(fp, "%s%u", i ? ", " : "", s->stats.unknown_types[i]);
	fputc(')', fp);
}

void perf_session__fprintf_skipped(const struct perf_session *s,
				   const char *cmd, FILE *fp)
{
	const struct perf_session_stats *st = &s->stats;

	if (!st->nr_unknown_events && !st->nr_unknown_id)
		return;
	fprintf(fp, "Warning: %s skipped ", cmd);
	if (st->nr_unknown_events)
		fprintf_unknown_types(s, fp);
	if (st->nr_unknown_events && st->nr_unknown_id)
		fputs(" and ", fp);
	if (st->nr_unknown_id)
		fprintf(fp, "%llu samples whose id names no event of the file",
			(unsigned long long)st->nr_unknown_id);
	fputs(".\n", fp);
}

void perf_session__close_report(struct perf_session *s, const char *cmd)
{
	perf_session__fprintf_skipped(s, cmd, stderr);
	perf_session__close(s);
}

int perf_session__open_report(struct perf_session *s, const char *path,
			      const char *cmd)
{
	int err = perf_session__open(s, path);

	if (err == PERF_SESSION_EMPTY)
		fprintf(stderr, "zero-sized file (%s), nothing to do!\n", path);
	else if (err)
		fprintf(stderr, "%s: %s\n", cmd, perf_session__error(s));
	else if (perf_session__warning(s)[0])
		fprintf(stderr, "Warning: %s\n", perf_session__warning(s));
	if (err)
		perf_session__close(s);
	return err;
}

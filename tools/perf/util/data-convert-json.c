// SPDX-License-Identifier: GPL-2.0
/*
 * perf data convert --to-json: a perf.data file as one JSON document.
 *
 * The layout is Linux perf 6.1's, key for key and tab for tab, so that
 * a file converted by either tool reads the same to a program: the
 * header fields and features under "headers", then every sample in
 * time order under "samples", each with its task and the frames of its
 * call chain resolved to symbols the way Linux perf resolves them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "data.h"
#include "data-convert-json.h"
#include "machine.h"
#include "report.h"
#include "../ui/progress.h"

/* The format version Linux perf writes first; bumped on breaking changes. */
#define JSON_FORMAT_VERSION 1

struct json_conv {
	FILE *fp;
	struct perf_session *session;
	struct machine machine;
	struct progress progress;
	u64 nr_samples;
	u64 lost_chunks;
	bool regular;		/* the output is a regular file */
};

/* ---- JSON text ---- */

/* The letter of the two-character escape JSON has for @c, or 0. */
static char json_escape_letter(unsigned char c)
{
	switch (c) {
	case '"':
		return '"';
	case '\\':
		return '\\';
	case '\b':
		return 'b';
	case '\f':
		return 'f';
	case '\n':
		return 'n';
	case '\r':
		return 'r';
	case '\t':
		return 't';
	default:
		return 0;
	}
}

/*
 * The length of the well-formed UTF-8 sequence at @s, or 0 when its
 * bytes are not one (a stray continuation byte, an overlong form, a
 * surrogate, a sequence cut short by the terminating NUL).
 */
static int utf8_len(const unsigned char *s)
{
	u32 cp;
	int len, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (cp >= 0xd800 && cp <= 0xdfff) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

/*
 * How many bytes from @s go out as they are: printable ASCII but the
 * quote and the backslash, and well-formed UTF-8 sequences.
 */
static size_t json_plain_len(const unsigned char *s)
{
	size_t n = 0;
	int len;

	for (;;) {
		if (s[n] >= 0x80) {
			len = utf8_len(s + n);
			if (!len)
				return n;
			n += len;
		} else if (s[n] >= 0x20 && s[n] != '"' && s[n] != '\\') {
			n++;
		} else {
			return n;
		}
	}
}

/*
 * @str as a JSON string.  Comms and paths are bytes, not text: a byte
 * that is not part of valid UTF-8 goes out as the Latin-1 character of
 * that value, so that the document stays valid JSON whatever they hold.
 */
static void json_string(FILE *fp, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;
	char letter;

	fputc('"', fp);
	for (;;) {
		n = json_plain_len(s);
		fwrite(s, 1, n, fp);
		s += n;
		if (!*s)
			break;
		letter = json_escape_letter(*s);
		if (letter)
			fprintf(fp, "\\%c", letter);
		else
			fprintf(fp, "\\u%04x", *s);
		s++;
	}
	fputc('"', fp);
}

/* Begin a value: a comma after the one before, a new line, @depth tabs. */
static void json_line(FILE *fp, bool comma, int depth)
{
	static const char tabs[] = "\t\t\t\t\t\t\t\t";

	if (comma)
		fputc(',', fp);
	fputc('\n', fp);
	fwrite(tabs, 1, depth, fp);
}

static void json_key(FILE *fp, bool comma, int depth, const char *key)
{
	json_line(fp, comma, depth);
	json_string(fp, key);
	fputs(": ", fp);
}

/* A string member; null when the file does not have the value. */
static void json_key_str(FILE *fp, bool comma, int depth, const char *key,
			 const char *val)
{
	json_key(fp, comma, depth, key);
	if (val)
		json_string(fp, val);
	else
		fputs("null", fp);
}

static void json_key_u64(FILE *fp, bool comma, int depth, const char *key,
			 u64 val)
{
	json_key(fp, comma, depth, key);
	fprintf(fp, "%llu", (unsigned long long)val);
}

static void json_key_s64(FILE *fp, bool comma, int depth, const char *key,
			 s64 val)
{
	json_key(fp, comma, depth, key);
	fprintf(fp, "%lld", (long long)val);
}

/* ---- headers ---- */

/* The file's modification time, UTC, as "2024-01-31T12:00:00Z". */
static bool captured_on(const struct perf_session *s, char *buf, size_t size)
{
	struct stat st;
	struct tm tm;
	time_t t;

	/* A pipe's time says when it was last written to, not recorded. */
	if (s->fd >= 0 ? fstat(s->fd, &st) : stat(s->name, &st))
		return false;
	if (!S_ISREG(st.st_mode))
		return false;
	t = st.st_mtime;
	return gmtime_r(&t, &tm) && strftime(buf, size, "%FT%TZ", &tm);
}

static void json_headers(struct json_conv *c)
{
	const struct perf_session *s = c->session;
	const struct perf_header_info *info = &s->info;
	u64 offset = 0, size = 0;
	FILE *fp = c->fp;
	char when[64];
	u32 i;

	/* Only PERFILE2 files are read; Linux perf numbers that format 1. */
	json_key_u64(fp, false, 2, "header-version", 1);
	if (captured_on(s, when, sizeof(when)))
		json_key_str(fp, true, 2, "captured-on", when);
	/* A pipe has no file header: Linux perf leaves these 0. */
	if (!s->pipe) {
		offset = s->header.data.offset;
		size = s->header.data.size;
	}
	json_key_u64(fp, true, 2, "data-offset", offset);
	json_key_u64(fp, true, 2, "data-size", size);
	json_key_u64(fp, true, 2, "feat-offset", offset + size);
	json_key_str(fp, true, 2, "hostname", info->hostname);
	json_key_str(fp, true, 2, "os-release", info->osrelease);
	json_key_str(fp, true, 2, "arch", info->arch);
	json_key_str(fp, true, 2, "cpu-desc", info->cpudesc);
	json_key_str(fp, true, 2, "cpuid", info->cpuid);
	json_key_u64(fp, true, 2, "nrcpus-online", info->nr_cpus_online);
	json_key_u64(fp, true, 2, "nrcpus-avail", info->nr_cpus_avail);
	if (perf_feat_test(info->features, HEADER_CLOCK_DATA)) {
		json_key_u64(fp, true, 2, "clockid", info->clockid);
		json_key_u64(fp, true, 2, "clock-time", info->clock_clockid_ns);
		json_key_u64(fp, true, 2, "real-time", info->clock_tod_ns);
	}
	json_key_str(fp, true, 2, "perf-version", info->version);
	json_key(fp, true, 2, "cmdline");
	fputc('[', fp);
	for (i = 0; i < info->nr_cmdline; i++) {
		json_line(fp, i > 0, 3);
		json_string(fp, info->cmdline[i] ? info->cmdline[i] : "");
	}
	json_line(fp, false, 2);
	fputc(']', fp);
}

/* ---- samples ---- */

/*
 * One frame: its address, and where a symbol covers it, the symbol and
 * the short name of its object, as Linux perf prints them.
 */
static void json_frame(FILE *fp, bool comma, u64 ip,
		       const struct addr_location *al)
{
	json_line(fp, comma, 4);
	fputc('{', fp);
	json_key(fp, false, 5, "ip");
	fprintf(fp, "\"0x%llx\"", (unsigned long long)ip);
	if (al && al->sym && al->sym->name[0]) {
		json_key_str(fp, true, 5, "symbol", al->sym->name);
		if (al->dso && al->dso->short_name && al->dso->short_name[0])
			json_key_str(fp, true, 5, "dso", al->dso->short_name);
	}
	json_line(fp, false, 4);
	fputc('}', fp);
}

/*
 * The frames of a call chain.  Linux perf starts a chain in user mode
 * and lets each context marker switch the mode; a frame is looked up
 * in the maps of its mode only.  A marker it does not know is skipped
 * with the mode left as it was: the rest of the chain is still shown.
 */
static void json_chain(struct json_conv *c, struct thread *t,
		       const struct ip_callchain *cc)
{
	u8 cpumode = PERF_RECORD_MISC_USER;
	struct addr_location al;
	bool comma = false;
	u64 i;

	for (i = 0; i < cc->nr; i++) {
		if (machine__resolve_callchain_ip(&c->machine, t, &cpumode,
						  cc->ips[i], &al))
			continue;
		json_frame(c->fp, comma, cc->ips[i], &al);
		comma = true;
	}
}

/*
 * A sample without a call chain is its one frame, looked up in the maps
 * of the sample's mode only: for Linux perf a kernel or user address
 * seen in any other mode (guest, hypervisor, unknown) has no symbol.
 */
static void json_sample_ip(struct json_conv *c, struct thread *t,
			   const struct perf_sample *s)
{
	u8 cpumode = s->cpumode;
	struct addr_location al;
	bool found = false;

	if ((cpumode == PERF_RECORD_MISC_USER ||
	     cpumode == PERF_RECORD_MISC_KERNEL) && s->ip < PERF_CONTEXT_MAX)
		found = !machine__resolve_callchain_ip(&c->machine, t, &cpumode,
						       s->ip, &al);
	json_frame(c->fp, false, s->ip, found ? &al : NULL);
}

static int json_sample(struct json_conv *c, const struct perf_sample *s,
		       const struct perf_session_attr *pa)
{
	u64 type = pa->attr.sample_type;
	FILE *fp = c->fp;
	struct thread *t;

	t = machine__findnew_thread(&c->machine, s->pid, s->tid);
	if (!t)
		return -ENOMEM;
	json_line(fp, c->nr_samples++ > 0, 2);
	fputc('{', fp);
	/* Linux perf prints the fields a sample lacks as -1. */
	json_key_s64(fp, false, 3, "timestamp",
		     type & PERF_SAMPLE_TIME ? (s64)s->time : -1);
	json_key_s64(fp, true, 3, "pid", (s32)t->pid);
	json_key_s64(fp, true, 3, "tid", (s32)t->tid);
	/* The key is there when any event of the file samples the CPU. */
	if (c->session->sample_type_all & PERF_SAMPLE_CPU)
		json_key_s64(fp, true, 3, "cpu",
			     type & PERF_SAMPLE_CPU ? (s32)s->cpu : -1);
	json_key_str(fp, true, 3, "comm", t->comm);
	json_key(fp, true, 3, "callchain");
	fputc('[', fp);
	if (s->callchain)
		json_chain(c, t, machine__callchain(&c->machine, t, s));
	else
		json_sample_ip(c, t, s);
	json_line(fp, false, 3);
	fputc(']', fp);
	json_line(fp, false, 2);
	fputc('}', fp);
	return 0;
}

static int json_event(struct perf_session *s, const union perf_event *ev,
		      u64 offset, const struct perf_sample *sample,
		      struct perf_session_attr *attr, void *ctx)
{
	struct json_conv *c = ctx;

	progress__update(&c->progress, offset - s->data_offset);
	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		/* Samples of no known event are counted by the session. */
		if (!attr || !sample)
			return 0;
		return json_sample(c, sample, attr);
	case PERF_RECORD_LOST:
		c->lost_chunks++;
		return 0;
	default:
		/* Tasks, comms and maps; perf's own records go by. */
		if (ev->header.type >= PERF_RECORD_USER_TYPE_START)
			return 0;
		return machine__process_event(&c->machine, ev, sample);
	}
}

/* ---- the conversion ---- */

static FILE *open_output(struct json_conv *c,
			 const struct data_convert_opts *o)
{
	int flags = O_WRONLY | O_CREAT | O_CLOEXEC;
	struct stat st;
	FILE *fp;
	int fd;

	flags |= o->force ? O_TRUNC : O_EXCL;
	fd = open(o->output, flags, 0666);
	if (fd < 0) {
		if (errno == EEXIST)
			fprintf(stderr, "perf data convert: %s exists: use -f (--force) to overwrite it\n",
				o->output);
		else
			fprintf(stderr, "perf data convert: cannot create %s: %s\n",
				o->output, strerror(errno));
		return NULL;
	}
	c->regular = !fstat(fd, &st) && S_ISREG(st.st_mode);
	fp = fdopen(fd, "w");
	if (!fp) {
		fprintf(stderr, "perf data convert: %s: %s\n", o->output,
			strerror(errno));
		close(fd);
		return NULL;
	}
	setvbuf(fp, NULL, _IOFBF, 1 << 16);
	return fp;
}

/* The document; returns what reading the records returned. */
static int json_document(struct json_conv *c)
{
	struct perf_session *s = c->session;
	FILE *fp = c->fp;
	int err;

	fputc('{', fp);
	json_key_u64(fp, false, 1, "linux-perf-json-version",
		     JSON_FORMAT_VERSION);
	json_key(fp, true, 1, "headers");
	fputc('{', fp);
	json_headers(c);
	json_line(fp, false, 1);
	fputc('}', fp);
	json_key(fp, true, 1, "samples");
	fputc('[', fp);
	progress__init(&c->progress, s->data_end - s->data_offset,
		       "Converting to JSON");
	err = perf_session__for_each_event_ordered(s, json_event, c);
	progress__finish(&c->progress);
	/* After a damaged record the document still closes: it stays JSON. */
	json_line(fp, false, 1);
	fputc(']', fp);
	json_line(fp, false, 0);
	fputs("}\n", fp);
	return err;
}

/* Says what went wrong while reading; returns 0 or 1. */
static int report_read(struct json_conv *c, int err)
{
	struct perf_session *s = c->session;

	if (c->lost_chunks)
		fprintf(stderr, "Warning:\nProcessed %llu events and lost %llu chunks!\n\nCheck IO/CPU overload!\n\n",
			(unsigned long long)s->stats.nr_events[0],
			(unsigned long long)c->lost_chunks);
	if (err == PERF_SESSION_DATA_ERROR) {
		fprintf(stderr, "Warning: %s\nThe JSON holds the samples before that point.\n",
			perf_session__error(s));
		return 0;
	}
	if (err < 0) {
		fprintf(stderr, "perf data convert: %s: %s\n", s->name,
			perf_session__error(s)[0] ? perf_session__error(s) :
			strerror(-err));
		return 1;
	}
	return 0;
}

/*
 * Half a document is of no use to anyone: remove it.  Only a regular
 * file, though: "--to-json /dev/null" must not remove /dev/null.
 */
static void remove_output(const struct json_conv *c,
			  const struct data_convert_opts *o)
{
	if (c->regular)
		unlink(o->output);
}

/* Flush and close the output; 0 or the errno of the first failure. */
static int close_output(FILE *fp)
{
	int err = 0;

	if (fflush(fp) || ferror(fp))
		err = errno ? errno : EIO;
	if (fclose(fp) && !err)
		err = errno;
	return err;
}

static int convert_session(struct json_conv *c,
			   const struct data_convert_opts *o)
{
	long bytes;
	int ret, err;

	c->fp = open_output(c, o);
	if (!c->fp)
		return 1;
	if (machine__init(&c->machine)) {
		fprintf(stderr, "perf data convert: out of memory\n");
		fclose(c->fp);
		remove_output(c, o);
		return 1;
	}
	report__set_build_ids(c->session);
	err = json_document(c);
	machine__exit(&c->machine);
	ret = report_read(c, err);
	fflush(c->fp);
	bytes = ftell(c->fp);	/* -1 on a pipe: say 0 */
	if (bytes < 0)
		bytes = 0;
	errno = 0;
	err = close_output(c->fp);
	if (err) {
		fprintf(stderr, "perf data convert: writing %s failed: %s\n",
			o->output, strerror(err));
		ret = 1;
	}
	if (ret) {
		remove_output(c, o);
		return ret;
	}
	fprintf(stderr, "[ perf data convert: Converted '%s' into JSON data '%s' ]\n",
		o->input, o->output);
	fprintf(stderr, "[ perf data convert: Converted and wrote %.3f MB (%llu samples) ]\n",
		bytes / 1024.0 / 1024.0, (unsigned long long)c->nr_samples);
	return 0;
}

int data_convert__json(const struct data_convert_opts *o)
{
	struct json_conv c = { .fp = NULL };
	struct perf_session s;
	int ret;

	/* Linux perf 6.1 has these for CTF output only. */
	if (o->all || o->tod) {
		fprintf(stderr, "perf data convert: %s is not supported for JSON output\n",
			o->all ? "--all" : "--tod");
		return 1;
	}
	/* Nothing is created before the input is known to be good. */
	if (perf_session__open_report(&s, o->input, "perf data convert"))
		return 1;
	c.session = &s;
	ret = convert_session(&c, o);
	perf_session__close_report(&s, "perf data convert");
	return ret;
}

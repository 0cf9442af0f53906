// SPDX-License-Identifier: GPL-2.0
/*
 * Tracing data: tracefs format files collected at record time, and
 * their parsing with libtraceevent at analysis time.  See trace-data.h
 * for the layout.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <event-parse.h>
#include <perf/tracefs.h>
#include "data.h"
#include "trace-data.h"

static const char trace_data_magic[10] = "\027\010\104tracing";
#define TRACE_DATA_VERSION "0.6"

/*
 * Read a whole tracefs file: its size is not known in advance (stat
 * says 0), so read until the end.
 */
static int read_tracefs_file(const char *rel, char **out, size_t *len)
{
	char path[4096];
	size_t cap = 8192, n = 0;
	char *buf;
	ssize_t r;
	int fd, err;

	err = tracefs_file(path, sizeof(path), "%s", rel);
	if (err < 0)
		return err;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	while (buf) {
		if (n == cap) {
			char *bigger = realloc(buf, cap * 2);

			if (!bigger)
				break;
			buf = bigger;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			err = r < 0 ? -errno : 0;
			close(fd);
			if (err) {
				free(buf);
				return err;
			}
			*out = buf;
			*len = n;
			return 0;
		}
		n += r;
	}
	close(fd);
	free(buf);
	return -ENOMEM;
}

/* A size field of @width bytes, then the file. */
static int put_tracefs_file(struct perf_fbuf *b, const char *rel, int width)
{
	size_t len = 0;
	char *buf = NULL;
	int err = read_tracefs_file(rel, &buf, &len);

	if (err)
		return err;
	if (width == 4)
		perf_fbuf__put_u32(b, len);
	else
		perf_fbuf__put_u64(b, len);
	perf_fbuf__put(b, buf, len);
	free(buf);
	return 0;
}

/* A file that may be missing: then an empty one. */
static int put_optional_file(struct perf_fbuf *b, const char *rel, int width)
{
	int err = put_tracefs_file(b, rel, width);

	if (err != -ENOENT)
		return err;
	perf_fbuf__zero(b, width);
	return 0;
}

static void put_header(struct perf_fbuf *b)
{
	u32 page_size = sysconf(_SC_PAGESIZE);
	u8 endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	u8 long_size = sizeof(long);

	perf_fbuf__put(b, trace_data_magic, sizeof(trace_data_magic));
	perf_fbuf__put(b, TRACE_DATA_VERSION, sizeof(TRACE_DATA_VERSION));
	perf_fbuf__put(b, &endian, 1);
	perf_fbuf__put(b, &long_size, 1);
	perf_fbuf__put_u32(b, page_size);
}

static size_t subsys_len(const char *event)
{
	const char *colon = strchr(event, ':');

	return colon ? (size_t)(colon - event) : strlen(event);
}

static bool same_subsys(const char *a, const char *b)
{
	size_t len = subsys_len(a);

	return len == subsys_len(b) && !strncmp(a, b, len);
}

/* Whether an event of the same subsystem came before events[i]. */
static bool subsys_seen(const char * const *events, int i)
{
	int j;

	for (j = 0; j < i; j++)
		if (same_subsys(events[j], events[i]))
			return true;
	return false;
}

/* The format files of the events of one subsystem, events[first]'s. */
static int put_subsys(struct perf_fbuf *b, const char * const *events,
		      int nr, int first)
{
	const char *sys = events[first];
	size_t len = subsys_len(sys);
	char rel[512];
	u32 count = 0;
	int i, err;

	for (i = first; i < nr; i++)
		count += same_subsys(events[i], sys);
	perf_fbuf__put(b, sys, len);
	perf_fbuf__zero(b, 1);
	perf_fbuf__put_u32(b, count);
	for (i = first; i < nr; i++) {
		if (!same_subsys(events[i], sys))
			continue;
		snprintf(rel, sizeof(rel), "events/%.*s/%s/format", (int)len,
			 sys, events[i] + len + 1);
		err = put_tracefs_file(b, rel, 8);
		if (err)
			return err;
	}
	return 0;
}

static int trace_data__build_exact(struct perf_fbuf *b,
				   const char * const *events, int nr);

struct name_list {
	char **names;
	int nr;
	int cap;
};

/* Takes @name, a malloc()ed string. */
static int name_list__push(struct name_list *l, char *name)
{
	if (!name)
		return -ENOMEM;
	if (l->nr == l->cap) {
		int cap = l->cap ? l->cap * 2 : 512;
		char **bigger = realloc(l->names, cap * sizeof(*bigger));

		if (!bigger) {
			free(name);
			return -ENOMEM;
		}
		l->names = bigger;
		l->cap = cap;
	}
	l->names[l->nr++] = name;
	return 0;
}

static int name_list__add(const char *subsys, const char *name, void *data)
{
	char *full;

	if (asprintf(&full, "%s:%s", subsys, name) < 0)
		full = NULL;
	return name_list__push(data, full);
}

static bool has_raw_syscalls(const char * const *events, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strncmp(events[i], "raw_syscalls:", 13))
			return true;
	return false;
}

/*
 * raw_syscalls samples carry a syscall number and six words; what the
 * words mean (names, types) is in the formats of syscalls:sys_enter_*.
 * With them in the file, perf trace decodes arguments on any machine.
 */
static int build_with_syscalls(struct perf_fbuf *b, const char * const *events,
			       int nr)
{
	struct name_list l = { 0 };
	int i, err = 0;

	for (i = 0; i < nr && !err; i++)
		if (strncmp(events[i], "syscalls:", 9))
			err = name_list__push(&l, strdup(events[i]));
	if (!err)
		err = tracefs_walk_events("syscalls:sys_enter_*", name_list__add,
					  &l);
	if (!err)
		err = trace_data__build_exact(b, (const char * const *)l.names,
					      l.nr);
	for (i = 0; i < l.nr; i++)
		free(l.names[i]);
	free(l.names);
	return err;
}

int trace_data__build(struct perf_fbuf *b, const char * const *events,
		      int nr)
{
	if (has_raw_syscalls(events, nr))
		return build_with_syscalls(b, events, nr);
	return trace_data__build_exact(b, events, nr);
}

int trace_data__set_header(struct perf_header_info *info,
			   const char * const *events, int nr)
{
	struct perf_fbuf b = { 0 };
	int err = trace_data__build(&b, events, nr);

	if (err) {
		perf_fbuf__free(&b);
		return err;
	}
	info->tracing_data = b.data;
	info->tracing_data_size = b.len;
	perf_feat_set(info->features, HEADER_TRACING_DATA);
	return 0;
}

static int trace_data__build_exact(struct perf_fbuf *b,
				   const char * const *events, int nr)
{
	u32 systems = 0;
	int i, err;

	for (i = 0; i < nr; i++) {
		if (!strchr(events[i], ':'))
			return -EINVAL;
		systems += !subsys_seen(events, i);
	}
	put_header(b);
	perf_fbuf__put(b, "header_page", sizeof("header_page"));
	err = put_tracefs_file(b, "events/header_page", 8);
	if (!err) {
		perf_fbuf__put(b, "header_event", sizeof("header_event"));
		err = put_tracefs_file(b, "events/header_event", 8);
	}
	/* No ftrace-internal events: those are not tracepoints. */
	perf_fbuf__put_u32(b, 0);
	perf_fbuf__put_u32(b, systems);
	for (i = 0; i < nr && !err; i++)
		if (!subsys_seen(events, i))
			err = put_subsys(b, events, nr, i);
	/* Kernel symbols are resolved from kallsyms or vmlinux later. */
	perf_fbuf__put_u32(b, 0);
	if (!err)
		err = put_optional_file(b, "printk_formats", 4);
	if (!err)
		err = put_optional_file(b, "saved_cmdlines", 8);
	return err ? err : b->err;
}

/* ---- parsing ---- */

struct tcur {
	const u8 *p;
	const u8 *end;
	bool swap;
	const char *bad;	/* what was cut short */
};

static const void *tcur_take(struct tcur *c, u64 len, const char *what)
{
	const u8 *p = c->p;

	if (c->bad)
		return NULL;
	if ((u64)(c->end - c->p) < len) {
		c->bad = what;
		return NULL;
	}
	c->p += len;
	return p;
}

static u64 tcur_num(struct tcur *c, int width, const char *what)
{
	const u8 *p = tcur_take(c, width, what);
	u64 v = 0;
	int i;

	if (!p)
		return 0;
	for (i = 0; i < width; i++) {
		int shift = c->swap ? (width - 1 - i) * 8 : i * 8;

		v |= (u64)p[i] << shift;
	}
	return v;
}

static const char *tcur_string(struct tcur *c, const char *what)
{
	const u8 *nul = c->bad ? NULL : memchr(c->p, 0, c->end - c->p);

	if (!nul) {
		c->bad = c->bad ? c->bad : what;
		return NULL;
	}
	return tcur_take(c, nul - c->p + 1, what);
}

/* A NUL-terminated copy of a text section, for the tep parsers. */
static char *tcur_text(struct tcur *c, int width, const char *what)
{
	u64 len = tcur_num(c, width, what);
	const char *p = tcur_take(c, len, what);
	char *text;

	if (!p)
		return NULL;
	text = malloc(len + 1);
	if (text) {
		memcpy(text, p, len);
		text[len] = 0;
	}
	return text;
}

/* A line of the text holds each of the words, and ends with ';'. */
static bool line_has(const char *line, const char *end,
		     const char * const *words, int nr)
{
	int i;

	if (end == line || end[-1] != ';')
		return false;
	for (i = 0; i < nr; i++) {
		const char *w = memmem(line, end - line, words[i],
				       strlen(words[i]));

		if (!w)
			return false;
	}
	return true;
}

/* Is there a field line declaring name (as "NAME;" or "NAME[...")? */
static bool has_field(const char *fields, size_t len, const char *name,
		      size_t name_len)
{
	const char *p = fields, *end = fields + len;

	while ((p = memmem(p, end - p, name, name_len))) {
		if (p > fields && (p[-1] == ' ' || p[-1] == '*') &&
		    p + name_len < end &&
		    (p[name_len] == ';' || p[name_len] == '['))
			return true;
		p += name_len;
	}
	return false;
}

/* Every REC->X and __get_xxx(X) of the print fmt names a field. */
static bool print_fields_known(const char *fmt, const char *print)
{
	static const char * const refs[] = { "REC->", "__get_str(",
					     "__get_dynamic_array(",
					     "__get_bitmask(" };
	size_t i, n;
	const char *p;

	for (i = 0; i < ARRAY_SIZE(refs); i++) {
		for (p = print; (p = strstr(p, refs[i])); p += n) {
			p += strlen(refs[i]);
			n = strspn(p, "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
			if (!n || !has_field(fmt, print - fmt, p, n))
				return false;
		}
	}
	return true;
}

/*
 * libtraceevent dereferences NULL on a format cut short (a field line
 * without its size or signedness, no print fmt) or without the blank
 * lines that end the common and the event's fields, or with a print
 * fmt naming a field that is not there.  tracefs writes complete field
 * lines of text, a blank line after each list and then a print fmt of
 * those fields, so refuse other formats before libtraceevent sees them.
 */
static bool format_complete(const char *fmt)
{
	static const char * const words[] = {
		"\toffset:", "\tsize:", "\tsigned:",
	};
	const char *line, *end;
	int blank = 0;

	if (!strstr(fmt, "\nformat:\n") || !strstr(fmt, "\n\nprint fmt: "))
		return false;
	/* tracefs writes text; other bytes confuse the tokenizer. */
	for (line = fmt; *line; line++)
		if ((*line < ' ' || *line > '~') && *line != '\t' &&
		    *line != '\n')
			return false;
	for (line = fmt; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		if (!strncmp(line, "print fmt: ", 11))
			return blank >= 2 && print_fields_known(fmt, line);
		blank += end == line;
		if (!strncmp(line, "\tfield:", 7) &&
		    !line_has(line, end, words, ARRAY_SIZE(words)))
			return false;
	}
	return false;
}

static int parse_formats(struct tep_handle *tep, struct tcur *c,
			 const char *sys, char *err, size_t errlen)
{
	u32 i, count = tcur_num(c, 4, "event count");

	for (i = 0; i < count && !c->bad; i++) {
		/* libtraceevent's tokenizer wants the text NUL-terminated. */
		char *fmt = tcur_text(c, 8, "event format");
		int ret = 0;

		if (fmt && !format_complete(fmt))
			ret = -EINVAL;
		else if (fmt)
			ret = tep_parse_event(tep, fmt, strlen(fmt), sys);

		free(fmt);
		if (ret) {
			snprintf(err, errlen,
				 "cannot parse the format of an event of '%s'",
				 sys);
			return -EINVAL;
		}
	}
	return 0;
}

static int parse_header(struct tep_handle *tep, struct tcur *c, int *long_size)
{
	const u8 *magic = tcur_take(c, sizeof(trace_data_magic), "magic");
	const char *version;
	const u8 *b;

	if (!magic || memcmp(magic, trace_data_magic, sizeof(trace_data_magic)))
		return -EINVAL;
	version = tcur_string(c, "version");
	b = tcur_take(c, 2, "endianness");
	if (!version || !b)
		return -EINVAL;
	c->swap = b[0] != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	tep_set_file_bigendian(tep, b[0] ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	*long_size = b[1];
	tep_set_long_size(tep, b[1]);
	tep_set_page_size(tep, tcur_num(c, 4, "page size"));
	return 0;
}

/* "header_page" and "header_event": a name, a u64 size, the text. */
static int parse_page_headers(struct tep_handle *tep, struct tcur *c,
			      int long_size)
{
	const char *name = tcur_string(c, "header_page");
	u64 len = tcur_num(c, 8, "header_page");
	char *page = (char *)tcur_take(c, len, "header_page");

	if (!name || strcmp(name, "header_page"))
		return -EINVAL;
	/* libtraceevent only reads it; the cast drops a missing const. */
	if (page && tep_parse_header_page(tep, page, len, long_size))
		return -EINVAL;
	name = tcur_string(c, "header_event");
	len = tcur_num(c, 8, "header_event");
	tcur_take(c, len, "header_event");
	if (!name || strcmp(name, "header_event"))
		return -EINVAL;
	return 0;
}

static int parse_systems(struct tep_handle *tep, struct tcur *c, char *err,
			 size_t errlen)
{
	u32 i, systems;
	int ret = parse_formats(tep, c, "ftrace", err, errlen);

	systems = tcur_num(c, 4, "system count");
	for (i = 0; i < systems && !ret && !c->bad; i++) {
		const char *sys = tcur_string(c, "system name");

		if (sys)
			ret = parse_formats(tep, c, sys, err, errlen);
	}
	return ret;
}

/*
 * Each line must be 'ADDR : "FORMAT"', as tracefs writes them:
 * libtraceevent reads past the end of a line without the colon or the
 * quotes.  Returns the offset of the first bad line, or -1.
 */
static long bad_printk_line(const char *text)
{
	const char *line = text, *colon, *end;

	for (; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		colon = memchr(line, ':', end - line);
		if (end == line)
			continue;
		if (!colon || colon == line || end - colon < 4 ||
		    colon[1] != ' ' || colon[2] != '"' || end[-1] != '"')
			return line - text;
	}
	return -1;
}

/* kallsyms, printk formats, saved cmdlines: text for the tep parsers. */
static int parse_texts(struct tep_handle *tep, struct tcur *c, char *err,
		       size_t errlen)
{
	char *text = tcur_text(c, 4, "kallsyms");
	long bad;

	if (text && *text)
		tep_parse_kallsyms(tep, text);
	free(text);
	text = tcur_text(c, 4, "printk formats");
	bad = text ? bad_printk_line(text) : -1;
	if (bad >= 0) {
		snprintf(err, errlen,
			 "the printk formats of the tracing data have a malformed line at byte %ld",
			 bad);
		free(text);
		return -EINVAL;
	}
	if (text && *text)
		tep_parse_printk_formats(tep, text);
	free(text);
	/* Files of old versions may end before the saved cmdlines. */
	if (c->p == c->end)
		return 0;
	text = tcur_text(c, 8, "saved cmdlines");
	if (text && *text)
		tep_parse_saved_cmdlines(tep, text);
	free(text);
	return 0;
}

static struct tep_handle *parse_tracing_data(const void *buf, size_t size,
					     char *err, size_t errlen)
{
	struct tcur c = { .p = buf, .end = (const u8 *)buf + size };
	struct tep_handle *tep = tep_alloc();
	int long_size = 8;

	if (!tep) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (parse_header(tep, &c, &long_size)) {
		snprintf(err, errlen,
			 "the tracing data does not start with the tracing magic and version");
		goto fail;
	}
	if (parse_page_headers(tep, &c, long_size)) {
		snprintf(err, errlen, "the tracing data has no valid header_page/header_event");
		goto fail;
	}
	if (parse_systems(tep, &c, err, errlen))
		goto fail;
	if (parse_texts(tep, &c, err, errlen))
		goto fail;
	if (c.bad) {
		snprintf(err, errlen, "the tracing data ends inside its %s",
			 c.bad);
		goto fail;
	}
	return tep;
fail:
	tep_free(tep);
	return NULL;
}

/* How a probe's child ends: parsed, or refused with a message. */
#define PROBE_PARSED	0
#define PROBE_REFUSED	3

/* A hash of a tracing data blob, to know it again. */
static u64 blob_hash(const u8 *p, size_t size)
{
	u64 h = size * 0x9e3779b97f4a7c15ULL, w;
	size_t i;

	for (i = 0; i + sizeof(w) <= size; i += sizeof(w)) {
		memcpy(&w, p + i, sizeof(w));
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 29;
	}
	for (; i < size; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/*
 * Blobs a child has parsed without dying: the parse is deterministic,
 * so the same bytes need no second child.  Commands that read several
 * files (and the fuzz targets) pay the fork once per distinct blob.
 */
#define PROBED_SLOTS 64

static struct {
	u64 hash;
	size_t size;
} probed_safe[PROBED_SLOTS];

static bool probed_before(u64 hash, size_t size)
{
	const size_t i = hash % PROBED_SLOTS;

	return probed_safe[i].size == size && probed_safe[i].hash == hash &&
	       size;
}

static void remember_probed(u64 hash, size_t size)
{
	const size_t i = hash % PROBED_SLOTS;

	probed_safe[i].hash = hash;
	probed_safe[i].size = size;
}

/*
 * libtraceevent is not written for hostile input: some malformed
 * formats make it read through a NULL pointer, however much of the
 * format's shape is checked first.  Tracing data from a file is
 * therefore parsed once in a child; if that child dies, the data is
 * refused instead of taking perf down with it.  Returns 0 when the
 * parse can go ahead (also when no child could be made), or -EFAULT.
 */
static int probe_parse(const void *buf, size_t size)
{
	u64 hash = blob_hash(buf, size);
	char err[8];
	int status, fd;
	pid_t pid;

	if (probed_before(hash, size))
		return 0;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 0;
	if (!pid) {
		/* Die of the fault: no handler of the parent's may report it. */
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		signal(SIGILL, SIG_DFL);
		signal(SIGFPE, SIG_DFL);
		signal(SIGABRT, SIG_DFL);
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, STDERR_FILENO);
		_exit(parse_tracing_data(buf, size, err, sizeof(err)) ?
		      PROBE_PARSED : PROBE_REFUSED);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	if (WIFEXITED(status) && (WEXITSTATUS(status) == PROBE_PARSED ||
				  WEXITSTATUS(status) == PROBE_REFUSED)) {
		remember_probed(hash, size);
		return 0;
	}
	return -EFAULT;
}

struct tep_handle *trace_data__parse(const void *buf, size_t size,
				     char *err, size_t errlen)
{
	if (probe_parse(buf, size)) {
		snprintf(err, errlen,
			 "libtraceevent crashes on the event formats of this tracing data: it is malformed");
		return NULL;
	}
	return parse_tracing_data(buf, size, err, errlen);
}

int trace_data__from_session(const struct perf_session *s, const char *cmd,
			     struct tep_handle **tep)
{
	const void *data;
	char err[256];
	u64 size;

	*tep = NULL;
	data = perf_session__tracing_data(s, &size);
	if (!data)
		return 0;
	*tep = trace_data__parse(data, size, err, sizeof(err));
	if (!*tep) {
		fprintf(stderr, "%s: %s: %s\n", cmd, s->name, err);
		return -EINVAL;
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The perf config files: the settings a command looks up by name.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"

#define SYSTEM_CONFIG "/etc/perfconfig"

struct config_query {
	const char *name;	/* "section.key" */
	char *buf;
	size_t size;
	int err;		/* -ENOENT until a file sets it */
};

static void to_lower(char *s)
{
	for (; *s; s++)
		*s = tolower((unsigned char)*s);
}

static char *skip_space(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/*
 * "[name]" or "[name "sub"]": the section the following keys are in,
 * "name" or "name.sub" (the subsection keeps its case).
 */
static void parse_section(char *p, char *section, size_t size)
{
	char *end = strchr(p, ']'), *sub;

	section[0] = '\0';
	if (!end)
		return;
	*end = '\0';
	sub = strchr(p, '"');
	if (sub) {
		*sub++ = '\0';
		sub[strcspn(sub, "\"")] = '\0';
	}
	p = skip_space(p);
	p[strcspn(p, " \t")] = '\0';
	to_lower(p);
	snprintf(section, size, "%s%s%s", p, sub ? "." : "", sub ? sub : "");
}

/*
 * A value: surrounding blanks dropped, quotes removed (what they hold is
 * kept as is), backslash escapes, and a comment outside quotes ends it.
 */
static int parse_value(const char *p, char *out, size_t size)
{
	size_t len = 0, keep = 0;
	bool quoted = false;

	while (*p == ' ' || *p == '\t')
		p++;
	for (; *p && *p != '\n'; p++) {
		char c = *p;

		if (!quoted && (c == '#' || c == ';'))
			break;
		if (c == '"') {
			quoted = !quoted;
			keep = len;
			continue;
		}
		if (len + 1 >= size)
			return -ENAMETOOLONG;
		if (c == '\\' && p[1]) {
			c = *++p;
			c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
		} else if (!quoted && (c == ' ' || c == '\t')) {
			out[len++] = c;
			continue;
		}
		out[len++] = c;
		keep = len;
	}
	out[keep] = '\0';
	return 0;
}

static void config_line(struct config_query *q, char *line, char *section,
			size_t section_size)
{
	char full[256], *key, *eq, *value = NULL;
	size_t n;

	line = skip_space(line);
	line[strcspn(line, "\r\n")] = '\0';
	if (!*line || *line == '#' || *line == ';')
		return;
	if (*line == '[') {
		parse_section(line + 1, section, section_size);
		return;
	}
	key = line;
	n = strspn(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_");
	eq = skip_space(key + n);
	if (!n || (*eq && *eq != '='))
		return;
	if (*eq == '=')
		value = eq + 1;
	/* Keys keep their case: Linux perf 6.1 matches them exactly. */
	key[n] = '\0';
	if (snprintf(full, sizeof(full), "%s.%s", section, key) >= (int)sizeof(full) ||
	    strcmp(full, q->name))
		return;
	if (!value) {	/* a key alone is a boolean set to true */
		q->err = snprintf(q->buf, q->size, "true") >= (int)q->size ?
			 -ENAMETOOLONG : 0;
		return;
	}
	q->err = parse_value(value, q->buf, q->size);
}

static void config_file(struct config_query *q, const char *path)
{
	char section[128] = "", *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return;
	while (getline(&line, &cap, f) > 0)
		config_line(q, line, section, sizeof(section));
	free(line);
	fclose(f);
}

static bool env_true(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") && strcasecmp(v, "false") &&
	       strcasecmp(v, "no");
}

int perf_config__get(const char *name, char *buf, size_t size)
{
	struct config_query q = {
		.name = name, .buf = buf, .size = size, .err = -ENOENT,
	};
	const char *exclusive = getenv("PERF_CONFIG");
	const char *home = getenv("HOME");
	char path[4096];

	if (exclusive) {
		config_file(&q, exclusive);
		return q.err;
	}
	if (!env_true("PERF_CONFIG_NOSYSTEM"))
		config_file(&q, SYSTEM_CONFIG);
	if (!env_true("PERF_CONFIG_NOGLOBAL") && home && *home &&
	    snprintf(path, sizeof(path), "%s/.perfconfig", home) < (int)sizeof(path))
		config_file(&q, path);
	return q.err;
}

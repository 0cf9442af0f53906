// SPDX-License-Identifier: GPL-2.0
/*
 * perf probe: probe specs, their resolution to a place in an object
 * (or the kernel) and the tracefs dynamic event files that take them.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perf/tracefs.h>
#include "probe.h"

/* A line of uprobe_events or kprobe_events, split. */
struct probe_event {
	char type;		/* 'p' or 'r' */
	char group[64];
	char event[64];
	char target[PATH_MAX];	/* "/path:0xoff" or "func+off" */
	char args[512];
	bool uprobe;
};

struct probe_events {
	struct probe_event *ev;
	int nr;
};

/* What one -a adds, resolved. */
struct probe_new {
	char group[64];
	char event[64];
	char line[PATH_MAX + 1024];
	char on[PATH_MAX + 300];	/* "func in /path with a b" */
	bool uprobe;
};

static const char *events_file_name(bool uprobe)
{
	return uprobe ? "uprobe_events" : "kprobe_events";
}

/* Tracefs gone or closed, said with what to do. */
static int say_no_tracefs(void)
{
	/* EPERM is from the mount perf tried: tracefs is not there. */
	if (errno == EACCES)
		fprintf(stderr, "perf probe: no permission to use tracefs (/sys/kernel/tracing): run as root\n");
	else
		fprintf(stderr, "perf probe: tracefs is not mounted: mount it as root with 'mount -t tracefs nodev /sys/kernel/tracing' (the kernel needs CONFIG_FTRACE)\n");
	return -1;
}

/* The path of uprobe_events (or kprobe_events); says why there is none. */
static int events_file(bool uprobe, char *buf, size_t size)
{
	const char *name = events_file_name(uprobe);

	if (!tracefs_path())
		return say_no_tracefs();
	if (tracefs_file(buf, size, "%s", name) < 0)
		return say_no_tracefs();
	if (access(buf, F_OK)) {
		fprintf(stderr, "perf probe: %s has no %s: this kernel was built without %s, so it has no %s probes\n",
			tracefs_path(), name,
			uprobe ? "CONFIG_UPROBE_EVENTS" : "CONFIG_KPROBE_EVENTS",
			uprobe ? "user space (uprobe)" : "kernel (kprobe)");
		return -1;
	}
	return 0;
}

static void sanitize(char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			*s = '_';
}

static char *skip_spaces(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/*
 * "p:GROUP/EVENT TARGET ARGS" as the kernel lists it; a return probe of
 * the kernel says how many calls it can follow at once: "r10:GROUP/...".
 */
static int probe_event__parse(struct probe_event *e, char *line, bool uprobe)
{
	char *name = line + 1, *slash, *sp, *args;

	memset(e, 0, sizeof(*e));
	e->uprobe = uprobe;
	if (line[0] != 'p' && line[0] != 'r')
		return -EINVAL;
	e->type = line[0];
	name += strspn(name, "0123456789");
	if (*name++ != ':')
		return -EINVAL;
	slash = strchr(name, '/');
	sp = strchr(name, ' ');
	if (!slash || !sp || slash > sp)
		return -EINVAL;
	snprintf(e->group, sizeof(e->group), "%.*s",
		 (int)(slash - name), name);
	snprintf(e->event, sizeof(e->event), "%.*s",
		 (int)(sp - slash - 1), slash + 1);
	sp = skip_spaces(sp);
	args = strchr(sp, ' ');
	snprintf(e->target, sizeof(e->target), "%.*s",
		 args ? (int)(args - sp) : (int)strlen(sp), sp);
	if (args)
		snprintf(e->args, sizeof(e->args), "%s", skip_spaces(args));
	return 0;
}

static int probe_events__read_one(struct probe_events *pe, bool uprobe)
{
	char path[PATH_MAX], line[PATH_MAX + 1024];
	FILE *f;

	if (tracefs_file(path, sizeof(path), "%s", events_file_name(uprobe)) < 0)
		return 0;
	f = fopen(path, "r");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), f)) {
		struct probe_event *n;

		line[strcspn(line, "\n")] = '\0';
		n = realloc(pe->ev, (pe->nr + 1) * sizeof(*n));
		if (!n) {
			fclose(f);
			return -ENOMEM;
		}
		pe->ev = n;
		if (!probe_event__parse(&pe->ev[pe->nr], line, uprobe))
			pe->nr++;
	}
	fclose(f);
	return 0;
}

/* Both files; one a kernel lacks counts as empty. */
static int probe_events__read(struct probe_events *pe)
{
	int err;

	memset(pe, 0, sizeof(*pe));
	if (!tracefs_path())
		return say_no_tracefs();
	err = probe_events__read_one(pe, true);
	if (!err)
		err = probe_events__read_one(pe, false);
	if (err) {
		fprintf(stderr, "perf probe: cannot read the probes in %s: %s\n",
			tracefs_path(), strerror(-err));
		return -1;
	}
	return 0;
}

static bool probe_events__has(const struct probe_events *pe,
			      const char *group, const char *event)
{
	int i;

	for (i = 0; i < pe->nr; i++)
		if (!strcmp(pe->ev[i].group, group) &&
		    !strcmp(pe->ev[i].event, event))
			return true;
	return false;
}

/* The kernel's last complaint, which says what it did not like. */
static void print_error_log(void)
{
	char path[PATH_MAX], line[1024], last[3][1024] = { "" };
	int n = 0, i;
	FILE *f;

	if (tracefs_file(path, sizeof(path), "error_log") < 0)
		return;
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		snprintf(last[n++ % 3], sizeof(last[0]), "%s", line);
	fclose(f);
	for (i = n > 3 ? n - 3 : 0; i < n; i++)
		fprintf(stderr, "  %s", last[i % 3]);
}

/* Append @line to the events file; says what went wrong. */
static int write_event_line(bool uprobe, const char *line)
{
	char path[PATH_MAX];
	ssize_t len = (ssize_t)strlen(line);
	int fd, err = 0;

	if (events_file(uprobe, path, sizeof(path)))
		return -1;
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0 || write(fd, line, len) != len)
		err = errno;
	if (fd >= 0)
		close(fd);
	if (!err)
		return 0;
	if (err == EACCES || err == EPERM || err == EROFS)
		fprintf(stderr, "perf probe: cannot write %s: %s: probes are added by root, on a tracefs mounted read-write\n",
			path, strerror(err));
	else if (err == EBUSY)
		fprintf(stderr, "perf probe: '%s' failed: the event is in use (a perf session still has it open)\n",
			line);
	else {
		fprintf(stderr, "perf probe: the kernel refused '%s': %s\n",
			line, strerror(err));
		print_error_log();
	}
	return -1;
}

int probe_spec__parse(struct probe_spec *spec, const char *text)
{
	char *buf = strdup(text), *tok, *save = NULL, *p, *eq;

	memset(spec, 0, sizeof(*spec));
	spec->text = strdup(text);
	if (!buf || !spec->text)
		goto nomem;
	tok = strtok_r(buf, " \t", &save);
	if (!tok)
		goto bad;
	eq = strchr(tok, '=');
	if (eq) {
		spec->event = strndup(tok, eq - tok);
		tok = eq + 1;
	}
	if (isdigit((unsigned char)tok[0])) {
		spec->is_addr = true;
		spec->addr = strtoull(tok, &p, 0);
	} else {
		p = tok + strcspn(tok, "@+%");
		spec->func = strndup(tok, p - tok);
		if (*p == '@') {
			char *v = p + 1 + (p[1] == '@');

			spec->default_version = p[1] == '@';
			p = v + strcspn(v, "+%");
			spec->version = strndup(v, p - v);
		}
	}
	if (*p == '+')
		spec->offset = strtoull(p + 1, &p, 0);
	if (!strcmp(p, "%return")) {
		spec->ret = true;
		p += strlen(p);
	}
	if (*p || (spec->func && !*spec->func) ||
	    (spec->version && !*spec->version) || (spec->event && !*spec->event))
		goto bad;
	while ((tok = strtok_r(NULL, " \t", &save)) != NULL) {
		if (spec->nr_args == PROBE_MAX_ARGS)
			goto bad;
		spec->args[spec->nr_args++] = strdup(tok);
	}
	free(buf);
	return 0;
bad:
	fprintf(stderr, "perf probe: cannot parse '%s': the form is '[EVENT=]FUNC[@[@]VERSION][+OFF|%%return] [ARG ...]' or '[EVENT=]0xADDR [ARG ...]'\n",
		text);
	free(buf);
	return -EINVAL;
nomem:
	free(buf);
	return -ENOMEM;
}

void probe_spec__exit(struct probe_spec *spec)
{
	int i;

	free(spec->event);
	free(spec->func);
	free(spec->version);
	free(spec->text);
	for (i = 0; i < spec->nr_args; i++)
		free(spec->args[i]);
	memset(spec, 0, sizeof(*spec));
}

/* "probe_" and the object's name up to its first dot: probe_libc. */
static void uprobe_group(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	snprintf(buf, size, "probe_%.*s", (int)strcspn(base, "."), base);
	sanitize(buf);
}

/*
 * The event name: EVENT=, else the function's, "__return" for a
 * return probe, "abs_ADDR" for an address.  With -f a taken name gets
 * the first free "_N" suffix; without, a taken name is an error.
 */
static int name_event(const struct probe_opts *o, const struct probe_spec *s,
		      const struct probe_events *have, struct probe_new *nw,
		      int nr_new)
{
	char base[64];
	int i, n;

	if (s->event)
		snprintf(base, sizeof(base), "%s", s->event);
	else if (s->is_addr)
		snprintf(base, sizeof(base), "abs_%llx",
			 (unsigned long long)s->addr);
	else
		snprintf(base, sizeof(base), "%s%s", s->func,
			 s->ret ? "__return" : "");
	sanitize(base);
	for (n = 0; n < 1000; n++) {
		bool taken;

		if (n)
			snprintf(nw->event, sizeof(nw->event), "%.58s_%d", base, n);
		else
			snprintf(nw->event, sizeof(nw->event), "%s", base);
		taken = probe_events__has(have, nw->group, nw->event);
		for (i = 0; i < nr_new && !taken; i++)
			taken = !strcmp(nw[i - nr_new].group, nw->group) &&
				!strcmp(nw[i - nr_new].event, nw->event);
		if (!taken)
			return 0;
		if (!o->force)
			break;
	}
	fprintf(stderr, "perf probe: event %s:%s already exists: remove it with 'perf probe -d %s:%s', give the new one another name (NAME=%s), or add a duplicate with -f\n",
		nw->group, nw->event, nw->group, nw->event,
		s->func ?: s->text);
	return -1;
}

/* The tracefs line and the "(on ...)" text of a resolved uprobe. */
static void uprobe_line(const struct probe_spec *s, const char *path,
			const struct probe_point *pp, struct probe_new *nw)
{
	size_t len;
	int i;

	len = snprintf(nw->line, sizeof(nw->line), "%c:%s/%s %s:0x%016llx",
		       s->ret ? 'r' : 'p', nw->group, nw->event, path,
		       (unsigned long long)pp->file_offset);
	for (i = 0; i < pp->nr_args && len < sizeof(nw->line); i++)
		len += snprintf(nw->line + len, sizeof(nw->line) - len,
				" %s=%s", pp->args[i].name, pp->args[i].fetch);
}

static void on_text(const struct probe_spec *s, const char *where,
		    const char *in, struct probe_new *nw)
{
	size_t len;
	int i;

	if (s->is_addr)
		len = snprintf(nw->on, sizeof(nw->on), "0x%llx",
			       (unsigned long long)s->addr);
	else
		len = snprintf(nw->on, sizeof(nw->on), "%s", where);
	if (s->offset && len < sizeof(nw->on))
		len += snprintf(nw->on + len, sizeof(nw->on) - len, "+%llu",
				(unsigned long long)s->offset);
	if (s->ret && len < sizeof(nw->on))
		len += snprintf(nw->on + len, sizeof(nw->on) - len, "%%return");
	if (in && len < sizeof(nw->on))
		len += snprintf(nw->on + len, sizeof(nw->on) - len, " in %s", in);
	for (i = 0; i < s->nr_args && len < sizeof(nw->on); i++)
		len += snprintf(nw->on + len, sizeof(nw->on) - len, "%s%s",
				i ? " " : " with ", s->args[i]);
}

static int prepare_uprobe(const struct probe_opts *o, struct probe_elf *pe,
			  struct probe_dwarf **pd, struct probe_spec *s,
			  const struct probe_events *have, struct probe_new *nw,
			  int nr_new)
{
	char path[PATH_MAX];
	struct probe_point pp;

	if (!realpath(probe_elf__path(pe), path))
		snprintf(path, sizeof(path), "%s", probe_elf__path(pe));
	if (probe_resolve__uprobe(pe, pd, s, &pp))
		return -1;
	nw->uprobe = true;
	uprobe_group(path, nw->group, sizeof(nw->group));
	if (name_event(o, s, have, nw, nr_new))
		return -1;
	uprobe_line(s, path, &pp, nw);
	on_text(s, s->func, path, nw);
	return 0;
}

/* Is @func a text symbol of the kernel (or of @module)? */
static int kernel_has_func(const char *func, const char *module)
{
	char line[512], name[256], mod[128], t;
	unsigned long long addr;
	int found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		mod[0] = '\0';
		if (sscanf(line, "%llx %c %255s [%127[^]]", &addr, &t, name,
			   mod) < 3)
			continue;
		if ((t == 't' || t == 'T') && !strcmp(name, func) &&
		    (!module || !strcmp(mod, module)))
			found = 1;
	}
	fclose(f);
	/* Hidden addresses (kptr_restrict) still name the symbols. */
	return found;
}

static int prepare_kprobe(const struct probe_opts *o, struct probe_spec *s,
			  const struct probe_events *have, struct probe_new *nw,
			  int nr_new)
{
	size_t len;
	int i;

	if (s->func && kernel_has_func(s->func, o->module) == 0) {
		fprintf(stderr, "perf probe: the kernel%s%s has no function '%s' (see them with 'perf probe -F%s%s')\n",
			o->module ? " module " : "", o->module ?: "", s->func,
			o->module ? " -m " : "", o->module ?: "");
		return -1;
	}
	snprintf(nw->group, sizeof(nw->group), "probe");
	if (name_event(o, s, have, nw, nr_new))
		return -1;
	if (s->is_addr)
		len = snprintf(nw->line, sizeof(nw->line), "%c:%s/%s 0x%llx",
			       s->ret ? 'r' : 'p', nw->group, nw->event,
			       (unsigned long long)s->addr);
	else
		len = snprintf(nw->line, sizeof(nw->line), "%c:%s/%s %s%s%s+%llu",
			       s->ret ? 'r' : 'p', nw->group, nw->event,
			       o->module ?: "", o->module ? ":" : "", s->func,
			       (unsigned long long)s->offset);
	for (i = 0; i < s->nr_args && len < sizeof(nw->line); i++) {
		const char *a = s->args[i], *eq = strchr(a, '=');
		const char *expr = eq ? eq + 1 : a;

		if (expr[0] != '%' && expr[0] != '+' && expr[0] != '-' &&
		    expr[0] != '@' && expr[0] != '$') {
			fprintf(stderr, "perf probe: '%s': kernel variables need the DWARF of vmlinux, which perf probe does not read: fetch registers (%%di, %%si...) or memory (+8(%%di))\n",
				a);
			return -1;
		}
		if (eq)
			len += snprintf(nw->line + len, sizeof(nw->line) - len,
					" %s", a);
		else
			len += snprintf(nw->line + len, sizeof(nw->line) - len,
					" arg%d=%s", i + 1, a);
	}
	on_text(s, s->func, o->module, nw);
	return 0;
}

static void print_added(const struct probe_new *nw, int nr)
{
	char name[200];
	int i;

	fprintf(stderr, "Added new event%s:\n", nr > 1 ? "s" : "");
	for (i = 0; i < nr; i++) {
		snprintf(name, sizeof(name), "%s:%s", nw[i].group, nw[i].event);
		fprintf(stderr, "  %-20s (on %s)\n", name, nw[i].on);
	}
	fprintf(stderr, "\nYou can now use it in all perf tools, such as:\n\n\tperf record -e %s:%s -aR sleep 1\n\n",
		nw[nr - 1].group, nw[nr - 1].event);
}

/* Take back the events of a batch that failed part way. */
static void remove_added(const struct probe_new *nw, int nr)
{
	char line[200];
	int i;

	for (i = 0; i < nr; i++) {
		snprintf(line, sizeof(line), "-:%s/%s", nw[i].group,
			 nw[i].event);
		write_event_line(nw[i].uprobe, line);
	}
}

static int write_all(const struct probe_new *nw, int nr)
{
	char path[PATH_MAX];
	int i;

	/* Say a missing or closed file before writing anything. */
	for (i = 0; i < nr; i++)
		if (events_file(nw[i].uprobe, path, sizeof(path)))
			return -1;
	for (i = 0; i < nr; i++) {
		if (write_event_line(nw[i].uprobe, nw[i].line)) {
			remove_added(nw, i);
			return -1;
		}
	}
	return 0;
}

static int prepare_all(const struct probe_opts *o, struct probe_spec *specs,
		       int nr, const struct probe_events *have,
		       struct probe_new *nw)
{
	struct probe_elf *pe = NULL;
	struct probe_dwarf *pd = NULL;
	int i, err = 0;

	if (o->target) {
		pe = probe_elf__open(o->target);
		if (!pe)
			return -1;
		pd = probe_dwarf__open(o->target);
	}
	for (i = 0; i < nr && !err; i++) {
		if (pe)
			err = prepare_uprobe(o, pe, &pd, &specs[i], have, &nw[i], i);
		else
			err = prepare_kprobe(o, &specs[i], have, &nw[i], i);
	}
	probe_dwarf__close(pd);
	probe_elf__close(pe);
	return err;
}

int probe__add(const struct probe_opts *o, struct probe_spec *specs, int nr)
{
	struct probe_events have = { 0 };
	struct probe_new *nw = calloc(nr, sizeof(*nw));
	char path[PATH_MAX];
	int i, err = -1;

	if (!nw)
		return -1;
	/* A dry run needs no tracefs; a real one is refused early. */
	if (!o->dry_run && events_file(o->target != NULL, path, sizeof(path)))
		goto out;
	if (tracefs_path() && probe_events__read(&have))
		goto out;
	if (prepare_all(o, specs, nr, &have, nw))
		goto out;
	if (o->dry_run) {
		for (i = 0; i < nr; i++)
			printf("%s\n", nw[i].line);
		err = 0;
		goto out;
	}
	err = write_all(nw, nr);
	if (!err && !o->quiet)
		print_added(nw, nr);
out:
	free(have.ev);
	free(nw);
	return err ? 1 : 0;
}

/* "GROUP:EVENT" globs; a bare "EVENT" glob matches in any group. */
static bool event_matches(const struct probe_event *e, const char *glob)
{
	const char *colon = strchr(glob, ':');
	char group[64];

	if (!colon)
		return !fnmatch(glob, e->event, 0);
	snprintf(group, sizeof(group), "%.*s", (int)(colon - glob), glob);
	return !fnmatch(group, e->group, 0) && !fnmatch(colon + 1, e->event, 0);
}

int probe__del(const struct probe_opts *o, const char *glob)
{
	struct probe_events have;
	char line[200];
	int i, hit = 0, err = 0;

	if (probe_events__read(&have))
		return 1;
	for (i = 0; i < have.nr; i++) {
		const struct probe_event *e = &have.ev[i];

		if (!event_matches(e, glob))
			continue;
		hit++;
		if (o->dry_run)
			continue;
		snprintf(line, sizeof(line), "-:%s/%s", e->group, e->event);
		if (write_event_line(e->uprobe, line)) {
			err = 1;
			continue;
		}
		if (!o->quiet)
			fprintf(stderr, "Removed event: %s:%s\n", e->group,
				e->event);
	}
	free(have.ev);
	if (!hit) {
		fprintf(stderr, "perf probe: \"%s\" does not hit any event (see them with 'perf probe -l')\n",
			glob);
		return 1;
	}
	return err;
}

/* "(on func+8 in /path with a b)" for -l, from what the kernel keeps. */
static void list_event(const struct probe_event *e)
{
	char name[200], where[600], args[512], *tok, *save = NULL;
	const char *colon = strrchr(e->target, ':');
	bool first = true;

	snprintf(where, sizeof(where), "%s", e->target);
	if (e->uprobe && colon) {
		struct probe_elf *pe;
		char path[PATH_MAX], sym[300];
		u64 off = strtoull(colon + 1, NULL, 0), vaddr;

		snprintf(path, sizeof(path), "%.*s", (int)(colon - e->target),
			 e->target);
		sym[0] = '\0';
		/* An object gone since the probe was placed: its offset. */
		pe = access(path, F_OK) ? NULL : probe_elf__open(path);
		if (pe && !probe_elf__vaddr(pe, off, &vaddr))
			probe_elf__sym_at(pe, vaddr, sym, sizeof(sym));
		probe_elf__close(pe);
		snprintf(where, sizeof(where), "%s%s in %s", sym[0] ? sym : colon + 1,
			 e->type == 'r' ? "%return" : "", path);
	}
	snprintf(args, sizeof(args), "%s", e->args);
	snprintf(name, sizeof(name), "%s:%s", e->group, e->event);
	printf("  %-20s (on %s", name, where);
	for (tok = strtok_r(args, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		printf("%s%.*s", first ? " with " : " ",
		       (int)strcspn(tok, "="), tok);
		first = false;
	}
	printf(")\n");
}

int probe__list(const struct probe_opts *o, const char *glob)
{
	struct probe_events have;
	int i;

	if (probe_events__read(&have))
		return 1;
	for (i = 0; i < have.nr; i++)
		if (!glob || event_matches(&have.ev[i], glob))
			list_event(&have.ev[i]);
	free(have.ev);
	return 0;
}

static bool func_listed(const char *name, const char *filter)
{
	/* By default leave out the reserved names of the C runtime. */
	if (!filter)
		return name[0] != '_';
	return !fnmatch(filter, name, 0);
}

static int kernel_funcs(const char *module, const char *filter)
{
	char line[512], name[256], mod[128], t;
	unsigned long long addr;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f) {
		fprintf(stderr, "perf probe: cannot read /proc/kallsyms: %m\n");
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		mod[0] = '\0';
		if (sscanf(line, "%llx %c %255s [%127[^]]", &addr, &t, name,
			   mod) < 3 || (t != 't' && t != 'T'))
			continue;
		if ((module ? !strcmp(mod, module) : !mod[0]) &&
		    func_listed(name, filter))
			printf("%s\n", name);
	}
	fclose(f);
	return 0;
}

int probe__funcs(const struct probe_opts *o, const char *filter)
{
	const struct probe_sym *syms;
	struct probe_elf *pe;
	size_t nr, i;

	if (!o->target)
		return kernel_funcs(o->module, filter);
	pe = probe_elf__open(o->target);
	if (!pe)
		return 1;
	syms = probe_elf__syms(pe, &nr);
	/* Sorted by name: print each name once. */
	for (i = 0; i < nr; i++)
		if ((!i || strcmp(syms[i - 1].name, syms[i].name)) &&
		    func_listed(syms[i].name, filter))
			printf("%s\n", syms[i].name);
	probe_elf__close(pe);
	return 0;
}

/* -V and -L: the function's DWARF, found through its symbol. */
static int with_func_dwarf(const struct probe_opts *o, const char *func,
			   int (*fn)(struct probe_dwarf *, u64, const char *))
{
	struct probe_dwarf *pd;
	struct probe_elf *pe;
	int err = 1;
	u64 vaddr;

	if (!o->target) {
		fprintf(stderr, "perf probe: -V and -L read the DWARF of a user space object: name it with -x (the kernel's vmlinux is not read)\n");
		return 1;
	}
	pe = probe_elf__open(o->target);
	if (!pe)
		return 1;
	pd = probe_dwarf__open(o->target);
	if (!pd)
		probe__say_no_debuginfo(o->target);
	else if (!probe_resolve__func(pe, pd, func, &vaddr))
		err = fn(pd, vaddr, func) ? 1 : 0;
	probe_dwarf__close(pd);
	probe_elf__close(pe);
	return err;
}

int probe__vars(const struct probe_opts *o, const char *func)
{
	return with_func_dwarf(o, func, probe_dwarf__print_vars);
}

int probe__lines(const struct probe_opts *o, const char *func)
{
	return with_func_dwarf(o, func, probe_dwarf__print_lines);
}

int probe__target_in_ns(const char *pid, const char *path, char *buf,
			size_t size)
{
	char root[64], *end;
	long n = strtol(pid, &end, 10);

	if (!*pid || *end || n <= 0) {
		fprintf(stderr, "perf probe: --target-ns takes a process id, not '%s'\n",
			pid);
		return -1;
	}
	snprintf(root, sizeof(root), "/proc/%ld/root", n);
	if (access(root, X_OK)) {
		fprintf(stderr, "perf probe: cannot enter the mount namespace of process %ld (%s): %s\n",
			n, root, strerror(errno));
		return -1;
	}
	if (path[0] != '/') {
		fprintf(stderr, "perf probe: with --target-ns, -x takes the path the process sees, from its root: '%s' is relative\n",
			path);
		return -1;
	}
	snprintf(buf, size, "%s%s", root, path);
	if (access(buf, R_OK)) {
		fprintf(stderr, "perf probe: process %ld sees no %s: %s\n", n,
			path, strerror(errno));
		return -1;
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * From a probe spec to a place: the function (or address) in the object
 * or the kernel, and the fetch arguments of what the user asked to see.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe.h"

#define MAX_SUGGESTIONS 6

static bool version_matches(const struct probe_sym *s,
			    const struct probe_spec *spec)
{
	if (!spec->version)
		return true;
	if (!s->version || strcmp(s->version, spec->version))
		return false;
	return !spec->default_version || s->default_version;
}

/* The functions named @spec->func (of its version): how many. */
static int find_syms(const struct probe_elf *pe, const struct probe_spec *spec,
		     const struct probe_sym **out, int max, bool *other_ver)
{
	const struct probe_sym *syms;
	size_t nr, i;
	int n = 0;

	syms = probe_elf__syms(pe, &nr);
	*other_ver = false;
	for (i = 0; i < nr; i++) {
		if (strcmp(syms[i].name, spec->func))
			continue;
		if (!version_matches(&syms[i], spec)) {
			*other_ver = true;
			continue;
		}
		if (n < max)
			out[n] = &syms[i];
		n++;
	}
	return n;
}

static void print_versions(const struct probe_elf *pe, const char *func)
{
	const struct probe_sym *syms;
	size_t nr, i;

	syms = probe_elf__syms(pe, &nr);
	for (i = 0; i < nr; i++)
		if (!strcmp(syms[i].name, func) && syms[i].version)
			fprintf(stderr, "  %s%s%s\n", func,
				syms[i].default_version ? "@@" : "@",
				syms[i].version);
}

static void say_missing(const struct probe_elf *pe,
			const struct probe_spec *spec, bool other_ver)
{
	const char *path = probe_elf__path(pe), *close[MAX_SUGGESTIONS];
	const struct probe_sym *syms;
	const char **names;
	size_t nr, i;
	int n = 0;

	if (other_ver) {
		fprintf(stderr, "perf probe: %s has no %s of version %s%s; it has:\n",
			path, spec->func, spec->default_version ? "@@" : "@",
			spec->version);
		print_versions(pe, spec->func);
		return;
	}
	if (!probe_elf__has_symtab(pe)) {
		fprintf(stderr, "perf probe: %s is stripped (no .symtab) and exports no function '%s': probe it by address ('perf probe -x %s 0xADDR', the address from 'nm' of an unstripped build or its debug file)\n",
			path, spec->func, path);
		return;
	}
	fprintf(stderr, "perf probe: %s has no function '%s'", path, spec->func);
	syms = probe_elf__syms(pe, &nr);
	names = calloc(nr ? nr : 1, sizeof(*names));
	for (i = 0; names && i < nr; i++)
		names[i] = syms[i].name;
	if (names)
		n = probe__close_names(spec->func, names, nr, close,
				       MAX_SUGGESTIONS);
	free(names);
	if (n) {
		fprintf(stderr, ": did you mean");
		for (i = 0; i < (size_t)n; i++)
			fprintf(stderr, "%s %s", i ? "," : "", close[i]);
		fprintf(stderr, "?\n");
	} else {
		fprintf(stderr, " (see its functions with 'perf probe -x %s -F')\n",
			path);
	}
}

static void say_ambiguous(const struct probe_elf *pe, struct probe_dwarf *pd,
			  const struct probe_spec *spec,
			  const struct probe_sym **cands, int n)
{
	const char *path = probe_elf__path(pe);
	int i;

	fprintf(stderr, "perf probe: %d functions in %s are named '%s':\n",
		n, path, spec->func);
	for (i = 0; i < n && i < MAX_SUGGESTIONS; i++) {
		const struct probe_sym *s = cands[i];
		const char *src = pd ? probe_dwarf__cu_name(pd, s->vaddr) : NULL;

		fprintf(stderr, "  0x%llx  %s%s%s%s%s%s\n",
			(unsigned long long)s->vaddr, s->name,
			s->version ? (s->default_version ? "@@" : "@") : "",
			s->version ?: "", s->local ? " (local)" : "",
			src ? " in " : "", src ?: "");
	}
	fprintf(stderr, "Choose one by its address: perf probe -x %s 0x%llx\n",
		path, (unsigned long long)cands[0]->vaddr);
}

/* The one function @spec names; its address in @vaddr. */
static int resolve_func(struct probe_elf *pe, struct probe_dwarf *pd,
			const struct probe_spec *spec, u64 *vaddr, u64 *size)
{
	const struct probe_sym *cands[MAX_SUGGESTIONS];
	bool other_ver;
	int n = find_syms(pe, spec, cands, MAX_SUGGESTIONS, &other_ver);

	if (!n) {
		say_missing(pe, spec, other_ver);
		return -1;
	}
	if (n > 1) {
		say_ambiguous(pe, pd, spec, cands, n);
		return -1;
	}
	*vaddr = cands[0]->vaddr;
	*size = cands[0]->size;
	return 0;
}

/* Arguments that need no DWARF: registers, memory, $stack, $comm... */
static bool raw_arg(const char *expr)
{
	return expr[0] == '%' || expr[0] == '@' || expr[0] == '+' ||
	       expr[0] == '-' || (expr[0] >= '0' && expr[0] <= '9') ||
	       !strncmp(expr, "$stack", 6) || !strncmp(expr, "$arg", 4) ||
	       !strcmp(expr, "$comm");
}

static int add_raw_arg(const char *arg, const char *expr,
		       struct probe_point *pp)
{
	struct probe_arg *a;
	const char *eq = strchr(arg, '=');

	if (pp->nr_args == PROBE_MAX_ARGS) {
		fprintf(stderr, "perf probe: more than %d arguments\n",
			PROBE_MAX_ARGS);
		return -1;
	}
	a = &pp->args[pp->nr_args++];
	if (eq)
		snprintf(a->name, sizeof(a->name), "%.*s", (int)(eq - arg), arg);
	else
		snprintf(a->name, sizeof(a->name), "arg%d", pp->nr_args);
	snprintf(a->fetch, sizeof(a->fetch), "%s", expr);
	return 0;
}

void probe__say_no_debuginfo(const char *path)
{
	fprintf(stderr, "perf probe: %s has no debug information (DWARF): rebuild it with -g, or install its debug file (its distribution's debuginfo/-dbgsym package, found through its build id under /usr/lib/debug)\n",
		path);
}

static void say_no_dwarf(const char *path, const char *arg)
{
	fprintf(stderr, "perf probe: %s has no debug information (DWARF), which '%s' needs: rebuild it with -g, or install its debug file (its distribution's debuginfo/-dbgsym package, found through its build id under /usr/lib/debug); registers (%%di, %%si...) need none\n",
		path, arg);
}

static int resolve_args(const char *path, struct probe_dwarf **pd,
			const struct probe_spec *spec, u64 func_vaddr,
			struct probe_point *pp)
{
	int i;

	for (i = 0; i < spec->nr_args; i++) {
		const char *arg = spec->args[i], *eq = strchr(arg, '=');
		const char *expr = eq ? eq + 1 : arg;

		if (!strcmp(expr, "$retval") && !spec->ret) {
			fprintf(stderr, "perf probe: $retval is there only on return: probe %s%%return\n",
				spec->func ?: "FUNC");
			return -1;
		}
		if (raw_arg(expr) || (!strcmp(expr, "$retval") && !*pd)) {
			if (add_raw_arg(arg, expr, pp))
				return -1;
			continue;
		}
		if (!*pd || !spec->func) {
			if (!*pd)
				say_no_dwarf(path, arg);
			else
				fprintf(stderr, "perf probe: '%s': variables are known in functions; probe FUNC or FUNC+OFF\n",
					arg);
			return -1;
		}
		if (probe_dwarf__arg(*pd, func_vaddr, spec->func, arg,
				     spec->ret, pp))
			return -1;
	}
	return 0;
}

int probe_resolve__uprobe(struct probe_elf *pe, struct probe_dwarf **pd,
			  const struct probe_spec *spec,
			  struct probe_point *pp)
{
	const char *path = probe_elf__path(pe);
	u64 func = 0, size = 0;

	memset(pp, 0, sizeof(*pp));
	if (spec->is_addr) {
		pp->vaddr = spec->addr;
		snprintf(pp->symbol, sizeof(pp->symbol), "0x%llx",
			 (unsigned long long)spec->addr);
	} else {
		if (resolve_func(pe, *pd, spec, &func, &size))
			return -1;
		if (size && spec->offset >= size) {
			fprintf(stderr, "perf probe: %s+%llu is past the end of %s (%llu bytes)\n",
				spec->func, (unsigned long long)spec->offset,
				spec->func, (unsigned long long)size);
			return -1;
		}
		pp->vaddr = func + spec->offset;
		snprintf(pp->symbol, sizeof(pp->symbol), "%s", spec->func);
	}
	if (probe_elf__file_offset(pe, pp->vaddr, &pp->file_offset)) {
		fprintf(stderr, "perf probe: 0x%llx is in no loaded segment of %s: give an address as 'nm' or 'objdump -d' show it\n",
			(unsigned long long)pp->vaddr, path);
		return -1;
	}
	return resolve_args(path, pd, spec, func, pp);
}

int probe_resolve__func(struct probe_elf *pe, struct probe_dwarf *pd,
			const char *text, u64 *vaddr)
{
	struct probe_spec spec;
	u64 size;
	int err;

	if (probe_spec__parse(&spec, text))
		return -1;
	if (spec.is_addr) {
		fprintf(stderr, "perf probe: '%s': name a function\n", text);
		err = -1;
	} else {
		err = resolve_func(pe, pd, &spec, vaddr, &size);
	}
	probe_spec__exit(&spec);
	return err;
}

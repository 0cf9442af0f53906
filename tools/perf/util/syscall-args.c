// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall arguments and return values as perf trace prints them; see
 * syscall-args.h.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <event-parse.h>
#include "syscall-args.h"

struct flag_name {
	u64 bit;
	const char *name;
};

/*
 * The values are the x86 kernel's, which libc's equal but for
 * LARGEFILE.  Multi-bit flags (SYNC holds DSYNC, TMPFILE DIRECTORY)
 * come first.
 */
static const struct flag_name open_flags[] = {
	{ O_SYNC, "SYNC" }, { O_TMPFILE, "TMPFILE" },
	{ O_CREAT, "CREAT" },
	{ O_EXCL, "EXCL" }, { O_NOCTTY, "NOCTTY" }, { O_TRUNC, "TRUNC" },
	{ O_APPEND, "APPEND" }, { O_NONBLOCK, "NONBLOCK" },
	{ O_DSYNC, "DSYNC" }, { O_ASYNC, "ASYNC" }, { O_DIRECT, "DIRECT" },
	{ 0100000, "LARGEFILE" },	/* the kernel's; 0 in 64-bit libc */ { O_DIRECTORY, "DIRECTORY" },
	{ O_NOFOLLOW, "NOFOLLOW" }, { O_NOATIME, "NOATIME" },
	{ O_CLOEXEC, "CLOEXEC" }, { O_PATH, "PATH" }, { 0, NULL }
};

static const struct flag_name mmap_prot[] = {
	{ PROT_READ, "READ" }, { PROT_WRITE, "WRITE" }, { PROT_EXEC, "EXEC" },
	{ 0, NULL }
};

static const struct flag_name mmap_flags[] = {
	{ MAP_SHARED, "SHARED" }, { MAP_PRIVATE, "PRIVATE" },
	{ MAP_FIXED, "FIXED" }, { MAP_ANONYMOUS, "ANONYMOUS" },
	{ MAP_32BIT, "32BIT" }, { MAP_GROWSDOWN, "GROWSDOWN" },
	{ MAP_DENYWRITE, "DENYWRITE" }, { MAP_EXECUTABLE, "EXECUTABLE" },
	{ MAP_LOCKED, "LOCKED" }, { MAP_NORESERVE, "NORESERVE" },
	{ MAP_POPULATE, "POPULATE" }, { MAP_NONBLOCK, "NONBLOCK" },
	{ MAP_STACK, "STACK" }, { MAP_HUGETLB, "HUGETLB" },
	{ MAP_FIXED_NOREPLACE, "FIXED_NOREPLACE" }, { 0, NULL }
};

/* C types of syscall arguments that are signed. */
static bool type_is_signed(const char *type)
{
	static const char * const signed_types[] = {
		"int", "long", "pid_t", "off_t", "loff_t", "key_t", "clockid_t",
		"timer_t", "mqd_t", "rwf_t", "__s32", "s32", NULL
	};
	int i;

	if (!strncmp(type, "const ", 6))
		type += 6;
	for (i = 0; signed_types[i]; i++)
		if (!strcmp(type, signed_types[i]))
			return true;
	return false;
}

static bool type_is_int(const char *type)
{
	if (!strncmp(type, "const ", 6))
		type += 6;
	return !strcmp(type, "int") || !strcmp(type, "unsigned int") ||
	       !strcmp(type, "pid_t") || !strcmp(type, "umode_t") ||
	       !strcmp(type, "uid_t") || !strcmp(type, "gid_t") ||
	       !strcmp(type, "key_t") || !strcmp(type, "clockid_t") ||
	       !strcmp(type, "u32") || !strcmp(type, "__s32") ||
	       !strcmp(type, "s32") || !strcmp(type, "rwf_t");
}

static bool name_ends_with(const char *name, const char *end)
{
	size_t n = strlen(name), e = strlen(end);

	return n >= e && !strcmp(name + n - e, end);
}

static enum syscall_arg_kind arg_kind(const char *sc, const char *type,
				      const char *name)
{
	bool is_open = !strcmp(sc, "open") || !strcmp(sc, "openat");
	bool is_mmap = !strcmp(sc, "mmap") || !strcmp(sc, "mmap2") ||
		       !strcmp(sc, "mprotect");

	if (strchr(type, '*'))
		return SC_ARG_HEX;
	if (!strcmp(name, "dfd") || !strcmp(name, "olddfd") ||
	    !strcmp(name, "newdfd"))
		return SC_ARG_DIRFD;
	if (name_ends_with(name, "fd"))
		return SC_ARG_FD;
	if (is_open && !strcmp(name, "flags"))
		return SC_ARG_OPEN_FLAGS;
	if (is_mmap && !strcmp(name, "prot"))
		return SC_ARG_MMAP_PROT;
	if (is_mmap && !strcmp(name, "flags"))
		return SC_ARG_MMAP_FLAGS;
	if (!strcmp(type, "umode_t"))
		return SC_ARG_MODE;
	if (strstr(name, "addr") || !strcmp(name, "brk") ||
	    !strcmp(name, "start"))
		return SC_ARG_HEX;
	return type_is_signed(type) ? SC_ARG_SIGNED : SC_ARG_UNSIGNED;
}

void syscall_fmt__init(struct syscall_fmt *f, const char *name,
		       const struct tep_event *e)
{
	const struct tep_format_field *field;

	memset(f, 0, sizeof(*f));
	f->ready = true;
	f->ret_hex = !strcmp(name, "mmap") || !strcmp(name, "mmap2") ||
		     !strcmp(name, "mremap") || !strcmp(name, "brk") ||
		     !strcmp(name, "shmat");
	f->no_return = !strcmp(name, "exit") || !strcmp(name, "exit_group");
	if (!e) {
		f->nr_args = -1;
		return;
	}
	/* The fields after __syscall_nr are the arguments, in order. */
	for (field = e->format.fields; field && f->nr_args < 6;
	     field = field->next) {
		struct syscall_arg *a = &f->args[f->nr_args];

		if (!strcmp(field->name, "__syscall_nr"))
			continue;
		snprintf(a->name, sizeof(a->name), "%s", field->name);
		a->kind = arg_kind(name, field->type, field->name);
		a->is_int = type_is_int(field->type);
		f->nr_args++;
	}
}

struct out {
	char *p;
	size_t left;
};

static void put(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->left <= 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->p, o->left, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= o->left)
		n = o->left - 1;
	o->p += n;
	o->left -= n;
}

/* NAME|NAME|0x... for the bits left over. */
static void put_flags(struct out *o, u64 v, const struct flag_name *names,
		      const char *zero)
{
	bool first = true;
	int i;

	if (!v) {
		put(o, "%s", zero);
		return;
	}
	for (i = 0; names[i].name; i++) {
		if ((v & names[i].bit) != names[i].bit)
			continue;
		put(o, "%s%s", first ? "" : "|", names[i].name);
		v &= ~names[i].bit;
		first = false;
	}
	if (v)
		put(o, "%s%#llx", first ? "" : "|", (unsigned long long)v);
}

static void put_value(struct out *o, const struct syscall_arg *a, u64 v)
{
	switch (a->kind) {
	case SC_ARG_DIRFD:
		if ((int)v == AT_FDCWD)
			put(o, "CWD");
		else
			put(o, "%d", (int)v);
		break;
	case SC_ARG_FD:
		put(o, "%d", (int)v);
		break;
	case SC_ARG_SIGNED:
		put(o, "%lld", a->is_int ? (long long)(int)v : (long long)v);
		break;
	case SC_ARG_UNSIGNED:
		put(o, "%llu", (unsigned long long)v);
		break;
	case SC_ARG_HEX:
		put(o, "%#llx", (unsigned long long)v);
		break;
	case SC_ARG_OPEN_FLAGS:
		/* The access mode first, RDONLY (0) included, as Linux perf. */
		put(o, "%s", (v & O_ACCMODE) == O_WRONLY ? "WRONLY" :
			     (v & O_ACCMODE) == O_RDWR ? "RDWR" : "RDONLY");
		if (v & ~(u64)O_ACCMODE) {
			put(o, "|");
			put_flags(o, v & ~(u64)O_ACCMODE, open_flags, "");
		}
		break;
	case SC_ARG_MODE:
		put(o, "%#llo", (unsigned long long)v);
		break;
	case SC_ARG_MMAP_PROT:
		put_flags(o, v, mmap_prot, "NONE");
		break;
	case SC_ARG_MMAP_FLAGS:
		put_flags(o, v, mmap_flags, "0");
		break;
	}
}

static bool shown_when_zero(const struct syscall_arg *a)
{
	return a->kind == SC_ARG_FD || a->kind == SC_ARG_DIRFD ||
	       a->kind == SC_ARG_OPEN_FLAGS || a->kind == SC_ARG_MMAP_PROT;
}

void syscall_fmt__args(const struct syscall_fmt *f, const u64 *args,
		       bool compat, char *buf, size_t size)
{
	struct out o = { buf, size };
	bool first = true;
	int i;

	buf[0] = 0;
	for (i = 0; i < (f->nr_args < 0 ? 6 : f->nr_args); i++) {
		u64 v = compat ? (u32)args[i] : args[i];

		if (f->nr_args < 0) {
			if (v)
				put(&o, "%sarg%d: %#llx", first ? "" : ", ", i,
				    (unsigned long long)v);
			first = first && !v;
			continue;
		}
		if (!v && !shown_when_zero(&f->args[i]))
			continue;
		put(&o, "%s%s: ", first ? "" : ", ", f->args[i].name);
		put_value(&o, &f->args[i], v);
		first = false;
	}
}

void syscall_fmt__ret(const struct syscall_fmt *f, s64 ret, char *buf,
		      size_t size)
{
	const char *name;

	if (syscall_ret_failed(ret)) {
		name = strerrorname_np(-ret);
		snprintf(buf, size, "= -1 %s (%s)", name ? name : "E?",
			 strerror(-ret));
	} else if (f->ret_hex) {
		snprintf(buf, size, "= %#llx", (unsigned long long)ret);
	} else {
		snprintf(buf, size, "= %lld", (long long)ret);
	}
}

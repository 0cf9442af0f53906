// SPDX-License-Identifier: GPL-2.0
/*
 * Threads and address spaces rebuilt from COMM, MMAP, FORK and EXIT
 * records, and resolution of sample addresses to map, dso and symbol.
 *
 * The rules follow the kernel and Linux perf: a FORK copies the parent's
 * address space unless the child is a thread of the same process (its
 * pid is the parent's pid), which shares it; an mmap over existing
 * mappings replaces the overlapped parts.  An exec (COMM with
 * PERF_RECORD_MISC_COMM_EXEC) does not empty the address space: samples
 * taken inside execve() after the COMM still carry the old image's user
 * stack, which Linux perf resolves in the old maps, and the new image's
 * MMAPs replace whatever they overlap anyway.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "arena.h"
#include "machine.h"
#include "unwind.h"

#define NO_PID ((u32)-1)

static u32 next_gen;	/* unique across address spaces: see thread cache */

static u64 hash_str(const char *s)
{
	u64 h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (u8)*s++) * 0x100000001b3ULL;
	return h;
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Comm strings: interned so that equal names are equal pointers. */

static const char **comms__slot(const char **slots, u32 size, const char *s)
{
	u32 i = hash_str(s) & (size - 1);

	while (slots[i] && strcmp(slots[i], s))
		i = (i + 1) & (size - 1);
	return &slots[i];
}

static int comms__grow(struct comm_table *ct)
{
	u32 i, size = ct->size ? ct->size * 2 : 256;
	const char **slots = calloc(size, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < ct->size; i++)
		if (ct->slots[i])
			*comms__slot(slots, size, ct->slots[i]) = ct->slots[i];
	free(ct->slots);
	ct->slots = slots;
	ct->size = size;
	return 0;
}

const char *machine__intern_comm(struct machine *m, const char *comm)
{
	struct comm_table *ct = &m->comms;
	const char **slot;

	if ((ct->nr + 1) * 2 > ct->size && comms__grow(ct))
		return NULL;
	slot = comms__slot(ct->slots, ct->size, comm);
	if (!*slot) {
		*slot = arena__strdup(m->arena, comm);
		if (!*slot)
			return NULL;
		ct->nr++;
	}
	return *slot;
}

/* Address spaces */

struct map *maps__find(const struct maps *maps, u64 addr)
{
	u32 lo = 0, hi = maps->nr;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (maps->entries[mid]->start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr < maps->entries[lo - 1]->end)
		return maps->entries[lo - 1];
	return NULL;
}

static int maps__reserve(struct maps *maps, u32 nr)
{
	struct map **v;
	u32 alloc;

	if (nr <= maps->alloc)
		return 0;
	alloc = maps->alloc ? maps->alloc : 16;
	while (alloc < nr)
		alloc *= 2;
	v = realloc(maps->entries, alloc * sizeof(*v));
	if (!v)
		return -ENOMEM;
	maps->entries = v;
	maps->alloc = alloc;
	return 0;
}

static void machine__changed(struct machine *m)
{
	m->state_gen = ++next_gen;
}

static struct maps *machine__new_maps(struct machine *m)
{
	struct maps *maps = arena__alloc(m->arena, sizeof(*maps));

	if (!maps)
		return NULL;
	maps->gen = ++next_gen;
	maps->next = m->all_maps;
	m->all_maps = maps;
	return maps;
}

static int maps__copy(struct maps *dst, const struct maps *src)
{
	if (maps__reserve(dst, src->nr))
		return -ENOMEM;
	if (src->nr)
		memcpy(dst->entries, src->entries,
		       src->nr * sizeof(*src->entries));
	dst->nr = src->nr;
	dst->gen = ++next_gen;
	return 0;
}

/* The part [start, end) of @old, as a map of its own. */
static struct map *map__piece(struct machine *m, const struct map *old,
			      u64 start, u64 end)
{
	struct map *p = arena__alloc(m->arena, sizeof(*p));

	if (!p)
		return NULL;
	*p = *old;
	p->start = start;
	p->end = end;
	if (!p->identity)
		p->pgoff += start - old->start;
	return p;
}

/* First map ending after @addr: ends are sorted as the maps never overlap. */
static u32 maps__first_after(const struct maps *maps, u64 addr)
{
	u32 lo = 0, hi = maps->nr;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (maps->entries[mid]->end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Inserts @map, cutting what it overlaps as the kernel would: only the
 * parts of older maps outside [start, end) survive.
 */
static int maps__insert(struct machine *m, struct maps *maps, struct map *map)
{
	struct map *left = NULL, *right = NULL, *first, *last;
	u32 lo = maps__first_after(maps, map->start), hi = lo, n;

	while (hi < maps->nr && maps->entries[hi]->start < map->end)
		hi++;
	if (lo < hi) {
		first = maps->entries[lo];
		last = maps->entries[hi - 1];
		if (first->start < map->start)
			left = map__piece(m, first, first->start, map->start);
		if (last->end > map->end)
			right = map__piece(m, last, map->end, last->end);
		if ((first->start < map->start && !left) ||
		    (last->end > map->end && !right))
			return -ENOMEM;
	}
	n = !!left + 1 + !!right;
	if (maps__reserve(maps, maps->nr - (hi - lo) + n))
		return -ENOMEM;
	memmove(&maps->entries[lo + n], &maps->entries[hi],
		(maps->nr - hi) * sizeof(*maps->entries));
	maps->nr = maps->nr - (hi - lo) + n;
	if (left)
		maps->entries[lo++] = left;
	maps->entries[lo++] = map;
	if (right)
		maps->entries[lo] = right;
	maps->gen = ++next_gen;
	return 0;
}

static struct map *machine__new_map(struct machine *m, u64 start, u64 len,
				    u64 pgoff, struct dso *dso)
{
	struct map *map = arena__alloc(m->arena, sizeof(*map));

	if (!map)
		return NULL;
	map->start = start;
	/* A length reaching past the top of the address space stops there. */
	map->end = start + len < start ? ~0ULL : start + len;
	map->pgoff = pgoff;
	map->dso = dso;
	return map;
}

/* Threads */

static struct thread **threads__slot(struct thread **slots, u32 size, u32 tid)
{
	u32 i = (tid * 2654435761u) & (size - 1);

	while (slots[i] && slots[i]->tid != tid)
		i = (i + 1) & (size - 1);
	return &slots[i];
}

static int threads__grow(struct thread_table *tt)
{
	u32 i, size = tt->size ? tt->size * 2 : 1024;
	struct thread **slots = calloc(size, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < tt->size; i++)
		if (tt->slots[i])
			*threads__slot(slots, size, tt->slots[i]->tid) =
				tt->slots[i];
	free(tt->slots);
	tt->slots = slots;
	tt->size = size;
	return 0;
}

struct thread *machine__find_thread(struct machine *m, u32 tid)
{
	if (m->last_thread && m->last_thread->tid == tid)
		return m->last_thread;
	if (!m->threads.size)
		return NULL;
	return *threads__slot(m->threads.slots, m->threads.size, tid);
}

/* Makes @t the thread known by its tid, replacing an older one. */
static int machine__set_thread(struct machine *m, struct thread *t)
{
	struct thread_table *tt = &m->threads;
	struct thread **slot;

	if ((tt->nr + 1) * 2 > tt->size && threads__grow(tt))
		return -ENOMEM;
	slot = threads__slot(tt->slots, tt->size, t->tid);
	if (!*slot)
		tt->nr++;
	*slot = t;
	m->last_thread = t;
	return 0;
}

static void thread__use_maps(struct thread *t, struct maps *maps)
{
	if (t->maps)
		t->maps->users--;
	t->maps = maps;
	maps->users++;
	t->last_map = NULL;
}

/*
 * Threads of a process share the leader's address space; a leader, or a
 * thread whose process is unknown, has its own.
 */
static int machine__thread_maps(struct machine *m, struct thread *t)
{
	struct thread *leader;
	struct maps *maps;

	if (t->pid == t->tid || t->pid == NO_PID) {
		maps = machine__new_maps(m);
		if (!maps)
			return -ENOMEM;
		thread__use_maps(t, maps);
		return 0;
	}
	leader = machine__findnew_thread(m, t->pid, t->pid);
	if (!leader)
		return -ENOMEM;
	thread__use_maps(t, leader->maps);
	return 0;
}

static struct thread *machine__new_thread(struct machine *m, u32 pid, u32 tid)
{
	struct thread *t = arena__alloc(m->arena, sizeof(*t));
	char comm[16];

	if (!t)
		return NULL;
	machine__changed(m);
	t->pid = pid;
	t->tid = tid;
	t->ppid = NO_PID;
	/*
	 * The idle task has no COMM record; it is known as swapper, and
	 * as in Linux perf, the tasks it forks at boot inherit the name.
	 */
	t->comm_set = tid == 0;
	if (tid == 0)
		snprintf(comm, sizeof(comm), "swapper");
	else
		snprintf(comm, sizeof(comm), ":%d", (int)tid);
	t->comm = machine__intern_comm(m, comm);
	if (!t->comm || machine__thread_maps(m, t) ||
	    machine__set_thread(m, t))
		return NULL;
	return t;
}

/* A thread first seen without its pid joins its process once known. */
static int thread__update_pid(struct machine *m, struct thread *t, u32 pid)
{
	struct thread *leader;

	if (pid == NO_PID || t->pid != NO_PID)
		return 0;
	machine__changed(m);
	t->pid = pid;
	if (pid == t->tid)
		return 0;
	leader = machine__findnew_thread(m, pid, pid);
	if (!leader)
		return -ENOMEM;
	thread__use_maps(t, leader->maps);
	return 0;
}

struct thread *machine__findnew_thread(struct machine *m, u32 pid, u32 tid)
{
	struct thread *t = machine__find_thread(m, tid);

	if (t) {
		if (thread__update_pid(m, t, pid))
			return NULL;
		m->last_thread = t;
		return t;
	}
	return machine__new_thread(m, pid, tid);
}

/* Records */

static int machine__comm(struct machine *m, const struct perf_record_comm *ev)
{
	size_t max = ev->header.size - offsetof(struct perf_record_comm, comm);
	char comm[64];
	struct thread *t;

	if (ev->header.size <= offsetof(struct perf_record_comm, comm))
		return -EINVAL;
	snprintf(comm, sizeof(comm), "%.*s", (int)strnlen(ev->comm, max),
		 ev->comm);
	t = machine__findnew_thread(m, ev->pid, ev->tid);
	if (!t)
		return -ENOMEM;
	t->comm = machine__intern_comm(m, comm);
	if (!t->comm)
		return -ENOMEM;
	if (!t->comm_set)
		t->first_comm = t->comm;
	t->comm_set = true;
	return 0;
}

/*
 * The tid now names a new task: the old thread stays valid for whoever
 * holds it, but lookups find the new one.
 */
static struct thread *machine__replace_thread(struct machine *m, u32 pid,
					      u32 tid)
{
	struct thread *old = machine__find_thread(m, tid);

	if (old) {
		old->dead = true;
		old->replaced_seq = ++m->nr_replaced;
	}
	return machine__new_thread(m, pid, tid);
}

static int machine__fork(struct machine *m, const struct perf_record_fork *ev)
{
	struct thread *parent, *child;

	if (ev->header.size < sizeof(*ev))
		return -EINVAL;
	parent = machine__findnew_thread(m, ev->ppid, ev->ptid);
	/* A stale thread under the parent's tid (lost EXIT): start over. */
	if (parent && parent->pid != ev->ppid)
		parent = machine__replace_thread(m, ev->ppid, ev->ptid);
	if (!parent)
		return -ENOMEM;
	child = machine__replace_thread(m, ev->pid, ev->tid);
	if (!child)
		return -ENOMEM;
	child->ppid = parent->tid;
	if (parent->comm_set) {
		child->comm = parent->comm;
		child->comm_set = true;
	}
	/*
	 * A new process starts with a copy of the parent's address space,
	 * a new thread shares it (machine__thread_maps()).  Tools mark
	 * FORKs they synthesize from /proc with FORK_EXEC: their MMAPs
	 * follow, there is nothing to copy.
	 */
	if (child->pid == parent->pid ||
	    (ev->header.misc & PERF_RECORD_MISC_FORK_EXEC))
		return 0;
	return maps__copy(child->maps, parent->maps);
}

static int machine__exit_event(struct machine *m,
			       const struct perf_record_fork *ev)
{
	struct thread *t;

	if (ev->header.size < sizeof(*ev))
		return -EINVAL;
	t = machine__find_thread(m, ev->tid);
	if (t)
		t->dead = t->exited = true;
	return 0;
}

struct mmap_args {
	u32 pid;
	u32 tid;
	u64 start;
	u64 len;
	u64 pgoff;
	u32 prot;
	u32 flags;
	u16 misc;
	const u8 *build_id;
	u8 build_id_size;
	char filename[4096];
};

/* "/lib/modules/.../nvme-core.ko.xz" is the module "[nvme_core]". */
static void module_name(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t i, len;

	if (path[0] == '[') {
		snprintf(buf, size, "%s", path);
		return;
	}
	base = base ? base + 1 : path;
	len = strcspn(base, ".");
	snprintf(buf, size, "[%.*s]", (int)len, base);
	for (i = 1; buf[i]; i++)
		if (buf[i] == '-')
			buf[i] = '_';
}

/*
 * Kernel MMAPs: "[kernel.kallsyms]_text" is the kernel (the suffix names
 * the symbol whose address pgoff is, to detect relocation), a path or
 * "[name]" a module.
 */
static int machine__kernel_mmap(struct machine *m, const struct mmap_args *a)
{
	char name[256];
	struct dso *dso;
	struct map *map;
	bool kernel = starts_with(a->filename, KERNEL_DSO_NAME);

	if (!kernel && a->filename[0] != '/' && a->filename[0] != '[')
		return 0;
	if (kernel) {
		dso = dsos__kernel();
		if (dso && !dso->loaded && a->pgoff) {
			snprintf(dso->ref_name, sizeof(dso->ref_name), "%s",
				 a->filename + strlen(KERNEL_DSO_NAME));
			dso->ref_addr = a->pgoff;
		}
	} else {
		module_name(a->filename, name, sizeof(name));
		dso = dsos__module(name);
	}
	if (!dso)
		return -ENOMEM;
	map = machine__new_map(m, a->start, a->len, a->pgoff, dso);
	if (!map)
		return -ENOMEM;
	map->identity = true;
	map->prot = PROT_EXEC;
	if (kernel)
		m->kernel_map = map;
	return maps__insert(m, &m->kmaps, map);
}

static bool is_anon(const struct mmap_args *a)
{
	return !strcmp(a->filename, "//anon") ||
	       starts_with(a->filename, "/dev/zero") ||
	       starts_with(a->filename, "/anon_hugepage") ||
	       (a->flags & MAP_HUGETLB);
}

static bool is_no_dso(const char *filename)
{
	return starts_with(filename, "[stack") || starts_with(filename, "/SYSV") ||
	       !strcmp(filename, "[heap]");
}

/*
 * The dso behind a user mapping.  Executable anonymous memory is JIT
 * code, described (if at all) by /tmp/perf-PID.map.
 */
static struct dso *mmap__dso(const struct mmap_args *a, bool *identity)
{
	char jit[64];

	*identity = false;
	if (!strcmp(a->filename, VDSO_DSO_NAME))
		return dsos__findnew(VDSO_DSO_NAME);
	if (!is_anon(a) && !is_no_dso(a->filename))
		return dsos__findnew(a->filename);
	*identity = true;
	if (!(a->prot & PROT_EXEC))
		return dsos__findnew_kind(a->filename, DSO_KIND_NONE);
	snprintf(jit, sizeof(jit), "/tmp/perf-%d.map", (int)a->pid);
	return dsos__findnew(jit);
}

static int machine__mmap(struct machine *m, const struct mmap_args *a)
{
	u8 cpumode = a->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct thread *t;
	struct dso *dso;
	struct map *map;
	bool identity;

	/* Guests are not modelled: their samples stay unresolved. */
	if (cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	    cpumode == PERF_RECORD_MISC_GUEST_USER)
		return 0;
	if (cpumode == PERF_RECORD_MISC_KERNEL || a->pid == NO_PID)
		return machine__kernel_mmap(m, a);
	if (!a->len)
		return 0;
	t = machine__findnew_thread(m, a->pid, a->tid);
	dso = mmap__dso(a, &identity);
	if (!t || !dso)
		return -ENOMEM;
	if (a->build_id_size && !dso->bid.size)
		dso__set_build_id(dso, a->build_id, a->build_id_size);
	/* The vdso image starts at its mapping whatever the offset says. */
	map = machine__new_map(m, a->start, a->len,
			       dso->kind == DSO_KIND_VDSO ? 0 : a->pgoff, dso);
	if (!map)
		return -ENOMEM;
	map->prot = a->prot;
	map->flags = a->flags;
	map->identity = identity;
	return maps__insert(m, t->maps, map);
}

static int mmap_args__filename(struct mmap_args *a, const union perf_event *ev,
			       size_t offset, const char *filename)
{
	if (ev->header.size <= offset)
		return -EINVAL;
	snprintf(a->filename, sizeof(a->filename), "%.*s",
		 (int)strnlen(filename, ev->header.size - offset), filename);
	return 0;
}

static int machine__mmap_event(struct machine *m, const union perf_event *ev)
{
	const struct perf_record_mmap *e = &ev->mmap;
	struct mmap_args a = {
		.pid = e->pid, .tid = e->tid, .start = e->start, .len = e->len,
		.pgoff = e->pgoff, .misc = e->header.misc,
		/* MMAP (v1) carries no protection: code unless marked data. */
		.prot = e->header.misc & PERF_RECORD_MISC_MMAP_DATA ? 0 : PROT_EXEC,
	};

	if (mmap_args__filename(&a, ev, offsetof(struct perf_record_mmap, filename),
				e->filename))
		return -EINVAL;
	return machine__mmap(m, &a);
}

static int machine__mmap2_event(struct machine *m, const union perf_event *ev)
{
	const struct perf_record_mmap2 *e = &ev->mmap2;
	struct mmap_args a = {
		.pid = e->pid, .tid = e->tid, .start = e->start, .len = e->len,
		.pgoff = e->pgoff, .misc = e->header.misc, .prot = e->prot,
		.flags = e->flags,
	};

	if (mmap_args__filename(&a, ev, offsetof(struct perf_record_mmap2, filename),
				e->filename))
		return -EINVAL;
	if ((e->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
	    e->build_id_size <= sizeof(e->build_id)) {
		a.build_id = e->build_id;
		a.build_id_size = e->build_id_size;
	}
	return machine__mmap(m, &a);
}

/* The records that make, name, move or end tasks, or add maps. */
static bool machine__changes_state(u32 type)
{
	return type == PERF_RECORD_COMM || type == PERF_RECORD_MMAP ||
	       type == PERF_RECORD_MMAP2 || type == PERF_RECORD_FORK ||
	       type == PERF_RECORD_EXIT;
}

int machine__process_event(struct machine *m, const union perf_event *ev,
			   const struct perf_sample *sample)
{
	(void)sample;	/* the records carry all they need */
	if (!machine__changes_state(ev->header.type))
		return 0;
	machine__changed(m);
	switch (ev->header.type) {
	case PERF_RECORD_COMM:
		return machine__comm(m, &ev->comm);
	case PERF_RECORD_MMAP:
		return machine__mmap_event(m, ev);
	case PERF_RECORD_MMAP2:
		return machine__mmap2_event(m, ev);
	case PERF_RECORD_FORK:
		return machine__fork(m, &ev->fork);
	case PERF_RECORD_EXIT:
		return machine__exit_event(m, &ev->fork);
	default:
		return 0;
	}
}

/* The kernel */

/* kallsyms pseudo modules (BPF programs, ftrace trampolines) get no map. */
static bool is_real_module(const char *name)
{
	return strcmp(name, "[bpf]") && !starts_with(name, "[__builtin");
}

/* Adds [start, end) for @dso in what no map covers yet. */
static int kmaps__add_free(struct machine *m, u64 start, u64 end,
			   struct dso *dso)
{
	u32 next = maps__first_after(&m->kmaps, start);
	struct map *map;

	if (next < m->kmaps.nr) {
		if (m->kmaps.entries[next]->start <= start)
			return 0;
		if (m->kmaps.entries[next]->start < end)
			end = m->kmaps.entries[next]->start;
	}
	if (end <= start)
		return 0;
	map = machine__new_map(m, start, end - start, 0, dso);
	if (!map)
		return -ENOMEM;
	map->identity = true;
	map->prot = PROT_EXEC;
	return maps__insert(m, &m->kmaps, map);
}

static int module__add_map(struct dso *dso, void *arg)
{
	const struct symtab *st = &dso->symtab;

	if (dso->kind != DSO_KIND_MODULE || !st->nr ||
	    !is_real_module(dso->short_name))
		return 0;
	return kmaps__add_free(arg, st->syms[0].start,
			       st->syms[st->nr - 1].end, dso);
}

static void maps__remove_dso(struct maps *maps, const struct dso *dso)
{
	u32 i, out = 0;

	for (i = 0; i < maps->nr; i++)
		if (maps->entries[i]->dso != dso)
			maps->entries[out++] = maps->entries[i];
	maps->nr = out;
	maps->gen = ++next_gen;
}

/*
 * Once kallsyms is read, the kernel map spans its symbols, data ones
 * included, as in Linux perf: the MMAP record stops at _etext, but init
 * text (start_kernel on the idle tasks' stacks) lies beyond.  Module maps come from records,
 * or else from where kallsyms puts the module's symbols.
 */
int machine__load_kernel(struct machine *m)
{
	struct dso *kernel;
	const struct symtab *st;
	int err;

	if (m->kernel_loaded)
		return 0;
	m->kernel_loaded = true;
	machine__changed(m);
	kernel = dsos__kernel();
	if (!kernel)
		return -ENOMEM;
	dso__load(kernel);
	st = &kernel->symtab;
	if (st->nr) {
		u64 end = st->syms[st->nr - 1].end;

		/* Linux perf's kernel map takes in the data symbols too. */
		if (st->image_end > end)
			end = st->image_end;
		maps__remove_dso(&m->kmaps, kernel);
		err = kmaps__add_free(m, st->syms[0].start, end, kernel);
		if (err)
			return err;
		m->kernel_map = maps__find(&m->kmaps, st->syms[0].start);
	}
	return dsos__for_each(module__add_map, m);
}

/* Resolution */

static struct map *thread__find_user_map(struct thread *t, u64 ip)
{
	struct map *map = t->last_map;

	if (map && t->last_gen == t->maps->gen && ip >= map->start &&
	    ip < map->end)
		return map;
	map = maps__find(t->maps, ip);
	if (map) {
		t->last_map = map;
		t->last_gen = t->maps->gen;
	}
	return map;
}

static struct map *machine__find_kernel_map(struct machine *m, u64 ip)
{
	struct map *map = m->last_kmap;

	if (!m->kernel_loaded)
		machine__load_kernel(m);
	if (map && m->last_kgen == m->kmaps.gen && ip >= map->start &&
	    ip < map->end)
		return map;
	map = maps__find(&m->kmaps, ip);
	if (map) {
		m->last_kmap = map;
		m->last_kgen = m->kmaps.gen;
	}
	return map;
}

static struct map *machine__find_map(struct machine *m, struct thread *t,
				     u8 cpumode, u64 ip, struct addr_location *al)
{
	al->cpumode = cpumode;
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		al->level = 'k';
		return machine__find_kernel_map(m, ip);
	case PERF_RECORD_MISC_USER:
		al->level = '.';
		return thread__find_user_map(t, ip);
	default:
		/* Guests and the hypervisor: nothing to resolve against. */
		al->level = 'H';
		return NULL;
	}
}

/* The mode an address belongs to by its half of the address space. */
static u8 machine__addr_cpumode(const struct machine *m, u8 cpumode, u64 ip)
{
	if (cpumode != PERF_RECORD_MISC_KERNEL && cpumode != PERF_RECORD_MISC_USER)
		return cpumode;
	return ip >= m->kernel_start ? PERF_RECORD_MISC_KERNEL :
				       PERF_RECORD_MISC_USER;
}

static void al__set_map(struct addr_location *al, struct map *map)
{
	al->map = map;
	al->dso = map->dso;
	al->addr = map__map_ip(map, al->addr);
	al->sym = dso__find_symbol(map->dso, al->addr);
}

/* A sample's address: a miss in its mode's maps tries its half's. */
static void thread__resolve(struct machine *m, struct thread *t, u8 cpumode,
			    u64 ip, struct addr_location *al)
{
	struct map *map;
	u8 alt;

	memset(al, 0, sizeof(*al));
	al->thread = t;
	al->addr = ip;
	map = machine__find_map(m, t, cpumode, ip, al);
	alt = machine__addr_cpumode(m, cpumode, ip);
	if (!map && alt != cpumode) {
		char level = al->level;

		map = machine__find_map(m, t, alt, ip, al);
		/* Unresolved: keep the level of the mode we were in. */
		if (!map) {
			al->level = level;
			al->cpumode = cpumode;
		}
	}
	if (map)
		al__set_map(al, map);
}

int machine__resolve(struct machine *m, u32 pid, u32 tid, u8 cpumode, u64 ip,
		     struct addr_location *al)
{
	struct thread *t = machine__findnew_thread(m, pid, tid);

	if (!t) {
		memset(al, 0, sizeof(*al));
		return -ENOMEM;
	}
	thread__resolve(m, t, cpumode, ip, al);
	return 0;
}

/*
 * Host callchains only switch between these; anything else up there
 * means a corrupt chain, which Linux perf drops whole.
 */
static int context_cpumode(u64 marker)
{
	switch (marker) {
	case PERF_CONTEXT_HV:
		return PERF_RECORD_MISC_HYPERVISOR;
	case PERF_CONTEXT_KERNEL:
		return PERF_RECORD_MISC_KERNEL;
	case PERF_CONTEXT_USER:
		return PERF_RECORD_MISC_USER;
	default:
		return -EINVAL;
	}
}

#define FRAME_CACHE_SLOTS 16384	/* a power of two */

/* The generation of the maps a frame in @mode is looked up in; 0: none. */
static u32 frame_maps_gen(struct machine *m, struct thread *t, int mode)
{
	switch (mode) {
	case PERF_RECORD_MISC_KERNEL:
		/* Loading the kernel adds its maps: key by what follows. */
		if (!m->kernel_loaded)
			machine__load_kernel(m);
		return m->kmaps.gen;
	case PERF_RECORD_MISC_USER:
		return t && t->maps ? t->maps->gen : 0;
	default:
		return 0;
	}
}

static struct frame_cache_slot *frame_cache_slot(struct machine *m, u64 ip,
						 u32 gen)
{
	u64 h = (ip ^ ((u64)gen << 32)) * 0x9e3779b97f4a7c15ULL;

	if (!m->frame_cache) {
		m->frame_cache = calloc(FRAME_CACHE_SLOTS,
					sizeof(*m->frame_cache));
		if (!m->frame_cache)
			return NULL;
	}
	return &m->frame_cache[h >> 52 & (FRAME_CACHE_SLOTS - 1)];
}

int machine__resolve_callchain_ip(struct machine *m, struct thread *thread,
				  u8 *cpumode, u64 ip, struct addr_location *al)
{
	struct frame_cache_slot *slot = NULL;
	struct map *map;
	int mode;
	u32 gen;

	if (ip >= PERF_CONTEXT_MAX) {
		mode = context_cpumode(ip);
		if (mode < 0)
			return mode;
		*cpumode = mode;
		return 1;
	}
	mode = *cpumode;
	if (mode == PERF_RECORD_MISC_CPUMODE_UNKNOWN)
		mode = machine__addr_cpumode(m, PERF_RECORD_MISC_USER, ip);
	gen = frame_maps_gen(m, thread, mode);
	if (gen)
		slot = frame_cache_slot(m, ip, gen);
	if (slot && slot->gen == gen && slot->ip == ip) {
		*al = slot->al;
		al->thread = thread;
		return 0;
	}
	/*
	 * Unlike a sample's address, a frame is looked up in its context's
	 * maps only: user stacks walked through frame pointers hold stray
	 * values, and one in the kernel's half is no kernel function.
	 */
	memset(al, 0, sizeof(*al));
	al->thread = thread;
	al->addr = ip;
	map = machine__find_map(m, thread, mode, ip, al);
	if (map)
		al__set_map(al, map);
	if (slot) {
		slot->ip = ip;
		slot->gen = gen;
		slot->al = *al;
	}
	return 0;
}

/* Lifetime */

int machine__init(struct machine *m)
{
	memset(m, 0, sizeof(*m));
	m->arena = arena__new(256 << 10);
	if (!m->arena)
		return -ENOMEM;
	m->kmaps.gen = ++next_gen;
	machine__changed(m);
	/* x86_64: the kernel owns the upper half. */
	m->kernel_start = 1ULL << 63;
	return 0;
}

const struct ip_callchain *machine__callchain(struct machine *m,
					      struct thread *t,
					      const struct perf_sample *s)
{
	if (!s->user_stack || !t)
		return s->callchain;
	if (!m->unwinder)
		m->unwinder = unwinder__new(m);
	return m->unwinder ? unwinder__chain(m->unwinder, t, s) : s->callchain;
}

void machine__exit(struct machine *m)
{
	struct maps *maps;

	if (m->unwinder) {
		unwinder__warn(m->unwinder, stderr);
		unwinder__delete(m->unwinder);
	}
	for (maps = m->all_maps; maps; maps = maps->next)
		free(maps->entries);
	free(m->kmaps.entries);
	free(m->frame_cache);
	free(m->threads.slots);
	free(m->comms.slots);
	arena__delete(m->arena);
	memset(m, 0, sizeof(*m));
}

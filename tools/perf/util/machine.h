/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_MACHINE_H
#define __PERF_UTIL_MACHINE_H

#include <perf/types.h>
#include "event.h"
#include "dso.h"

/*
 * The state of the traced machine as the records describe it: threads,
 * their address spaces, and the kernel's.  Threads, maps and comm
 * strings are allocated from one arena and stay valid until
 * machine__exit(), even after the thread exits or the map is replaced,
 * so callers may keep pointers to them.
 */
struct arena;

/* One mapping [start, end) of @dso, file offset @pgoff at @start. */
struct map {
	u64 start;
	u64 end;
	u64 pgoff;
	struct dso *dso;
	u32 prot;
	u32 flags;
	bool identity;		/* dso addresses are absolute (kernel, JIT) */
};

/* An address a map covers, in the space of its dso's symbols. */
static inline u64 map__map_ip(const struct map *map, u64 ip)
{
	return map->identity ? ip : ip - map->start + map->pgoff;
}

static inline u64 map__unmap_ip(const struct map *map, u64 rel)
{
	return map->identity ? rel : rel + map->start - map->pgoff;
}

/*
 * An address space: sorted, non-overlapping maps.  Maps themselves never
 * change; a change replaces them, so an address space is copied by
 * copying pointers.
 */
struct maps {
	struct map **entries;
	u32 nr;
	u32 alloc;
	u32 gen;		/* bumped on every change: cache validity */
	u32 users;		/* threads sharing it */
	struct maps *next;	/* all of a machine's, for freeing */
};

struct map *maps__find(const struct maps *maps, u64 addr);

struct thread {
	u32 pid;
	u32 tid;
	u32 ppid;		/* tid of the parent, (u32)-1 when unknown */
	const char *comm;	/* interned; ":TID" until a COMM names it */
	bool comm_set;
	/*
	 * The name the first COMM (or FORK) gave a thread that samples
	 * had already met as ":TID": Linux perf renames those samples.
	 */
	const char *first_comm;
	bool dead;		/* an EXIT was seen, or the tid was reused */
	bool exited;		/* an EXIT was seen */
	u32 replaced_seq;	/* order of tid reuse, 1 up; 0 while current */
	void *priv;		/* for the analysis that reads the records */
	struct maps *maps;
	struct map *last_map;	/* lookup cache, valid while gen matches */
	u32 last_gen;
};

struct addr_location {
	struct thread *thread;
	struct map *map;	/* NULL: no mapping ("[unknown]") */
	struct dso *dso;	/* map->dso */
	const struct symbol *sym;	/* NULL: no symbol */
	u64 addr;		/* dso-relative address, the IP without a map */
	u8 cpumode;		/* the mode the address was found in */
	char level;		/* 'k' kernel, '.' user, 'H' neither */
};

struct thread_table {
	struct thread **slots;	/* open addressing by tid */
	u32 size;
	u32 nr;
};

struct comm_table {
	const char **slots;	/* interned strings */
	u32 size;
	u32 nr;
};

/*
 * A call-chain frame already resolved: call chains repeat the same
 * return addresses sample after sample.  Keyed by the address and the
 * generation of the maps it was found in, which is unique across
 * address spaces and changes with every map added, so a slot is never
 * stale.
 */
struct frame_cache_slot {
	u64 ip;
	u32 gen;		/* 0: empty */
	struct addr_location al;
};

struct unwinder;

struct machine {
	struct arena *arena;
	struct unwinder *unwinder;	/* DWARF user stacks, lazily */
	struct frame_cache_slot *frame_cache;	/* FRAME_CACHE_SLOTS, lazily */
	struct thread_table threads;
	struct comm_table comms;
	struct maps *all_maps;
	struct maps kmaps;	/* kernel and modules, absolute addresses */
	struct map *kernel_map;
	struct map *last_kmap;
	u32 last_kgen;
	bool kernel_loaded;	/* kallsyms read, module maps made */
	struct thread *last_thread;
	u64 kernel_start;	/* addresses at or above are the kernel's */
	u32 nr_replaced;	/* threads whose tid was reused */
	/*
	 * Changes, unique across machines, with every thread made, named
	 * or moved to a process, every map added and the kernel's loading
	 * (all done here): while it stays, a task's address resolves as it
	 * did, and callers may keep what it resolved to.
	 */
	u32 state_gen;
};

int machine__init(struct machine *m);
void machine__exit(struct machine *m);

/* COMM, MMAP, MMAP2, FORK and EXIT update the state; others are ignored. */
int machine__process_event(struct machine *m, const union perf_event *ev,
			   const struct perf_sample *sample);

struct thread *machine__find_thread(struct machine *m, u32 tid);
struct thread *machine__findnew_thread(struct machine *m, u32 pid, u32 tid);
const char *machine__intern_comm(struct machine *m, const char *comm);

/*
 * Resolves @ip of thread @pid/@tid, seen in @cpumode, into @al.  A miss
 * in the maps of the given mode is retried in those of the address's
 * half (user or kernel).  Returns 0, or -ENOMEM when the thread could not
 * be created; an unresolved address is not an error (al->map NULL).
 */
int machine__resolve(struct machine *m, u32 pid, u32 tid, u8 cpumode, u64 ip,
		     struct addr_location *al);

/*
 * One callchain entry: PERF_CONTEXT_{KERNEL,USER,HV} switch *@cpumode and
 * return 1 (nothing to show); other entries are resolved in the maps of
 * *@cpumode only (of the address's half while it is unknown) and return 0.  Any other value
 * at or above PERF_CONTEXT_MAX returns -EINVAL: the chain is corrupt and
 * the caller drops all of it, as Linux perf does.
 */
int machine__resolve_callchain_ip(struct machine *m, struct thread *thread,
				  u8 *cpumode, u64 ip, struct addr_location *al);

/*
 * The call chain of sample @s of thread @t to resolve: the recorded one,
 * or where @s carries user registers and stack (--call-graph dwarf), its
 * kernel part followed by the user frames unwound from them (unwind.h).
 * Valid until the next call.
 */
const struct ip_callchain *machine__callchain(struct machine *m,
					      struct thread *t,
					      const struct perf_sample *s);

/* Makes the kernel map and module maps from kallsyms if no record did. */
int machine__load_kernel(struct machine *m);

#endif /* __PERF_UTIL_MACHINE_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * DWARF unwinding of sampled user stacks: by compiled rules where they
 * do (cfi-rules.h, walk_by_rules()), else with libdwfl.
 *
 * Each process gets one Dwfl, attached to it through callbacks that
 * give the sample being unwound: its registers as the initial frame,
 * its stack copy (and the mapped files) as memory.  An object is
 * reported to a process's Dwfl the first time a frame lies in it, at
 * the bias its map gives, and stays: libdwfl keeps its CFI, so a stack
 * seen again costs a walk through tables already parsed.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdwfl.h>
#include "dso.h"
#include "machine.h"
#include "array.h"
#include "cfi-rules.h"
#include "symbol.h"
#include "unwind.h"

/* Frames kept of one user stack, as Linux perf's default max-stack. */
#define UNWIND_MAX_FRAMES	127
#define UNWIND_MAX_LOADS	16

/* x86 registers in sample order (PERF_REG_X86_*), the ones we use. */
enum {
	REG_AX, REG_BX, REG_CX, REG_DX, REG_SI, REG_DI, REG_BP, REG_SP,
	REG_IP, REG_R8 = 16,
};

/* DWARF register number -> PERF_REG_X86_* (x86-64 psABI numbering). */
static const u8 dwarf_regs_64[] = {
	REG_AX, REG_DX, REG_CX, REG_BX, REG_SI, REG_DI, REG_BP, REG_SP,
	REG_R8, REG_R8 + 1, REG_R8 + 2, REG_R8 + 3,
	REG_R8 + 4, REG_R8 + 5, REG_R8 + 6, REG_R8 + 7,
};

/* The same for i386 tasks (PERF_SAMPLE_REGS_ABI_32). */
static const u8 dwarf_regs_32[] = {
	REG_AX, REG_CX, REG_DX, REG_BX, REG_SP, REG_BP, REG_SI, REG_DI,
};

struct unwind_stats {
	u64 samples;		/* with a user stack and registers */
	u64 by_rules;		/* of them, walked by compiled rules alone */
	u64 failed;		/* of them, no frame past the first */
	u64 bad_stack;		/* of them, a stack copy whose size lied */
	/*
	 * Of them, user registers in no known map: those the task entered
	 * the kernel with before an exec that the sample caught half way.
	 * Nothing to unwind, and no warning.
	 */
	u64 unmapped;
	u64 empty;		/* of them, nothing of the stack copied */
	/*
	 * Of them, left to libdwfl at a frame whose object has no
	 * .eh_frame entry for it (ld.so's _start, under every sample of
	 * the loader's start-up), which is libdwfl's to walk.
	 */
	u64 no_cfi;
	u64 fp_steps;		/* frames the rules' walk left by frame pointer */
	u64 first_failed_ip;	/* where the first failure was */
	char first_error[96];	/* and why, as libdw says */
};

/* A PT_LOAD segment: where file offsets land in the object's addresses. */
struct unwind_load {
	u64 offset;
	u64 filesz;
	u64 vaddr;
};

/* What unwinding needs of one DSO's file, looked for once. */
struct unwind_object {
	const struct dso *dso;		/* NULL: empty slot */
	char *path;			/* NULL: no file found */
	int fd;				/* for memory reads, opened lazily */
	struct cfi_table *cfi;		/* its compiled rules, made lazily */
	u64 entry;			/* the ELF entry point, or 0 */
	struct unwind_load loads[UNWIND_MAX_LOADS];
	u32 nr_loads;
};

/*
 * What a reported module stands for (its Dwfl_Module's userdata): the
 * DSO, and the bias it was reported at.  A pid's Dwfl outlives an exec
 * and pid reuse; a module that no longer matches the map at its address
 * makes the Dwfl stale.
 */
struct unwind_module {
	const struct map *map;		/* it was reported for (maps never change) */
	struct dso *dso;
	u64 bias;
	struct unwinder *u;
	struct unwind_module *next;	/* all of them, for freeing */
};

struct step_slot {
	u64 pc;
	const struct cfi_rule *rule;
	u32 gen;			/* 0: a free slot */
	u8 how;				/* enum step_how */
};

#define STEP_SLOTS	32768

struct unwind_proc {
	u32 pid;
	bool attached;
	bool stale;		/* a module no longer matches its map */
	Dwfl *dwfl;
	struct unwinder *u;
};

struct unwinder {
	struct machine *machine;
	/*
	 * Open addressing by pid.  A process's Dwfl holds its
	 * unwind_proc as the callbacks' argument: each is allocated on
	 * its own, and stays where it is when the table grows.
	 */
	struct unwind_proc **procs;
	u32 procs_size, procs_nr;
	struct unwind_object *objs;	/* open addressing by dso */
	u32 objs_size, objs_nr;
	/*
	 * The maps and objects of the last two frames looked up: a walk
	 * goes back and forth between a program and a library or two.
	 * A map is known by its maps' generation, unique to one state of
	 * one maps; the objects' table growing forgets them.
	 */
	struct object_hint {
		const struct maps *maps;
		u32 gen;
		const struct map *map;
		struct unwind_object *obj;
	} hints[2];
	u32 next_hint;
	/*
	 * How frames were stepped from, by code address and generation of
	 * the maps (unique to one state of one maps), direct mapped: the
	 * frames of a file lie at some thousands of addresses, each met
	 * again and again.
	 */
	struct step_slot *steps;
	struct unwind_module *modules;
	/* The sample being unwound. */
	struct thread *thread;
	const struct perf_sample *sample;
	u64 sp;
	struct ip_callchain *chain;
	u32 chain_alloc;
	u32 nr_frames;
	bool dwfl_only;		/* PERF_UNWIND=dwfl: no compiled rules */
	bool print_stats;	/* PERF_UNWIND=stats */
	struct unwind_stats stats;
};

static struct unwind_object *find_object(struct unwinder *u,
					 struct dso *dso);
static struct cfi_table *object_cfi(struct unwind_object *o);

/*
 * .debug_frame of an object whose code has no .eh_frame for an address:
 * its separate debug file, found as its symbols are (symbol.h), under
 * --symfs too, and only where that file has a .debug_frame; it is the
 * one the compiled rules read (cfi_table__debug_file()).  Without one,
 * libdwfl would decompress the file's DWARF in each process for
 * nothing.  The module's userdata is its struct unwind_module.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata,
			  const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const struct unwind_module *m = *userdata;
	struct unwind_object *o = m ? find_object(m->u, m->dso) : NULL;
	struct cfi_table *cfi = o ? object_cfi(o) : NULL;
	const char *path = cfi ? cfi_table__debug_file(cfi) : NULL;
	int fd;

	if (!path)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	*debuginfo_file_name = strdup(path);
	return fd;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf	= dwfl_build_id_find_elf,
	.find_debuginfo	= find_debuginfo,
};

struct unwinder *unwinder__new(struct machine *m)
{
	struct unwinder *u = calloc(1, sizeof(*u));
	const char *how = getenv("PERF_UNWIND");

	if (!u)
		return NULL;
	u->machine = m;
	u->dwfl_only = how && !strcmp(how, "dwfl");
	u->print_stats = how && !strcmp(how, "stats");
	return u;
}

void unwinder__delete(struct unwinder *u)
{
	u32 i;

	if (!u)
		return;
	for (i = 0; i < u->procs_size; i++) {
		if (u->procs[i] && u->procs[i]->dwfl)
			dwfl_end(u->procs[i]->dwfl);
		free(u->procs[i]);
	}
	for (i = 0; i < u->objs_size; i++) {
		free(u->objs[i].path);
		if (u->objs[i].dso && u->objs[i].fd >= 0)
			close(u->objs[i].fd);
		cfi_table__delete(u->objs[i].cfi);
	}
	while (u->modules) {
		struct unwind_module *m = u->modules;

		u->modules = m->next;
		free(m);
	}
	free(u->procs);
	free(u->objs);
	free(u->chain);
	free(u->steps);
	free(u);
}

void unwinder__warn(const struct unwinder *u, FILE *out)
{
	const struct unwind_stats *st = &u->stats;

	if (st->failed)
		fprintf(out, "Warning: %llu of %llu samples with a user stack could not be unwound past their first frame (no CFI for the code, or a stack copy too short: try --call-graph dwarf,SIZE with a larger SIZE); the first at %#llx: %s\n",
			(unsigned long long)st->failed,
			(unsigned long long)st->samples,
			(unsigned long long)st->first_failed_ip,
			st->first_error);
	if (st->bad_stack)
		fprintf(out, "Warning: %llu samples have a user stack whose size field is larger than the copy: not unwound\n",
			(unsigned long long)st->bad_stack);
	if (u->print_stats) {
		fprintf(out, "unwind: %llu samples with a user stack, %llu walked by compiled rules, %llu unmapped, %llu bad, %llu empty, %llu at code without CFI\n",
			(unsigned long long)st->samples,
			(unsigned long long)st->by_rules,
			(unsigned long long)st->unmapped,
			(unsigned long long)st->bad_stack,
			(unsigned long long)st->empty,
			(unsigned long long)st->no_cfi);
		fprintf(out, "unwind: %llu frames stepped by frame pointer, without CFI\n",
			(unsigned long long)st->fp_steps);
	}
}

/* --- Open-addressing tables --- */

static int grow_procs(struct unwinder *u)
{
	u32 size = u->procs_size ? 2 * u->procs_size : 64, i, j;
	struct unwind_proc **p = calloc(size, sizeof(*p));

	if (!p)
		return -ENOMEM;
	for (i = 0; i < u->procs_size; i++) {
		if (!u->procs[i])
			continue;
		for (j = hash_slot(u->procs[i]->pid, size); p[j];
		     j = (j + 1) & (size - 1))
			;
		p[j] = u->procs[i];
	}
	free(u->procs);
	u->procs = p;
	u->procs_size = size;
	return 0;
}

static struct unwind_proc *find_proc(struct unwinder *u, u32 pid)
{
	struct unwind_proc *p;
	u32 i;

	if (2 * (u->procs_nr + 1) > u->procs_size && grow_procs(u))
		return NULL;
	for (i = hash_slot(pid, u->procs_size); u->procs[i];
	     i = (i + 1) & (u->procs_size - 1))
		if (u->procs[i]->pid == pid)
			return u->procs[i];
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	p->u = u;
	u->procs[i] = p;
	u->procs_nr++;
	return p;
}

static int grow_objs(struct unwinder *u)
{
	u32 size = u->objs_size ? 2 * u->objs_size : 64, i, j;
	struct unwind_object *o = calloc(size, sizeof(*o));

	if (!o)
		return -ENOMEM;
	for (i = 0; i < u->objs_size; i++) {
		if (!u->objs[i].dso)
			continue;
		for (j = hash_slot((uintptr_t)u->objs[i].dso, size); o[j].dso;
		     j = (j + 1) & (size - 1))
			;
		o[j] = u->objs[i];
	}
	free(u->objs);
	u->objs = o;
	u->objs_size = size;
	memset(u->hints, 0, sizeof(u->hints));
	return 0;
}

/* The PT_LOAD segments of @path, for the bias of each of its maps. */
static void object_read_loads(struct unwind_object *o)
{
	int fd = open(o->path, O_RDONLY | O_CLOEXEC);
	size_t i, nr;
	GElf_Ehdr eh;
	GElf_Phdr ph;
	Elf *elf;

	if (fd < 0)
		return;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && gelf_getehdr(elf, &eh))
		o->entry = eh.e_entry;
	if (elf && !elf_getphdrnum(elf, &nr)) {
		for (i = 0; i < nr && o->nr_loads < UNWIND_MAX_LOADS; i++) {
			if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
				continue;
			o->loads[o->nr_loads++] = (struct unwind_load) {
				ph.p_offset, ph.p_filesz, ph.p_vaddr,
			};
		}
	}
	elf_end(elf);
	close(fd);
}

static struct unwind_object *find_object(struct unwinder *u,
					 struct dso *dso)
{
	char path[PATH_MAX];
	struct unwind_object *o;
	u32 i;

	if (2 * (u->objs_nr + 1) > u->objs_size && grow_objs(u))
		return NULL;
	for (i = hash_slot((uintptr_t)dso, u->objs_size); u->objs[i].dso;
	     i = (i + 1) & (u->objs_size - 1))
		if (u->objs[i].dso == dso)
			return u->objs[i].path ? &u->objs[i] : NULL;
	o = &u->objs[i];
	o->dso = dso;
	o->fd = -1;
	u->objs_nr++;
	if (dso->kind == DSO_KIND_VDSO ?
	    dso__vdso_path(dso, path, sizeof(path)) :
	    symfs__find_object(dso->long_name, &dso->bid, path, sizeof(path)))
		return NULL;
	o->path = strdup(path);
	if (o->path)
		object_read_loads(o);
	return o->path && o->nr_loads ? o : NULL;
}

/* The object's address of file offset @off, or false if none maps it. */
static bool object_vaddr(const struct unwind_object *o, u64 off, u64 *vaddr)
{
	u32 i;

	for (i = 0; i < o->nr_loads; i++) {
		const struct unwind_load *l = &o->loads[i];

		if (off >= l->offset && off - l->offset < l->filesz) {
			*vaddr = l->vaddr + off - l->offset;
			return true;
		}
	}
	return false;
}

/* --- Modules --- */

static const struct unwind_module *module_of(Dwfl_Module *mod)
{
	void **userdata;

	if (!dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL,
			      NULL))
		return NULL;
	return *userdata;
}

static void report_new_module(struct unwind_proc *p, const struct map *map,
			      const char *path, u64 bias)
{
	struct dso *dso = map->dso;
	struct unwind_module *m = malloc(sizeof(*m));
	Dwfl_Module *mod;
	void **userdata;

	if (!m)
		return;
	dwfl_report_begin_add(p->dwfl);
	mod = dwfl_report_elf(p->dwfl, dso->short_name, path, -1, bias, false);
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (!mod || !dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL,
				      NULL, NULL)) {
		free(m);
		return;
	}
	*m = (struct unwind_module){ map, dso, bias, p->u, p->u->modules };
	p->u->modules = m;
	*userdata = m;
}

/*
 * Make sure the object mapped at @addr is a module of @p's Dwfl, at the
 * bias its map gives: address in the process = address in the object +
 * bias.  -ESTALE when the module there is another's (an exec, a reused
 * pid, a library mapped elsewhere since).
 */
static int report_module(struct unwind_proc *p, u64 addr)
{
	Dwfl_Module *mod = dwfl_addrmodule(p->dwfl, addr);
	const struct unwind_module *m = mod ? module_of(mod) : NULL;
	struct unwinder *u = p->u;
	struct unwind_object *o = NULL;
	const struct map *map;
	u64 vaddr;

	map = maps__find(u->thread->maps, addr);
	/* Every frame asks: the map it was reported for answers at once. */
	if (m && map && m->map == map)
		return 0;
	if (map && !map->identity && map->dso)
		o = find_object(u, map->dso);
	if (!o || !object_vaddr(o, addr - map->start + map->pgoff, &vaddr))
		return mod ? -ESTALE : 0;
	if (mod)
		return m && m->dso == map->dso && m->bias == addr - vaddr ?
		       0 : -ESTALE;
	report_new_module(p, map, o->path, addr - vaddr);
	return 0;
}

/* --- Thread callbacks: the sample is the thread's state --- */

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unwind_proc *p = arg;

	if (*thread_argp)
		return 0;
	*thread_argp = p;
	return p->pid;
}

/* From the object file a map shows at @addr (read-only data, code). */
static bool read_mapped_file(struct unwinder *u, u64 addr, u64 *val)
{
	const struct map *map = maps__find(u->thread->maps, addr);
	struct unwind_object *o;

	if (!map || map->identity || !map->dso)
		return false;
	o = find_object(u, map->dso);
	if (!o)
		return false;
	if (o->fd < 0)
		o->fd = open(o->path, O_RDONLY | O_CLOEXEC);
	return o->fd >= 0 &&
	       pread(o->fd, val, sizeof(*val),
		     addr - map->start + map->pgoff) == sizeof(*val);
}

/* A word of the sampled process: from its stack copy, or a mapped file. */
static bool read_word(struct unwinder *u, u64 addr, u64 *result)
{
	u64 size = u->sample->user_stack_size, off = addr - u->sp, val = 0;
	bool i386 = u->sample->user_regs.abi == PERF_SAMPLE_REGS_ABI_32;
	u64 width = i386 ? 4 : 8;

	if (addr >= u->sp && off < size && size - off >= width) {
		memcpy(&val, (const char *)u->sample->user_stack + off, width);
		*result = val;
		return true;
	}
	if (!read_mapped_file(u, addr, &val))
		return false;
	*result = i386 ? (u32)val : val;
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			void *arg)
{
	struct unwind_proc *p = arg;
	u64 val;

	if (!read_word(p->u, addr, &val))
		return false;
	*result = val;
	return true;
}

/* Sample register @reg (PERF_REG_X86_*) into *@val, if it was sampled. */
static bool sample_reg(const struct perf_sample_regs *r, unsigned int reg,
		       u64 *val)
{
	u64 below = r->mask & ((1ULL << reg) - 1);

	if (!(r->mask & (1ULL << reg)))
		return false;
	*val = r->regs[regs_mask_weight(below)];
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unwind_proc *p = arg;
	const struct perf_sample_regs *r = &p->u->sample->user_regs;
	bool i386 = r->abi == PERF_SAMPLE_REGS_ABI_32;
	const u8 *map = i386 ? dwarf_regs_32 : dwarf_regs_64;
	size_t n = i386 ? sizeof(dwarf_regs_32) : sizeof(dwarf_regs_64);
	Dwarf_Word w;
	size_t i;
	u64 v;

	for (i = 0; i < n; i++) {
		if (!sample_reg(r, map[i], &v))
			continue;
		w = i386 ? (u32)v : v;
		if (!dwfl_thread_state_registers(thread, i, 1, &w))
			return false;
	}
	if (!sample_reg(r, REG_IP, &v))
		return false;
	/*
	 * The IP is a DWARF register too (16, or 8 on i386), which CFI
	 * expressions read: those of PLT entries compute the CFA from it.
	 */
	w = i386 ? (u32)v : v;
	if (!dwfl_thread_state_registers(thread, n, 1, &w))
		return false;
	dwfl_thread_state_register_pc(thread, w);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread		= next_thread,
	.memory_read		= memory_read,
	.set_initial_registers	= set_initial_registers,
};

/* --- Unwinding one sample --- */

static int chain_reserve(struct unwinder *u, u64 nr)
{
	struct ip_callchain *c;

	if (nr <= u->chain_alloc)
		return 0;
	c = realloc(u->chain, sizeof(*c) + nr * sizeof(u64));
	if (!c)
		return -ENOMEM;
	u->chain = c;
	u->chain_alloc = nr;
	return 0;
}

static int on_frame(Dwfl_Frame *state, void *arg)
{
	struct unwind_proc *p = arg;
	struct unwinder *u = p->u;
	bool activation;
	Dwarf_Addr pc;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	/*
	 * The next step needs the CFI of the object this frame is in, and
	 * asking whether the frame is an activation takes that step (is
	 * the caller a signal frame?): the object must be known first, or
	 * libdwfl steps by frame pointer and keeps what that gave.
	 */
	if (report_module(p, pc) == -ESTALE) {
		p->stale = true;
		return DWARF_CB_ABORT;
	}
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	/* A return address: the call is the instruction before it. */
	if (!activation)
		pc--;
	u->chain->ips[u->chain->nr++] = pc;
	return ++u->nr_frames < UNWIND_MAX_FRAMES ? DWARF_CB_OK :
						    DWARF_CB_ABORT;
}

/* --- The walk by compiled rules --- */

static bool rules_read(void *arg, u64 addr, u64 *val)
{
	return read_word(arg, addr, val);
}

/* The object of the code at @pc of the sampled process, and its address. */
static const struct object_hint *object_hint(const struct unwinder *u,
					     const struct maps *maps, u64 pc)
{
	const struct object_hint *h;
	int i;

	for (i = 0; i < 2; i++) {
		h = &u->hints[i];
		if (h->maps == maps && h->gen == maps->gen &&
		    pc >= h->map->start && pc < h->map->end)
			return h;
	}
	return NULL;
}

static struct unwind_object *object_at(struct unwinder *u, u64 pc,
				       u64 *vaddr)
{
	const struct maps *maps = u->thread->maps;
	const struct object_hint *hint = object_hint(u, maps, pc);
	const struct map *map = hint ? hint->map : maps__find(maps, pc);
	struct unwind_object *o = hint ? hint->obj : NULL;

	if (!hint && map && !map->identity && map->dso) {
		o = find_object(u, map->dso);
		/* find_object() may have grown the table: hint after it. */
		if (o) {
			u->hints[u->next_hint] = (struct object_hint){
				maps, maps->gen, map, o
			};
			u->next_hint ^= 1;
		}
	}
	if (!o || !object_vaddr(o, pc - map->start + map->pgoff, vaddr))
		return NULL;
	return o;
}

/* The object's compiled rules, made on first use; NULL without memory. */
static struct cfi_table *object_cfi(struct unwind_object *o)
{
	if (!o->cfi)
		o->cfi = cfi_table__new(o->path, o->dso->long_name,
					&o->dso->bid);
	return o->cfi;
}

static void initial_regs_64(const struct perf_sample_regs *r, u64 ip,
			    struct cfi_regs *regs)
{
	u64 v;
	int i;

	regs->set = 0;
	regs->saved = 0;
	for (i = 0; i < (int)sizeof(dwarf_regs_64); i++) {
		if (sample_reg(r, dwarf_regs_64[i], &v)) {
			regs->val[i] = v;
			regs->set |= 1U << i;
		}
	}
	regs->val[CFI_REG_RA] = ip;
	regs->set |= 1U << CFI_REG_RA;
}

#define DWARF_REG_BP	6
#define DWARF_REG_SP	7

/*
 * The step libdwfl takes where there is no CFI (its x86-64 backend's):
 * by frame pointer, the return address at RBP + 8, the caller's RBP at
 * RBP (0 when that cannot be read), and its RSP above both.  The
 * caller has those three and nothing else, not even the return address
 * as register 16.  False, ending the walk, where libdwfl's step fails:
 * RBP unknown or zero, the return address unreadable, or a RSP that
 * does not move up (data that only looks like a frame).
 */
static bool fp_step(struct unwinder *u, struct cfi_regs *regs,
		    const struct cfi_memory *mem)
{
	u64 fp, sp = 0, prev_fp, ret;

	if (!cfi_regs__get(regs, DWARF_REG_BP, mem, &fp) || !fp)
		return false;
	cfi_regs__get(regs, DWARF_REG_SP, mem, &sp);
	if (!read_word(u, fp, &prev_fp))
		prev_fp = 0;
	if (!read_word(u, fp + 8, &ret))
		return false;
	regs->set = 1U << DWARF_REG_BP | 1U << DWARF_REG_SP;
	regs->saved = 0;
	regs->val[DWARF_REG_BP] = prev_fp;
	regs->val[DWARF_REG_SP] = fp + 16;
	regs->val[CFI_REG_RA] = ret;
	return sp < fp + 16;
}

/* How a frame is stepped from to its caller. */
enum step_how {
	STEP_RULE,		/* by its compiled rule */
	STEP_FP,		/* by frame pointer: no object mapped there */
	STEP_FP_NO_CFI,		/* the same: no CFI in its object for it */
	STEP_DWFL,		/* by libdwfl */
};

/*
 * How the frame at @at is stepped from, as libdwfl would: by frame
 * pointer where it has no CFI, and by libdwfl itself for a rule that
 * was not compiled or an object with no .eh_frame (whose .debug_frame
 * libdwfl reads whole).  *@r: the rule, for STEP_RULE.
 */
static enum step_how step_find(struct unwinder *u, u64 at,
			       const struct cfi_rule **r)
{
	u64 vaddr;
	struct unwind_object *o = object_at(u, at, &vaddr);

	*r = NULL;
	if (!o)
		return STEP_FP;
	if (!object_cfi(o))
		return STEP_DWFL;
	*r = cfi_table__find(o->cfi, vaddr);
	if (!*r)
		return STEP_DWFL;
	if ((*r)->status == CFI_RULE_NONE)
		return STEP_FP_NO_CFI;
	return (*r)->status == CFI_RULE_OK ? STEP_RULE : STEP_DWFL;
}

static u32 step_slot_of(u64 pc, u32 gen)
{
	return ((pc ^ (u64)gen << 40) * 0x9e3779b97f4a7c15ULL) >> 49;
}

/* step_find(), answered from the cache of frames where it can be. */
static enum step_how step_at(struct unwinder *u, u64 at,
			     const struct cfi_rule **r)
{
	u32 gen = u->thread->maps ? u->thread->maps->gen : 0;
	struct step_slot *slot;
	enum step_how how;

	if (!u->steps) {
		u->steps = calloc(STEP_SLOTS, sizeof(*u->steps));
		if (!u->steps)
			return step_find(u, at, r);
	}
	slot = &u->steps[step_slot_of(at, gen)];
	if (slot->gen == gen && slot->pc == at && gen) {
		*r = slot->rule;
		return slot->how;
	}
	how = step_find(u, at, r);
	*slot = (struct step_slot){ at, *r, gen, how };
	return how;
}

/*
 * The user frames of the sample by compiled rules (cfi-rules.h), as
 * libdwfl would find them.  False, with nothing kept, at a frame that
 * needs what only libdwfl does: a rule that was not compiled, or code
 * without CFI at the first frame, where libdwfl's failure is told
 * (count_failure()).
 */
static bool walk_by_rules(struct unwinder *u, u64 ip)
{
	u64 start = u->chain->nr, pc = ip, at;
	const struct cfi_memory mem = {
		.sp = u->sp,
		.stack = u->sample->user_stack,
		.size = u->sample->user_stack_size,
		.read = rules_read,
		.arg = u,
	};
	const struct cfi_rule *r;
	struct cfi_regs regs;
	enum step_how how;

	if (u->sample->user_regs.abi != PERF_SAMPLE_REGS_ABI_64)
		return false;
	initial_regs_64(&u->sample->user_regs, ip, &regs);
	for (;;) {
		/* A return address: the call is the instruction before it. */
		at = u->nr_frames ? pc - 1 : pc;
		u->chain->ips[u->chain->nr++] = at;
		if (++u->nr_frames >= UNWIND_MAX_FRAMES)
			return true;
		how = step_at(u, at, &r);
		if (how == STEP_RULE) {
			if (!cfi_rule__step(r, &regs, &mem))
				return true;
		} else if (how != STEP_DWFL && u->nr_frames > 1) {
			u->stats.fp_steps++;
			if (!fp_step(u, &regs, &mem))
				return true;
		} else {
			u->stats.no_cfi += how == STEP_FP_NO_CFI;
			break;
		}
		pc = regs.val[CFI_REG_RA];
	}
	u->chain->nr = start;
	u->nr_frames = 0;
	return false;
}

/* A Dwfl for the process as its maps are now. */
static void proc_reset(struct unwind_proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->dwfl = NULL;
	p->attached = false;
	p->stale = false;
}

static struct unwind_proc *proc_ready(struct unwinder *u, u32 pid, u64 ip)
{
	struct unwind_proc *p = find_proc(u, pid);

	if (!p)
		return NULL;
	if (p->dwfl && (p->stale || report_module(p, ip) == -ESTALE))
		proc_reset(p);
	if (!p->dwfl) {
		p->dwfl = dwfl_begin(&offline_callbacks);
		if (!p->dwfl)
			return NULL;
		report_module(p, ip);
	}
	/* The backend (x86-64 or i386) comes from the first module. */
	if (!p->attached && dwfl_addrmodule(p->dwfl, ip))
		p->attached = dwfl_attach_state(p->dwfl, NULL, pid,
						&thread_callbacks, p);
	return p->attached ? p : NULL;
}

static void count_failure(struct unwinder *u, u64 ip,
			  const struct unwind_proc *p)
{
	const struct map *map;

	if (u->stats.failed++)
		return;
	u->stats.first_failed_ip = ip;
	if (p) {
		snprintf(u->stats.first_error, sizeof(u->stats.first_error),
			 "%s", dwfl_errmsg(-1));
		return;
	}
	map = maps__find(u->thread->maps, ip);
	snprintf(u->stats.first_error, sizeof(u->stats.first_error),
		 "no object file with CFI found for %s",
		 map && map->dso ? map->dso->long_name : "its map");
}

/*
 * Whether @ip is the entry point of its object: where a process starts
 * (the dynamic loader's _start), sampled for the kernel's work of the
 * exec.  Nothing called it, so its one frame is the whole chain.
 */
static bool at_entry_point(struct unwinder *u, u64 ip)
{
	u64 vaddr;
	const struct unwind_object *o = object_at(u, ip, &vaddr);

	return o && o->entry && vaddr == o->entry;
}

/* The recorded chain up to its user part: what the kernel unwound. */
static u64 kernel_part(const struct ip_callchain *cc)
{
	u64 i;

	for (i = 0; cc && i < cc->nr; i++)
		if (cc->ips[i] == PERF_CONTEXT_USER)
			break;
	return i;
}

const struct ip_callchain *unwinder__chain(struct unwinder *u,
					   struct thread *t,
					   const struct perf_sample *s)
{
	const struct ip_callchain *cc = s->callchain;
	u64 kernel = kernel_part(cc), ip;
	struct unwind_proc *p;
	int err = -1;

	if (!s->user_regs.abi || !s->user_stack)
		return cc;
	u->stats.samples++;
	if (s->user_stack_bad) {
		u->stats.bad_stack++;
		return cc;
	}
	/*
	 * Nothing of the stack could be copied (its page was not there):
	 * no user frames at all, not even the registers' IP, as Linux perf.
	 */
	if (!s->user_stack_size) {
		u->stats.empty++;
		return cc;
	}
	if (!sample_reg(&s->user_regs, REG_IP, &ip) ||
	    !sample_reg(&s->user_regs, REG_SP, &u->sp) ||
	    chain_reserve(u, kernel + 1 + UNWIND_MAX_FRAMES))
		return cc;
	u->chain->nr = 0;
	if (kernel)
		memcpy(u->chain->ips, cc->ips, kernel * sizeof(u64));
	u->chain->nr = kernel;
	u->chain->ips[u->chain->nr++] = PERF_CONTEXT_USER;
	u->thread = t;
	u->sample = s;
	u->nr_frames = 0;
	if (!maps__find(t->maps, ip)) {
		u->stats.unmapped++;
		u->chain->ips[u->chain->nr++] = ip;
		return u->chain;
	}
	if (!u->dwfl_only && walk_by_rules(u, ip)) {
		u->stats.by_rules++;
		return u->chain;
	}
	p = proc_ready(u, t->pid, ip);
	if (p)
		err = dwfl_getthread_frames(p->dwfl, t->pid, on_frame, p);
	/* A module of the process's past came up: once more, afresh. */
	if (p && p->stale) {
		u->chain->nr = kernel + 1;
		u->nr_frames = 0;
		p = proc_ready(u, t->pid, ip);
		if (p)
			err = dwfl_getthread_frames(p->dwfl, t->pid, on_frame,
						    p);
	}
	if (u->nr_frames == 0)
		u->chain->ips[u->chain->nr++] = ip;
	/* An outermost frame (_start) ends the walk without an error. */
	if (err && u->nr_frames <= 1 && !at_entry_point(u, ip))
		count_failure(u, ip, p);
	return u->chain;
}

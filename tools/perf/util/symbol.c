// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol tables: ELF (with separate debug info and PLT entries), the
 * vdso image, JIT perf maps and kallsyms, all reduced to one sorted
 * array per object.
 *
 * Which of several aliases at one address is shown follows Linux perf,
 * so that reports can be compared name for name: a symbol with a size
 * beats one without, then non-weak beats weak, global beats local,
 * fewer leading underscores win, then the longer name, then the one
 * listed first.  Zero-size symbols first extend to the next symbol.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <gelf.h>
#include <libelf.h>
#include <elfutils/libdwelf.h>
#include "arena.h"
#include "array.h"
#include "buildid-cache.h"
#include "demangle.h"
#include "parse-options.h"
#include "symbol.h"

struct symbol_conf symbol_conf;

void symbol_conf__options(struct option opts[SYMBOL_PATHS_OPTIONS_SIZE])
{
	const struct option t[SYMBOL_PATHS_OPTIONS_SIZE] = {
		OPT_STRING(0, "kallsyms", &symbol_conf.kallsyms, "file",
			   "kernel symbols from this file"),
		OPT_STRING(0, "symfs", &symbol_conf.symfs, "dir",
			   "look for binaries and debug files under this directory"),
		OPT_END()
	};

	memcpy(opts, t, sizeof(t));
}

#define NAMES_CHUNK	(64 << 10)
#define KALLSYMS_NAMES_CHUNK	(4 << 20)
#define KALLSYMS_SYMS_GUESS	(128 << 10)
#define KALLSYMS_LINE_MIN	20	/* "ffffffff81000000 t x\n" */
#define KALLSYMS_READ_SIZE	(64 << 10)
#define POOL_BLOCK	(16 << 10)
#define DEMANGLE_MAX	1024	/* longer names are shown as they are */
#define PAGE_SIZE_4K	4096ULL
#define DEBUG_DIR	"/usr/lib/debug"

/*
 * Names are packed end to end in blocks taken from the table's arena:
 * the arena rounds every allocation to 16 bytes, too much for 100k
 * short kernel names.
 */
struct strpool {
	struct arena *arena;
	char *cur;
	size_t left;
};

static const char *strpool__add(struct strpool *p, const char *s, size_t len)
{
	char *ret;

	if (len + 1 > p->left) {
		size_t n = len + 1 > POOL_BLOCK ? len + 1 : POOL_BLOCK;

		p->cur = arena__alloc(p->arena, n);
		if (!p->cur) {
			p->left = 0;
			return NULL;
		}
		p->left = n;
	}
	ret = p->cur;
	memcpy(ret, s, len);
	ret[len] = '\0';
	p->cur += len + 1;
	p->left -= len + 1;
	return ret;
}

/* A symbol while a table is being built. */
struct raw_sym {
	u64 start;
	u64 end;
	const char *name;
	u32 seq;		/* order of appearance: ties keep the first */
	u16 module;		/* kallsyms: 0 kernel, else module index + 1 */
	u8 bind;		/* STB_* */
	bool mangled;		/* @name is demangled on first use */
};

struct sym_builder {
	struct raw_sym *v;
	size_t nr;
	size_t alloc;
	u32 next_seq;
	struct strpool pool;
};

static int builder__init_sized(struct sym_builder *b, size_t names_chunk)
{
	memset(b, 0, sizeof(*b));
	b->pool.arena = arena__new(names_chunk);
	return b->pool.arena ? 0 : -ENOMEM;
}

static int builder__init(struct sym_builder *b)
{
	return builder__init_sized(b, NAMES_CHUNK);
}

/* Room for @n symbols in all, where the count is known or guessed. */
static int builder__reserve(struct sym_builder *b, size_t n)
{
	struct raw_sym *v;

	if (n <= b->alloc)
		return 0;
	v = big_realloc(b->v, b->alloc * sizeof(*v), n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	b->v = v;
	b->alloc = n;
	return 0;
}

static void builder__exit(struct sym_builder *b)
{
	big_free(b->v, b->alloc * sizeof(*b->v));
	arena__delete(b->pool.arena);
	memset(b, 0, sizeof(*b));
}

/*
 * C++ and Rust names are shown demangled, without their parameters (as
 * reports show them), keeping an "@plt" or version suffix.  Demangling
 * is most of the cost of loading a C++ object's table, and a report
 * shows a few of its symbols: names are kept as they are in the object
 * and demangled when a lookup first returns their symbol.
 */
static bool name_is_mangled(const char *name, size_t len)
{
	return len >= 3 && len < DEMANGLE_MAX &&
	       (!strncmp(name, "_Z", 2) || !strncmp(name, "_R", 2));
}

/* The name shown for mangled @name, malloc()ed; NULL: show it as is. */
static char *demangle_name(const char *name)
{
	char buf[DEMANGLE_MAX], *out, *suffix, *joined;
	size_t n;

	if (strlen(name) >= sizeof(buf))
		return NULL;
	strcpy(buf, name);
	suffix = strchr(buf, '@');
	if (suffix)
		*suffix = '\0';
	out = demangle_rust(buf);
	if (!out)
		out = demangle_cxx(buf);
	if (!out || !suffix)
		return out;
	*suffix = '@';
	n = strlen(out);
	joined = realloc(out, n + strlen(suffix) + 1);
	if (!joined) {
		free(out);
		return NULL;
	}
	strcpy(joined + n, suffix);
	return joined;
}

static int builder__add(struct sym_builder *b, u64 start, u64 end,
			const char *name, size_t len, u8 bind, u16 module)
{
	struct raw_sym *s;

	if (b->nr == b->alloc &&
	    builder__reserve(b, b->alloc ? b->alloc * 2 : 256))
		return -ENOMEM;
	s = &b->v[b->nr];
	s->name = strpool__add(&b->pool, name, len);
	if (!s->name)
		return -ENOMEM;
	s->mangled = name_is_mangled(name, len);
	s->start = start;
	s->end = end;
	s->seq = b->next_seq++;
	s->module = module;
	s->bind = bind;
	b->nr++;
	return 0;
}

static int raw_sym__cmp(const void *pa, const void *pb)
{
	const struct raw_sym *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static u64 roundup_page(u64 x)
{
	return (x + PAGE_SIZE_4K - 1) & ~(PAGE_SIZE_4K - 1);
}

/*
 * Zero-size symbols (assembly without .size, kallsyms) run to the next
 * symbol.  In kallsyms the last symbol before a kernel/module boundary
 * gets one page instead, so the gap between them is not claimed.
 */
static void builder__fixup_end(struct sym_builder *b, bool kallsyms)
{
	struct raw_sym *prev, *curr;
	size_t i;

	for (i = 1; i < b->nr; i++) {
		prev = &b->v[i - 1];
		curr = &b->v[i];
		if (prev->end != prev->start)
			continue;
		if (kallsyms && !prev->module != !curr->module)
			prev->end = roundup_page(prev->start + PAGE_SIZE_4K);
		else
			prev->end = curr->start;
	}
	if (b->nr) {
		curr = &b->v[b->nr - 1];
		if (curr->end == curr->start)
			curr->end = roundup_page(curr->start) + PAGE_SIZE_4K;
	}
}

static int leading_underscores(const char *s)
{
	int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* The name @r shows; *@tmp holds it when it had to be demangled. */
static const char *raw_sym__shown(const struct raw_sym *r, char **tmp)
{
	*tmp = r->mangled ? demangle_name(r->name) : NULL;
	return *tmp ? *tmp : r->name;
}

/*
 * Of two symbols alike but for their names, whether @b's name is the
 * better one, as shown (demangled, which only such ties pay for).
 */
static bool shown_name_prefer(const struct raw_sym *a, const struct raw_sym *b)
{
	char *tmp_a, *tmp_b;
	const char *na = raw_sym__shown(a, &tmp_a);
	const char *nb = raw_sym__shown(b, &tmp_b);
	int ua = leading_underscores(na), ub = leading_underscores(nb);
	size_t la = strlen(na), lb = strlen(nb);
	bool ret;

	if (ua != ub)
		ret = ub < ua;
	else if (la != lb)
		ret = lb > la;
	else	/* Old kernels' "SyS_" wrappers alias the real syscall functions. */
		ret = !strncmp(na, "SyS", 3) || !strncmp(na, "compat_SyS", 10);
	free(tmp_a);
	free(tmp_b);
	return ret;
}

/* True when @b is the better name for the address both symbols share. */
static bool raw_sym__prefer(const struct raw_sym *a, const struct raw_sym *b)
{
	bool a_sized = a->end > a->start, b_sized = b->end > b->start;
	bool a_weak = a->bind == STB_WEAK, b_weak = b->bind == STB_WEAK;
	bool a_global = a->bind == STB_GLOBAL, b_global = b->bind == STB_GLOBAL;

	if (a_sized != b_sized)
		return b_sized;
	if (a_weak != b_weak)
		return a_weak;
	if (a_global != b_global)
		return b_global;
	return shown_name_prefer(a, b);
}

static void builder__dedupe(struct sym_builder *b)
{
	size_t i, out = 0;

	for (i = 0; i < b->nr; i++) {
		if (out && b->v[out - 1].start == b->v[i].start) {
			if (raw_sym__prefer(&b->v[out - 1], &b->v[i]))
				b->v[out - 1] = b->v[i];
			continue;
		}
		b->v[out++] = b->v[i];
	}
	b->nr = out;
}

/*
 * By start address, a byte at a time from the lowest (a byte all the
 * starts share is skipped): equal starts keep their order, which is
 * raw_sym__cmp()'s.  qsort() took a twentieth of a report's time on
 * the symbols of its programs and libraries.  -ENOMEM: not sorted.
 */
static int raw_syms__sort(struct raw_sym *v, size_t n)
{
	struct raw_sym *tmp, *src = v, *dst, *swap;
	u32 count[8][256] = { { 0 } };
	size_t i;
	int d;

	if (n < 2)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	dst = tmp;
	for (i = 0; i < n; i++)
		for (d = 0; d < 8; d++)
			count[d][(v[i].start >> (8 * d)) & 0xff]++;
	for (d = 0; d < 8; d++) {
		u32 at = 0, c, j;

		if (count[d][(v[0].start >> (8 * d)) & 0xff] == n)
			continue;
		for (j = 0; j < 256; j++) {
			c = count[d][j];
			count[d][j] = at;
			at += c;
		}
		for (i = 0; i < n; i++)
			dst[count[d][(src[i].start >> (8 * d)) & 0xff]++] =
				src[i];
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	return 0;
}

/*
 * Symbols mostly come sorted (kallsyms: the kernel's all, then each
 * module's in its own order): only what follows the sorted start is
 * sorted, then merged with it.  The start's symbols came first, so on
 * equal addresses they stay first, as raw_sym__cmp() orders them.
 */
static void builder__sort(struct sym_builder *b)
{
	size_t head = 1, i, j, k, tail;
	struct raw_sym *t;

	while (head < b->nr && b->v[head - 1].start <= b->v[head].start)
		head++;
	if (head >= b->nr)
		return;
	tail = b->nr - head;
	t = malloc(tail * sizeof(*t));
	if (!t) {
		qsort(b->v, b->nr, sizeof(*b->v), raw_sym__cmp);
		return;
	}
	memcpy(t, b->v + head, tail * sizeof(*t));
	if (raw_syms__sort(t, tail))
		qsort(t, tail, sizeof(*t), raw_sym__cmp);
	/* From the back: the larger of the two ends goes last. */
	for (i = head, j = tail, k = b->nr; j; )
		b->v[--k] = i && b->v[i - 1].start > t[j - 1].start ?
			    b->v[--i] : t[--j];
	free(t);
}

/* Sort, size and dedupe what was added so far. */
static void builder__finish(struct sym_builder *b, bool kallsyms)
{
	builder__sort(b);
	builder__fixup_end(b, kallsyms);
	builder__dedupe(b);
}

#define BITS_PER_WORD	(8 * sizeof(unsigned long))

/*
 * A bitmap of the symbols whose names are still mangled, for a table
 * of @module's symbols (all when < 0); none when no name is mangled.
 */
static int symtab__mark_init(struct symtab *st, const struct sym_builder *b,
			     int module)
{
	size_t i, n = 0;
	bool any = false;

	for (i = 0; i < b->nr; i++) {
		if (module >= 0 && b->v[i].module != module)
			continue;
		any |= b->v[i].mangled;
		n++;
	}
	if (!any)
		return 0;
	st->mangled = calloc((n + BITS_PER_WORD - 1) / BITS_PER_WORD,
			     sizeof(*st->mangled));
	return st->mangled ? 0 : -ENOMEM;
}

static void symtab__mark(struct symtab *st, size_t i)
{
	st->mangled[i / BITS_PER_WORD] |= 1UL << (i % BITS_PER_WORD);
}

/* Shows symbol @i's name demangled from now on; a failure leaves it. */
static void symtab__demangle(struct symtab *st, size_t i)
{
	unsigned long bit = 1UL << (i % BITS_PER_WORD);
	unsigned long *word = &st->mangled[i / BITS_PER_WORD];
	char *shown;

	if (!(*word & bit))
		return;
	*word &= ~bit;
	shown = demangle_name(st->syms[i].name);
	if (shown) {
		const char *kept = arena__strdup(st->names, shown);

		if (kept)
			st->syms[i].name = kept;
		free(shown);
	}
}

/*
 * The last table emitted takes the builder's array: a symbol is smaller
 * than a raw_sym, so each moves down within it, read before it is
 * overwritten.  No second array of 100k kernel symbols to fault in.
 */
static int builder__emit_last(struct sym_builder *b, struct symtab *st,
			      int module)
{
	struct symbol *syms = (struct symbol *)b->v, *shrunk;
	size_t i, n = 0, bytes = b->alloc * sizeof(*b->v);

	_Static_assert(sizeof(*syms) <= sizeof(*b->v), "symbols move down");
	if (symtab__mark_init(st, b, module))
		return -ENOMEM;
	for (i = 0; i < b->nr; i++) {
		const struct raw_sym r = b->v[i];

		if (module >= 0 && r.module != module)
			continue;
		if (r.mangled)
			symtab__mark(st, n);
		syms[n++] = (struct symbol){ r.start, r.end, r.name };
	}
	b->v = NULL;
	b->nr = 0;
	b->alloc = 0;
	st->syms_bytes = (n ? n : 1) * sizeof(*syms);
	shrunk = big_realloc(syms, bytes, st->syms_bytes);
	if (!shrunk)
		st->syms_bytes = bytes;
	st->syms = shrunk ? shrunk : syms;
	st->nr = n;
	st->names = b->pool.arena;
	b->pool.arena = NULL;
	b->pool.left = 0;
	return st->syms ? (int)n : -ENOMEM;
}

/*
 * Moves the symbols of @module (all when < 0) into @st.  The last table
 * emitted takes the name pool over (@last); the others copy their names.
 */
static int builder__emit(struct sym_builder *b, struct symtab *st, int module,
			 bool last)
{
	size_t i, n = 0;

	symtab__exit(st);
	if (last)
		return builder__emit_last(b, st, module);
	for (i = 0; i < b->nr; i++)
		n += module < 0 || b->v[i].module == module;
	st->names = arena__new(NAMES_CHUNK);
	if (!st->names)
		return -ENOMEM;
	st->syms_bytes = (n ? n : 1) * sizeof(*st->syms);
	st->syms = big_zalloc(st->syms_bytes);
	if (!st->syms || symtab__mark_init(st, b, module))
		return -ENOMEM;
	for (i = 0; i < b->nr; i++) {
		const struct raw_sym *r = &b->v[i];
		struct symbol *s;

		if (module >= 0 && r->module != module)
			continue;
		if (r->mangled)
			symtab__mark(st, st->nr);
		s = &st->syms[st->nr++];
		s->start = r->start;
		s->end = r->end;
		s->name = arena__strdup(st->names, r->name);
		if (!s->name)
			return -ENOMEM;
	}
	return st->nr;
}

void symtab__exit(struct symtab *st)
{
	free(st->mangled);
	free(st->cache);
	big_free(st->syms, st->syms_bytes);
	arena__delete(st->names);
	memset(st, 0, sizeof(*st));
}

/* How far back a lookup looks for a symbol enclosing a smaller one. */
#define MAX_NESTING 8

static const struct symbol *symtab__search(const struct symtab *st, u64 addr)
{
	size_t lo = 0, hi = st->nr, i;

	/* The last symbol starting at or before addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/*
	 * Synthesized PLT entries lie inside a zero-size symbol stretched
	 * over them; a gap between nested symbols belongs to the outer one.
	 */
	for (i = lo; i > 0 && lo - i < MAX_NESTING; i--) {
		if (addr < st->syms[i - 1].end)
			return &st->syms[i - 1];
	}
	return NULL;
}

/*
 * Samples hit the same few addresses again and again (a loop, the
 * idle instruction), while a binary search of a table as big as the
 * kernel's (100K symbols, 2 MB) misses the caches on most of its 17
 * steps.  A direct-mapped table of the addresses looked up last
 * answers those repeats with one load.
 */
struct symtab_cache_slot {
	u64 addr;
	const struct symbol *sym;	/* NULL: empty; &no_symbol: none */
};

#define SYMTAB_CACHE_BITS	12
#define SYMTAB_CACHE_MIN_SYMS	1024

static const struct symbol no_symbol;

static struct symtab_cache_slot *symtab__cache_slot(struct symtab *st,
						    u64 addr)
{
	u64 h = addr * 0x9e3779b97f4a7c15ULL;

	if (!st->cache && st->nr >= SYMTAB_CACHE_MIN_SYMS)
		st->cache = calloc(1U << SYMTAB_CACHE_BITS, sizeof(*st->cache));
	if (!st->cache)
		return NULL;
	return &st->cache[h >> (64 - SYMTAB_CACHE_BITS)];
}

const struct symbol *symtab__find(struct symtab *st, u64 addr)
{
	struct symtab_cache_slot *slot = symtab__cache_slot(st, addr);
	const struct symbol *sym;

	if (slot && slot->sym && slot->addr == addr)
		return slot->sym == &no_symbol ? NULL : slot->sym;
	sym = symtab__search(st, addr);
	if (sym && st->mangled)
		symtab__demangle(st, sym - st->syms);
	if (slot) {
		slot->addr = addr;
		slot->sym = sym ? sym : &no_symbol;
	}
	return sym;
}

const struct symbol *symtab__find_by_name(struct symtab *st,
					  const char *name)
{
	size_t i;

	for (i = 0; i < st->nr; i++) {
		if (st->mangled)
			symtab__demangle(st, i);
		if (!strcmp(st->syms[i].name, name))
			return &st->syms[i];
	}
	return NULL;
}

/* Build ids */

int build_id__snprintf(const struct build_id *bid, char *buf, size_t size)
{
	size_t i, len = 0;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < bid->size && len + 3 <= size; i++)
		len += snprintf(buf + len, size - len, "%02x", bid->data[i]);
	return len;
}

static bool all_zero(const u8 *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/*
 * perf.data build-id records are 20 bytes wide: a shorter id read from
 * a file matches one padded with zeros.
 */
bool build_id__equal(const struct build_id *a, const struct build_id *b)
{
	const struct build_id *lng = a->size >= b->size ? a : b;
	const struct build_id *shrt = lng == a ? b : a;

	if (!shrt->size)
		return false;
	return !memcmp(lng->data, shrt->data, shrt->size) &&
	       all_zero(lng->data + shrt->size, lng->size - shrt->size);
}

/* ELF access */

struct elf_obj {
	int fd;
	Elf *elf;
	GElf_Ehdr ehdr;
	size_t shstrndx;
};

#define ELF_OBJ_INIT { .fd = -1 }

static void elf_obj__close(struct elf_obj *o)
{
	if (o->elf)
		elf_end(o->elf);
	if (o->fd >= 0)
		close(o->fd);
	o->elf = NULL;
	o->fd = -1;
}

static int elf_obj__setup(struct elf_obj *o)
{
	if (!o->elf || elf_kind(o->elf) != ELF_K_ELF ||
	    !gelf_getehdr(o->elf, &o->ehdr) ||
	    elf_getshdrstrndx(o->elf, &o->shstrndx)) {
		elf_obj__close(o);
		return -EINVAL;
	}
	return 0;
}

static int elf_obj__open(struct elf_obj *o, const char *path)
{
	struct stat st;

	elf_version(EV_CURRENT);
	o->elf = NULL;
	o->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (o->fd < 0)
		return -errno;
	/* Directories and devices open fine but are not objects. */
	if (fstat(o->fd, &st) || !S_ISREG(st.st_mode)) {
		elf_obj__close(o);
		return -EINVAL;
	}
	o->elf = elf_begin(o->fd, ELF_C_READ_MMAP, NULL);
	return elf_obj__setup(o);
}

static Elf_Scn *elf_obj__section(const struct elf_obj *o, const char *name,
				 GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(o->elf, scn)) != NULL) {
		const char *n;

		if (!gelf_getshdr(scn, shdr))
			continue;
		n = elf_strptr(o->elf, o->shstrndx, shdr->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

static Elf_Scn *elf_obj__section_type(const struct elf_obj *o, u32 type,
				      GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(o->elf, scn)) != NULL)
		if (gelf_getshdr(scn, shdr) && shdr->sh_type == type)
			return scn;
	return NULL;
}

static bool elf_obj__has_symtab(const struct elf_obj *o)
{
	GElf_Shdr shdr;

	return elf_obj__section_type(o, SHT_SYMTAB, &shdr) &&
	       shdr.sh_size > shdr.sh_entsize;
}

static int elf_obj__build_id(const struct elf_obj *o, struct build_id *bid)
{
	const void *p;
	ssize_t n = dwelf_elf_gnu_build_id(o->elf, &p);

	if (n <= 0)
		return -ENODATA;
	bid->size = n > BUILD_ID_MAX ? BUILD_ID_MAX : n;
	memcpy(bid->data, p, bid->size);
	return 0;
}

int filename__read_build_id(const char *path, struct build_id *bid)
{
	struct elf_obj o = ELF_OBJ_INIT;
	int err = elf_obj__open(&o, path);

	if (err)
		return err;
	err = elf_obj__build_id(&o, bid);
	elf_obj__close(&o);
	return err;
}

bool filename__has_section(const char *path, const char *name)
{
	struct elf_obj o = ELF_OBJ_INIT;
	GElf_Shdr shdr;
	bool ret;

	if (elf_obj__open(&o, path))
		return false;
	ret = elf_obj__section(&o, name, &shdr) != NULL;
	elf_obj__close(&o);
	return ret;
}

/* A file recorded with a build id is only trusted when its id agrees. */
static bool elf_obj__matches(const struct elf_obj *o, const struct build_id *want)
{
	struct build_id have;

	if (!want)
		return true;
	return !elf_obj__build_id(o, &have) && build_id__equal(&have, want);
}

/*
 * Where code lies in the file: symbols are kept as file offsets, the
 * space a sample IP reaches through its mapping's pgoff.
 */
#define MAX_LOADS 16

struct load_map {
	struct {
		u64 vaddr;
		u64 memsz;
		u64 offset;
	} seg[MAX_LOADS];
	int nr;
};

/*
 * A debug-info-only file's program headers keep the addresses but not
 * the offsets; assume the usual layout, file offset = address - base.
 */
static void load_map__read(struct load_map *lm, const struct elf_obj *o,
			   bool offsets_valid)
{
	size_t i, n;
	u64 base = 0;

	lm->nr = 0;
	if (elf_getphdrnum(o->elf, &n))
		return;
	for (i = 0; i < n && lm->nr < MAX_LOADS; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(o->elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (!lm->nr)
			base = ph.p_vaddr & ~(PAGE_SIZE_4K - 1);
		lm->seg[lm->nr].vaddr = ph.p_vaddr;
		lm->seg[lm->nr].memsz = ph.p_memsz;
		lm->seg[lm->nr].offset = offsets_valid ? ph.p_offset :
					 ph.p_vaddr - base;
		lm->nr++;
	}
}

static u64 load_map__rel(const struct load_map *lm, u64 vaddr)
{
	int i;

	for (i = 0; i < lm->nr; i++)
		if (vaddr >= lm->seg[i].vaddr &&
		    vaddr < lm->seg[i].vaddr + lm->seg[i].memsz)
			return vaddr - lm->seg[i].vaddr + lm->seg[i].offset;
	return vaddr;
}

/*
 * Functions, and untyped labels in text sections (hand-written
 * assembly), that occupy memory at run time.
 */
static bool elf_sym__wanted(const struct elf_obj *o, const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);
	int vis = GELF_ST_VISIBILITY(sym->st_other);
	const char *secname;
	GElf_Shdr shdr;
	Elf_Scn *scn;

	if (!sym->st_name || sym->st_shndx == SHN_UNDEF ||
	    sym->st_shndx >= SHN_LORESERVE)
		return false;
	if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE)
		return false;
	if (type == STT_NOTYPE && (vis == STV_HIDDEN || vis == STV_INTERNAL))
		return false;
	scn = elf_getscn(o->elf, sym->st_shndx);
	if (!scn || !gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_ALLOC))
		return false;
	if (type != STT_NOTYPE)
		return true;
	secname = elf_strptr(o->elf, o->shstrndx, shdr.sh_name);
	return secname && strstr(secname, "text");
}

static int builder__add_elf_syms(struct sym_builder *b, const struct elf_obj *o,
				 u32 sh_type, const struct load_map *lm)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = elf_obj__section_type(o, sh_type, &shdr);
	Elf_Data *data;
	size_t i, n;
	int err;

	if (!scn || !shdr.sh_entsize)
		return 0;
	data = elf_getdata(scn, NULL);
	if (!data)
		return 0;
	n = shdr.sh_size / shdr.sh_entsize;
	/* Not one doubling of the array after another for big objects. */
	err = builder__reserve(b, b->nr + n);
	if (err)
		return err;
	for (i = 1; i < n; i++) {
		const char *name;
		GElf_Sym sym;
		u64 start;

		if (!gelf_getsym(data, i, &sym) || !elf_sym__wanted(o, &sym))
			continue;
		name = elf_strptr(o->elf, shdr.sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		start = load_map__rel(lm, sym.st_value);
		err = builder__add(b, start, start + sym.st_size, name,
				   strlen(name), GELF_ST_BIND(sym.st_info), 0);
		if (err)
			return err;
	}
	return 0;
}

/* The dynamic symbol a PLT relocation refers to. */
static u32 plt_reloc_sym(Elf_Data *rel, bool rela, size_t i)
{
	GElf_Rela ra;
	GElf_Rel r;

	if (rela)
		return gelf_getrela(rel, i, &ra) ? GELF_R_SYM(ra.r_info) : 0;
	return gelf_getrel(rel, i, &r) ? GELF_R_SYM(r.r_info) : 0;
}

/*
 * Calls through the PLT show as "callee@plt": one entry per PLT
 * relocation, in order, after a header the size of an entry (x86).
 * Entries for relocations without a symbol (IRELATIVE) are "@plt".
 */
static int builder__add_plt(struct sym_builder *b, const struct elf_obj *o)
{
	GElf_Shdr rel_sh, plt_sh, dyn_sh;
	Elf_Scn *rel, *dyn, *plt;
	Elf_Data *rel_data, *dyn_data;
	bool rela = true;
	u64 off, size;
	size_t i, n;
	char name[1024];
	int err;

	rel = elf_obj__section(o, ".rela.plt", &rel_sh);
	if (!rel) {
		rel = elf_obj__section(o, ".rel.plt", &rel_sh);
		rela = false;
	}
	dyn = elf_obj__section_type(o, SHT_DYNSYM, &dyn_sh);
	plt = elf_obj__section(o, ".plt", &plt_sh);
	if (!rel || !dyn || !plt || rel_sh.sh_link != elf_ndxscn(dyn) ||
	    !rel_sh.sh_entsize || !plt_sh.sh_entsize)
		return 0;
	rel_data = elf_getdata(rel, NULL);
	dyn_data = elf_getdata(dyn, NULL);
	if (!rel_data || !dyn_data)
		return 0;
	size = plt_sh.sh_entsize;
	off = plt_sh.sh_offset + size;
	n = rel_sh.sh_size / rel_sh.sh_entsize;
	for (i = 0; i < n; i++, off += size) {
		const char *sym_name = NULL;
		GElf_Sym sym;
		int len;

		if (gelf_getsym(dyn_data, plt_reloc_sym(rel_data, rela, i), &sym))
			sym_name = elf_strptr(o->elf, dyn_sh.sh_link, sym.st_name);
		len = snprintf(name, sizeof(name), "%s@plt",
			       sym_name ? sym_name : "");
		if (len >= (int)sizeof(name))
			len = sizeof(name) - 1;
		err = builder__add(b, off, off + size, name, len, STB_GLOBAL, 0);
		if (err)
			return err;
	}
	return 0;
}

/*
 * @syms gives the symbols, @rt (the mapped object, may be @syms or
 * NULL) the layout and the PLT.
 */
static int symtab__from_elf(struct symtab *st, const struct elf_obj *syms,
			    const struct elf_obj *rt)
{
	struct sym_builder b;
	struct load_map lm;
	int err;

	err = builder__init(&b);
	if (err)
		return err;
	load_map__read(&lm, rt ? rt : syms, !!rt);
	err = builder__add_elf_syms(&b, syms,
				    elf_obj__has_symtab(syms) ? SHT_SYMTAB : SHT_DYNSYM,
				    &lm);
	if (!err) {
		builder__finish(&b, false);
		/* PLT names come on top, as they would in Linux perf. */
		if (rt)
			err = builder__add_plt(&b, rt);
		builder__sort(&b);
	}
	if (!err)
		err = builder__emit(&b, st, -1, true);
	builder__exit(&b);
	return err;
}

/* Paths under --symfs */

static int join(char *buf, size_t size, const char *a, const char *b,
		const char *c)
{
	int n = snprintf(buf, size, "%s%s%s", a, b, c);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * The file a recorded path names: DIR/path under --symfs DIR, or, when
 * DIR is a flat collection of files, DIR/basename.  @i picks the
 * candidate; returns -ENOENT past the last.
 */
static int symfs__candidate(const char *path, int i, char *buf, size_t size)
{
	const char *symfs = symbol_conf.symfs;

	if (!symfs || !*symfs)
		return i ? -ENOENT : join(buf, size, "", path, "");
	if (i == 0)
		return join(buf, size, symfs, "", path);
	if (i == 1)
		return join(buf, size, symfs, "/", base_name(path));
	return -ENOENT;
}

int symfs__path(const char *path, char *buf, size_t size)
{
	int i, err;

	for (i = 0; !(err = symfs__candidate(path, i, buf, size)); i++)
		if (!access(buf, R_OK))
			return 0;
	return symfs__candidate(path, 0, buf, size);
}

/*
 * Opens the first candidate for @path that is an ELF object, matches
 * @want and, with @need_symtab, has a .symtab.
 */
static int open_object(struct elf_obj *o, const char *path,
		       const struct build_id *want, bool need_symtab,
		       char *found, size_t found_size)
{
	char buf[PATH_MAX];
	int i;

	for (i = 0; !symfs__candidate(path, i, buf, sizeof(buf)); i++) {
		if (elf_obj__open(o, buf))
			continue;
		if (elf_obj__matches(o, want) &&
		    (!need_symtab || elf_obj__has_symtab(o))) {
			if (found)
				snprintf(found, found_size, "%s", buf);
			return 0;
		}
		elf_obj__close(o);
	}
	return -ENOENT;
}

static int open_build_id_debug(struct elf_obj *o, const struct build_id *bid,
			       char *found, size_t found_size)
{
	char hex[2 * BUILD_ID_MAX + 1], path[PATH_MAX];

	if (build_id__snprintf(bid, hex, sizeof(hex)) < 4)
		return -ENOENT;
	if (snprintf(path, sizeof(path), DEBUG_DIR "/.build-id/%.2s/%s.debug",
		     hex, hex + 2) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return open_object(o, path, bid, true, found, found_size);
}

/*
 * The copy of the object of build id @bid that the build-id cache
 * keeps, @kind "elf" or "debug" (or "vdso").  Under --symfs the cache
 * is the symfs's own (buildid-cache.h).
 */
static int open_cached(struct elf_obj *o, const struct build_id *bid,
		       const char *kind, bool need_symtab, char *found,
		       size_t found_size)
{
	char path[PATH_MAX];

	if (buildid_cache__find(bid, kind, path, sizeof(path)) ||
	    elf_obj__open(o, path))
		return -ENOENT;
	if (elf_obj__matches(o, bid) &&
	    (!need_symtab || elf_obj__has_symtab(o))) {
		if (found)
			snprintf(found, found_size, "%s", path);
		return 0;
	}
	elf_obj__close(o);
	return -ENOENT;
}

/* .gnu_debuglink: beside the object, in .debug/ there, or under DEBUG_DIR. */
static int open_debuglink(struct elf_obj *o, const char *path,
			  const struct elf_obj *rt, const struct build_id *want,
			  char *found, size_t found_size)
{
	static const char * const fmt[] = { "%s/%s", "%s/.debug/%s",
					    DEBUG_DIR "%s/%s" };
	char dir[PATH_MAX], buf[PATH_MAX];
	const char *link;
	GElf_Word crc;
	size_t i;

	link = dwelf_elf_gnu_debuglink(rt->elf, &crc);
	if (!link || !*link || strchr(link, '/'))
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%.*s", (int)(base_name(path) - path), path);
	if (*dir)
		dir[strlen(dir) - 1] = '\0';	/* drop the trailing slash */
	for (i = 0; i < ARRAY_SIZE(fmt); i++) {
		if (snprintf(buf, sizeof(buf), fmt[i], dir, link) >= (int)sizeof(buf))
			continue;
		if (!open_object(o, buf, want, true, found, found_size))
			return 0;
	}
	return -ENOENT;
}

/* Debug trees that mirror the file system: Fedora's, then Ubuntu's. */
static int open_debug_tree(struct elf_obj *o, const char *path,
			   const struct build_id *want, char *found,
			   size_t found_size)
{
	char buf[PATH_MAX];

	if (!join(buf, sizeof(buf), DEBUG_DIR, path, ".debug") &&
	    !open_object(o, buf, want, true, found, found_size))
		return 0;
	if (!join(buf, sizeof(buf), DEBUG_DIR, path, "") &&
	    !open_object(o, buf, want, true, found, found_size))
		return 0;
	return -ENOENT;
}

/*
 * The separate debug file of the object at @path (open in @rt, or not
 * found) with build id @want: by build id under DEBUG_DIR and in the
 * cache, by .gnu_debuglink, in the debug trees.  0 and @dbg open.
 */
static int open_debug_file(struct elf_obj *dbg, const char *path,
			   const struct elf_obj *rt, const struct build_id *want,
			   char *found, size_t found_size)
{
	if (want && (!open_build_id_debug(dbg, want, found, found_size) ||
		     !open_cached(dbg, want, "debug", true, found, found_size)))
		return 0;
	if (rt->elf && !open_debuglink(dbg, path, rt, want, found, found_size))
		return 0;
	if (path[0] == '/' && !open_debug_tree(dbg, path, want, found, found_size))
		return 0;
	return -ENOENT;
}

int symtab__load_elf(struct symtab *st, const char *path,
		     const struct build_id *bid, char *found, size_t found_size)
{
	struct elf_obj rt = ELF_OBJ_INIT, dbg = ELF_OBJ_INIT;
	const struct build_id *want = bid && bid->size ? bid : NULL;
	struct build_id own;
	bool have_rt, have_dbg;
	char rt_path[PATH_MAX] = "";
	int err;

	if (found && found_size)
		found[0] = '\0';
	/*
	 * The cache first, as in Linux perf: it keeps the object as it was
	 * when added, symbol table included, where the one on disk may
	 * since have been stripped or replaced.
	 */
	have_rt = want && !open_cached(&rt, want, "elf", false, rt_path,
				       sizeof(rt_path));
	if (!have_rt)
		have_rt = !open_object(&rt, path, want, false, rt_path,
				       sizeof(rt_path));
	if (!want && have_rt && !elf_obj__build_id(&rt, &own))
		want = &own;
	have_dbg = !open_debug_file(&dbg, path, &rt, want, found, found_size);
	if (!have_dbg && !have_rt)
		return -ENOENT;
	if (!have_dbg && found)
		snprintf(found, found_size, "%s", rt_path);
	err = symtab__from_elf(st, have_dbg ? &dbg : &rt, have_rt ? &rt : NULL);
	elf_obj__close(&dbg);
	elf_obj__close(&rt);
	return err;
}

int symfs__find_object(const char *path, const struct build_id *bid,
			char *found, size_t found_size)
{
	struct elf_obj o = ELF_OBJ_INIT;
	const struct build_id *want = bid && bid->size ? bid : NULL;

	if (want && !open_cached(&o, want, "elf", false, found, found_size))
		goto out;
	if (open_object(&o, path, want, false, found, found_size))
		return -ENOENT;
out:
	elf_obj__close(&o);
	return 0;
}

int symfs__find_debug(const char *path, const struct build_id *bid,
		      char *found, size_t found_size)
{
	struct elf_obj rt = ELF_OBJ_INIT, dbg = ELF_OBJ_INIT;
	const struct build_id *want = bid && bid->size ? bid : NULL;
	struct build_id own;
	int err;

	if (!open_object(&rt, path, want, false, NULL, 0) && !want &&
	    !elf_obj__build_id(&rt, &own))
		want = &own;
	err = open_debug_file(&dbg, path, &rt, want, found, found_size);
	elf_obj__close(&dbg);
	elf_obj__close(&rt);
	return err;
}

bool elf__has_section(struct Elf *elf, const char *prefix)
{
	size_t len = strlen(prefix), shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strncmp(name, prefix, len))
			return true;
	}
	return false;
}

int symtab__load_cached(struct symtab *st, const struct build_id *bid,
			const char *kind, char *found, size_t found_size)
{
	struct elf_obj o = ELF_OBJ_INIT;
	int err;

	if (found && found_size)
		found[0] = '\0';
	if (!bid || !bid->size ||
	    open_cached(&o, bid, kind, false, found, found_size))
		return -ENOENT;
	err = symtab__from_elf(st, &o, &o);
	elf_obj__close(&o);
	return err;
}

int symtab__load_elf_image(struct symtab *st, const void *image, size_t size,
			   const struct build_id *bid)
{
	struct elf_obj o = ELF_OBJ_INIT;
	char *copy = malloc(size);
	int err;

	if (!copy)
		return -ENOMEM;
	/* libelf wants a writable image, and the vdso is read-only. */
	memcpy(copy, image, size);
	elf_version(EV_CURRENT);
	o.elf = elf_memory(copy, size);
	err = elf_obj__setup(&o);
	if (!err && !elf_obj__matches(&o, bid && bid->size ? bid : NULL))
		err = -ENOENT;
	if (!err)
		err = symtab__from_elf(st, &o, &o);
	elf_obj__close(&o);
	free(copy);
	return err;
}

/* perf maps and kallsyms: text files of "address ... name" lines */

/* A hex digit's value + 1; 0: not a hex digit. */
static const u8 hex_digit_1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static int hex_digit(char c)
{
	return hex_digit_1[(u8)c] - 1;
}

/*
 * A hex number as strtoull() reads it.  A kernel's list is 100k lines
 * of plain 16-digit addresses: those are read here, a few instructions
 * a digit; anything else (spaces, a sign, "0x", an overflow) goes to
 * strtoull().
 */
static char *parse_hex(char *s, u64 *val)
{
	char *end;
	u64 v = 0;
	int i, d;

	for (i = 0; i < 16 && (d = hex_digit(s[i])) >= 0; i++)
		v = v << 4 | d;
	if (i && hex_digit(s[i]) < 0 &&
	    !(s[0] == '0' && (s[1] | 0x20) == 'x')) {
		*val = v;
		return s + i;
	}
	errno = 0;
	*val = strtoull(s, &end, 16);
	return end == s || errno ? NULL : end;
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * Eight lowercase hex digits at @s, the first the highest, all at once:
 * each byte's value is its low nibble, plus 9 for a letter (bit 6).  A
 * byte is a digit when its value is under 16 and gives the byte back.
 */
static bool hex8(const char *s, u64 *val)
{
	const u64 ones = 0x0101010101010101ULL;
	u64 x, v, ten_up, big, t;

	memcpy(&x, s, sizeof(x));
	v = (x & 0x0f * ones) + ((x >> 6) & ones) * 9;
	big = (v + 0x70 * ones) & 0x80 * ones;
	ten_up = ((v + 0x76 * ones) & 0x80 * ones) >> 7;
	if (big || v + 0x30 * ones + ten_up * 0x27 != x)
		return false;
	/* Little-endian bytes, first digit lowest: pairs, quads, all. */
	t = ((v << 4) | (v >> 8)) & 0x00ff00ff00ff00ffULL;
	t = ((t << 8) | (t >> 16)) & 0x0000ffff0000ffffULL;
	*val = ((t << 16) | (t >> 32)) & 0xffffffffULL;
	return true;
}

/*
 * The 16 digits /proc/kallsyms prints every address with on 64-bit; 17
 * bytes at @s must be readable.  Anything else as parse_hex() reads it.
 */
static char *parse_hex16(char *s, u64 *val)
{
	u64 hi, lo;

	if (hex8(s, &hi) && hex8(s + 8, &lo) && hex_digit(s[16]) < 0) {
		*val = hi << 32 | lo;
		return s + 16;
	}
	return parse_hex(s, val);
}
#else
#define parse_hex16 parse_hex
#endif

static int perf_map__line(struct sym_builder *b, char *line)
{
	u64 start, size;
	char *p = parse_hex(line, &start);

	if (p && *p == ' ')
		p = parse_hex(p + 1, &size);
	else
		p = NULL;
	if (!p || *p != ' ')
		return 0;	/* not a symbol line: skip it */
	p++;
	p[strcspn(p, "\n")] = '\0';
	return builder__add(b, start, start + size, p, strlen(p), STB_GLOBAL, 0);
}

int symtab__load_perf_map(struct symtab *st, const char *path)
{
	FILE *f = fopen(path, "re");
	struct sym_builder b;
	char *line = NULL;
	size_t cap = 0;
	int err;

	if (!f)
		return -errno;
	err = builder__init(&b);
	while (!err && getline(&line, &cap, f) > 0)
		err = perf_map__line(&b, line);
	free(line);
	fclose(f);
	if (!err) {
		builder__finish(&b, false);
		err = builder__emit(&b, st, -1, true);
	}
	builder__exit(&b);
	return err;
}

/* kallsyms */

struct kallsyms_state {
	struct sym_builder b;
	char **modules;		/* index + 1 is raw_sym.module */
	u32 nr_modules, modules_alloc;
	int last_module;
	const char *ref_name;
	u64 ref_found;
	bool ref_seen;
	bool any_address;	/* all zero under kptr_restrict */
	u64 last_data;		/* the kernel's highest data symbol */
};

/* Is module name @m the @len bytes at @name? */
static bool module_is(const char *m, const char *name, size_t len)
{
	return strnlen(m, len + 1) == len && !memcmp(m, name, len);
}

static int kallsyms__module(struct kallsyms_state *ks, const char *name,
			    size_t len)
{
	char **v;
	u32 i;

	if (ks->last_module &&
	    module_is(ks->modules[ks->last_module - 1], name, len))
		return ks->last_module;
	for (i = 0; i < ks->nr_modules; i++)
		if (module_is(ks->modules[i], name, len))
			return ks->last_module = i + 1;
	if (ks->nr_modules >= 0xfffe)
		return -E2BIG;
	if (array_reserve_one((void **)&ks->modules, &ks->modules_alloc,
			      ks->nr_modules, sizeof(*ks->modules)))
		return -ENOMEM;
	v = ks->modules;
	v[ks->nr_modules] = strndup(name, len);
	if (!v[ks->nr_modules])
		return -ENOMEM;
	return ks->last_module = ++ks->nr_modules;
}

/* "ffffffff81000000 T _text" or "... t nvme_probe\t[nvme]" */
static int kallsyms__line(struct kallsyms_state *ks, char *line)
{
	char type, *name, *mod, *p;
	int module = 0;
	size_t len;
	u64 addr;

	p = parse_hex16(line, &addr);
	if (!p || *p != ' ' || !p[1] || p[2] != ' ')
		return 0;
	type = p[1];
	name = p + 3;
	len = strcspn(name, "\t\n");
	mod = name + len;
	/* Data symbols are no functions, but the kernel image has them. */
	if (strchr("dDbB", type) && mod[0] != '\t' && addr > ks->last_data)
		ks->last_data = addr;
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	if (!len)
		return 0;
	if (mod[0] == '\t' && mod[1] == '[') {
		size_t mlen = strcspn(mod + 1, "]\n");

		/* "[name]", or a damaged line (a NUL byte) of no module. */
		if (mod[1 + mlen] != ']')
			return 0;
		module = kallsyms__module(ks, mod + 1, mlen + 1);
		if (module < 0)
			return module;
	}
	if (addr)
		ks->any_address = true;
	if (!module && ks->ref_name && !ks->ref_seen &&
	    !strncmp(name, ks->ref_name, len) && !ks->ref_name[len]) {
		ks->ref_found = addr;
		ks->ref_seen = true;
	}
	return builder__add(&ks->b, addr, addr, name, len,
			    type == 'W' ? STB_WEAK :
			    type == 'T' ? STB_GLOBAL : STB_LOCAL, module);
}

/*
 * A kernel lists 100k symbols or more, their names some 3 MB: the array
 * and the names start at that size, in huge pages, not in 4 KiB ones
 * that are each faulted in (arena.h), which cost more than the parse.
 * /proc says no size; a copy in a file does, which a smaller list (a
 * test's, a fuzzer's) is sized by: a huge page is cleared whole.
 */
static int kallsyms__init_builder(struct sym_builder *b, const char *path)
{
	size_t syms = KALLSYMS_SYMS_GUESS, names = KALLSYMS_NAMES_CHUNK;
	struct stat st;
	int err;

	if (!stat(path, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (u64)st.st_size < KALLSYMS_SYMS_GUESS * KALLSYMS_LINE_MIN) {
		syms = st.st_size / KALLSYMS_LINE_MIN + 1;
		names = st.st_size < NAMES_CHUNK ? NAMES_CHUNK : st.st_size;
	}
	err = builder__init_sized(b, names);
	return err ? err : builder__reserve(b, syms);
}

/*
 * The lines in @buf[0..@len): the complete ones go to kallsyms__line();
 * returns how many bytes that leaves (a line's start), or -errno.
 */
static ssize_t kallsyms__lines(struct kallsyms_state *ks, char *buf,
			       size_t len, bool eof)
{
	char *p = buf, *end = buf + len, *nl;
	int err;

	while ((nl = memchr(p, '\n', end - p))) {
		*nl = '\0';
		err = kallsyms__line(ks, p);
		if (err)
			return err;
		p = nl + 1;
	}
	if (eof && p < end) {
		*end = '\0';
		err = kallsyms__line(ks, p);
		return err ? err : 0;
	}
	return end - p;
}

/*
 * Read in chunks with read(), not line by line through stdio: the
 * kernel formats its 120k lines however they are read, the copying
 * and scanning are ours.  The chunk has room for a NUL and the 16
 * bytes parse_hex16() may read past a short line's end.
 */
static int kallsyms__read(struct kallsyms_state *ks, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf = calloc(1, KALLSYMS_READ_SIZE + 17);
	size_t have = 0, total;
	ssize_t n, left;
	int err = 0;

	if (fd < 0 || !buf) {
		err = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	for (;;) {
		n = read(fd, buf + have, KALLSYMS_READ_SIZE - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		total = have + n;
		left = kallsyms__lines(ks, buf, total, !n);
		if (left < 0 || !n) {
			err = left < 0 ? left : 0;
			break;
		}
		/*
		 * A line as long as the chunk is no symbol's: its start
		 * goes, the rest is a line that does not parse.
		 */
		have = (size_t)left < KALLSYMS_READ_SIZE ? left : 0;
		memmove(buf, buf + total - have, have);
	}
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return err;
}

/* Kernel symbols move with the kernel; modules have their own maps. */
static void kallsyms__relocate(struct kallsyms_state *ks, u64 ref_addr)
{
	u64 delta;
	size_t i;

	if (!ks->ref_seen || !ref_addr || ks->ref_found == ref_addr)
		return;
	delta = ks->ref_found - ref_addr;
	if (ks->last_data)
		ks->last_data -= delta;
	for (i = 0; i < ks->b.nr; i++) {
		if (ks->b.v[i].module)
			continue;
		ks->b.v[i].start -= delta;
		ks->b.v[i].end -= delta;
	}
}

static int kallsyms__emit(struct kallsyms_state *ks, struct symtab *kernel,
			  kallsyms_module_fn module_table, void *arg)
{
	u32 i;
	int err;

	for (i = 0; i < ks->nr_modules; i++) {
		struct symtab *mt = module_table ?
				    module_table(arg, ks->modules[i]) : NULL;

		if (!mt)
			continue;
		err = builder__emit(&ks->b, mt, i + 1, false);
		if (err < 0)
			return err;
	}
	return builder__emit(&ks->b, kernel, 0, true);
}

int symtab__load_kallsyms(struct symtab *kernel, const char *path,
			  const char *ref_name, u64 ref_addr,
			  kallsyms_module_fn module_table, void *arg)
{
	struct kallsyms_state ks = { .ref_name = ref_name };
	u32 i;
	int err;

	err = kallsyms__init_builder(&ks.b, path);
	if (!err)
		err = kallsyms__read(&ks, path);
	if (!err && ks.b.nr && !ks.any_address)
		err = -EPERM;	/* kptr_restrict hid the addresses */
	if (!err) {
		builder__finish(&ks.b, true);
		kallsyms__relocate(&ks, ref_addr);
		err = kallsyms__emit(&ks, kernel, module_table, arg);
	}
	/* Its last symbol's page and one more, as for text (fixup_end). */
	if (err >= 0 && ks.last_data)
		kernel->image_end = roundup_page(ks.last_data) + PAGE_SIZE_4K;
	for (i = 0; i < ks.nr_modules; i++)
		free(ks.modules[i]);
	free(ks.modules);
	builder__exit(&ks.b);
	return err;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Histogram entries and call graphs for perf report.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "hist.h"

/* ---- keys ---------------------------------------------------------- */

/* Linux perf's names of the keys, "symbol" being "sym" spelt out. */
static const struct {
	const char *name;
	enum sort_key key;
} sort_key_names[] = {
	{ "comm", SORT_COMM },
	{ "pid", SORT_PID },
	{ "dso", SORT_DSO },
	{ "sym", SORT_SYM },
	{ "symbol", SORT_SYM },
	{ "cpu", SORT_CPU },
	{ "socket", SORT_SOCKET },
	{ "dso_size", SORT_DSO_SIZE },
	{ "parent", SORT_PARENT },
	{ "trace", SORT_TRACE },
	{ "srcline", SORT_SRCLINE },
	{ "srcfile", SORT_SRCFILE },
};


static int sort_key_by_name(const char *name)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(sort_key_names); k++)
		if (!strcmp(name, sort_key_names[k].name))
			return sort_key_names[k].key;
	return -1;
}

const char *sort_keys__names(void)
{
	return "comm, pid, dso, sym (symbol), cpu, socket, dso_size, parent, trace, srcline, srcfile";
}

int sort_keys__parse(const char *str, struct hists_config *cfg)
{
	char buf[256], *tok, *save = NULL;
	int k;

	snprintf(buf, sizeof(buf), "%s", str);
	cfg->nr_keys = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		k = sort_key_by_name(tok);
		if (k < 0 || cfg->nr_keys == SORT_MAX_KEYS)
			return -EINVAL;
		cfg->keys[cfg->nr_keys++] = k;
	}
	return cfg->nr_keys ? 0 : -EINVAL;
}

int hist_fields__parse(const char *str, struct hists_config *cfg)
{
	char buf[256], *tok, *save = NULL;
	int k, f;

	snprintf(buf, sizeof(buf), "%s", str);
	cfg->nr_fields = 0;
	cfg->nr_keys = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		k = sort_key_by_name(tok);
		if (!strcmp(tok, "overhead"))
			f = FIELD_OVERHEAD;
		else if (!strcmp(tok, "sample"))
			f = FIELD_SAMPLE;
		else if (!strcmp(tok, "period"))
			f = FIELD_PERIOD;
		else if (k >= 0 && cfg->nr_keys < SORT_MAX_KEYS)
			f = FIELD_KEY + k;
		else
			return -EINVAL;
		if (cfg->nr_fields == SORT_MAX_KEYS + 3)
			return -EINVAL;
		if (f >= FIELD_KEY)
			cfg->keys[cfg->nr_keys++] = f - FIELD_KEY;
		cfg->fields[cfg->nr_fields++] = f;
	}
	return cfg->nr_fields ? 0 : -EINVAL;
}

int hist_percent_limit__parse(const char *str, struct hists_config *cfg)
{
	char *end;

	cfg->percent_limit = strtod(str, &end);
	return end == str || (*end && strcmp(end, "%")) ? -EINVAL : 0;
}

bool sort_keys__has(const struct hists_config *cfg, enum sort_key k)
{
	int i;

	for (i = 0; i < cfg->nr_keys; i++)
		if (cfg->keys[i] == k)
			return true;
	return false;
}

int sort_keys__add(struct hists_config *cfg, enum sort_key k)
{
	if (sort_keys__has(cfg, k))
		return 0;
	if (cfg->nr_keys == SORT_MAX_KEYS)
		return -EINVAL;
	cfg->keys[cfg->nr_keys++] = k;
	return 0;
}

static bool frame_same(const struct hist_frame *a, const struct hist_frame *b)
{
	if (a->sym || b->sym)
		return a->sym == b->sym;
	return a->dso == b->dso && a->addr == b->addr;
}

static u64 name_hash(const char *s)
{
	u64 h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (s && *s)
		h = (h ^ (u8)*s++) * 0x100000001b3ULL;
	return h;
}

static bool same_name(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * The dso and sym keys as Linux perf compares them: an object by its
 * name (two copies of a program are one), a function by its object's
 * name and its address in it; a frame without a symbol by its address.
 */
static bool key_dso_same(const struct hist_frame *a,
			 const struct hist_frame *b)
{
	return a->dso == b->dso || same_name(a->dso_name, b->dso_name);
}

static bool key_has(const struct hists_config *cfg, enum sort_key k)
{
	return cfg->keymask & (1u << k);
}

/*
 * Without the dso key, places with no symbol are told apart by their
 * address alone, as Linux perf does: the same address of two objects
 * is one entry.
 */
static bool key_sym_same(const struct hists_config *cfg,
			 const struct hist_frame *a,
			 const struct hist_frame *b)
{
	if (a->sym && b->sym)
		return a->sym == b->sym ||
		       (a->sym_start == b->sym_start && key_dso_same(a, b));
	if (!a->sym && !b->sym && !key_has(cfg, SORT_DSO))
		return a->addr == b->addr;
	return frame_same(a, b);
}

static u64 mix(u64 h, u64 v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

/*
 * The tables below take a hash's low bits as the slot.  mix() leaves
 * those bits to the low bits of the last value mixed in, which for
 * symbol addresses and pointers are mostly alike: entries then piled
 * up in a few runs of slots, 73 probes a lookup on a 1M-sample report.
 * The multiply spreads every bit over the high half, which the xor
 * brings down.
 */
static u64 hash_final(u64 h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	return h ^ h >> 33;
}

/*
 * What an entry is told apart by: the sample's task, CPU and the like,
 * and the frame it is made for (the sample's, or a caller's).
 */
struct entry_key {
	const struct hist_sample *s;	/* NULL: the entry's own values */
	const struct hist_entry *e;
	const struct hist_frame *f;
};

#define KEY_FIELD(k, field) ((k)->s ? (k)->s->field : (k)->e->field)

/*
 * name_hash() of an object's name, remembered by the name's address:
 * a sample's entry is found by its object's name (two copies of one
 * program are one), and hashing the string each time would cost more
 * than the rest of the lookup.
 */
static u64 dso_name_hash(struct hists *hs, const char *name)
{
	struct name_memo *m = &hs->name_memo[((uintptr_t)name >> 3) &
					      (HISTS_NAME_MEMO - 1)];

	if (m->name != name || !name) {
		m->name = name;
		m->hash = name_hash(name);
	}
	return m->hash;
}

static u64 entry_hash(struct hists *hs, const struct entry_key *key)
{
	const struct hists_config *cfg = &hs->cfg;
	const struct hist_frame *f = key->f;
	u64 h = 0;
	int i;

	for (i = 0; i < cfg->nr_keys; i++) {
		switch (cfg->keys[i]) {
		case SORT_COMM:
			h = mix(h, (uintptr_t)KEY_FIELD(key, comm));
			break;
		case SORT_PID:
			h = mix(h, key->s ? key->s->tid : key->e->pid);
			break;
		case SORT_DSO:
			h = mix(h, dso_name_hash(hs, f->dso_name));
			break;
		case SORT_SYM:
			h = mix(h, f->sym ? mix(dso_name_hash(hs, f->dso_name),
						f->sym_start) : f->addr);
			break;
		case SORT_CPU:
			h = mix(h, KEY_FIELD(key, cpu));
			break;
		case SORT_SOCKET:
			h = mix(h, KEY_FIELD(key, socket));
			break;
		case SORT_DSO_SIZE:
			h = mix(h, f->map_size);
			break;
		case SORT_PARENT:
			h = mix(h, (uintptr_t)KEY_FIELD(key, parent));
			break;
		case SORT_TRACE:
			h = mix(h, (uintptr_t)KEY_FIELD(key, trace));
			break;
		case SORT_SRCLINE:
			h = mix(h, (uintptr_t)f->srcline);
			break;
		case SORT_SRCFILE:
			h = mix(h, (uintptr_t)f->srcfile);
			break;
		default:
			break;
		}
	}
	return hash_final(h);
}

static bool entry_matches(const struct hists_config *cfg,
			  const struct hist_entry *e,
			  const struct entry_key *key)
{
	const struct hist_sample *s = key->s;
	const struct hist_frame *f = key->f;

	if (key_has(cfg, SORT_COMM) && e->comm != s->comm)
		return false;
	if (key_has(cfg, SORT_PID) && e->pid != s->tid)
		return false;
	if (key_has(cfg, SORT_CPU) && e->cpu != s->cpu)
		return false;
	if (key_has(cfg, SORT_SOCKET) && e->socket != s->socket)
		return false;
	if (key_has(cfg, SORT_PARENT) && e->parent != s->parent)
		return false;
	if (key_has(cfg, SORT_TRACE) && e->trace != s->trace)
		return false;
	if (key_has(cfg, SORT_DSO) && !key_dso_same(&e->frame, f))
		return false;
	if (key_has(cfg, SORT_DSO_SIZE) && e->frame.map_size != f->map_size)
		return false;
	if (key_has(cfg, SORT_SYM) && !key_sym_same(cfg, &e->frame, f))
		return false;
	if (key_has(cfg, SORT_SRCLINE) && e->frame.srcline != f->srcline)
		return false;
	if (key_has(cfg, SORT_SRCFILE) && e->frame.srcfile != f->srcfile)
		return false;
	return true;
}

/*
 * Entries of two histograms (the events of a group) alike in every key;
 * names are compared as strings, each histogram interning its own.
 */
bool hist_entry__same_keys(const struct hists_config *cfg,
			   const struct hist_entry *a,
			   const struct hist_entry *b)
{
	int i;

	for (i = 0; i < cfg->nr_keys; i++) {
		switch (cfg->keys[i]) {
		case SORT_COMM:
			if (!same_name(a->comm, b->comm))
				return false;
			break;
		case SORT_PID:
			if (a->pid != b->pid)
				return false;
			break;
		case SORT_DSO:
			if (!key_dso_same(&a->frame, &b->frame))
				return false;
			break;
		case SORT_SYM:
			if (!key_sym_same(cfg, &a->frame, &b->frame))
				return false;
			break;
		case SORT_CPU:
			if (a->cpu != b->cpu)
				return false;
			break;
		case SORT_SOCKET:
			if (a->socket != b->socket)
				return false;
			break;
		case SORT_DSO_SIZE:
			if (a->frame.map_size != b->frame.map_size)
				return false;
			break;
		case SORT_PARENT:
			if (!same_name(a->parent, b->parent))
				return false;
			break;
		case SORT_TRACE:
			if (!same_name(a->trace, b->trace))
				return false;
			break;
		case SORT_SRCLINE:
			if (!same_name(a->frame.srcline, b->frame.srcline))
				return false;
			break;
		case SORT_SRCFILE:
			if (!same_name(a->frame.srcfile, b->frame.srcfile))
				return false;
			break;
		default:
			break;
		}
	}
	return true;
}

u64 hist_entry__keys_hash(const struct hists_config *cfg,
			  const struct hist_entry *e)
{
	u64 h = 0;
	int i;

	for (i = 0; i < cfg->nr_keys; i++) {
		switch (cfg->keys[i]) {
		case SORT_COMM:
			h = mix(h, name_hash(e->comm));
			break;
		case SORT_PID:
			h = mix(h, e->pid);
			break;
		case SORT_DSO:
			h = mix(h, name_hash(e->frame.dso_name));
			break;
		case SORT_CPU:
			h = mix(h, e->cpu);
			break;
		default:	/* the rest only sharpen what these find */
			break;
		}
	}
	return h;
}

/* ---- table ---------------------------------------------------------- */

static u32 last_epoch;	/* unique across histograms: see hists->epoch */

int hists__init(struct hists *h, const struct hists_config *cfg)
{
	int i;

	memset(h, 0, sizeof(*h));
	h->cfg = *cfg;
	h->cfg.keymask = 0;
	h->epoch = ++last_epoch;
	h->shapes_tail = &h->shape_list;
	for (i = 0; i < cfg->nr_keys; i++)
		h->cfg.keymask |= 1u << cfg->keys[i];
	h->size = 1024;
	h->table = calloc(h->size, sizeof(*h->table));
	h->arena = arena__new(1 << 20);
	return h->table && h->arena ? 0 : -ENOMEM;
}

void hists__exit(struct hists *h)
{
	free(h->table);
	big_free(h->wide, h->wide_size * sizeof(*h->wide));
	free(h->frames.slots);
	free(h->shape_frames.slots);
	free(h->chain_buf);
	free(h->path);
	free(h->shapes.slots);
	free(h->names.slots);
	arena__delete(h->arena);
	memset(h, 0, sizeof(*h));
}

static int hists__grow(struct hists *h)
{
	size_t size = h->size * 2, i;
	struct hist_entry **t = calloc(size, sizeof(*t));
	struct entry_key key = { .s = NULL };

	if (!t)
		return -ENOMEM;
	for (i = 0; i < h->size; i++) {
		struct hist_entry *e = h->table[i];
		size_t j;

		if (!e)
			continue;
		key.e = e;
		key.f = &e->frame;
		j = entry_hash(h, &key) & (size - 1);
		while (t[j])
			j = (j + 1) & (size - 1);
		t[j] = e;
	}
	free(h->table);
	h->table = t;
	h->size = size;
	return 0;
}

/* The entry of sample @s for frame @f (its own, or a caller's). */
static struct hist_entry *hists__findnew(struct hists *h,
					 const struct hist_sample *s,
					 const struct hist_frame *f)
{
	struct entry_key key = { .s = s, .f = f };
	struct hist_entry *e;
	size_t j;

	if ((h->nr_entries + 1) * 2 > h->size && hists__grow(h))
		return NULL;
	j = entry_hash(h, &key) & (h->size - 1);
	for (; (e = h->table[j]) != NULL; j = (j + 1) & (h->size - 1))
		if (entry_matches(&h->cfg, e, &key))
			return e;
	e = arena__alloc(h->arena, sizeof(*e));
	if (!e)
		return NULL;
	e->comm = s->comm;
	e->thread_comm = h->cur_thread_comm;
	e->first_comm = h->cur_first_comm;
	e->pid = s->tid;
	e->tid = h->cur_tid;
	e->filtered = h->cur_filtered;
	e->cpu = s->cpu;
	e->socket = s->socket;
	e->parent = s->parent;
	e->trace = s->trace;
	e->frame = *f;
	h->table[j] = e;
	h->nr_entries++;
	return e;
}

/* ---- call graphs ------------------------------------------------------ */

static u64 frame_key(const struct hist_frame *f)
{
	return f->sym ? (uintptr_t)f->sym : mix((uintptr_t)f->dso, f->addr);
}

static u64 child_hash(const struct callchain_node *parent,
		      const struct hist_frame *f)
{
	return hash_final(mix((uintptr_t)parent, (uintptr_t)f));
}

static void wide_put(struct wide_child *t, size_t size,
		     const struct callchain_node *parent,
		     struct callchain_node *n)
{
	size_t j = child_hash(parent, n->frame) & (size - 1);

	while (t[j].node)
		j = (j + 1) & (size - 1);
	t[j].parent = parent;
	t[j].node = n;
}

static int wide_grow(struct hists *h, size_t more)
{
	size_t size = h->wide_size ? h->wide_size : 1024, i;
	struct wide_child *t;

	while ((h->nr_wide + more) * 2 > size)
		size *= 2;
	if (size == h->wide_size)
		return 0;
	t = big_zalloc(size * sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < h->wide_size; i++)
		if (h->wide[i].node)
			wide_put(t, size, h->wide[i].parent, h->wide[i].node);
	big_free(h->wide, h->wide_size * sizeof(*t));
	h->wide = t;
	h->wide_size = size;
	return 0;
}

/* Put @nr children of @parent, from @n on, in the table of wide nodes. */
static int wide_add(struct hists *h, const struct callchain_node *parent,
		    struct callchain_node *n, int nr)
{
	if (wide_grow(h, nr))
		return -ENOMEM;
	for (; nr--; n = n->sibling) {
		wide_put(h->wide, h->wide_size, parent, n);
		h->nr_wide++;
	}
	return 0;
}

static struct callchain_node *wide_find(const struct hists *h,
					const struct callchain_node *parent,
					const struct hist_frame *f)
{
	size_t mask = h->wide_size - 1, j = child_hash(parent, f) & mask;

	for (; h->wide[j].node; j = (j + 1) & mask)
		if (h->wide[j].parent == parent && h->wide[j].node->frame == f)
			return h->wide[j].node;
	return NULL;
}

/*
 * A node with more than WIDE_CHILDREN children has them all in a table
 * keyed by (parent, frame): walking the sibling list would be quadratic
 * in wide graphs (the callers of a popular function).  Most nodes have
 * a few children, found in the list without a table: the graph is then
 * its nodes alone, the smallest memory to make and to fill.
 */
#define WIDE_CHILDREN 8

/*
 * The child of @parent for frame @f (a shared copy: frame_intern()),
 * made on first use.  The one found goes to the front of the list, as
 * the likeliest next time.
 */
static struct callchain_node *node_child(struct hists *h,
					 struct callchain_node *parent,
					 const struct hist_frame *f)
{
	struct callchain_node *n, **link = &parent->child;
	bool wide;
	int nr = 0;

	for (n = *link; n && nr < WIDE_CHILDREN; link = &n->sibling, n = *link, nr++) {
		if (n->frame != f)
			continue;
		*link = n->sibling;
		n->sibling = parent->child;
		parent->child = n;
		return n;
	}
	wide = !!n;	/* then all its children are in the table */
	if (wide) {
		n = wide_find(h, parent, f);
		if (n)
			return n;
	}
	n = arena__alloc(h->arena, sizeof(*n));
	if (!n)
		return NULL;
	n->frame = f;
	n->sibling = parent->child;
	parent->child = n;
	if (!wide && nr < WIDE_CHILDREN)
		return n;
	/* The child that makes @parent wide brings its siblings along. */
	if (wide_add(h, parent, n, wide ? 1 : WIDE_CHILDREN + 1))
		return NULL;
	return n;
}

static u64 frame_hash(const struct hist_frame *f)
{
	return hash_final(frame_key(f));
}

static u64 frame_hash_of(const void *f)
{
	return frame_hash(f);
}

/*
 * Make room for one more pointer in @t: doubled (from @first) at half
 * full, the pointers placed again by @hash.
 */
static int ptr_table_reserve(struct ptr_table *t, size_t first,
			     u64 (*hash)(const void *p))
{
	size_t size = t->size ? t->size * 2 : first, i;
	const void **slots;

	if ((t->nr + 1) * 2 <= t->size)
		return 0;
	slots = calloc(size, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < t->size; i++) {
		size_t j;

		if (!t->slots[i])
			continue;
		j = hash(t->slots[i]) & (size - 1);
		while (slots[j])
			j = (j + 1) & (size - 1);
		slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->size = size;
	return 0;
}

/*
 * The slot of @t that holds what @same() finds equal to @key (of hash
 * @hash), or the free slot where @key would go, after room is made for
 * it (from @first slots); NULL without memory.
 */
static const void **ptr_table_slot(struct ptr_table *t, size_t first,
				   u64 (*hash_of)(const void *p), u64 hash,
				   bool (*same)(const void *a, const void *b),
				   const void *key)
{
	size_t j;

	if (ptr_table_reserve(t, first, hash_of))
		return NULL;
	j = hash & (t->size - 1);
	for (; t->slots[j] && !same(t->slots[j], key); j = (j + 1) & (t->size - 1))
		;
	return &t->slots[j];
}

/*
 * One frame for each class of frames that graph nodes tell apart
 * (frame_same()), the first met: nodes then hold a pointer instead of a
 * frame, and children are compared by pointer.  A node kept the first
 * frame that made it before; the fields frame_same() does not compare
 * are those of the frame's symbol or address either way.  @f is a
 * shape's frame, which lives as long as the histogram: it is kept, not
 * copied.
 */
static bool frame_same_of(const void *a, const void *b)
{
	return frame_same(a, b);
}

static const struct hist_frame *frame_intern(struct hists *h,
					     const struct hist_frame *f)
{
	const void **slot = ptr_table_slot(&h->frames, 1024, frame_hash_of,
					   frame_hash(f), frame_same_of, f);

	if (!slot)
		return NULL;
	if (!*slot) {
		*slot = f;
		h->frames.nr++;
	}
	return *slot;
}

/* h->path[0..n) = the nodes' frames for the shape's frames[0..n). */
static int path_intern(struct hists *h,
		       const struct hist_frame * const *frames, int n)
{
	int i;

	if ((size_t)n > h->path_alloc) {
		size_t alloc = n < 64 ? 64 : n;
		const struct hist_frame **p = realloc(h->path, alloc * sizeof(*p));

		if (!p)
			return -ENOMEM;
		h->path = p;
		h->path_alloc = alloc;
	}
	for (i = 0; i < n; i++) {
		h->path[i] = frame_intern(h, frames[i]);
		if (!h->path[i])
			return -ENOMEM;
	}
	return 0;
}

/*
 * Add frames [from, to] (inclusive, stepping by @dir) of a chain to the
 * graph of @e, root first.
 */
static int graph_add(struct hists *h, struct hist_entry *e,
		     const struct hist_frame * const *chain, int from, int to,
		     int dir, u64 period)
{
	struct callchain_node *n;
	int i;

	if (!e->graph) {
		e->graph = arena__alloc(h->arena, sizeof(*e->graph));
		if (!e->graph)
			return -ENOMEM;
	}
	n = e->graph;
	n->hits += period;
	for (i = from; ; i += dir) {
		n = node_child(h, n, chain[i]);
		if (!n)
			return -ENOMEM;
		n->hits += period;
		if (i == to)
			break;
	}
	return 0;
}

/*
 * A shape's graphs, made after all shapes' entries (shape_graphs()):
 * its chain in display order, and the entry each frame adds to.
 */
struct shape_graph {
	struct hist_entry *self;	/* the sample's own entry */
	struct hist_entry **ents;	/* per frame; NULL: a repeat */
	const struct hist_frame **seq;	/* shared frames, display order */
	int len;
	u64 period;
};

static struct hist_entry *add_self(struct hists *h,
				   const struct hist_sample *s,
				   struct shape_graph *sg)
{
	struct hist_entry *e = hists__findnew(h, s, &s->ip);

	if (!e)
		return NULL;
	e->self += s->period;
	e->nr_samples += h->cur_count;
	h->last_entry = e;
	/*
	 * Its graph: a sample with a chain and call graphs is always a
	 * shape's (hists__add_sample()), whose graphs shape_graphs() makes.
	 */
	if (sg)
		sg->self = e;
	return e;
}

/*
 * Children: the sample's own entry and every function on its chain get
 * the sample's period once, however often it recurses.  A caller's graph
 * shows the way down to the leaf (caller order) or up its own callers
 * (callee order).
 */
static int add_children(struct hists *h, const struct hist_sample *s,
			struct hist_entry *self, struct shape_graph *sg)
{
	bool caller = h->cfg.order == CALLCHAIN_CALLER;
	int n, i, last = s->chain_len - 1, err;

	h->sample_seq++;
	self->children += s->period;
	self->last_sample = h->sample_seq;
	/*
	 * Walk in display order, so that with recursion the occurrence that
	 * counts is the first one shown: the outermost in caller order.
	 */
	for (n = 0; n < s->chain_len; n++) {
		struct hist_entry *e;

		i = caller ? last - n : n;
		e = hists__findnew(h, s, &s->chain[i]);
		if (!e)
			return -ENOMEM;
		if (e->last_sample == h->sample_seq)
			continue;
		e->last_sample = h->sample_seq;
		e->children += s->period;
		if (sg)
			sg->ents[n] = e;
		if (!h->cfg.callchain || sg)
			continue;
		/* Caller order: down to the leaf; callee order: up its callers. */
		if (caller)
			err = graph_add(h, e, h->path, i, 0, -1, s->period);
		else
			err = graph_add(h, e, h->path, i, last, 1, s->period);
		if (err)
			return err;
	}
	return 0;
}

/* @sg's chain: h->path in display order (the root first for callers). */
static int shape_graph_init(struct hists *h, struct shape_graph *sg,
			    const struct hist_sample *s)
{
	int n, last = s->chain_len - 1;

	sg->len = s->chain_len;
	sg->period = s->period;
	sg->seq = arena__alloc(h->arena, sg->len * sizeof(*sg->seq));
	sg->ents = arena__alloc(h->arena, sg->len * sizeof(*sg->ents));
	if (!sg->seq || !sg->ents)
		return -ENOMEM;
	for (n = 0; n < sg->len; n++)
		sg->seq[n] = h->path[h->cfg.order == CALLCHAIN_CALLER ? last - n : n];
	return 0;
}

/*
 * Account one sample (or @count alike ones summed in @s->period).  With
 * @sg (a shape's, which has a chain), the graphs are left to
 * shape_graphs() and @sg says what they get.  With call graphs, @s is a
 * shape's and @frames its kept frames: the chain's, or the sample's own
 * without one, of which graphs are made.
 */
static int hists__account(struct hists *h, const struct hist_sample *s,
			  const struct hist_frame * const *frames,
			  u64 count, struct shape_graph *sg)
{
	struct hist_entry *self;

	if (h->cfg.callchain &&
	    path_intern(h, frames, s->chain_len ? s->chain_len : 1))
		return -ENOMEM;
	if (sg && shape_graph_init(h, sg, s))
		return -ENOMEM;
	h->cur_thread_comm = s->thread_comm;
	h->cur_first_comm = s->first_comm;
	h->cur_tid = s->tid;
	h->cur_filtered = s->filtered;
	h->cur_count = count;
	self = add_self(h, s, sg);
	if (!self)
		return -ENOMEM;
	if (!h->cfg.children)
		return 0;
	if (!s->chain_len) {
		struct hist_sample one = *s;

		one.chain = &s->ip;
		one.chain_len = 1;
		return add_children(h, &one, self, NULL);
	}
	return add_children(h, s, self, sg);
}

/* ---- sample shapes ----------------------------------------------------- */

/*
 * Samples with call chains are first folded into shapes: all samples of
 * one context with the same chain become one shape with a summed period.
 * Graphs are built from shapes when the report is printed, so the cost
 * that grows with the square of the chain depth is paid per distinct
 * chain, not per sample.
 */
struct sample_shape {
	struct sample_shape *next;	/* in order of first appearance */
	u64 hash;
	/* The sample's fields that the keys and filters see. */
	const char *comm;
	const char * const *thread_comm;
	const char * const *first_comm;
	const char *parent;
	const char *trace;
	u32 pid;
	u32 tid;
	int cpu;
	int socket;
	int chain_len;
	bool filtered;
	/*
	 * Its frames, as shared copies (shape_frame()): a frame is 80
	 * bytes, and a DWARF chain's 18 of them made the shapes half of a
	 * report's memory.  The chain is leaf first.
	 */
	const struct hist_frame *ip;
	const struct hist_frame **chain;
	u64 period;
	u64 count;
};

static bool frames_equal(const struct hist_frame *a,
			 const struct hist_frame *b)
{
	return frame_same(a, b) && a->level == b->level && a->dso == b->dso &&
	       a->map_size == b->map_size && a->srcline == b->srcline &&
	       a->srcfile == b->srcfile;
}

/*
 * What tells shapes apart: the chain, and the sample fields that the
 * sort keys or the filters look at.  The task and CPU of a shape are
 * those of its first sample, which is also the sample that would have
 * created its entries one sample at a time.
 */
static u64 shape_hash(const struct hists *hs, const struct hist_sample *s)
{
	const struct hists_config *cfg = &hs->cfg;
	u64 h = mix(key_has(cfg, SORT_COMM) ? (uintptr_t)s->comm : 0,
		    key_has(cfg, SORT_PID) ? s->tid : 0);
	int i;

	h = mix(h, key_has(cfg, SORT_CPU) ? s->cpu : 0);
	h = mix(h, key_has(cfg, SORT_SOCKET) ? s->socket : 0);
	h = mix(h, key_has(cfg, SORT_TRACE) ? (uintptr_t)s->trace : 0);
	h = mix(h, key_has(cfg, SORT_PARENT) ? (uintptr_t)s->parent : 0);
	h = mix(h, s->filtered);
	h = mix(h, frame_key(&s->ip) ^ s->ip.level);
	for (i = 0; i < s->chain_len; i++)
		h = mix(h, frame_key(&s->chain[i]) ^ s->chain[i].level);
	return hash_final(h);
}

static bool shape_matches(const struct hists *hs,
			  const struct sample_shape *sh, u64 hash,
			  const struct hist_sample *s)
{
	const struct hists_config *cfg = &hs->cfg;
	int i;

	if (sh->hash != hash || sh->filtered != s->filtered ||
	    sh->chain_len != s->chain_len ||
	    (key_has(cfg, SORT_COMM) && sh->comm != s->comm) ||
	    (key_has(cfg, SORT_PID) && sh->tid != s->tid) ||
	    (key_has(cfg, SORT_CPU) && sh->cpu != s->cpu) ||
	    (key_has(cfg, SORT_SOCKET) && sh->socket != s->socket) ||
	    (key_has(cfg, SORT_TRACE) && sh->trace != s->trace) ||
	    (key_has(cfg, SORT_PARENT) && sh->parent != s->parent) ||
	    !frames_equal(sh->ip, &s->ip))
		return false;
	for (i = 0; i < s->chain_len; i++)
		if (!frames_equal(sh->chain[i], &s->chain[i]))
			return false;
	return true;
}

static u64 shape_frame_hash(const struct hist_frame *f)
{
	return hash_final(mix(mix(frame_key(f) ^ f->level, (uintptr_t)f->dso),
			      f->map_size ^ (uintptr_t)f->srcline ^
			      (uintptr_t)f->srcfile));
}

static u64 shape_frame_hash_of(const void *f)
{
	return shape_frame_hash(f);
}

/* One copy of each frame that shapes tell apart (frames_equal()). */
static bool frames_equal_of(const void *a, const void *b)
{
	return frames_equal(a, b);
}

static const struct hist_frame *shape_frame(struct hists *h,
					    const struct hist_frame *f)
{
	const void **slot = ptr_table_slot(&h->shape_frames, 1024,
					   shape_frame_hash_of,
					   shape_frame_hash(f),
					   frames_equal_of, f);
	struct hist_frame *copy;

	if (!slot || *slot)
		return slot ? *slot : NULL;
	copy = arena__alloc(h->arena, sizeof(*copy));
	if (!copy)
		return NULL;
	*copy = *f;
	*slot = copy;
	h->shape_frames.nr++;
	return copy;
}

/*
 * The sample @sh stands for, with its summed period; its chain as an
 * array of frames, in a buffer the next call reuses.
 */
static int shape_sample(struct hists *h, const struct sample_shape *sh,
			struct hist_sample *s)
{
	struct hist_frame *b;
	int i;

	*s = (struct hist_sample){
		.comm = sh->comm, .thread_comm = sh->thread_comm,
		.first_comm = sh->first_comm, .pid = sh->pid, .tid = sh->tid,
		.cpu = sh->cpu, .socket = sh->socket, .parent = sh->parent,
		.trace = sh->trace, .period = sh->period, .ip = *sh->ip,
		.chain_len = sh->chain_len, .filtered = sh->filtered,
	};
	if (!sh->chain_len)
		return 0;
	if ((size_t)sh->chain_len > h->chain_buf_alloc) {
		size_t alloc = sh->chain_len < 64 ? 64 : sh->chain_len;

		b = realloc(h->chain_buf, alloc * sizeof(*b));
		if (!b)
			return -ENOMEM;
		h->chain_buf = b;
		h->chain_buf_alloc = alloc;
	}
	for (i = 0; i < sh->chain_len; i++)
		h->chain_buf[i] = *sh->chain[i];
	s->chain = h->chain_buf;
	return 0;
}

static u64 shape_hash_of(const void *sh)
{
	return ((const struct sample_shape *)sh)->hash;
}

static int shape_add(struct hists *h, const struct hist_sample *s)
{
	u64 hash = shape_hash(h, s);
	struct sample_shape *sh;
	size_t j;
	int i;

	if (ptr_table_reserve(&h->shapes, 1024, shape_hash_of))
		return -ENOMEM;
	j = hash & (h->shapes.size - 1);
	for (; (sh = (void *)h->shapes.slots[j]) != NULL;
	     j = (j + 1) & (h->shapes.size - 1)) {
		if (shape_matches(h, sh, hash, s)) {
			sh->period += s->period;
			sh->count++;
			return 0;
		}
	}
	sh = arena__alloc(h->arena, sizeof(*sh));
	if (!sh)
		return -ENOMEM;
	*sh = (struct sample_shape){
		.hash = hash, .comm = s->comm, .thread_comm = s->thread_comm,
		.first_comm = s->first_comm, .parent = s->parent,
		.trace = s->trace, .pid = s->pid, .tid = s->tid, .cpu = s->cpu,
		.socket = s->socket, .chain_len = s->chain_len,
		.filtered = s->filtered, .ip = shape_frame(h, &s->ip),
	};
	if (!sh->ip)
		return -ENOMEM;
	if (s->chain_len) {
		sh->chain = arena__alloc(h->arena, s->chain_len *
					 sizeof(*sh->chain));
		if (!sh->chain)
			return -ENOMEM;
		for (i = 0; i < s->chain_len; i++) {
			sh->chain[i] = shape_frame(h, &s->chain[i]);
			if (!sh->chain[i])
				return -ENOMEM;
		}
	}
	sh->period = s->period;
	sh->count = 1;
	*h->shapes_tail = sh;
	h->shapes_tail = &sh->next;
	h->shapes.slots[j] = sh;
	h->shapes.nr++;
	return 0;
}

static int cmp_shape_graphs(const void *pa, const void *pb)
{
	const struct shape_graph *a = *(struct shape_graph * const *)pa;
	const struct shape_graph *b = *(struct shape_graph * const *)pb;
	int i;

	for (i = 0; i < a->len && i < b->len; i++)
		if (a->seq[i] != b->seq[i])
			return (uintptr_t)a->seq[i] < (uintptr_t)b->seq[i] ? -1 : 1;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	if (a->self != b->self)
		return (uintptr_t)a->self < (uintptr_t)b->self ? -1 : 1;
	return 0;
}

static struct callchain_node *graph_root(struct hists *h, struct hist_entry *e)
{
	if (!e->graph)
		e->graph = arena__alloc(h->arena, sizeof(*e->graph));
	return e->graph;
}

/*
 * Walk @e's graph along seq[from..len) adding @period, where the nodes
 * of seq[from..reuse) are at[from..reuse) already; at[] gets the rest.
 */
static int graph_walk(struct hists *h, struct hist_entry *e,
		      const struct shape_graph *g, int from, int reuse,
		      struct callchain_node **at)
{
	struct callchain_node *n = graph_root(h, e);
	int j;

	if (!n)
		return -ENOMEM;
	n->hits += g->period;
	for (j = from; j < g->len; j++) {
		n = j < reuse ? at[j] : node_child(h, n, g->seq[j]);
		if (!n)
			return -ENOMEM;
		n->hits += g->period;
		at[j] = n;
	}
	return 0;
}

static int common_prefix(const struct shape_graph *a,
			 const struct shape_graph *b)
{
	int i;

	for (i = 0; a && i < a->len && i < b->len; i++)
		if (a->seq[i] != b->seq[i])
			break;
	return i;
}

/*
 * The graphs of all shapes, as graph_add() would make them one shape
 * at a time, with far fewer lookups: in the order of their chains,
 * consecutive shapes share the start of their paths, and an entry that
 * the last shape walked along the same frames has those nodes in
 * at[k * width ...] (k: where its path starts) or self_at.
 */
static int shape_graphs(struct hists *h, struct shape_graph **v, size_t nr)
{
	struct callchain_node **at = NULL, **self_at = NULL;
	const struct shape_graph *prev = NULL;
	int width = 0, err = 0, k;
	size_t i;

	qsort(v, nr, sizeof(*v), cmp_shape_graphs);
	for (i = 0; i < nr && !err; i++) {
		const struct shape_graph *g = v[i];
		int m;

		/* A sample without a chain makes no graph (hists__account()). */
		if (!g->len)
			continue;
		if (g->len > width) {
			width = g->len * 2;
			free(at);
			free(self_at);
			at = calloc((size_t)width * width, sizeof(*at));
			self_at = calloc(width, sizeof(*self_at));
			if (!at || !self_at) {
				err = -ENOMEM;
				break;
			}
			prev = NULL;
		}
		m = common_prefix(prev, g);
		if (!g->self->no_graph)
			err = graph_walk(h, g->self, g, 0,
					 prev && prev->self == g->self ? m : 0,
					 self_at);
		for (k = 0; k < g->len && !err; k++) {
			bool same = prev && k < m && prev->ents[k] == g->ents[k];

			if (g->ents[k] && !g->ents[k]->no_graph)
				err = graph_walk(h, g->ents[k], g, k, same ? m : k,
						 at + (size_t)k * width);
		}
		prev = g;
	}
	free(at);
	free(self_at);
	return err;
}

static bool any_thread_named(const struct hists *h)
{
	size_t i;

	for (i = 0; i < h->size; i++)
		if (h->table[i] && h->table[i]->first_comm &&
		    *h->table[i]->first_comm)
			return true;
	return false;
}

/*
 * For a graph printed as text once (graph_for_text): the entries whose
 * graph root would get too little for any branch to show.  A branch
 * shows where its hits are graph_min_pct of the total the print divides
 * by (stdio-hist.c's pct(), computed the same way here); no branch has
 * more hits than the root, which gets each walk's period.  Most graph
 * nodes of a big report are of such entries: 1.66M of 1.67M on a
 * 122 MB file, where 45 entries show branches.  Not when naming
 * threads will merge entries (hists__name_threads()) after the graphs
 * are made.
 */
static void mark_no_graph(struct hists *h, struct shape_graph *graphs,
			  size_t nr)
{
	u64 total = h->total_period, shown = 0;
	size_t i;
	int k;

	if (!h->cfg.graph_for_text ||
	    (key_has(&h->cfg, SORT_COMM) && any_thread_named(h)))
		return;
	for (i = 0; i < h->size; i++) {
		struct hist_entry *e = h->table[i];

		if (!e)
			continue;
		e->graph_hits = 0;
		if (!e->filtered)
			shown += e->self;
	}
	for (i = 0; i < nr; i++) {
		if (!graphs[i].len)
			continue;
		graphs[i].self->graph_hits += graphs[i].period;
		for (k = 0; k < graphs[i].len; k++)
			if (graphs[i].ents[k])
				graphs[i].ents[k]->graph_hits += graphs[i].period;
	}
	if (h->cfg.relative)
		total = shown;
	for (i = 0; i < h->size; i++) {
		struct hist_entry *e = h->table[i];
		double pct;

		if (!e)
			continue;
		pct = total ? 100.0 * e->graph_hits / total : 0.0;
		e->no_graph = !e->graph && !(pct >= h->cfg.graph_min_pct);
	}
}

/*
 * Turn the pending shapes into entries, in order (which sample makes
 * an entry decides its task's name), then into graphs.
 */
int hists__flush(struct hists *h)
{
	struct shape_graph *graphs = NULL, **v = NULL;
	struct sample_shape *sh;
	size_t nr = 0;
	int err = 0;

	if (h->cfg.callchain && h->shapes.nr) {
		graphs = calloc(h->shapes.nr, sizeof(*graphs));
		v = calloc(h->shapes.nr, sizeof(*v));
		if (!graphs || !v)
			err = -ENOMEM;
	}
	for (sh = h->shape_list; sh && !err; sh = sh->next) {
		struct hist_sample s;

		err = shape_sample(h, sh, &s);
		if (err)
			break;
		err = hists__account(h, &s, sh->chain_len ? sh->chain : &sh->ip,
				     sh->count, graphs ? &graphs[nr] : NULL);
		if (graphs)
			v[nr] = &graphs[nr];
		nr++;
	}
	if (!err && graphs) {
		mark_no_graph(h, graphs, nr);
		err = shape_graphs(h, v, nr);
	}
	free(graphs);
	free(v);
	if (err)
		return err;
	free(h->shapes.slots);
	memset(&h->shapes, 0, sizeof(h->shapes));
	h->shape_list = NULL;
	h->shapes_tail = &h->shape_list;
	return 0;
}

/* ---- naming threads after the fact ------------------------------------- */

static int graph_merge(struct hists *h, struct callchain_node *dst,
		       const struct callchain_node *src)
{
	const struct callchain_node *c;

	dst->hits += src->hits;
	for (c = src->child; c; c = c->sibling) {
		struct callchain_node *d = node_child(h, dst, c->frame);

		if (!d || graph_merge(h, d, c))
			return -ENOMEM;
	}
	return 0;
}

static int entry_merge(struct hists *h, struct hist_entry *dst,
		       struct hist_entry *src)
{
	dst->self += src->self;
	dst->children += src->children;
	dst->nr_samples += src->nr_samples;
	dst->filtered = dst->filtered && src->filtered;
	if (!src->graph)
		return 0;
	if (!dst->graph) {
		dst->graph = src->graph;
		return 0;
	}
	return graph_merge(h, dst->graph, src->graph);
}

/* Put @e in the table, or merge it into the entry with its keys. */
static int entry_reinsert(struct hists *h, struct hist_entry *e)
{
	struct entry_key key = { .e = e, .f = &e->frame };
	struct hist_entry *m;
	size_t j = entry_hash(h, &key) & (h->size - 1);

	for (; (m = h->table[j]) != NULL; j = (j + 1) & (h->size - 1))
		if (hist_entry__same_keys(&h->cfg, m, e))
			return entry_merge(h, m, e);
	h->table[j] = e;
	h->nr_entries++;
	return 0;
}

int hists__name_threads(struct hists *h)
{
	struct hist_entry **old = h->table;
	size_t i;
	int err = 0;

	if (!key_has(&h->cfg, SORT_COMM) || !any_thread_named(h))
		return 0;
	h->epoch = ++last_epoch;
	h->table = calloc(h->size, sizeof(*h->table));
	if (!h->table) {
		h->table = old;
		return -ENOMEM;
	}
	h->nr_entries = 0;
	for (i = 0; i < h->size && !err; i++) {
		struct hist_entry *e = old[i];

		if (!e)
			continue;
		if (e->first_comm && *e->first_comm) {
			e->comm = hists__intern(h, *e->first_comm);
			if (!e->comm)
				err = -ENOMEM;
		}
		e->first_comm = NULL;
		if (!err)
			err = entry_reinsert(h, e);
	}
	free(old);
	return err;
}

static void decay(u64 *v)
{
	*v = *v * (HISTS_DECAY_DIV - 1) / HISTS_DECAY_DIV;
}

static void graph_decay(struct callchain_node *n)
{
	for (; n; n = n->sibling) {
		decay(&n->hits);
		graph_decay(n->child);
	}
}

int hists__decay(struct hists *h)
{
	size_t i;
	int err = hists__flush(h);

	if (err)
		return err;
	h->total_period = 0;
	h->nr_samples = 0;
	for (i = 0; i < h->size; i++) {
		struct hist_entry *e = h->table[i];

		if (!e)
			continue;
		decay(&e->self);
		decay(&e->children);
		decay(&e->nr_samples);
		if (!e->self)
			e->nr_samples = 0;
		graph_decay(e->graph);
		h->total_period += e->self;
		h->nr_samples += e->nr_samples;
	}
	return 0;
}

int hists__add_sample(struct hists *h, const struct hist_sample *s)
{
	h->total_period += s->period;
	h->nr_samples++;

	/*
	 * With chains, samples without one are shapes too: entries are
	 * made in the order samples come (the first decides what an entry
	 * shows), and the shapes' are made when the report is printed.
	 */
	if (h->cfg.callchain || h->cfg.children)
		return shape_add(h, s);
	return hists__account(h, s, NULL, 1, NULL);
}

void hists__add_again(struct hists *h, struct hist_entry *e, u64 period)
{
	h->total_period += period;
	h->nr_samples++;
	e->self += period;
	e->nr_samples++;
}

static u64 str_hash(const char *s)
{
	u64 h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

static u64 str_hash_of(const void *s)
{
	return str_hash(s);
}

/* One copy per distinct name, so entries compare names by pointer. */
static bool str_same_of(const void *a, const void *b)
{
	return !strcmp(a, b);
}

const char *hists__intern(struct hists *h, const char *s)
{
	const void **slot = ptr_table_slot(&h->names, 256, str_hash_of,
					   str_hash(s), str_same_of, s);

	if (!slot || *slot)
		return slot ? *slot : NULL;
	*slot = arena__strdup(h->arena, s);
	if (!*slot)
		return NULL;
	h->names.nr++;
	return *slot;
}

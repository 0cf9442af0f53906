// SPDX-License-Identifier: GPL-2.0
/*
 * Histograms: grouping by sort keys, self and children overhead, call
 * graph output, percent limits.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "../util/arena.h"
#include "../util/hist.h"
#include "../ui/stdio-hist.h"

static int dso_main, dso_lib;
static int sym_a, sym_b, sym_main, sym_lib;

#define F(d, s, n, start) { .dso = &d, .dso_name = #d, .sym = &s, \
	.sym_name = n, .sym_start = start, .level = '.' }

static const struct hist_frame fa = F(dso_main, sym_a, "hot_a", 0x1000);
static const struct hist_frame fb = F(dso_main, sym_b, "hot_b", 0x2000);
static const struct hist_frame fm = F(dso_main, sym_main, "main", 0x3000);
static const struct hist_frame fl = F(dso_lib, sym_lib, "lib_loop", 0x1000);

static void add(struct hists *h, const char *comm, const struct hist_frame *ip,
		const struct hist_frame *chain, int len, u64 period)
{
	struct hist_sample s = {
		.comm = hists__intern(h, comm), .pid = 10, .tid = 10,
		.period = period, .ip = *ip, .chain = chain, .chain_len = len,
	};

	hists__add_sample(h, &s);
}

static char *render(struct hists *h)
{
	static char buf[8192];
	struct hists_header hdr = { .event_name = "cycles" };
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	hists__fprintf(h, &hdr, f);
	fclose(f);
	return buf;
}

/*
 * Places without a symbol: with the dso key, one entry per object and
 * address; with sym alone, one per address, the objects merged, as
 * Linux perf groups them.
 */
static int check_no_symbol(struct test_ctx *ctx)
{
	const struct hist_frame in_main = {
		.dso = &dso_main, .dso_name = "dso_main", .addr = 0x4000,
		.level = '.'
	};
	const struct hist_frame in_lib = {
		.dso = &dso_lib, .dso_name = "dso_lib", .addr = 0x4000,
		.level = '.'
	};
	struct hists_config cfg = { 0 };
	struct hists h;

	sort_keys__parse("sym", &cfg);
	hists__init(&h, &cfg);
	add(&h, "work", &in_main, NULL, 0, 100);
	add(&h, "work", &in_lib, NULL, 0, 100);
	TEST_ASSERT(ctx, h.nr_entries == 1,
		    "sym key: %zu entries for one address without symbol",
		    h.nr_entries);
	hists__exit(&h);
	sort_keys__parse("dso,sym", &cfg);
	hists__init(&h, &cfg);
	add(&h, "work", &in_main, NULL, 0, 100);
	add(&h, "work", &in_lib, NULL, 0, 100);
	TEST_ASSERT(ctx, h.nr_entries == 2,
		    "dso,sym keys: %zu entries for two objects", h.nr_entries);
	hists__exit(&h);
	return TEST_OK;
}

/*
 * Two copies of one program (two dsos named alike): Linux perf's dso
 * key is the name, and its sym key the name and the symbol's address.
 */
static int check_copies(struct test_ctx *ctx)
{
	static int copy_dso, copy_sym, other_sym;
	const struct hist_frame copy_a = {
		.dso = &copy_dso, .dso_name = "dso_main", .sym = &copy_sym,
		.sym_name = "hot_a", .sym_start = 0x1000, .level = '.'
	};
	const struct hist_frame copy_other = {
		.dso = &copy_dso, .dso_name = "dso_main", .sym = &other_sym,
		.sym_name = "hot_a", .sym_start = 0x1800, .level = '.'
	};
	struct hists_config cfg = { 0 };
	struct hists h;

	sort_keys__parse("dso", &cfg);
	hists__init(&h, &cfg);
	add(&h, "work", &fa, NULL, 0, 100);
	add(&h, "work", &copy_a, NULL, 0, 100);
	TEST_ASSERT(ctx, h.nr_entries == 1, "dso key: %zu entries for one name",
		    h.nr_entries);
	hists__exit(&h);
	sort_keys__parse("sym", &cfg);
	hists__init(&h, &cfg);
	add(&h, "work", &fa, NULL, 0, 100);
	add(&h, "work", &copy_a, NULL, 0, 100);
	add(&h, "work", &fl, NULL, 0, 100);
	add(&h, "work", &copy_other, NULL, 0, 100);
	/* fl: same address, another object; copy_other: another address. */
	TEST_ASSERT(ctx, h.nr_entries == 3, "sym key: %zu entries, want 3",
		    h.nr_entries);
	hists__exit(&h);
	return check_no_symbol(ctx);
}

/* dso_size: a number for mapped samples, "unknown" for the others. */
static int check_dso_size(struct test_ctx *ctx)
{
	const struct hist_frame unmapped = {
		.dso_name = "[unknown]", .addr = 0x1234, .level = '.'
	};
	struct hist_frame mapped = fa;
	struct hists_config cfg = { 0 };
	struct hists h;
	char *out;

	mapped.map_size = 8192;
	sort_keys__parse("dso_size", &cfg);
	hists__init(&h, &cfg);
	add(&h, "work", &mapped, NULL, 0, 300);
	add(&h, "work", &unmapped, NULL, 0, 100);
	out = render(&h);
	TEST_ASSERT(ctx, strstr(out, "    75.00%      8192\n") &&
		    strstr(out, "    25.00%   unknown\n"), "dso_size rows: %s", out);
	hists__exit(&h);
	return TEST_OK;
}

/*
 * perf top's decay: 7/8 of every entry stays, and an entry with nothing
 * left is no longer shown.
 */
static int check_decay(struct test_ctx *ctx)
{
	struct hists_config cfg = { 0 };
	struct hists h;
	char *out;
	int i;

	sort_keys__parse("sym", &cfg);
	hists__init(&h, &cfg);
	add(&h, "work", &fa, NULL, 0, 800);
	add(&h, "work", &fb, NULL, 0, 8);
	TEST_ASSERT(ctx, !hists__decay(&h) && h.total_period == 707,
		    "decayed total %llu, want 700 + 7",
		    (unsigned long long)h.total_period);
	for (i = 0; i < 20; i++)
		hists__decay(&h);
	add(&h, "work", &fa, NULL, 0, 800);
	out = render(&h);
	TEST_ASSERT(ctx, strstr(out, "hot_a") && !strstr(out, "hot_b"),
		    "an entry decayed to nothing is shown: %s", out);
	hists__exit(&h);
	return TEST_OK;
}

/*
 * A thread sampled before its COMM: its ":TID" entries take the name it
 * got first and merge with that name's, as Linux perf shows them.
 */
static int check_named_later(struct test_ctx *ctx)
{
	const char *first = NULL;
	struct hists_config cfg = { 0 };
	struct hist_sample s = { .period = 100, .ip = fa };
	struct hists h;
	char *out;

	sort_keys__parse("comm,sym", &cfg);
	hists__init(&h, &cfg);
	s.comm = hists__intern(&h, ":42");
	s.first_comm = &first;
	hists__add_sample(&h, &s);
	s.comm = hists__intern(&h, "work");
	s.first_comm = NULL;
	hists__add_sample(&h, &s);
	first = "work";
	out = render(&h);
	TEST_ASSERT(ctx, h.nr_entries == 1 && !strstr(out, ":42") &&
		    strstr(out, "   100.00%  work     [.] hot_a\n"),
		    "%zu entries: %s", h.nr_entries, out);
	hists__exit(&h);
	return TEST_OK;
}

static const struct hist_entry *entry_of(const struct hists *h,
					 const void *sym, const char *comm)
{
	size_t i;

	for (i = 0; i < h->size; i++)
		if (h->table[i] && h->table[i]->frame.sym == sym &&
		    !strcmp(h->table[i]->comm, comm))
			return h->table[i];
	return NULL;
}

/*
 * The samples of graph_for_text_case(): main calls hot_a (90%) and
 * hot_b, which calls lib_loop (5% each way).  A ":42" thread named
 * "work" later has half of hot_b's: its entries merge with "work"'s
 * only after the graphs are made.
 */
static void graph_samples(struct hists *h, const char **first, bool later)
{
	const struct hist_frame ca[] = { fa, fm }, cb[] = { fb, fm },
				cbl[] = { fl, fb, fm };
	struct hist_sample s = {
		.comm = hists__intern(h, "work"), .pid = 10, .tid = 10,
		.period = 900, .ip = fa, .chain = ca, .chain_len = 2,
	};

	hists__add_sample(h, &s);
	s.period = 25;
	s.ip = fb;
	s.chain = cb;
	hists__add_sample(h, &s);
	s.ip = fl;
	s.chain = cbl;
	s.chain_len = 3;
	hists__add_sample(h, &s);
	if (later) {
		s.comm = hists__intern(h, ":42");
		s.first_comm = first;
	}
	s.ip = fb;
	s.chain = cb;
	s.chain_len = 2;
	hists__add_sample(h, &s);
	s.ip = fl;
	s.chain = cbl;
	s.chain_len = 3;
	hists__add_sample(h, &s);
}

/*
 * graph_for_text: the graphs of entries with too little for a branch
 * to show are not made, and the text is the same as with all of them.
 */
static int graph_for_text_case(struct test_ctx *ctx, double min_pct,
			       bool later, bool relative)
{
	struct hists_config cfg = {
		.children = true, .callchain = true, .relative = relative,
		.order = CALLCHAIN_CALLER, .graph_min_pct = min_pct,
	};
	const struct hist_entry *b;
	const char *first = NULL;
	static char all[8192];
	struct hists h;
	char *out;

	sort_keys__parse("comm,dso,sym", &cfg);
	hists__init(&h, &cfg);
	graph_samples(&h, &first, later);
	first = "work";
	snprintf(all, sizeof(all), "%s", render(&h));
	hists__exit(&h);
	first = NULL;
	cfg.graph_for_text = true;
	hists__init(&h, &cfg);
	graph_samples(&h, &first, later);
	first = "work";
	out = render(&h);
	b = entry_of(&h, &sym_b, "work");
	TEST_ASSERT(ctx, !strcmp(out, all),
		    "min %.1f%%%s: the text differs:\n%s\nwith every graph:\n%s",
		    min_pct, later ? ", named later" : "", out, all);
	/* hot_b has 10%, 5% of it from a thread named later. */
	TEST_ASSERT(ctx, b && !b->graph == (min_pct > 10 && !later),
		    "min %.1f%%%s: hot_b %s a graph", min_pct,
		    later ? ", named later" : "", b && b->graph ? "has" : "lacks");
	TEST_ASSERT(ctx, entry_of(&h, &sym_main, "work")->graph, "main lacks a graph");
	hists__exit(&h);
	return TEST_OK;
}

/*
 * The sample that makes an entry decides what it shows (the level of an
 * address without a symbol here), and samples make entries in the order
 * they come, with chains or without: one without a chain must not make
 * its entries before the chained samples before it.
 */
static int check_entry_order(struct test_ctx *ctx)
{
	const struct hist_frame user = {
		.dso_name = "[unknown]", .addr = 0x9000, .level = '.'
	};
	const struct hist_frame kernel = {
		.dso_name = "[unknown]", .addr = 0x9000, .level = 'k'
	};
	const struct hist_frame chain[] = { fa, user, fm };
	struct hists_config cfg = {
		.children = true, .callchain = true, .order = CALLCHAIN_CALLER,
	};
	struct hists h;
	char *out;

	sort_keys__parse("comm,dso,sym", &cfg);
	hists__init(&h, &cfg);
	add(&h, "work", &fa, chain, 3, 100);
	add(&h, "work", &kernel, NULL, 0, 100);
	out = render(&h);
	TEST_ASSERT(ctx, strstr(out, "[.] 0x0000000000009000\n") &&
		    !strstr(out, "[k] 0x0000000000009000"),
		    "the chained sample came first: %s", out);
	hists__exit(&h);
	return TEST_OK;
}

static int check_graph_for_text(struct test_ctx *ctx)
{
	static const double mins[] = { 0, 0.5, 5, 10, 10.5, 50 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mins); i++)
		if (graph_for_text_case(ctx, mins[i], false, false) ||
		    graph_for_text_case(ctx, mins[i], true, false) ||
		    graph_for_text_case(ctx, mins[i], false, true))
			return TEST_FAIL;
	return TEST_OK;
}

/* The longest run of used slots in an open addressing table. */
static size_t longest_run(const void * const *slots, size_t size)
{
	size_t i, run = 0, longest = 0;

	for (i = 0; i < 2 * size; i++) {	/* runs wrap around */
		run = slots[i % size] ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	return longest < size ? longest : size;
}

#define SPREAD_SYMS	20000
#define SPREAD_MAX_RUN	200

/*
 * The tables of entries, frames and shapes stay spread out where keys
 * differ only in bits a hash's low bits barely see.  With a weak hash,
 * the garbage addresses of broken call chains piled up in runs of
 * thousands of slots, and every lookup there walked them.
 */
static int check_spread(struct test_ctx *ctx)
{
	static int syms[SPREAD_SYMS];
	struct hists_config cfg = { 0 };
	struct hist_frame ip = fm, chain[2] = { fm, fm };
	size_t i, run[4];
	struct hists h;

	sort_keys__parse("comm,dso,sym", &cfg);
	cfg.children = true;
	cfg.callchain = true;
	hists__init(&h, &cfg);
	for (i = 0; i < SPREAD_SYMS; i++) {
		/*
		 * Half with a symbol, half at an address without one, as
		 * broken frame pointer chains give: small numbers, or
		 * values that differ only in their high bits.
		 */
		chain[0].sym = i & 1 ? &syms[i] : NULL;
		chain[0].sym_start = (u64)i << 32;
		chain[0].addr = i & 2 ? i : (u64)i << 32;
		ip = chain[0];
		add(&h, "work", &ip, chain, 2, 1);
	}
	run[0] = longest_run(h.shapes.slots, h.shapes.size);
	/* Shapes share their frames: main is kept once, not per chain. */
	TEST_ASSERT(ctx, h.shape_frames.nr == SPREAD_SYMS + 1,
		    "%zu frames kept for the shapes, want %d",
		    h.shape_frames.nr, SPREAD_SYMS + 1);
	TEST_ASSERT(ctx, !hists__flush(&h), "flush failed");
	run[1] = longest_run((const void * const *)h.table, h.size);
	run[2] = longest_run(h.frames.slots, h.frames.size);
	run[3] = h.nr_entries;
	hists__exit(&h);
	TEST_ASSERT(ctx, run[3] == SPREAD_SYMS + 1,
		    "%zu entries, want %d", run[3], SPREAD_SYMS + 1);
	TEST_ASSERT(ctx, run[0] < SPREAD_MAX_RUN && run[1] < SPREAD_MAX_RUN &&
		    run[2] < SPREAD_MAX_RUN,
		    "runs of used slots: shapes %zu, entries %zu, frames %zu (want under %d)",
		    run[0], run[1], run[2], SPREAD_MAX_RUN);
	return TEST_OK;
}

#define MiB (1024UL * 1024)

/* Each byte of @p (of @len) is its offset's low byte xor @seed. */
static void fill(unsigned char *p, size_t len, unsigned char seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)i ^ seed;
}

static bool filled(const unsigned char *p, size_t len, unsigned char seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != ((unsigned char)i ^ seed))
			return false;
	return true;
}

static bool huge_aligned(const void *p)
{
	return p && !((uintptr_t)p & (2 * MiB - 1));
}

/*
 * big_zalloc()/big_realloc(): from 1 MiB on, memory starts on a huge
 * page boundary, and a resize keeps the bytes, across that size both
 * ways and within one mapping's huge pages.
 */
static int test_big_alloc(struct test_ctx *ctx)
{
	unsigned char *p = big_zalloc(3 * MiB), *q;

	TEST_ASSERT(ctx, huge_aligned(p), "3 MiB at %p: not huge page aligned",
		    p);
	TEST_ASSERT(ctx, !p[0] && !memcmp(p, p + 1, 3 * MiB - 1),
		    "fresh memory not zero");
	fill(p, 3 * MiB, 0x5a);
	q = big_realloc(p, 3 * MiB, 3 * MiB + MiB / 2);
	TEST_ASSERT(ctx, q == p, "3 -> 3.5 MiB moved, within the same huge pages");
	q = big_realloc(q, 3 * MiB + MiB / 2, 5 * MiB);
	TEST_ASSERT(ctx, huge_aligned(q) && filled(q, 3 * MiB, 0x5a),
		    "3.5 -> 5 MiB: not aligned or bytes lost");
	fill(q, 5 * MiB, 0x33);
	p = big_realloc(q, 5 * MiB, 100 << 10);
	TEST_ASSERT(ctx, p && filled(p, 100 << 10, 0x33),
		    "5 MiB -> 100 KiB: bytes lost");
	/* Under 1 MiB, then 1 MiB: a huge page of its own. */
	q = big_realloc(p, 100 << 10, 512 << 10);
	TEST_ASSERT(ctx, q, "100 -> 512 KiB failed");
	fill(q, 512 << 10, 0x77);
	p = big_realloc(q, 512 << 10, MiB);
	TEST_ASSERT(ctx, huge_aligned(p) && filled(p, 512 << 10, 0x77),
		    "512 KiB -> 1 MiB at %p: not aligned or bytes lost", p);
	q = big_realloc(p, MiB, 2 * MiB);
	TEST_ASSERT(ctx, q == p, "1 -> 2 MiB moved, within the same huge page");
	fill(q, 2 * MiB, 0x11);
	big_free(q, 2 * MiB);
	return TEST_OK;
}

/* Percentages as printf() prints them, @width 0 or 7. */
static int check_pct(struct test_ctx *ctx, double d, int width)
{
	char ours[32], libc[32];

	hists__format_pct(ours, width, d);
	snprintf(libc, sizeof(libc), "%*.2f", width, d);
	TEST_ASSERT(ctx, !strcmp(ours, libc), "%.20g: '%s', printf '%s'",
		    d, ours, libc);
	return 0;
}

/*
 * The row's percentages: exact ties of hundredths (k/8 and k/200), the
 * doubles next to every half hundredth (0.165 is just above its tie,
 * 0.145 just below), and ratios of random periods.
 */
static int check_pct_format(struct test_ctx *ctx)
{
	u64 seed = 42, v, total;
	int k, i;

	for (k = 0; k <= 80000; k++) {
		double tie = k * 0.005;

		if (check_pct(ctx, k / 8.0, 7) || check_pct(ctx, k / 200.0, 0) ||
		    check_pct(ctx, tie, 7) ||
		    check_pct(ctx, nextafter(tie, 0), 7) ||
		    check_pct(ctx, nextafter(tie, 1e9), 0))
			return TEST_FAIL;
	}
	for (i = 0; i < 200000; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		total = (seed >> 20) % (i % 2 ? 1000003 : 10000000000ULL) + 1;
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		v = (seed >> 11) % (total + 1);
		if (check_pct(ctx, 100.0 * v / total, i % 3 ? 7 : 0))
			return TEST_FAIL;
	}
	return 0;
}

int test__hists(struct test_ctx *ctx)
{
	struct hists_config cfg = { .graph_min_pct = 0.5 };
	const struct hist_frame ca[] = { fa, fm }, cb[] = { fb, fm },
				cl[] = { fl, fm };
	struct hists h;
	char *out;

	/* A structure whose arena could not be made allocates nothing. */
	TEST_ASSERT(ctx, !arena__alloc(NULL, 8) && !arena__strdup(NULL, "x"),
		    "allocated from no arena");
	if (test_big_alloc(ctx))
		return TEST_FAIL;
	sort_keys__parse("comm,dso,sym", &cfg);
	TEST_ASSERT(ctx, cfg.nr_keys == 3, "sort keys");
	TEST_ASSERT(ctx, sort_keys__parse("comm,bogus", &cfg) != 0,
		    "bad key accepted");
	sort_keys__parse("comm,dso,sym", &cfg);
	hists__init(&h, &cfg);
	add(&h, "work", &fa, ca, 2, 500);
	add(&h, "work", &fa, ca, 2, 100);
	add(&h, "work", &fb, cb, 2, 300);
	add(&h, "work", &fl, cl, 2, 100);
	TEST_ASSERT(ctx, h.nr_entries == 3 && h.total_period == 1000,
		    "%zu entries, total %llu", h.nr_entries,
		    (unsigned long long)h.total_period);
	out = render(&h);
	pr_test(ctx, "%s", out);
	TEST_ASSERT(ctx, strstr(out, "# Samples: 4  of event 'cycles'") &&
		    strstr(out, "# Event count (approx.): 1000"), "preamble");
	/* Units as Linux perf: only above 1000 is divided by 1000. */
	h.nr_samples = 1000;
	TEST_ASSERT(ctx, strstr(render(&h), "# Samples: 1000  of"), "1000");
	h.nr_samples = 1999;
	TEST_ASSERT(ctx, strstr(render(&h), "# Samples: 1K of"), "1999");
	h.nr_samples = 1000000;
	TEST_ASSERT(ctx, strstr(render(&h), "# Samples: 1000K of"), "1000000");
	h.nr_samples = 2500000;
	TEST_ASSERT(ctx, strstr(render(&h), "# Samples: 2M of"), "2500000");
	h.nr_samples = 4;
	out = render(&h);
	TEST_ASSERT(ctx, strstr(out, "    60.00%  work     dso_main       [.] hot_a\n"),
		    "hot_a row: %s", out);
	TEST_ASSERT(ctx, strstr(out, "hot_a") < strstr(out, "hot_b") &&
		    strstr(out, "hot_b") < strstr(out, "lib_loop"), "order");
	hists__exit(&h);

	/* Children: main is on every chain, so it gets 100% and no self. */
	cfg.children = true;
	cfg.callchain = true;
	cfg.order = CALLCHAIN_CALLER;
	hists__init(&h, &cfg);
	add(&h, "work", &fa, ca, 2, 600);
	add(&h, "work", &fb, cb, 2, 300);
	add(&h, "work", &fl, cl, 2, 100);
	out = render(&h);
	pr_test(ctx, "%s", out);
	TEST_ASSERT(ctx, strstr(out, "   100.00%     0.00%  work     dso_main       [.] main\n"),
		    "children row: %s", out);
	TEST_ASSERT(ctx, strstr(out, "            ---main\n               |          \n"
				"               |--60.00%--hot_a\n"),
		    "graph fork: %s", out);
	TEST_ASSERT(ctx, strstr(out, "                --10.00%--lib_loop\n"),
		    "last branch: %s", out);
	hists__exit(&h);

	/* --percent-limit hides small entries. */
	cfg.children = false;
	cfg.callchain = false;
	cfg.percent_limit = 20;
	hists__init(&h, &cfg);
	add(&h, "work", &fa, NULL, 0, 900);
	add(&h, "work", &fl, NULL, 0, 100);
	out = render(&h);
	TEST_ASSERT(ctx, strstr(out, "hot_a") && !strstr(out, "lib_loop"),
		    "percent limit: %s", out);
	hists__exit(&h);
	if (check_pct_format(ctx))
		return TEST_FAIL;
	if (check_dso_size(ctx) || check_decay(ctx) || check_named_later(ctx) ||
	    check_graph_for_text(ctx) || check_entry_order(ctx) ||
	    check_spread(ctx))
		return TEST_FAIL;
	return check_copies(ctx);
}

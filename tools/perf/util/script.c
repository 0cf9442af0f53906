// SPDX-License-Identifier: GPL-2.0
/*
 * perf script: print the samples of a session, one line each (plus
 * their call chains), in the layout of Linux perf script.
 *
 * The field sets and their checks against the attrs are settled once,
 * when the first kernel record arrives (a pipe only knows its attrs by
 * then); after that each sample is resolved and printed with no
 * allocation: the output goes through stdio's buffer, tracepoint text
 * through one reused trace_seq.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <event-parse.h>
#include <perf/cpumap.h>
#include "dump.h"
#include "regs.h"
#include "script.h"
#include "trace-data.h"

#define SCRIPT_DEFAULT_MAX_STACK 127

/*
 * Every field name Linux perf script accepts.  Those this perf does not
 * print have no bit (-1): naming one is an error rather than a silent
 * gap in the output.
 */
static const struct {
	const char *name;
	int bit;
} field_names[] = {
	{ "comm", SF_COMM }, { "tid", SF_TID }, { "pid", SF_PID },
	{ "time", SF_TIME }, { "cpu", SF_CPU }, { "event", SF_EVENT },
	{ "trace", SF_TRACE }, { "ip", SF_IP }, { "sym", SF_SYM },
	{ "dso", SF_DSO }, { "addr", SF_ADDR }, { "symoff", SF_SYMOFF },
	{ "srcline", -1 }, { "period", SF_PERIOD }, { "iregs", SF_IREGS },
	{ "uregs", SF_UREGS }, { "brstack", -1 }, { "brstacksym", -1 },
	{ "flags", SF_FLAGS }, { "data_src", -1 }, { "weight", SF_WEIGHT },
	{ "bpf-output", -1 }, { "brstackinsn", -1 },
	{ "brstackinsnlen", -1 }, { "brstackoff", -1 },
	{ "callindent", SF_CALLINDENT }, { "insn", -1 }, { "insnlen", -1 },
	{ "synth", -1 }, { "phys_addr", SF_PHYS_ADDR }, { "metric", -1 },
	{ "misc", SF_MISC }, { "srccode", -1 }, { "ipc", -1 },
	{ "tod", SF_TOD }, { "data_page_size", -1 },
	{ "code_page_size", -1 }, { "ins_lat", -1 }, { "machine_pid", -1 },
	{ "vcpu", -1 },
};

static const char * const kind_names[SK_NR] = {
	[SK_HW] = "hw", [SK_SW] = "sw", [SK_TRACE] = "trace",
	[SK_CACHE] = "cache", [SK_RAW] = "raw", [SK_BREAK] = "break",
	[SK_OTHER] = "other",
};

/* How Linux perf names the kinds in its messages. */
static const char * const kind_words[SK_NR] = {
	[SK_HW] = "hardware", [SK_SW] = "software", [SK_TRACE] = "tracepoint",
	[SK_CACHE] = "hardware cache", [SK_RAW] = "raw",
	[SK_BREAK] = "hardware breakpoint", [SK_OTHER] = "unknown",
};

/* What each attr needs while printing, settled at setup. */
struct script_attr {
	int kind;
	bool chain;		/* its samples' call chains are shown */
	struct tep_event *tp;	/* tracepoint format, or NULL */
};

static const char *field_name(int bit)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(field_names); i++)
		if (field_names[i].bit == bit)
			return field_names[i].name;
	return "?";
}

static int attr_kind(const struct perf_counter_attr *attr)
{
	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		return SK_HW;
	case PERF_TYPE_SOFTWARE:
		return SK_SW;
	case PERF_TYPE_TRACEPOINT:
		return SK_TRACE;
	case PERF_TYPE_HW_CACHE:
		return SK_CACHE;
	case PERF_TYPE_RAW:
		return SK_RAW;
	case PERF_TYPE_BREAKPOINT:
		return SK_BREAK;
	default:
		return SK_OTHER;
	}
}

void script__init_opts(struct script_opts *o)
{
	u64 common = SF(COMM) | SF(TID) | SF(CPU) | SF(TIME) | SF(EVENT);
	u64 ips = SF(IP) | SF(SYM) | SF(SYMOFF) | SF(DSO) | SF(PERIOD);
	int k;

	for (k = 0; k < SK_NR; k++) {
		o->kind[k].fields = common | ips;
		o->kind[k].invalid = SF(TRACE);
	}
	o->kind[SK_TRACE].fields = common | SF(TRACE);
	o->kind[SK_TRACE].invalid = 0;
	/* Raw PMU events are often memory samples: show what they carry. */
	o->kind[SK_RAW].fields |= SF(ADDR) | SF(WEIGHT) | SF(PHYS_ADDR);
}

static int field_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(field_names); i++)
		if (!strcmp(field_names[i].name, name))
			return i;
	return -1;
}

/* "hw:" and friends, as Linux perf spells them. */
static int kind_lookup(const char *name)
{
	int k;

	for (k = 0; k < SK_NR; k++)
		if (k != SK_CACHE && k != SK_OTHER && !strcmp(kind_names[k], name))
			return k;
	return -1;
}

/* Change @bit in kind @k as one -F item says. */
static void apply_field(struct script_fields *f, int bit, bool remove)
{
	if (remove) {
		f->fields &= ~(1ULL << bit);
		f->explicit &= ~(1ULL << bit);
	} else {
		f->fields |= 1ULL << bit;
		f->explicit |= 1ULL << bit;
	}
	f->user_set = true;
}

/* One item of a -F list for every kind (no "kind:" prefix). */
static void apply_all(struct script_opts *o, int idx, bool remove)
{
	int bit = field_names[idx].bit, k;

	for (k = 0; k < SK_NR; k++) {
		if (o->kind[k].invalid & (1ULL << bit)) {
			if (k != SK_CACHE && k != SK_OTHER)
				fprintf(stderr, "'%s' not valid for %s events. Ignoring.\n",
					field_names[idx].name, kind_words[k]);
			continue;
		}
		apply_field(&o->kind[k], bit, remove);
	}
}

enum change { CHANGE_NONE, CHANGE_SET, CHANGE_ADD, CHANGE_REMOVE };

/*
 * The items of one -F list.  Plain names replace the set (already
 * cleared by the caller), +name and -name edit it; the two ways do not
 * mix in one list.
 */
static int parse_items(struct script_opts *o, char *list, int kind,
		       char *err, size_t errlen)
{
	enum change change = CHANGE_NONE;
	char *tok, *save = NULL;

	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		enum change c = *tok == '+' ? CHANGE_ADD :
				*tok == '-' ? CHANGE_REMOVE : CHANGE_SET;
		int idx;

		if (c != CHANGE_SET)
			tok++;
		/* Plain names and +/- edits do not mix in one list. */
		if (change != CHANGE_NONE && change != c &&
		    (change == CHANGE_SET || c == CHANGE_SET)) {
			snprintf(err, errlen, "cannot mix +field/-field with a plain field list");
			return -EINVAL;
		}
		change = c;
		idx = field_lookup(tok);
		if (idx < 0) {
			snprintf(err, errlen, "unknown field '%s' (see perf script --help)",
				 tok);
			return -EINVAL;
		}
		if (field_names[idx].bit < 0) {
			snprintf(err, errlen, "field '%s' is not supported by this perf",
				 tok);
			return -EINVAL;
		}
		if (kind >= 0 && (o->kind[kind].invalid & (1ULL << field_names[idx].bit))) {
			snprintf(err, errlen, "'%s' not valid for %s events",
				 tok, kind_words[kind]);
			return -EINVAL;
		}
		if (kind < 0)
			apply_all(o, idx, c == CHANGE_REMOVE);
		else
			apply_field(&o->kind[kind], field_names[idx].bit,
				    c == CHANGE_REMOVE);
	}
	return 0;
}

/* The kind a -F argument is for ("trace:..."), -1 for all, or an error. */
static int parse_kind(char *arg, char **list, char *err, size_t errlen)
{
	char *colon = strchr(arg, ':');
	int kind;

	*list = arg;
	if (!colon)
		return -1;
	*colon = '\0';
	*list = colon + 1;
	kind = kind_lookup(arg);
	if (kind < 0)
		snprintf(err, errlen, "unknown event type '%s' in -F (hw, sw, trace, raw, break)",
			 arg);
	return kind < 0 ? -EINVAL : kind;
}

int script__parse_fields(struct script_opts *o, const char *arg,
			 char *err, size_t errlen)
{
	char *str = strdup(arg), *list;
	bool edit;
	int kind, k, ret;

	if (!str)
		return -ENOMEM;
	kind = parse_kind(str, &list, err, errlen);
	ret = kind == -EINVAL ? -EINVAL : 0;
	if (!ret && kind < 0 && !*list) {
		snprintf(err, errlen, "cannot set the fields of every event type to none");
		ret = -EINVAL;
	}
	edit = strchr(list, '+') || strchr(list, '-');
	/* A plain list replaces the defaults; +/- edits them. */
	for (k = 0; !ret && !edit && k < SK_NR; k++) {
		if (kind >= 0 && k != kind)
			continue;
		o->kind[k].fields = 0;
		o->kind[k].explicit = 0;
		o->kind[k].user_set = true;
	}
	if (!ret)
		ret = parse_items(o, list, kind, err, errlen);
	free(str);
	return ret;
}

/* ---- setup: the fields against what the data holds ---- */

/*
 * A field whose data the samples lack: an error when -F named it,
 * else it leaves the default set quietly, as in Linux perf.
 */
static int need_bits(struct script_fields *f, const struct perf_session_attr *a,
		     int bit, u64 sample_bits, const char *what)
{
	if (!(f->fields & (1ULL << bit)) || (a->attr.sample_type & sample_bits))
		return 0;
	if (f->explicit & (1ULL << bit)) {
		fprintf(stderr, "Samples for '%s' event do not have %s attribute set. Cannot print '%s' field.\n",
			a->name, what, field_name(bit));
		return -EINVAL;
	}
	f->fields &= ~(1ULL << bit);
	return 0;
}

static int check_addr_fields(struct script_fields *f,
			     const struct perf_session_attr *a)
{
	u64 st = a->attr.sample_type;

	if ((f->fields & SF(SYM)) && !(st & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR))) {
		fprintf(stderr, "'%s' has neither sample IP nor address: no symbols to show (drop 'sym').\n",
			a->name);
		return -EINVAL;
	}
	if ((f->fields & SF(SYMOFF)) && !(f->fields & SF(SYM))) {
		fprintf(stderr, "'symoff' needs 'sym': add it to -F.\n");
		return -EINVAL;
	}
	if ((f->fields & SF(DSO)) && !(st & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR))) {
		fprintf(stderr, "'%s' has neither sample IP nor address: no object to show (drop 'dso').\n",
			a->name);
		return -EINVAL;
	}
	return 0;
}

/* Linux perf checks the first attr of each kind, and so do we. */
static int check_kind(struct script_fields *f, const struct perf_session_attr *a)
{
	if (need_bits(f, a, SF_IP, PERF_SAMPLE_IP, "IP") ||
	    need_bits(f, a, SF_ADDR, PERF_SAMPLE_ADDR, "ADDR") ||
	    need_bits(f, a, SF_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT,
		      "WEIGHT") ||
	    check_addr_fields(f, a))
		return -EINVAL;
	if ((f->fields & (SF(PID) | SF(TID))) &&
	    !(a->attr.sample_type & PERF_SAMPLE_TID)) {
		if (need_bits(f, a, SF_PID, PERF_SAMPLE_TID, "TID") ||
		    need_bits(f, a, SF_TID, PERF_SAMPLE_TID, "TID"))
			return -EINVAL;
	}
	if (need_bits(f, a, SF_TIME, PERF_SAMPLE_TIME, "TIME") ||
	    need_bits(f, a, SF_CPU, PERF_SAMPLE_CPU, "CPU") ||
	    need_bits(f, a, SF_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR") ||
	    need_bits(f, a, SF_IREGS, PERF_SAMPLE_REGS_INTR, "IREGS") ||
	    need_bits(f, a, SF_UREGS, PERF_SAMPLE_REGS_USER, "UREGS"))
		return -EINVAL;
	return 0;
}

static int setup_tracepoints(struct script *sc)
{
	struct perf_session *s = sc->session;
	u32 i;

	if (!(sc->opts.kind[SK_TRACE].fields & SF(TRACE)))
		return 0;
	for (i = 0; i < s->nr_attrs; i++)
		if (s->attrs[i].attr.type == PERF_TYPE_TRACEPOINT)
			break;
	if (i == s->nr_attrs)
		return 0;
	if (trace_data__from_session(s, "perf script", &sc->tep))
		return -EINVAL;
	if (!sc->tep) {
		fprintf(stderr, "perf script: %s has tracepoint events but no tracing data: their fields cannot be shown (drop 'trace' with -F trace:-trace)\n",
			s->name);
		return -EINVAL;
	}
	sc->seq = calloc(1, sizeof(struct trace_seq));
	if (!sc->seq)
		return -ENOMEM;
	trace_seq_init(sc->seq);
	return 0;
}

/*
 * With call chains shown, tracepoints whose samples have them print
 * where they fired, unless -F chose their fields.
 */
static void chain_defaults(struct script *sc, bool chains)
{
	struct script_fields *tf = &sc->opts.kind[SK_TRACE];
	struct perf_session *s = sc->session;
	u32 i;

	if (!chains || tf->user_set)
		return;
	for (i = 0; i < s->nr_attrs; i++)
		if (s->attrs[i].attr.type == PERF_TYPE_TRACEPOINT &&
		    (s->attrs[i].attr.sample_type & PERF_SAMPLE_CALLCHAIN))
			tf->fields |= SF(IP) | SF(SYM) | SF(SYMOFF) | SF(DSO);
}

static int check_fields(struct script *sc)
{
	struct perf_session *s = sc->session;
	bool checked[SK_NR] = { false }, tod = false;
	u32 i;

	for (i = 0; i < s->nr_attrs; i++) {
		int k = attr_kind(&s->attrs[i].attr);

		if (checked[k])
			continue;
		checked[k] = true;
		if (sc->opts.kind[k].fields && check_kind(&sc->opts.kind[k], &s->attrs[i]))
			return -EINVAL;
		tod |= !!(sc->opts.kind[k].fields & SF(TOD));
	}
	if (tod && !s->tod.valid) {
		fprintf(stderr, "perf script: %s has no clock data, so no time of day ('tod'): record with --tod or -k/--clockid\n",
			s->name);
		return -EINVAL;
	}
	return 0;
}

/*
 * --tod, and files recorded with --tod: the time of day goes before
 * the time, as -F +tod puts it, in the kinds -F did not set; --no-tod
 * takes it out of those.
 */
static int tod_defaults(struct script *sc)
{
	struct perf_session *s = sc->session;
	int show = tod_show(&sc->opts.tod, &s->tod, "perf script", s->name);
	int k;

	if (show < 0)
		return show;
	for (k = 0; k < SK_NR; k++) {
		struct script_fields *f = &sc->opts.kind[k];

		if (f->user_set && sc->opts.tod.show == TOD_SHOW_AUTO)
			continue;
		if (show && (f->fields & SF(TIME)))
			f->fields |= SF(TOD);
		else if (!show)
			f->fields &= ~SF(TOD);
	}
	return 0;
}

static void setup_attrs(struct script *sc, bool chains)
{
	struct perf_session *s = sc->session;
	u32 i;

	for (i = 0; i < s->nr_attrs; i++) {
		struct script_attr *a = &sc->attrs[i];
		const struct perf_counter_attr *attr = &s->attrs[i].attr;
		int len = strlen(s->attrs[i].name);

		a->kind = attr_kind(attr);
		a->chain = chains && (attr->sample_type & PERF_SAMPLE_CALLCHAIN);
		if (sc->tep && attr->type == PERF_TYPE_TRACEPOINT)
			a->tp = tep_find_event(sc->tep, attr->config);
		if (len > sc->name_width)
			sc->name_width = len;
	}
}

static int setup_cpus(struct script *sc)
{
	if (!sc->opts.cpus)
		return 0;
	sc->cpus = perf_cpu_map__parse(sc->opts.cpus);
	if (!sc->cpus) {
		fprintf(stderr, "perf script: bad --cpu list '%s' (e.g. 0,2-3)\n",
			sc->opts.cpus);
		return -EINVAL;
	}
	return 0;
}

/* Once the attrs are all known: what each one prints. */
static int script_setup(struct script *sc)
{
	struct perf_session *s = sc->session;
	bool chains = false;
	u32 i;

	sc->ready = true;
	for (i = 0; i < s->nr_attrs; i++)
		chains |= !!(s->attrs[i].attr.sample_type & PERF_SAMPLE_CALLCHAIN);
	chains &= !sc->opts.hide_callchain;
	if (tod_defaults(sc) || check_fields(sc) || setup_tracepoints(sc) || setup_cpus(sc))
		return -EINVAL;
	chain_defaults(sc, chains);
	sc->attrs = calloc(s->nr_attrs ? s->nr_attrs : 1, sizeof(*sc->attrs));
	if (!sc->attrs)
		return -ENOMEM;
	sc->nr_attrs = s->nr_attrs;
	setup_attrs(sc, chains);
	return 0;
}

/* ---- printing ---- */

static bool cpu_filtered(const struct script *sc, u32 cpu)
{
	if (!sc->cpus || cpu == (u32)-1)
		return false;
	return !perf_cpu_map__has(sc->cpus, cpu);
}

static void print_tod(struct script *sc, u64 time)
{
	u64 ns = tod_of(&sc->session->tod, time);
	time_t sec = ns / 1000000000;
	char date[64];
	struct tm tm;

	if (!localtime_r(&sec, &tm)) {
		fputs("failed ", sc->out);
		return;
	}
	strftime(date, sizeof(date), "%F %H:%M:%S", &tm);
	if (sc->opts.ns)
		fprintf(sc->out, "%s.%09llu ", date, ns % 1000000000);
	else
		fprintf(sc->out, "%s.%06llu ", date, ns % 1000000000 / 1000);
}

static void print_time(struct script *sc, u64 t)
{
	char buf[32];

	if (sc->opts.ns) {
		fprintf(sc->out, "%5llu.%09llu: ", t / 1000000000, t % 1000000000);
		return;
	}
	snprintf(buf, sizeof(buf), "%llu.%06llu", t / 1000000000,
		 t % 1000000000 / 1000);
	fprintf(sc->out, "%12s: ", buf);
}

/* The letters of header.misc, padded to 6 columns. */
static void print_misc(struct script *sc, u16 misc, u32 type)
{
	static const struct { u16 bits; char c; } modes[] = {
		{ PERF_RECORD_MISC_KERNEL, 'K' }, { PERF_RECORD_MISC_USER, 'U' },
		{ PERF_RECORD_MISC_HYPERVISOR, 'H' },
		{ PERF_RECORD_MISC_GUEST_KERNEL, 'G' },
		{ PERF_RECORD_MISC_GUEST_USER, 'g' },
	};
	char buf[8];
	int n = 0;
	size_t i;

	/* Each mode is tested as a bit pattern, so 'K' also shows for HV. */
	for (i = 0; i < ARRAY_SIZE(modes); i++)
		if ((misc & modes[i].bits) == modes[i].bits)
			buf[n++] = modes[i].c;
	if ((type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2) &&
	    (misc & PERF_RECORD_MISC_MMAP_DATA))
		buf[n++] = 'M';
	if (type == PERF_RECORD_COMM && (misc & PERF_RECORD_MISC_COMM_EXEC))
		buf[n++] = 'E';
	buf[n] = '\0';
	fprintf(sc->out, "%s%*s", buf, 6 - n, " ");
}

/* comm, pid/tid, cpu, misc, tod and time: the start of every line. */
static void print_start(struct script *sc, const struct perf_sample *s,
			const struct thread *t, const struct script_attr *a,
			u32 type)
{
	u64 f = sc->opts.kind[a->kind].fields;
	FILE *out = sc->out;

	if (f & SF(COMM)) {
		const char *comm = t ? t->comm : ":-1";

		/* Call chain lines go below: the name is not padded. */
		if ((f & SF(IP)) && a->chain)
			fprintf(out, "%s ", comm);
		else
			fprintf(out, "%16s ", comm);
	}
	if ((f & SF(PID)) && (f & SF(TID)))
		fprintf(out, "%5d/%-5d ", (int)s->pid, (int)s->tid);
	else if (f & SF(PID))
		fprintf(out, "%5d ", (int)s->pid);
	else if (f & SF(TID))
		fprintf(out, "%5d ", (int)s->tid);
	if (f & SF(CPU))
		fprintf(out, "[%03d] ", (int)s->cpu);
	if (f & SF(MISC))
		print_misc(sc, s->misc, type);
	if (f & SF(TOD))
		print_tod(sc, s->time);
	if (f & SF(TIME))
		print_time(sc, s->time);
}

/* " sym+0xoff (dso)" of a resolved address, as the fields ask. */
static void print_sym_dso(struct script *sc, u64 f,
			  const struct addr_location *al)
{
	FILE *out = sc->out;

	if (f & SF(SYM)) {
		if (!al->sym)
			fputs(" [unknown]", out);
		else if (f & SF(SYMOFF))
			fprintf(out, " %s+0x%llx", al->sym->name,
				al->addr - al->sym->start);
		else
			fprintf(out, " %s", al->sym->name);
	}
	if (f & SF(DSO))
		fprintf(out, " (%s)", al->dso ? al->dso->long_name : "[unknown]");
}

static bool frame_shown(const struct script *sc, int *n, u8 cpumode)
{
	if (!callchain_frame_wanted(sc->opts.frames, cpumode))
		return false;
	return (*n)++ < sc->opts.max_stack;
}

/*
 * Linux perf drops a whole chain that holds a context marker it does
 * not know (a user stack walk can end in -1) among the entries it
 * reads, so none of its frames may be printed before that is known.
 */
static bool chain_valid(const struct ip_callchain *cc, int max_stack)
{
	int frames = 0;
	u64 i;

	for (i = 0; i < cc->nr && frames < max_stack; i++) {
		u64 ip = cc->ips[i];

		if (ip < PERF_CONTEXT_MAX)
			frames++;
		else if (ip != PERF_CONTEXT_HV && ip != PERF_CONTEXT_KERNEL &&
			 ip != PERF_CONTEXT_USER)
			return false;
	}
	return true;
}

/*
 * One line per frame, leaf first.  User frames show their address in
 * the object (what objdump shows), kernel frames the address itself.
 * A context marker Linux perf does not know spoils the whole chain.
 */
static void print_chain(struct script *sc, u64 f, const struct perf_sample *s,
			struct thread *t)
{
	const struct ip_callchain *cc = machine__callchain(&sc->machine, t, s);
	u8 cpumode = s->cpumode;
	int shown = 0;
	u64 i;

	if (!chain_valid(cc, sc->opts.max_stack))
		return;
	for (i = 0; i < cc->nr; i++) {
		struct addr_location al;
		int ret = machine__resolve_callchain_ip(&sc->machine, t, &cpumode,
							cc->ips[i], &al);

		if (ret < 0)
			return;
		if (ret || !frame_shown(sc, &shown, al.cpumode))
			continue;
		fprintf(sc->out, "\t%16llx", al.map ? map__map_ip(al.map, cc->ips[i]) :
			cc->ips[i]);
		print_sym_dso(sc, f, &al);
		fputc('\n', sc->out);
	}
}

static void print_trace(struct script *sc, const struct script_attr *a,
			const struct perf_sample *s)
{
	struct tep_record rec = {
		.cpu = s->cpu,
		.size = s->raw_size,
		.data = (void *)s->raw_data,
	};
	struct trace_seq *seq = sc->seq;

	if (!a->tp || !s->raw_data)
		return;
	trace_seq_reset(seq);
	tep_print_event(sc->tep, seq, &rec, "%s", TEP_PRINT_INFO);
	fwrite(seq->buffer, 1, seq->len, sc->out);
}

/* A data address, resolved where it maps to code (page faults). */
static void print_addr(struct script *sc, u64 f, const struct perf_sample *s,
		       const struct perf_session_attr *pa)
{
	const struct perf_counter_attr *attr = &pa->attr;
	struct addr_location al;

	fprintf(sc->out, "%16llx", s->addr);
	if (attr->type != PERF_TYPE_SOFTWARE ||
	    (attr->config != PERF_COUNT_SW_PAGE_FAULTS &&
	     attr->config != PERF_COUNT_SW_PAGE_FAULTS_MIN &&
	     attr->config != PERF_COUNT_SW_PAGE_FAULTS_MAJ))
		return;
	machine__resolve(&sc->machine, s->pid, s->tid, s->cpumode, s->addr, &al);
	print_sym_dso(sc, f & ~SF(SYMOFF), &al);
}

static void print_ip(struct script *sc, u64 f, const struct script_attr *a,
		     const struct perf_sample *s, struct addr_location *al)
{
	if (a->chain && s->callchain) {
		fputc('\n', sc->out);
		print_chain(sc, f, s, al->thread);
		return;
	}
	fprintf(sc->out, " %16llx", s->ip);
	print_sym_dso(sc, f, al);
}

static void print_sample(struct script *sc, const struct perf_sample *s,
			 const struct perf_session_attr *pa,
			 struct addr_location *al)
{
	const struct script_attr *a = &sc->attrs[pa->idx];
	u64 f = sc->opts.kind[a->kind].fields;
	FILE *out = sc->out;

	if (!f)
		return;
	print_start(sc, s, al->thread, a, PERF_RECORD_SAMPLE);
	if (f & SF(PERIOD))
		fprintf(out, "%10llu ", s->period);
	if (f & SF(EVENT))
		fprintf(out, "%*s: ", sc->name_width, pa->name);
	/* Branch flags: never set outside of branch traces. */
	if (f & SF(FLAGS))
		fprintf(out, "  %-21s ", "");
	if (f & SF(TRACE))
		print_trace(sc, a, s);
	if (f & SF(ADDR))
		print_addr(sc, f, s, pa);
	if (f & SF(WEIGHT))
		fprintf(out, "%16llu", s->weight);
	if (f & SF(IP))
		print_ip(sc, f, a, s, al);
	if (f & SF(IREGS))
		regs__fprintf(&s->intr_regs, out);
	if (f & SF(UREGS))
		regs__fprintf(&s->user_regs, out);
	if (f & SF(PHYS_ADDR))
		fprintf(out, "%16llx", s->phys_addr);
	fputc('\n', out);
}

/* ---- filters ---- */

static bool thread_hidden(const struct script *sc, const struct thread *t)
{
	const struct report_filter *f = &sc->opts.filter;

	if (f->comms && !report__list_has_str(f->comms, t->comm))
		return true;
	if (f->pids && !report__list_has_num(f->pids, t->pid))
		return true;
	return f->tids && !report__list_has_num(f->tids, t->tid);
}

/* -S: a symbol's name, or its start address as 0x..., is listed. */
static bool symbol_hidden(const struct script *sc,
			  const struct addr_location *al)
{
	char addr[32];

	if (!sc->opts.symbols)
		return false;
	if (!al->sym)
		return true;
	if (report__list_has_str(sc->opts.symbols, al->sym->name))
		return false;
	snprintf(addr, sizeof(addr), "%#llx", map__unmap_ip(al->map, al->sym->start));
	return !report__list_has_str(sc->opts.symbols, addr);
}

static bool sample_hidden(const struct script *sc, const struct perf_sample *s,
			  const struct addr_location *al)
{
	const struct report_filter *f = &sc->opts.filter;

	if (thread_hidden(sc, al->thread))
		return true;
	if (f->dsos && (!al->dso ||
			(!report__list_has_str(f->dsos, al->dso->short_name) &&
			 !report__list_has_str(f->dsos, al->dso->long_name))))
		return true;
	return symbol_hidden(sc, al);
}

static int script_sample(struct script *sc, const struct perf_sample *s,
			 const struct perf_session_attr *pa)
{
	const struct report_filter *f = &sc->opts.filter;
	struct addr_location al;

	if ((f->time_start && s->time < f->time_start) ||
	    (f->time_end && s->time > f->time_end))
		return 0;
	if (cpu_filtered(sc, s->cpu))
		return 0;
	if (machine__resolve(&sc->machine, s->pid, s->tid, s->cpumode, s->ip, &al))
		return -ENOMEM;
	if (sample_hidden(sc, s, &al))
		return 0;
	print_sample(sc, s, pa, &al);
	return 0;
}

/* ---- side-band records ---- */

/*
 * A side-band line: the start of a sample line for the record's own
 * task, then the record as the raw dump describes it.  Without
 * sample_id_all the record has no time, CPU or task of its own.
 */
static void print_sideband(struct script *sc, const union perf_event *ev,
			   const struct perf_sample *sample,
			   const struct perf_session_attr *pa,
			   s32 pid, s32 tid, u64 time)
{
	struct perf_sample s = *sample;
	struct thread *t = NULL;

	/* Synthesized records carry id 0: they go with the first event. */
	if (!pa && sc->session->nr_attrs)
		pa = &sc->session->attrs[0];
	if (pa && !pa->attr.sample_id_all) {
		s.cpu = 0;
		s.time = time;
		s.pid = pid;
		s.tid = tid;
	}
	if (cpu_filtered(sc, s.cpu))
		return;
	if (tid != -1)
		t = machine__findnew_thread(&sc->machine, pid, tid);
	if (pa)
		print_start(sc, &s, t, &sc->attrs[pa->idx], ev->header.type);
	perf_dump__describe(sc->out, ev, sample, pa);
}

static int script_sideband(struct script *sc, const union perf_event *ev,
			   const struct perf_sample *s,
			   const struct perf_session_attr *pa)
{
	const struct script_opts *o = &sc->opts;
	u32 type = ev->header.type;
	int err;

	/* An exit is shown while the task is still there. */
	if (type == PERF_RECORD_EXIT) {
		if (o->show_task)
			print_sideband(sc, ev, s, pa, ev->fork.pid,
				       ev->fork.tid, ev->fork.time);
		return machine__process_event(&sc->machine, ev, s);
	}
	err = machine__process_event(&sc->machine, ev, s);
	if (err)
		return err;
	if (type == PERF_RECORD_FORK && o->show_task)
		print_sideband(sc, ev, s, pa, ev->fork.pid, ev->fork.tid,
			       ev->fork.time);
	else if (type == PERF_RECORD_COMM && o->show_task)
		print_sideband(sc, ev, s, pa, ev->comm.pid, ev->comm.tid, 0);
	else if ((type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2) &&
		 o->show_mmap)
		print_sideband(sc, ev, s, pa, ev->mmap.pid, ev->mmap.tid, 0);
	return 0;
}

static int script_lost(struct script *sc, const union perf_event *ev,
		       const struct perf_sample *s,
		       const struct perf_session_attr *pa)
{
	if (ev->header.type == PERF_RECORD_LOST)
		sc->lost_chunks++;
	if (sc->opts.show_lost && s && ev->header.type == PERF_RECORD_LOST)
		print_sideband(sc, ev, s, pa, s->pid, s->tid, 0);
	return 0;
}

static int script_event(struct perf_session *ps, const union perf_event *ev,
			u64 offset, const struct perf_sample *sample,
			struct perf_session_attr *attr, void *ctx)
{
	struct script *sc = ctx;

	if (ev->header.type >= PERF_RECORD_USER_TYPE_START)
		return 0;
	if (!sc->ready && script_setup(sc))
		return -EINVAL;
	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		if (!attr || !sample)
			return 0;
		return script_sample(sc, sample, attr);
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		return script_lost(sc, ev, sample, attr);
	default:
		return script_sideband(sc, ev, sample, attr);
	}
}

int script__run(struct script *sc, struct perf_session *s, FILE *out)
{
	int err;

	sc->session = s;
	sc->out = out;
	if (!sc->opts.max_stack)
		sc->opts.max_stack = SCRIPT_DEFAULT_MAX_STACK;
	if (machine__init(&sc->machine))
		return -ENOMEM;
	report__set_build_ids(s);
	/* A file knows its attrs now: check the fields before any output. */
	if (!s->pipe && script_setup(sc))
		return -EINVAL;
	err = perf_session__for_each_event_ordered(s, script_event, sc);
	if (err == -EINVAL && !perf_session__error(s)[0])
		return err;
	if (!sc->ready && err >= 0 && script_setup(sc))
		return -EINVAL;
	if (sc->lost_chunks)
		fprintf(stderr, "Warning:\nProcessed %llu events and lost %llu chunks!\n\nCheck IO/CPU overload!\n\n",
			(unsigned long long)s->stats.nr_events[0],
			(unsigned long long)sc->lost_chunks);
	return err;
}

void script__exit(struct script *sc)
{
	if (sc->seq) {
		trace_seq_destroy(sc->seq);
		free(sc->seq);
	}
	if (sc->tep)
		tep_free(sc->tep);
	free(sc->attrs);
	perf_cpu_map__put(sc->cpus);
	if (sc->session)
		machine__exit(&sc->machine);
}

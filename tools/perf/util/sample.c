// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding samples and the sample_id_all trailer of other records.
 *
 * The kernel writes the fields selected by sample_type in a fixed order;
 * every length is checked against the record size so that a corrupt
 * file cannot make us read past the record.
 */
#include <errno.h>
#include <string.h>
#include "event.h"

struct cursor {
	const u64 *p;
	const u64 *end;
};

static int cur_take(struct cursor *c, u64 *out)
{
	if (c->p >= c->end)
		return -EINVAL;
	*out = *c->p++;
	return 0;
}

static int cur_skip(struct cursor *c, u64 n)
{
	if (n > (u64)(c->end - c->p))
		return -EINVAL;
	c->p += n;
	return 0;
}

/* Two u32 in one u64 slot, first in the low address. */
static int cur_take_pair(struct cursor *c, u32 *a, u32 *b)
{
	const u32 *p = (const u32 *)c->p;

	if (c->p >= c->end)
		return -EINVAL;
	*a = p[0];
	*b = p[1];
	c->p++;
	return 0;
}

static int parse_read(struct cursor *c, u64 read_format, struct perf_sample *s)
{
	u64 nr = 1, per = 1, head = 0;
	const u64 *start = c->p;

	if (read_format & PERF_FORMAT_ID)
		per++;
	if (read_format & PERF_FORMAT_LOST)
		per++;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		head++;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		head++;
	if (read_format & PERF_FORMAT_GROUP) {
		if (cur_take(c, &nr) || nr > 0xffff)
			return -EINVAL;
		if (cur_skip(c, head + nr * per))
			return -EINVAL;
	} else if (cur_skip(c, head + per)) {
		return -EINVAL;
	}
	s->read_data = start;
	s->read_size = (c->p - start) * sizeof(u64);
	return 0;
}

static int parse_raw(struct cursor *c, struct perf_sample *s)
{
	const u32 *p = (const u32 *)c->p;
	u64 bytes;

	if (c->p >= c->end)
		return -EINVAL;
	s->raw_size = p[0];
	s->raw_data = p + 1;
	/* The u32 size and the data are padded together to 8 bytes. */
	bytes = PERF_ALIGN8((u64)s->raw_size + sizeof(u32));
	return cur_skip(c, bytes / sizeof(u64));
}

static int parse_branch_stack(struct cursor *c, u64 branch_sample_type)
{
	u64 nr;

	if (cur_take(c, &nr) || nr > 0xffff)
		return -EINVAL;
	if ((branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) &&
	    cur_skip(c, 1))
		return -EINVAL;
	return cur_skip(c, nr * 3);	/* from, to, flags */
}

/* An abi word, then (abi not 0) one u64 per bit of @mask, lowest first. */
static int parse_regs(struct cursor *c, u64 mask, struct perf_sample_regs *r)
{
	if (cur_take(c, &r->abi))
		return -EINVAL;
	if (!r->abi)
		return 0;
	r->mask = mask;
	r->regs = c->p;
	return cur_skip(c, regs_mask_weight(mask));
}

/*
 * A size, then (size not 0) size bytes copied from the user stack
 * pointer up and dyn_size, how many of them the kernel could copy.  A
 * dyn_size past size is a lie: none of the copy is trusted then.
 */
static int parse_stack_user(struct cursor *c, struct perf_sample *s)
{
	const void *data;
	u64 size, dyn;

	if (cur_take(c, &size) || (size & 7))
		return -EINVAL;
	if (!size)
		return 0;
	data = c->p;
	if (cur_skip(c, size / 8) || cur_take(c, &dyn))
		return -EINVAL;
	s->user_stack = data;
	s->user_stack_size = dyn <= size ? dyn : 0;
	s->user_stack_bad = dyn > size;
	return 0;
}

/* A u64 field: taken where @present, else @absent. */
static int take_or(struct cursor *c, bool present, u64 *out, u64 absent)
{
	if (present)
		return cur_take(c, out);
	*out = absent;
	return 0;
}

static int parse_regs_or_none(struct cursor *c, bool present, u64 mask,
			      struct perf_sample_regs *r)
{
	r->abi = 0;
	r->mask = 0;
	r->regs = NULL;
	return present ? parse_regs(c, mask, r) : 0;
}

/* The fields after PERIOD, each written once. */
static int parse_tail_each(struct cursor *c, u64 t, u64 read_format,
			   u64 branch_type, u64 regs_user, u64 regs_intr,
			   struct perf_sample *s)
{
	u64 v;

	s->read_data = NULL;
	s->read_size = 0;
	if ((t & PERF_SAMPLE_READ) && parse_read(c, read_format, s))
		return -EINVAL;
	s->callchain = NULL;
	if (t & PERF_SAMPLE_CALLCHAIN) {
		if (cur_take(c, &v) || cur_skip(c, v))
			return -EINVAL;
		s->callchain = (const void *)(c->p - v - 1);
	}
	s->raw_size = 0;
	s->raw_data = NULL;
	if ((t & PERF_SAMPLE_RAW) && parse_raw(c, s))
		return -EINVAL;
	if ((t & PERF_SAMPLE_BRANCH_STACK) &&
	    parse_branch_stack(c, branch_type))
		return -EINVAL;
	if (parse_regs_or_none(c, t & PERF_SAMPLE_REGS_USER, regs_user,
			       &s->user_regs))
		return -EINVAL;
	s->user_stack = NULL;
	s->user_stack_size = 0;
	s->user_stack_bad = false;
	if ((t & PERF_SAMPLE_STACK_USER) && parse_stack_user(c, s))
		return -EINVAL;
	if (take_or(c, t & PERF_SAMPLE_WEIGHT_TYPE, &s->weight, 0) ||
	    take_or(c, t & PERF_SAMPLE_DATA_SRC, &s->data_src, 0) ||
	    take_or(c, t & PERF_SAMPLE_TRANSACTION, &s->transaction, 0))
		return -EINVAL;
	if (parse_regs_or_none(c, t & PERF_SAMPLE_REGS_INTR, regs_intr,
			       &s->intr_regs))
		return -EINVAL;
	if (take_or(c, t & PERF_SAMPLE_PHYS_ADDR, &s->phys_addr, 0) ||
	    take_or(c, t & PERF_SAMPLE_CGROUP, &s->cgroup, 0))
		return -EINVAL;
	if ((t & PERF_SAMPLE_DATA_PAGE_SIZE) && cur_take(c, &v))
		return -EINVAL;
	if ((t & PERF_SAMPLE_CODE_PAGE_SIZE) && cur_take(c, &v))
		return -EINVAL;
	return 0;
}

/*
 * Every field written once, its default where the record lacks it:
 * zeroing the 200-byte struct first and then filling it was a third
 * of the decoding of every sample.  (Its padding is not zeroed:
 * nothing compares samples as bytes.)  Inlined into its one caller:
 * the call would cost a tenth of it.
 */
static inline __attribute__((always_inline))
int parse_each_field(const union perf_event *event, u64 t, u64 read_format,
		     u64 branch_type, u64 regs_user, u64 regs_intr,
		     struct perf_sample *s)
{
	struct cursor c;
	u32 res;

	if (event->header.size < sizeof(event->header))
		return -EINVAL;
	s->misc = event->header.misc;
	s->cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	c.p = event->array + 1;
	c.end = (const u64 *)((const char *)event + event->header.size);
	/* ID, later in the record, says the same as IDENTIFIER. */
	s->id = 0;
	if ((t & PERF_SAMPLE_IDENTIFIER) && cur_take(&c, &s->id))
		return -EINVAL;
	if (take_or(&c, t & PERF_SAMPLE_IP, &s->ip, 0))
		return -EINVAL;
	s->pid = (u32)-1;
	s->tid = (u32)-1;
	if ((t & PERF_SAMPLE_TID) && cur_take_pair(&c, &s->pid, &s->tid))
		return -EINVAL;
	if (take_or(&c, t & PERF_SAMPLE_TIME, &s->time, 0) ||
	    take_or(&c, t & PERF_SAMPLE_ADDR, &s->addr, 0))
		return -EINVAL;
	if ((t & PERF_SAMPLE_ID) && cur_take(&c, &s->id))
		return -EINVAL;
	if (take_or(&c, t & PERF_SAMPLE_STREAM_ID, &s->stream_id, 0))
		return -EINVAL;
	s->cpu = (u32)-1;
	if ((t & PERF_SAMPLE_CPU) && cur_take_pair(&c, &s->cpu, &res))
		return -EINVAL;
	if (take_or(&c, t & PERF_SAMPLE_PERIOD, &s->period, 1))
		return -EINVAL;
	return parse_tail_each(&c, t, read_format, branch_type, regs_user,
			       regs_intr, s);
}

/* What a struct zeroed first holds before a record is decoded into it. */
static void sample_zero(const union perf_event *event, struct perf_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->pid = (u32)-1;
	s->tid = (u32)-1;
	s->cpu = (u32)-1;
	s->period = 1;
	s->misc = event->header.misc;
	s->cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
}

/*
 * A record that does not decode is decoded again into a zeroed struct:
 * what it leaves is the fields before the bad one filled in, the rest
 * zero (one call site: the decoding stays inlined here).
 */
int perf_sample__parse(const union perf_event *event, u64 sample_type,
		       u64 read_format, u64 branch_sample_type,
		       u64 regs_user_mask, u64 regs_intr_mask,
		       struct perf_sample *s)
{
	bool zeroed = false;
	int err;

	for (;;) {
		err = parse_each_field(event, sample_type, read_format,
				       branch_sample_type, regs_user_mask,
				       regs_intr_mask, s);
		if (!err || zeroed)
			return err;
		sample_zero(event, s);
		zeroed = true;
	}
}

int perf_sample__parse_zeroed(const union perf_event *event, u64 sample_type,
			      u64 read_format, u64 branch_sample_type,
			      u64 regs_user_mask, u64 regs_intr_mask,
			      struct perf_sample *s)
{
	sample_zero(event, s);
	return perf_sample__parse(event, sample_type, read_format,
				  branch_sample_type, regs_user_mask,
				  regs_intr_mask, s);
}

/* The next slot for a field @t has if @bit is in it. */
static u8 layout_slot(u64 t, u64 bit, u8 *next)
{
	return (t & bit) ? (*next)++ : SAMPLE_SLOT_NONE;
}

#define SAMPLE_FIXED_FIELDS (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | \
			     PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			     PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
			     PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
			     PERF_SAMPLE_PERIOD)

void perf_sample_layout__init(struct perf_sample_layout *l, u64 t,
			      u64 read_format, u64 branch_sample_type,
			      u64 regs_user_mask, u64 regs_intr_mask)
{
	u8 next = 0, identifier;

	l->sample_type = t;
	l->read_format = read_format;
	l->branch_sample_type = branch_sample_type;
	l->regs_user_mask = regs_user_mask;
	l->regs_intr_mask = regs_intr_mask;
	identifier = layout_slot(t, PERF_SAMPLE_IDENTIFIER, &next);
	l->ip = layout_slot(t, PERF_SAMPLE_IP, &next);
	l->tid = layout_slot(t, PERF_SAMPLE_TID, &next);
	l->time = layout_slot(t, PERF_SAMPLE_TIME, &next);
	l->addr = layout_slot(t, PERF_SAMPLE_ADDR, &next);
	/* ID, later in the record, says the same as IDENTIFIER. */
	l->id = layout_slot(t, PERF_SAMPLE_ID, &next);
	if (l->id == SAMPLE_SLOT_NONE)
		l->id = identifier;
	l->stream_id = layout_slot(t, PERF_SAMPLE_STREAM_ID, &next);
	l->cpu = layout_slot(t, PERF_SAMPLE_CPU, &next);
	l->period = layout_slot(t, PERF_SAMPLE_PERIOD, &next);
	l->nr_fixed = next;
	l->simple = !(t & ~(SAMPLE_FIXED_FIELDS | PERF_SAMPLE_CALLCHAIN |
			    PERF_SAMPLE_RAW));
}

static inline u64 slot_or(const u64 *p, u8 slot, u64 absent)
{
	return slot != SAMPLE_SLOT_NONE ? p[slot] : absent;
}

/* Two u32 in slot @slot, first in the low address; -1 both if none. */
static inline void slot_pair(const u64 *p, u8 slot, u32 *a, u32 *b)
{
	const u32 *q = (const u32 *)&p[slot];

	if (slot == SAMPLE_SLOT_NONE) {
		*a = (u32)-1;
		*b = (u32)-1;
		return;
	}
	*a = q[0];
	*b = q[1];
}

/*
 * The fields after the fixed ones of a simple layout, from slot @k of
 * the @n after the header; false where they do not fit the record.
 */
static inline bool parse_simple_tail(const u64 *p, u64 k, u64 n, u64 t,
				     struct perf_sample *s)
{
	s->callchain = NULL;
	if (t & PERF_SAMPLE_CALLCHAIN) {
		if (k >= n || p[k] > n - k - 1)
			return false;
		s->callchain = (const void *)&p[k];
		k += 1 + p[k];
	}
	s->raw_size = 0;
	s->raw_data = NULL;
	if (t & PERF_SAMPLE_RAW) {
		const u32 *raw = (const u32 *)&p[k];

		/* The u32 size and the data are padded together to 8 bytes. */
		if (k >= n ||
		    PERF_ALIGN8((u64)raw[0] + sizeof(u32)) / 8 > n - k)
			return false;
		s->raw_size = raw[0];
		s->raw_data = raw + 1;
	}
	return true;
}

/* The fields a simple layout's samples never have. */
static inline void simple_absent(struct perf_sample *s)
{
	s->read_data = NULL;
	s->read_size = 0;
	s->user_regs.abi = 0;
	s->user_regs.mask = 0;
	s->user_regs.regs = NULL;
	s->user_stack = NULL;
	s->user_stack_size = 0;
	s->user_stack_bad = false;
	s->weight = 0;
	s->data_src = 0;
	s->transaction = 0;
	s->intr_regs.abi = 0;
	s->intr_regs.mask = 0;
	s->intr_regs.regs = NULL;
	s->phys_addr = 0;
	s->cgroup = 0;
}

/*
 * Whether @event is a sample of simple layout @l whose fields all fit:
 * then its call chain and raw data are in @s.  Else the general
 * decoder's checks of each field are the ones to make.
 */
static inline bool simple_fits(const union perf_event *event,
			       const struct perf_sample_layout *l,
			       struct perf_sample *s)
{
	u64 n = event->header.size / 8;

	return l->simple && !(event->header.size & 7) &&
	       n >= 1 + (u64)l->nr_fixed &&
	       parse_simple_tail(event->array + 1, l->nr_fixed, n - 1,
				 l->sample_type, s);
}

static int parse_general(const union perf_event *event,
			 const struct perf_sample_layout *l,
			 struct perf_sample *s)
{
	return perf_sample__parse(event, l->sample_type, l->read_format,
				  l->branch_sample_type, l->regs_user_mask,
				  l->regs_intr_mask, s);
}

int perf_sample__cpu_of(const union perf_event *event,
			const struct perf_sample_layout *l, u32 *cpu)
{
	struct perf_sample s;
	int err;

	if (simple_fits(event, l, &s)) {
		*cpu = l->cpu != SAMPLE_SLOT_NONE ?
		       (u32)event->array[1 + l->cpu] : (u32)-1;
		return 0;
	}
	err = parse_general(event, l, &s);
	*cpu = s.cpu;
	return err;
}

int perf_sample__parse_layout(const union perf_event *event,
			      const struct perf_sample_layout *l,
			      struct perf_sample *s)
{
	const u64 *p = event->array + 1;
	u32 res;

	if (!simple_fits(event, l, s))
		return parse_general(event, l, s);
	s->misc = event->header.misc;
	s->cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	s->ip = slot_or(p, l->ip, 0);
	slot_pair(p, l->tid, &s->pid, &s->tid);
	s->time = slot_or(p, l->time, 0);
	s->addr = slot_or(p, l->addr, 0);
	s->id = slot_or(p, l->id, 0);
	s->stream_id = slot_or(p, l->stream_id, 0);
	slot_pair(p, l->cpu, &s->cpu, &res);
	s->period = slot_or(p, l->period, 1);
	simple_absent(s);
	return 0;
}

size_t perf_sample_id_size(u64 t)
{
	size_t n = 0;

	n += !!(t & PERF_SAMPLE_TID);
	n += !!(t & PERF_SAMPLE_TIME);
	n += !!(t & PERF_SAMPLE_ID);
	n += !!(t & PERF_SAMPLE_STREAM_ID);
	n += !!(t & PERF_SAMPLE_CPU);
	n += !!(t & PERF_SAMPLE_IDENTIFIER);
	return n * sizeof(u64);
}

/*
 * The sample_id_all trailer sits at the end of a non-sample record:
 * pid/tid, time, id, stream_id, cpu, identifier, in that order.
 */
int perf_sample__parse_id(const union perf_event *event, u64 t,
			  struct perf_sample *s)
{
	size_t size = perf_sample_id_size(t);
	struct cursor c;
	u32 res;

	memset(s, 0, sizeof(*s));
	s->pid = s->tid = (u32)-1;
	s->cpu = (u32)-1;
	s->misc = event->header.misc;
	s->cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (event->header.size < sizeof(event->header) + size)
		return -EINVAL;
	c.end = (const u64 *)((const char *)event + event->header.size);
	c.p = c.end - size / sizeof(u64);
	if ((t & PERF_SAMPLE_TID) && cur_take_pair(&c, &s->pid, &s->tid))
		return -EINVAL;
	if ((t & PERF_SAMPLE_TIME) && cur_take(&c, &s->time))
		return -EINVAL;
	if ((t & PERF_SAMPLE_ID) && cur_take(&c, &s->id))
		return -EINVAL;
	if ((t & PERF_SAMPLE_STREAM_ID) && cur_take(&c, &s->stream_id))
		return -EINVAL;
	if ((t & PERF_SAMPLE_CPU) && cur_take_pair(&c, &s->cpu, &res))
		return -EINVAL;
	if ((t & PERF_SAMPLE_IDENTIFIER) && cur_take(&c, &s->id))
		return -EINVAL;
	return 0;
}

static const char * const record_names[] = {
	[PERF_RECORD_MMAP] = "MMAP",
	[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[PERF_RECORD_HEADER_ATTR] = "ATTR",
	[PERF_RECORD_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[PERF_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
	[PERF_RECORD_HEADER_BUILD_ID] = "BUILD_ID",
	[PERF_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
	[PERF_RECORD_ID_INDEX] = "ID_INDEX",
	[PERF_RECORD_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[PERF_RECORD_AUXTRACE] = "AUXTRACE",
	[PERF_RECORD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[PERF_RECORD_THREAD_MAP] = "THREAD_MAP",
	[PERF_RECORD_CPU_MAP] = "CPU_MAP",
	[PERF_RECORD_STAT_CONFIG] = "STAT_CONFIG",
	[PERF_RECORD_STAT] = "STAT",
	[PERF_RECORD_STAT_ROUND] = "STAT_ROUND",
	[PERF_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
	[PERF_RECORD_TIME_CONV] = "TIME_CONV",
	[PERF_RECORD_HEADER_FEATURE] = "FEATURE",
	[PERF_RECORD_COMPRESSED] = "COMPRESSED",
	[PERF_RECORD_FINISHED_INIT] = "FINISHED_INIT",
};

const char *perf_event__name(u32 type)
{
	if (type < ARRAY_SIZE(record_names) && record_names[type])
		return record_names[type];
	return "UNKNOWN";
}

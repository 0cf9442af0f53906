// SPDX-License-Identifier: GPL-2.0
/*
 * An event's perf_counter_attr as perf prints it: the sample_type and
 * read_format bit names, and one "name = value" per field that is set
 * (perf evlist -v, report --header and -D).
 */
#include <stdio.h>
#include <string.h>
#include "header.h"

struct bit_name {
	u64 bit;
	const char *name;
};

static void snprint_bits(char *buf, size_t size, u64 value,
			 const struct bit_name *bits, size_t nr)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < nr && len < size; i++) {
		if (!(value & bits[i].bit))
			continue;
		len += snprintf(buf + len, size - len, "%s%s", len ? "|" : "",
				bits[i].name);
	}
}

#define BIT_NAME(prefix, n) { prefix##n, #n }

static const struct bit_name sample_type_names[] = {
	BIT_NAME(PERF_SAMPLE_, IP), BIT_NAME(PERF_SAMPLE_, TID),
	BIT_NAME(PERF_SAMPLE_, TIME), BIT_NAME(PERF_SAMPLE_, ADDR),
	BIT_NAME(PERF_SAMPLE_, READ), BIT_NAME(PERF_SAMPLE_, CALLCHAIN),
	BIT_NAME(PERF_SAMPLE_, ID), BIT_NAME(PERF_SAMPLE_, CPU),
	BIT_NAME(PERF_SAMPLE_, PERIOD), BIT_NAME(PERF_SAMPLE_, STREAM_ID),
	BIT_NAME(PERF_SAMPLE_, RAW), BIT_NAME(PERF_SAMPLE_, BRANCH_STACK),
	BIT_NAME(PERF_SAMPLE_, REGS_USER), BIT_NAME(PERF_SAMPLE_, STACK_USER),
	BIT_NAME(PERF_SAMPLE_, IDENTIFIER), BIT_NAME(PERF_SAMPLE_, REGS_INTR),
	BIT_NAME(PERF_SAMPLE_, DATA_SRC), BIT_NAME(PERF_SAMPLE_, WEIGHT),
	BIT_NAME(PERF_SAMPLE_, PHYS_ADDR), BIT_NAME(PERF_SAMPLE_, AUX),
	BIT_NAME(PERF_SAMPLE_, CGROUP), BIT_NAME(PERF_SAMPLE_, DATA_PAGE_SIZE),
	BIT_NAME(PERF_SAMPLE_, CODE_PAGE_SIZE),
	BIT_NAME(PERF_SAMPLE_, WEIGHT_STRUCT),
};

static const struct bit_name read_format_names[] = {
	BIT_NAME(PERF_FORMAT_, TOTAL_TIME_ENABLED),
	BIT_NAME(PERF_FORMAT_, TOTAL_TIME_RUNNING),
	BIT_NAME(PERF_FORMAT_, ID), BIT_NAME(PERF_FORMAT_, GROUP),
	BIT_NAME(PERF_FORMAT_, LOST),
};

static const struct bit_name branch_type_names[] = {
	BIT_NAME(PERF_SAMPLE_BRANCH_, USER),
	BIT_NAME(PERF_SAMPLE_BRANCH_, KERNEL),
	BIT_NAME(PERF_SAMPLE_BRANCH_, HV), BIT_NAME(PERF_SAMPLE_BRANCH_, ANY),
	BIT_NAME(PERF_SAMPLE_BRANCH_, ANY_CALL),
	BIT_NAME(PERF_SAMPLE_BRANCH_, ANY_RETURN),
	BIT_NAME(PERF_SAMPLE_BRANCH_, IND_CALL),
	BIT_NAME(PERF_SAMPLE_BRANCH_, ABORT_TX),
	BIT_NAME(PERF_SAMPLE_BRANCH_, IN_TX),
	BIT_NAME(PERF_SAMPLE_BRANCH_, NO_TX),
	BIT_NAME(PERF_SAMPLE_BRANCH_, COND),
	BIT_NAME(PERF_SAMPLE_BRANCH_, CALL_STACK),
	BIT_NAME(PERF_SAMPLE_BRANCH_, IND_JUMP),
	BIT_NAME(PERF_SAMPLE_BRANCH_, CALL),
	BIT_NAME(PERF_SAMPLE_BRANCH_, NO_FLAGS),
	BIT_NAME(PERF_SAMPLE_BRANCH_, NO_CYCLES),
	BIT_NAME(PERF_SAMPLE_BRANCH_, TYPE_SAVE),
	BIT_NAME(PERF_SAMPLE_BRANCH_, HW_INDEX),
	BIT_NAME(PERF_SAMPLE_BRANCH_, PRIV_SAVE),
};

void perf_sample_type__snprintf(char *buf, size_t size, u64 sample_type)
{
	snprint_bits(buf, size, sample_type, sample_type_names,
		     ARRAY_SIZE(sample_type_names));
}

/* The flag bits of the attr, after read_format: bit, width, name. */
static const struct {
	u8 shift;
	u8 width;
	const char *name;
} attr_flags[] = {
	{ 0, 1, "disabled" }, { 1, 1, "inherit" }, { 2, 1, "pinned" },
	{ 3, 1, "exclusive" }, { 4, 1, "exclude_user" },
	{ 5, 1, "exclude_kernel" }, { 6, 1, "exclude_hv" },
	{ 7, 1, "exclude_idle" }, { 8, 1, "mmap" }, { 9, 1, "comm" },
	{ 10, 1, "freq" }, { 11, 1, "inherit_stat" },
	{ 12, 1, "enable_on_exec" }, { 13, 1, "task" },
	{ 14, 1, "watermark" }, { 15, 2, "precise_ip" },
	{ 17, 1, "mmap_data" }, { 18, 1, "sample_id_all" },
	{ 19, 1, "exclude_host" }, { 20, 1, "exclude_guest" },
	{ 21, 1, "exclude_callchain_kernel" },
	{ 22, 1, "exclude_callchain_user" }, { 23, 1, "mmap2" },
	{ 24, 1, "comm_exec" }, { 25, 1, "use_clockid" },
	{ 26, 1, "context_switch" }, { 27, 1, "write_backward" },
	{ 28, 1, "namespaces" }, { 29, 1, "ksymbol" },
	{ 30, 1, "bpf_event" }, { 31, 1, "aux_output" },
	{ 32, 1, "cgroup" }, { 33, 1, "text_poke" }, { 34, 1, "build_id" },
	{ 35, 1, "inherit_thread" }, { 36, 1, "remove_on_exec" },
	{ 37, 1, "sigtrap" },
};

static void print_attr_flags(FILE *fp, const struct perf_counter_attr *attr,
			     perf_attr_print_fn pr, void *priv)
{
	char buf[32];
	u64 flags;
	size_t i;

	memcpy(&flags, (const char *)attr +
	       offsetof(struct perf_counter_attr, read_format) + sizeof(u64),
	       sizeof(flags));
	for (i = 0; i < ARRAY_SIZE(attr_flags); i++) {
		u64 v = (flags >> attr_flags[i].shift) &
			((1ULL << attr_flags[i].width) - 1);

		if (!v)
			continue;
		snprintf(buf, sizeof(buf), "%llu", v);
		pr(fp, attr_flags[i].name, buf, priv);
	}
}

static void pr_u64(FILE *fp, perf_attr_print_fn pr, void *priv,
		   const char *name, const char *fmt, u64 v)
{
	char buf[32];

	if (!v)
		return;
	snprintf(buf, sizeof(buf), fmt, v);
	pr(fp, name, buf, priv);
}

static void pr_bits(FILE *fp, perf_attr_print_fn pr, void *priv,
		    const char *name, u64 v, const struct bit_name *bits,
		    size_t nr)
{
	char buf[512];

	if (!v)
		return;
	snprint_bits(buf, sizeof(buf), v, bits, nr);
	pr(fp, name, buf, priv);
}

void perf_counter_attr__fprintf(FILE *fp, const struct perf_counter_attr *a,
				perf_attr_print_fn pr, void *priv)
{
	pr_u64(fp, pr, priv, "type", "%llu", a->type);
	pr_u64(fp, pr, priv, "size", "%llu", a->size);
	pr_u64(fp, pr, priv, "config", "%#llx", a->config);
	pr_u64(fp, pr, priv, "{ sample_period, sample_freq }", "%llu",
	       a->sample_period);
	pr_bits(fp, pr, priv, "sample_type", a->sample_type,
		sample_type_names, ARRAY_SIZE(sample_type_names));
	pr_bits(fp, pr, priv, "read_format", a->read_format,
		read_format_names, ARRAY_SIZE(read_format_names));
	print_attr_flags(fp, a, pr, priv);
	pr_u64(fp, pr, priv, "{ wakeup_events, wakeup_watermark }",
	       "%llu", a->wakeup_events);
	pr_u64(fp, pr, priv, "bp_type", "%llu", a->bp_type);
	pr_u64(fp, pr, priv, "{ bp_addr, config1 }", "%#llx", a->bp_addr);
	pr_u64(fp, pr, priv, "{ bp_len, config2 }", "%#llx", a->bp_len);
	pr_bits(fp, pr, priv, "branch_sample_type", a->branch_sample_type,
		branch_type_names, ARRAY_SIZE(branch_type_names));
	pr_u64(fp, pr, priv, "sample_regs_user", "%#llx",
	       a->sample_regs_user);
	pr_u64(fp, pr, priv, "sample_stack_user", "%llu",
	       a->sample_stack_user);
	pr_u64(fp, pr, priv, "clockid", "%lld", (u64)(s64)a->clockid);
	pr_u64(fp, pr, priv, "sample_regs_intr", "%#llx",
	       a->sample_regs_intr);
	pr_u64(fp, pr, priv, "aux_watermark", "%llu", a->aux_watermark);
	pr_u64(fp, pr, priv, "sample_max_stack", "%llu",
	       a->sample_max_stack);
	pr_u64(fp, pr, priv, "aux_sample_size", "%llu",
	       a->aux_sample_size);
	pr_u64(fp, pr, priv, "sig_data", "%llu", a->sig_data);
}


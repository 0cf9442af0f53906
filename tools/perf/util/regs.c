// SPDX-License-Identifier: GPL-2.0
/*
 * Names of the sampled x86-64 registers, for record's --user-regs and
 * --intr-regs and for script's uregs and iregs fields.
 */
#include <string.h>
#include <strings.h>
#include "regs.h"

static const char * const reg_names[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS",
	"CS", "SS", "DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11",
	"R12", "R13", "R14", "R15",
};

const char *regs__name(unsigned int bit)
{
	return bit < ARRAY_SIZE(reg_names) ?
	       reg_names[bit] : NULL;
}

static void list_names(FILE *out)
{
	unsigned int bit;

	fprintf(out, "available registers: ");
	for (bit = 0; bit < 64; bit++)
		if (REGS_X86_64_MASK & (1ULL << bit))
			fprintf(out, "%s ", reg_names[bit]);
	fputc('\n', out);
}

/* The bit of register @name, the @len bytes there; -1 if none. */
static int reg_bit(const char *name, size_t len)
{
	unsigned int bit;

	for (bit = 0; bit < 64; bit++)
		if ((REGS_X86_64_MASK & (1ULL << bit)) &&
		    strlen(reg_names[bit]) == len &&
		    !strncasecmp(name, reg_names[bit], len))
			return bit;
	return -1;
}

int regs__parse(const char *list, u64 *mask, FILE *out, char *err,
		size_t errlen)
{
	const char *p = list;
	size_t len;
	int bit;

	*mask = 0;
	if (!list || !*list) {
		*mask = REGS_X86_64_MASK;
		return 0;
	}
	for (;;) {
		len = strcspn(p, ",");
		if (len == 1 && *p == '?') {
			list_names(out);
			*err = '\0';
			return -1;
		}
		bit = reg_bit(p, len);
		if (bit < 0) {
			snprintf(err, errlen,
				 "unknown register '%.*s': '?' lists the names",
				 (int)len, p);
			return -1;
		}
		*mask |= 1ULL << bit;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

void regs__fprintf(const struct perf_sample_regs *r, FILE *out)
{
	const u64 *v = r->regs;
	unsigned int bit;
	const char *name;

	if (!r->abi || !v)
		return;
	fprintf(out, " ABI:%llu ", (unsigned long long)r->abi);
	for (bit = 0; bit < 64; bit++) {
		if (!(r->mask & (1ULL << bit)))
			continue;
		name = regs__name(bit);
		fprintf(out, "%5s:0x%llx ", name ? name : "(null)",
			(unsigned long long)*v++);
	}
}

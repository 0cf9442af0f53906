// SPDX-License-Identifier: GPL-2.0
/*
 * Compare the ABI tables built from <linux/perf_counter.h> (abi-ours.c)
 * and from the system's <linux/perf_event.h> (abi-sys.c).
 */
#include <string.h>

#include "abi.h"

unsigned long long abi_hash_bytes(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	unsigned long long hash = 0xcbf29ce484222325ULL;

	while (len--) {
		hash ^= *p++;
		hash *= 0x100000001b3ULL;
	}
	return hash;
}

static unsigned long long abi_item_value(const struct abi_item *item)
{
	return item->probe ? item->probe() : item->value;
}

int abi_compare(FILE *out)
{
	unsigned int nr = abi_nr_items_ours;
	unsigned int i;
	int mismatches = 0;

	if (abi_nr_items_ours != abi_nr_items_sys) {
		fprintf(out, "ABI mismatch: item count: ours=%u sys=%u\n",
			abi_nr_items_ours, abi_nr_items_sys);
		mismatches++;
		if (abi_nr_items_sys < nr)
			nr = abi_nr_items_sys;
	}

	for (i = 0; i < nr; i++) {
		const struct abi_item *ours = &abi_items_ours[i];
		const struct abi_item *sys = &abi_items_sys[i];
		unsigned long long v_ours, v_sys;

		if (strcmp(ours->name, sys->name)) {
			fprintf(out, "ABI mismatch: item %u: ours=%s sys=%s\n",
				i, ours->name, sys->name);
			mismatches++;
			continue;
		}

		v_ours = abi_item_value(ours);
		v_sys = abi_item_value(sys);
		if (v_ours != v_sys) {
			fprintf(out, "ABI mismatch: %s: ours=%#llx sys=%#llx\n",
				ours->name, v_ours, v_sys);
			mismatches++;
		}
	}

	fprintf(out, "ABI check: %u items compared, %d mismatch%s\n",
		nr, mismatches, mismatches == 1 ? "" : "es");
	return mismatches;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: the link to the hardware PMU.  Arch code that can drive
 * the PMU of the machine registers itself once at boot; counters of the
 * hardware types go to it, and without it there are no such events here
 * (ENOENT, as a machine without a PMU answers).
 */

#include <linux/compiler.h>
#include <linux/errno.h>

#include "internal.h"

static const struct perf_counter_hw_pmu *perf_counter_hw;

void perf_counter_hw_register(const struct perf_counter_hw_pmu *hw)
{
	WRITE_ONCE(perf_counter_hw, hw);
}

const struct perf_counter_hw_pmu *perf_counter_hw_get(void)
{
	return READ_ONCE(perf_counter_hw);
}

int perf_counter_hw_init(struct perf_counter *counter)
{
	const struct perf_counter_hw_pmu *hw = perf_counter_hw_get();
	int err;

	if (!hw)
		return -ENOENT;
	err = hw->init(counter);
	if (err)
		return err;
	counter->pmu = &hw->pmu;
	return 0;
}

/* Through the PMU the counter was made by, which need not be the live one. */
void perf_counter_hw_free(struct perf_counter *counter)
{
	const struct perf_counter_hw_pmu *hw;

	if (!counter->pmu)
		return;
	hw = container_of(counter->pmu, struct perf_counter_hw_pmu, pmu);
	hw->destroy(counter);
}

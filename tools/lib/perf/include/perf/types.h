/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_TYPES_H
#define __PERF_TYPES_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

typedef __u64 u64;
typedef __s64 s64;
typedef __u32 u32;
typedef __s32 s32;
typedef __u16 u16;
typedef __u8 u8;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* __PERF_TYPES_H */

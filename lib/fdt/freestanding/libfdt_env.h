/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libfdt's environment for the freestanding firmware build: fixed-width
 * types, big-endian accessors and Tally's own string functions.  The host
 * build uses the system libfdt and never sees this file.
 */
#ifndef TALLY_LIBFDT_ENV_H
#define TALLY_LIBFDT_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <tally/string.h>

#ifdef __CHECKER__
#define FDT_FORCE __attribute__((force))
#define FDT_BITWISE __attribute__((bitwise))
#else
#define FDT_FORCE
#define FDT_BITWISE
#endif

typedef uint16_t FDT_BITWISE fdt16_t;
typedef uint32_t FDT_BITWISE fdt32_t;
typedef uint64_t FDT_BITWISE fdt64_t;

/* Byte swaps by shifts: __builtin_bswap* would call libgcc, not linked here. */
static inline uint16_t fdt_swap16(uint16_t x)
{
	return (uint16_t)((x >> 8) | (x << 8));
}

static inline uint32_t fdt_swap32(uint32_t x)
{
	return (x >> 24) | ((x >> 8) & 0xff00) | ((x << 8) & 0xff0000) | (x << 24);
}

static inline uint64_t fdt_swap64(uint64_t x)
{
	return ((uint64_t)fdt_swap32((uint32_t)x) << 32) | fdt_swap32((uint32_t)(x >> 32));
}

static inline uint16_t fdt16_to_cpu(fdt16_t x) { return fdt_swap16((FDT_FORCE uint16_t)x); }
static inline fdt16_t cpu_to_fdt16(uint16_t x) { return (FDT_FORCE fdt16_t)fdt_swap16(x); }
static inline uint32_t fdt32_to_cpu(fdt32_t x) { return fdt_swap32((FDT_FORCE uint32_t)x); }
static inline fdt32_t cpu_to_fdt32(uint32_t x) { return (FDT_FORCE fdt32_t)fdt_swap32(x); }
static inline uint64_t fdt64_to_cpu(fdt64_t x) { return fdt_swap64((FDT_FORCE uint64_t)x); }
static inline fdt64_t cpu_to_fdt64(uint64_t x) { return (FDT_FORCE fdt64_t)fdt_swap64(x); }

#endif

/* SPDX-License-Identifier: MIT */
/*
 * sram_vec.h: the block types of the executors (sram_exec.c,
 * sram_block.c); not installed.  GNU vectors: &, |, ^, ~ work on them as
 * on uint64_t; the *m types are the same as they sit in a row (8-byte
 * aligned, aliasing uint64_t).  One vector type per width: a 64-byte GNU
 * vector compiled for AVX2 makes GCC 12 spill every store through the
 * stack (doc/PERFORMANCE.md).
 */
#ifndef INFSIM_SRAM_VEC_H
#define INFSIM_SRAM_VEC_H

#include <stdint.h>

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

#if defined(__GNUC__)
typedef uint64_t sram_v2 __attribute__((vector_size(16)));
typedef sram_v2 sram_v2m __attribute__((aligned(8), may_alias));
#endif
#if defined(__GNUC__) && defined(__x86_64__) &&                          \
	(__GNUC__ >= 8 || (defined(__clang__) && __clang_major__ >= 7))
#define SRAM_X86_VECTORS 1
typedef uint64_t sram_v4 __attribute__((vector_size(32)));
typedef sram_v4 sram_v4m __attribute__((aligned(8), may_alias));
typedef uint64_t sram_v8 __attribute__((vector_size(64)));
typedef sram_v8 sram_v8m __attribute__((aligned(8), may_alias));
#endif

#endif

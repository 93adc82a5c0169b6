/* SPDX-License-Identifier: MIT */
/*
 * api.h: what makes a header part of libinfsim's API.
 *
 * Every installed header wraps its declarations in INFSIM_BEGIN_DECLS and
 * INFSIM_END_DECLS: C++ sees them with C linkage, and the library, built
 * with -fvisibility=hidden, exports exactly the functions declared between
 * them.  Everything else in libinfsim.so is private (doc/ARCHITECTURE.md,
 * "The library's API").
 */
#ifndef INFSIM_API_H
#define INFSIM_API_H

#ifdef __cplusplus
#define INFSIM_EXTERN_C_BEGIN extern "C" {
#define INFSIM_EXTERN_C_END }
#else
#define INFSIM_EXTERN_C_BEGIN
#define INFSIM_EXTERN_C_END
#endif

#define INFSIM_BEGIN_DECLS INFSIM_EXTERN_C_BEGIN _Pragma("GCC visibility push(default)")
#define INFSIM_END_DECLS _Pragma("GCC visibility pop") INFSIM_EXTERN_C_END

#endif

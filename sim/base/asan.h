/* asan.h - GPUSIM_ASAN: 1 when this file is compiled with AddressSanitizer
 * (gcc's -fsanitize=address defines __SANITIZE_ADDRESS__, clang says so
 * through __has_feature), else 0.  zalloc.c marks the bytes around its
 * mapped arrays for the sanitizer; the tests check fewer cases in make
 * test's sanitizer pass (tests/sanitized.h). */
#ifndef GPUSIM_ASAN_H
#define GPUSIM_ASAN_H

#if defined(__SANITIZE_ADDRESS__)
#define GPUSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPUSIM_ASAN 1
#endif
#endif
#ifndef GPUSIM_ASAN
#define GPUSIM_ASAN 0
#endif

#endif

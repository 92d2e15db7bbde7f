/* sanitized.h - whether this test program runs in make test's second pass,
 * under AddressSanitizer + UndefinedBehaviorSanitizer, where a simulation
 * runs four to ten times slower.  A few tests check fewer cases there: the
 * first pass checks every case and every number; the second checks memory
 * safety, and every code path those cases reach is still reached.
 * GPUSIM_FULL=1 in the environment runs every case under the sanitizers
 * too. */
#ifndef GPUSIM_TESTS_SANITIZED_H
#define GPUSIM_TESTS_SANITIZED_H

#include <stdlib.h>

#include "sim/base/asan.h"

#define SANITIZED GPUSIM_ASAN

/* 1: check the sanitizer pass's subset only */
static inline int sanitized_subset(void) { return SANITIZED && !getenv("GPUSIM_FULL"); }

#endif

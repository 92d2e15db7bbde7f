/* smem.h - shared-memory banks: how many wavefronts (passes through the
 * banks) one warp's shared-memory instruction needs.
 *
 * Models the bank array of one SM: `banks` banks, each `bank_bytes` wide;
 * bank = (addr / bank_bytes) % banks.  Lanes that touch the same bank word
 * share it (broadcast on loads, one write on stores), so a pass serves at
 * most one distinct word per bank and the cost is the largest number of
 * distinct words any bank must deliver.  Accesses wider than a bank are cut
 * into lane groups, each group its own passes (rule in smem.c).  Owns no
 * state: a pure function of the request.  The timing model calls it at
 * issue for every shared-memory load, store and atomic; each wavefront
 * beyond the first is a replay that occupies the shared-memory pipe.
 */
#ifndef GPUSIM_SMEM_H
#define GPUSIM_SMEM_H

#include <stdint.h>

#include "sim/mem/access.h"

enum {
    SMEM_MAX_BANKS = 64,        /* the config's upper bound for smem.banks */
    SMEM_MAX_LANE_BYTES = 32    /* widest per-lane access: ld.v4 of 64-bit */
};

/* What the bank map looked like, for reports, traces and teaching views. */
typedef struct SmemDetail {
    int wavefronts;             /* the return value */
    int ideal_wavefronts;       /* the minimum for this width: lane groups with an
                                 * active lane (1 for a 4-byte access) */
    int conflicts;              /* wavefronts - ideal_wavefronts: Nsight's
                                 * l1tex__data_bank_conflicts_pipe_lsu_mem_shared */
    int max_ways;               /* most distinct words one bank served in one group */
    int group_lanes;            /* lanes per group (warp_size for 4-byte accesses) */
    int groups;                 /* groups the warp was cut into */
    int pair_merged;            /* 1 if the uniform-pair rule doubled group_lanes */
    int8_t lane_bank[WARP_MAX];       /* bank of each lane's first word; -1 inactive */
    uint8_t lane_words[WARP_MAX];     /* bank words each lane touches; 0 inactive */
    int16_t lane_wavefront[WARP_MAX]; /* 0-based pass that serves the lane's last word
                                       * (a bank's words go in address order); -1 inactive */
    uint16_t bank_words[SMEM_MAX_BANKS]; /* distinct words per bank, summed over groups
                                          * (atomics: lane accesses per bank) */
} SmemDetail;

/* Wavefronts the warp access `a` needs (0 if no lane is active), or -1 if
 * the geometry is out of range (banks not in [1, SMEM_MAX_BANKS], bank_bytes
 * or warp_size not positive, warp_size > WARP_MAX).  detail may be NULL.
 * Uses a->is_store and a->is_atomic; a->space is not looked at. */
int smem_wavefronts(const MemAccess *a, int banks, int bank_bytes, int warp_size,
                    SmemDetail *detail);

/* The same wavefronts without the bank map, and in *ideal the fewest the
 * access's width allows (SmemDetail.ideal_wavefronts; 0 if the geometry is
 * out of range): what the timing model needs at every issue. */
int smem_wavefronts_ideal(const MemAccess *a, int banks, int bank_bytes, int warp_size, int *ideal);

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Host entry points of the MIMO CUDA kernels, called only by the family's
// CUDA implementations (mimo_cuda_kernel.cc). A batch runs in three steps on
// one stream:
//   1. prepare: the frames' vector index (a prefix sum) and, per channel of
//      every frame, the QR of H (or the LMMSE filter): once per channel, for
//      all its vectors;
//   2. detect: the vectors of every frame of one modulation (one launch per
//      modulation present in the batch);
//   3. finish: channels with a NaN or infinity among their vectors or priors
//      come out as zeros, their frame with STATUS_NOT_FINITE, as on the CPU.
#ifndef INCLUDED_GPURX_MIMO_CUDA_MIMO_LAUNCH_H
#define INCLUDED_GPURX_MIMO_CUDA_MIMO_LAUNCH_H

#include "pipeline/batch_kernel.h"
#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {

//! The kernels' view of the configuration (passed by value).
struct mimo_gpu_settings {
    int algorithm;   //!< mimo::algorithm
    int variant;     //!< mimo_gpu_variant
    int sorted_qr;   //!< 1: sorted QR (trellis and tree detectors)
    int extrinsic;   //!< 1: extrinsic LLRs out
    int int8_output; //!< 1: int8 LLRs out (common/llr_int8.h), else float
    int k;           //!< kbest: paths kept per level
    float clip;      //!< kbest, one-pass: |LLR| bound; others: +infinity
    int max_channels; //!< the most channels of a frame (mimo_config::max_channels)
};

enum mimo_gpu_variant : int {
    MIMO_GPU_PLAIN = 0,   //!< the one kernel of the algorithm; for mtt, the literal one
    MIMO_GPU_MTT_FAST = 1 //!< mtt: expanded-form reductions, sliced extensions
};

//! The largest K * Q (children per level) cuda-kbest keeps in shared memory.
constexpr int mimo_kbest_max_children = 4096;

//! Working memory of a batch of up to \p max_frames frames of up to
//! \p max_channels channels.
size_t mimo_cuda_scratch_bytes(size_t max_frames, int max_channels);

//! Step 1 (see above); \p nframes: the batch's frames.
void cuda_mimo_prepare(const batch_view& dev, size_t nframes, const mimo_gpu_settings& s,
                       void* stream);
//! Step 2 for the frames of \p bits_per_symbol; \p max_vectors bounds the
//! batch's vectors (the grid). \p nt_mask: bit n set when some of those
//! frames have n streams (kernels specialised per shape launch only for the
//! shapes present; all bits set is always correct).
void cuda_mimo_detect(const batch_view& dev, size_t nframes, size_t max_vectors,
                      int bits_per_symbol, const mimo_gpu_settings& s, void* stream,
                      unsigned nt_mask = 0x1feu);
//! Step 3.
void cuda_mimo_finish(const batch_view& dev, size_t nframes, const mimo_gpu_settings& s,
                      void* stream);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

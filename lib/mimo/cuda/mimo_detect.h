/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Step 2 of mimo_launch.h per kernel file: cuda_mimo_detect() dispatches on
// the algorithm to one of these.
#ifndef INCLUDED_GPURX_MIMO_CUDA_MIMO_DETECT_H
#define INCLUDED_GPURX_MIMO_CUDA_MIMO_DETECT_H

#include "mimo/cuda/mimo_launch.h"

namespace gr {
namespace gpurx {
namespace core {

//! mtt (literal or fast) and one-pass: mimo_trellis.cu; \p nt_mask as
//! cuda_mimo_detect's.
void cuda_mimo_detect_trellis(const batch_view& dev, size_t nframes, size_t max_vectors, int bits,
                              const mimo_gpu_settings& s, unsigned nt_mask, void* stream);
//! ml and lmmse: mimo_ml_lmmse.cu
void cuda_mimo_detect_ml(const batch_view& dev, size_t nframes, size_t max_vectors, int bits,
                         const mimo_gpu_settings& s, void* stream);
void cuda_mimo_detect_lmmse(const batch_view& dev, size_t nframes, size_t max_vectors, int bits,
                            const mimo_gpu_settings& s, void* stream);
//! kbest: mimo_kbest.cu
void cuda_mimo_detect_kbest(const batch_view& dev, size_t nframes, size_t max_vectors, int bits,
                            const mimo_gpu_settings& s, void* stream);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Host entry points of the LTE grid kernels (grid_kernels.cu); what each
// thread computes, and the buffers' layouts: grid_elements.h.
#ifndef INCLUDED_GPURX_LTE_GRID_CUDA_GRID_KERNELS_H
#define INCLUDED_GPURX_LTE_GRID_CUDA_GRID_KERNELS_H

#include "lte/grid/cuda/grid_elements.h"

#include <cuda_runtime_api.h>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {
namespace gpu {

//! Cuts every symbol's FFT window from the samples into B.fft. Throws
//! core::cuda_error when the launch fails.
void enqueue_cut_windows(const grid_layout& L, const grid_buffers& B, cudaStream_t s);

//! After the FFT: the grids, then the estimates, noise variances and the
//! carry for the next batch, in that order on \p s. Throws core::cuda_error
//! when a launch fails.
void enqueue_grid_and_estimate(const grid_layout& L, const grid_buffers& B, cudaStream_t s);

} // namespace gpu
} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Host entry point of the OFDM channel estimator's CUDA kernels (chanest_batch.cu).
#ifndef INCLUDED_GPURX_OFDM_CUDA_CHANEST_LAUNCH_H
#define INCLUDED_GPURX_OFDM_CUDA_CHANEST_LAUNCH_H

#include "pipeline/batch_kernel.h"
#include <cstddef>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

//! Scratch bytes per frame for frames of up to \p max_work estimates
//! (chanest_work_values()): the per-subcarrier H and the residuals.
size_t chanest_cuda_scratch_stride(size_t max_work);

/*!
 * Enqueues the estimation of \p dev's frames on \p stream (a cudaStream_t of
 * the current device): least squares and residual per (subcarrier, receive
 * antenna), the group average, the y vectors' reordering, N0 per frame.
 * \p host: the same batch's descriptors and parameters on the host (grid
 * sizes). \p max_work: the configuration's per-frame estimates; frames
 * beyond it, or whose parameters or byte counts are wrong, come out as
 * zeros with CHANEST_BAD_FRAME. Throws core::cuda_error when a launch fails.
 */
void cuda_chanest_batch(const batch_view& dev, const batch_view& host, size_t max_work, void* stream);

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

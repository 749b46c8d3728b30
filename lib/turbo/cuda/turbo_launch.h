/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Host entry points of the CUDA turbo kernels, one per implementation
// (turbo_decode_fixed.cu, turbo_float_window.cu, and the paper's layouts
// turbo_float_block.cu and turbo_float_state.cu), called only by the turbo
// family's CUDA implementations (turbo_cuda_kernel.cc).
#ifndef INCLUDED_GPURX_TURBO_CUDA_TURBO_LAUNCH_H
#define INCLUDED_GPURX_TURBO_CUDA_TURBO_LAUNCH_H

#include "pipeline/batch_kernel.h"
#include "turbo/turbo_config.h"
#include "turbo/turbo_geometry.h"

namespace gr {
namespace gpurx {
namespace core {

//! The float kernels' layouts.
enum class turbo_float_layout {
    block,  //!< the paper's: one codeword per block, all of alpha in shared memory (guard 0)
    window, //!< one thread per window, checkpointed alpha, several codewords per block
    state,  //!< one thread per trellis state with warp shuffles, up to 64 windows
};

/*!
 * Enqueue the float decoding of a batch (log-MAP or max-log-MAP in float)
 * in one layout. \p geo bounds the batch's frames.
 */
void cuda_turbo_decode_float_window(const batch_view& dev,
                                    const turbo_config& cfg,
                                    float int8_scale,
                                    bool int8_input,
                                    const turbo_geometry& geo,
                                    void* stream);
void cuda_turbo_decode_float_block(const batch_view& dev,
                                   const turbo_config& cfg,
                                   float int8_scale,
                                   bool int8_input,
                                   const turbo_geometry& geo,
                                   void* stream);
void cuda_turbo_decode_float_state(const batch_view& dev,
                                   const turbo_config& cfg,
                                   float int8_scale,
                                   bool int8_input,
                                   const turbo_geometry& geo,
                                   void* stream);

/*!
 * The 16-bit fixed-point decoder: two codewords of equal K per thread block,
 * one thread per window. int8 input is taken as quantised; float input is
 * quantised by cfg.fixed_scale. \p dpx: Hopper's DPX instructions, else the
 * portable arithmetic, bit-exact with them (cuda_dpx_for_device()).
 */
void cuda_turbo_decode_fixed(const batch_view& dev,
                             const turbo_config& cfg,
                             float int8_scale,
                             bool int8_input,
                             const turbo_geometry& geo,
                             bool dpx,
                             void* stream);


} // namespace core
} // namespace gpurx
} // namespace gr

#endif

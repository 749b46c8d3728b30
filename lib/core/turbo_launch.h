/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Host entry point of the CUDA turbo decoder (lib/cuda/turbo_decode.cu).
#ifndef INCLUDED_GPURX_CORE_TURBO_LAUNCH_H
#define INCLUDED_GPURX_CORE_TURBO_LAUNCH_H

#include "batch_kernel.h"
#include "turbo_config.h"

namespace gr {
namespace gpurx {
namespace core {

//! frame_desc.param of a turbo codeword: K with the QPP coefficients packed
//! beside it (K < 2^13, f1 < 2^9, f2 < 2^10), so the kernel needs no table.
uint32_t turbo_frame_param(int K);

//! Scratch floats per frame: alpha/beta window-boundary metrics, then two
//! buffers of a-priori/extrinsic LLRs (kernel 2).
inline size_t turbo_scratch_floats(int subblocks)
{
    return size_t(32) * subblocks + 2 * size_t(6144);
}

//! Bounds over a batch's frames of the window geometry (they size shared
//! memory and thread blocks): K, windows, window length, and windows x
//! window length.
struct turbo_geometry {
    int max_K, max_windows, max_W, max_slots;
};
//! The geometry of a batch of frames of one K.
turbo_geometry turbo_geometry_of(const turbo_config& cfg, int K);

/*!
 * Enqueue the decoding of a batch: one thread per window. \p geo bounds the
 * batch's frames.
 */
void cuda_turbo_decode(const batch_view& dev,
                       const turbo_config& cfg,
                       float int8_scale,
                       bool int8_input,
                       const turbo_geometry& geo,
                       void* stream);

/*!
 * Kernel 4, the 16-bit fixed-point decoder (cfg.uses_fixed_point()): two
 * codewords of equal K per thread block, one thread per window. int8 input is
 * taken as quantised; float input is quantised by cfg.fixed_scale.
 */
void cuda_turbo_decode_fixed(const batch_view& dev,
                             const turbo_config& cfg,
                             float int8_scale,
                             bool int8_input,
                             const turbo_geometry& geo,
                             void* stream);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

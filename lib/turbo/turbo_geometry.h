/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Per-frame working memory and window geometry of the turbo decoder, shared by
// the CPU implementations and the CUDA ones.
#ifndef INCLUDED_GPURX_TURBO_TURBO_GEOMETRY_H
#define INCLUDED_GPURX_TURBO_TURBO_GEOMETRY_H

#include "turbo_config.h"
#include <cstddef>

namespace gr {
namespace gpurx {
namespace core {

//! Scratch floats per frame: alpha/beta window-boundary metrics, then two
//! buffers of a-priori/extrinsic LLRs (the float window kernel).
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

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Host entry points of the CUDA kernels (lib/cuda/*.cu). The core calls only
// these, with plain types, so nothing outside lib/cuda needs nvcc. In builds
// without CUDA they throw (lib/core/cuda_none.cc).
#ifndef INCLUDED_GPURX_CORE_CUDA_LAUNCHERS_H
#define INCLUDED_GPURX_CORE_CUDA_LAUNCHERS_H

#include "batch_kernel.h"
#include <cstddef>

namespace gr {
namespace gpurx {
namespace core {

//! out[i] = scale * in[i] over \p nfloats floats of the batch's data areas
//! (fixed-size frames share one layout in and out); results set to FRAME_OK.
void cuda_scale_batch(const batch_view& dev, size_t nfloats, float scale, void* stream);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Host entry point of the copy family's CUDA kernel (scale_batch.cu).
#ifndef INCLUDED_GPURX_COPY_CUDA_COPY_LAUNCH_H
#define INCLUDED_GPURX_COPY_CUDA_COPY_LAUNCH_H

#include "pipeline/batch_kernel.h"
#include <cstddef>

namespace gr {
namespace gpurx {
namespace core {

//! out[i] = scale * in[i] over \p nfloats floats of the batch's data areas
//! (fixed-size frames share one layout in and out).
void cuda_scale_batch(const batch_view& dev, size_t nfloats, float scale, void* stream);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A build without CUDA: the GPU estimator exists but is never usable.
#include "ofdm/mimo_chanest_cuda.h"

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

struct mimo_chanest_cuda::impl {
};

mimo_chanest_cuda::mimo_chanest_cuda(const mimo_training&, int, int, int)
{
    throw std::runtime_error("mimo_chanest_cuda: this build has no CUDA support");
}
mimo_chanest_cuda::~mimo_chanest_cuda() = default;
chanest_result mimo_chanest_cuda::estimate(const cfloat*) { return {}; }
bool mimo_chanest_cuda_usable(int) { return false; }

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr

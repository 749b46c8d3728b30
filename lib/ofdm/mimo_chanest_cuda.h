/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// estimate_mimo_channel on a GPU: the per-subcarrier least squares and
// residuals (T nr nt products per subcarrier and receive antenna) in one
// kernel, one thread per (subcarrier, receive antenna); the group average
// and the residual's sum on the host. Float arithmetic on the device
// against double on the CPU: the two agree to float rounding, not bit for
// bit (test_mimo_chanest's CUDA cases bound the difference).
#ifndef INCLUDED_GPURX_OFDM_MIMO_CHANEST_CUDA_H
#define INCLUDED_GPURX_OFDM_MIMO_CHANEST_CUDA_H

#include "ofdm/mimo_chanest.h"

#include <memory>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

class mimo_chanest_cuda
{
public:
    //! Device buffers for frames of \p tr on \p nr antennas, on \p device.
    //! Throws core::cuda_error (with context) when CUDA fails, and
    //! std::invalid_argument as estimate_mimo_channel does.
    mimo_chanest_cuda(const mimo_training& tr, int nr, int group, int device = 0);
    ~mimo_chanest_cuda();
    mimo_chanest_cuda(const mimo_chanest_cuda&) = delete;
    mimo_chanest_cuda& operator=(const mimo_chanest_cuda&) = delete;

    //! \p y as estimate_mimo_channel's (host memory).
    chanest_result estimate(const cfloat* y);

private:
    struct impl;
    std::unique_ptr<impl> d;
};

//! True when this build has CUDA and device \p device passed its probe.
bool mimo_chanest_cuda_usable(int device = 0);

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

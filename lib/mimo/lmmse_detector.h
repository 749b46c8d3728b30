/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// LMMSE equalisation, then max-log demapping of each stream on its own.
// With A = H^H H + N0 I and W = A^-1 H^H, stream k's estimate is
//     x_k = (W y)_k = mu_k s_k + e_k,   mu_k = (W H)_kk = 1 - N0 (A^-1)_kk,
// with E|e_k|^2 = mu_k (1 - mu_k) for unit-energy symbols (post-equalisation
// SINR mu_k / (1 - mu_k)). 1 - mu_k is taken as N0 (A^-1)_kk, not by
// subtraction, so it keeps its precision at high SINR. Each stream is
// demapped as x_k / mu_k = s_k + noise of variance (1 - mu_k) / mu_k.
// A stream the channel does not see (mu_k = 0: a zero column) gets LLRs 0.
// With a-priori LLRs, each stream's demapper adds its own symbols' prior cost
// (the other streams' priors do not enter: no soft interference cancellation).
// A stream the channel does not see then gets its priors back (extrinsic 0).
// For channels with orthogonal columns the streams decouple and this equals
// max-log ML, with priors too.
#ifndef INCLUDED_GPURX_MIMO_LMMSE_DETECTOR_H
#define INCLUDED_GPURX_MIMO_LMMSE_DETECTOR_H

#include "mimo/mimo_detector.h"

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

class lmmse_detector final : public mimo_detector
{
public:
    lmmse_detector() : mimo_detector(false) {}

private:
    void channel_changed() override;
    void detect_vector(const std::complex<float>* y, float* llr) override;

    std::vector<std::complex<double>> d_w; // nt x nr, row-major
    std::vector<double> d_mu, d_one_minus_mu;
    std::vector<double> d_sym_metric, d_cost; // Q each
};

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

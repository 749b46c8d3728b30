/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Symbol-spaced channel estimation and linear MMSE equalisation of a burst
// (docs/radio-link.md). The channel after the matched filter, sampled at the
// symbol instants, is z_k = sum_m h_m s_(k-m) + n_k, |m| <= M, with white
// noise of variance sigma2 (the root-raised-cosine pair is a Nyquist pulse).
#ifndef INCLUDED_GPURX_LINK_EQUALIZER_H
#define INCLUDED_GPURX_LINK_EQUALIZER_H

#include <complex>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace link {

using cdouble = std::complex<double>;

struct channel_estimate {
    int span = 0;           //!< M: taps h_-M .. h_M
    std::vector<cdouble> h; //!< 2M+1 taps, h[m + M]
    double sigma2 = 0.0;    //!< noise variance per symbol sample
};

/*!
 * Least squares from known symbols: z[k] against p[k - m] for every k of
 * [span, n - span). Taps indistinguishable from the estimate's own noise
 * (|h_m|^2 below 4 times its variance) are set to zero and the rest
 * re-solved: on a flat channel, estimating 2M+1 taps where one exists would
 * cost (2M+1)/n of the SNR for nothing. h_0 is always kept.
 */
channel_estimate estimate_channel(const std::complex<float>* z, const std::complex<float>* p, int n, int span);

struct mmse_equalizer {
    int half = 0;           //!< L: taps w_-L .. w_L
    std::vector<cdouble> w; //!< output s^_k = sum_i conj(w_i) z_(k+i)
    double gain = 0.0;      //!< s^_k = gain s_k + e_k, 0 < gain < 1
    double error = 0.0;     //!< E|e_k|^2 = gain - gain^2 (unit-energy symbols)
};

//! The MMSE equaliser of 2L+1 taps for \p ch (biased: its output is gain s + e).
mmse_equalizer design_mmse(const channel_estimate& ch, int half);

//! Solves A x = b in place of b, A Hermitian positive definite n x n (row-major).
//! Returns false when A is not positive definite.
bool cholesky_solve(std::vector<cdouble>& a, std::vector<cdouble>& b, int n);

} // namespace link
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

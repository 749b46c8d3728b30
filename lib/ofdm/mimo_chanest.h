/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Least-squares MIMO channel estimation per subcarrier from mimo_training's
// symbols, and N0 from their residual (docs/mimo-ofdm.md).
//
// Received training symbol t on antenna r, used subcarrier k:
//     Y_t[r][k] = sum_j H_k[r][j] P[j][t mod nt] L[k] + W,   E|W|^2 = N0.
// P's rows are orthogonal and |L[k]| = 1, so the least-squares estimate is
//     H^_k[r][j] = (1 / T) sum_t P[j][t mod nt] conj(L[k]) Y_t[r][k],
// T = repeats nt, each entry with error variance N0 / T (the LS bound for
// this pilot density: T observations of unit energy per entry). The
// residual sum_t |Y - H^ P L|^2 has T - nt degrees of freedom per (k, r):
//     N0^ = residual / (nr used (T - nt)),  needs repeats >= 2.
// An option averages H^ over adjacent subcarriers in blocks ("coherence
// blocks" of `group` subcarriers: one H per block for the detector), which
// divides the error by up to `group` where the channel is flat over the
// block and adds a bias where it is not.
#ifndef INCLUDED_GPURX_OFDM_MIMO_CHANEST_H
#define INCLUDED_GPURX_OFDM_MIMO_CHANEST_H

#include "ofdm/mimo_training.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

struct chanest_result {
    //! One nr x nt matrix per used subcarrier (or per group), row-major:
    //! h[(g * nr + r) * nt + j].
    std::vector<cfloat> h;
    double n0 = 0.0; //!< from the residual (0 with repeats 1)
};

/*!
 * \p y: the T training symbols' used subcarriers per receive antenna,
 * y[(t * nr + r) * used + k]. \p group: subcarriers per estimate (1: one
 * per subcarrier; used must be a multiple of it).
 */
chanest_result estimate_mimo_channel(const mimo_training& tr, int nr, const cfloat* y, int group = 1);

/*!
 * LMMSE smoothing across subcarriers of per-subcarrier estimates (group 1)
 * in place, for channels whose impulse response lies within \p spread
 * samples from the FFT window's start (uniform power-delay profile over
 * them: the robust choice when only the window is known):
 *     H~ = R (R + (N0 / T) I)^-1 H^,  R[k][k'] = (1/spread) sum_(l<spread)
 *          exp(-j 2 pi (b_k - b_k') l / fft_len),
 * b_k the FFT bin of used subcarrier k. On every antenna pair alike. With
 * spread much below the used subcarriers, it divides the estimation noise
 * by about used / spread.
 */
void smooth_lmmse(chanest_result& est, int nr, int nt, const std::vector<int>& bins, int fft_len, int spread,
                  int training_symbols);

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

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
 * LMMSE smoothing across subcarriers of per-subcarrier estimates (group 1),
 * for channels whose impulse response lies within \p spread samples from
 * the FFT window's start, with a uniform power-delay profile over them (the
 * robust choice when only the window is known):
 *     H~ = R (R + (N0 / T) I)^-1 H^,  R = F F^H / L,
 *     F[k][l] = exp(-j 2 pi b_k l / fft_len), l < L = spread,
 * b_k the FFT bin of used subcarrier k, computed as
 *     H~ = F (F^H F + L N0 / T I)^-1 F^H H^
 * (an L x L system, not a K x K one: F^H F has full rank L when K >= L).
 * F^H F is Hermitian Toeplitz, so the system is solved by Levinson's
 * recursion (L^2), and F^H h and F x are an inverse FFT and an FFT of
 * fft_len points. With L much below the used subcarriers it divides the
 * estimation noise by about used / L.
 */
class lmmse_smoother
{
public:
    //! Throws std::invalid_argument naming spread (1..min(used, fft_len)).
    lmmse_smoother(const std::vector<int>& bins, int fft_len, int spread);
    //! In place on \p est (one nr x nt matrix per used subcarrier).
    void apply(chanest_result& est, int nr, int nt, int training_symbols) const;

private:
    int d_k, d_l, d_n;
    std::vector<int> d_bins;
    std::vector<std::complex<double>> d_g; // F^H F's first column (it is Toeplitz)
};

//! lmmse_smoother(bins, fft_len, spread).apply(...), for one-off use.
void smooth_lmmse(chanest_result& est, int nr, int nt, const std::vector<int>& bins, int fft_len, int spread,
                  int training_symbols);

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Complex QR of a channel, H P = Q R, by Householder reflections (orthogonal
// to working precision however ill-conditioned or singular H is, where
// Gram-Schmidt would lose orthogonality). With sorting, the column of least
// remaining norm is taken at each step (Wuebben's sorted QR): the streams
// detected first, the last rows of R, are the strongest.
//
// y_hat = Q^H y holds nr entries; only the first nt meet R. The other
// nr - nt add the same ||y_hat[nt..]||^2 to every candidate's distance, which
// cancels in every LLR, so the detectors work on the nt x nt triangle.
#ifndef INCLUDED_GPURX_MIMO_CHANNEL_QR_H
#define INCLUDED_GPURX_MIMO_CHANNEL_QR_H

#include <complex>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

struct channel_qr {
    int nr = 0, nt = 0;
    //! R, nt x nt upper triangular, row-major: r[i * nt + j]
    std::vector<std::complex<double>> r;
    //! order[i]: the antenna whose column is column i of H P (layer i)
    std::vector<int> order;
    //! Unit Householder vectors, nt of nr entries (zero above their row; all
    //! zero where a column had nothing left to reflect)
    std::vector<std::complex<double>> reflectors;
    //! Numerical rank: diagonal entries of R above 1e-9 ||H||_F
    int rank = 0;

    std::complex<double> R(int i, int j) const { return r[size_t(i) * nt + j]; }

    //! y_hat[0..nt) = the first nt entries of Q^H y; \p work holds nr entries.
    void rotate(const std::complex<float>* y,
                std::complex<double>* y_hat,
                std::vector<std::complex<double>>& work) const;
};

//! QR of the nr x nt channel h (row-major, h[r * nt + t]); \p sorted: column pivoting.
void qr_decompose(
    const std::complex<double>* h, int nr, int nt, bool sorted, channel_qr& out);

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The MIMO-OFDM frame's training (docs/mimo-ofdm.md): orthogonal across
// transmit antennas in time. Training symbol t (t = 0 .. repeats*nt - 1)
// sends, from antenna j on used subcarrier k,
//     X_t[j][k] = P[j][t mod nt] L[k],
// with P the nt x nt Hadamard matrix (entries +-1, P P^T = nt I) and L a
// constant-modulus sequence over the used subcarriers. Every antenna sends
// on every subcarrier of every training symbol, so the least-squares
// estimate needs no interpolation across subcarriers and its error is the
// same on all of them; repeats > 1 leaves (repeats - 1) nt residual degrees
// of freedom per subcarrier and receive antenna for the noise estimate.
#ifndef INCLUDED_GPURX_OFDM_MIMO_TRAINING_H
#define INCLUDED_GPURX_OFDM_MIMO_TRAINING_H

#include <complex>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

using cfloat = std::complex<float>;

struct mimo_training {
    int nt = 1;      //!< transmit antennas: 1, 2, 4 or 8 (Hadamard orders)
    int used = 0;    //!< used subcarriers per OFDM symbol
    int repeats = 2; //!< the nt-symbol pattern's repetitions, 1..16

    //! Throws std::invalid_argument naming nt, used or repeats.
    mimo_training(int nt, int used, int repeats);

    int symbols() const { return repeats * nt; }
    //! P[j][c], +-1.
    float cover(int j, int c) const;
    //! L[k], |L[k]| = 1 (a Zadoff-Chu sequence over the used subcarriers).
    const std::vector<cfloat>& sequence() const { return d_l; }

private:
    std::vector<cfloat> d_l;
};

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Soft detection of the symbols a single port or transmit diversity sends
// (36.211 §6.3.4.1, §6.3.4.3), and their QPSK LLRs: plain functions of one
// RE (or one RE pair) and its channels across the receive antennas, for any
// channel that uses them (PBCH, PCFICH, PDCCH, PDSCH TM2).
//
// Two ports (SFBC), per symbol pair x0, x1 on the REs a, b:
//   port 0: a: x0 / sqrt2,    b: x1 / sqrt2
//   port 1: a: -x1* / sqrt2,  b: x0* / sqrt2
// Four ports (SFBC + FSTD), per quadruple x0..x3 on REs a, b, c, d: ports 0
// and 2 carry x0, x1 on a, b as ports 0 and 1 do above, ports 1 and 3 carry
// x2, x3 on c, d alike (the other pair's REs are empty on them).
//
// Combining (Alamouti), over the antennas r, with h0, h1 the two ports'
// channels at each RE:
//   z0 = sum_r conj(h0a) y_a + h1b conj(y_b),  z1 = sum_r conj(h0b) y_b - h1a conj(y_a)
// which for a channel equal on a and b is z = (g / sqrt2) x + noise of
// variance g s2, g = sum_r |h0|^2 + |h1|^2.
//
// QPSK (36.211 §7.1.2): x = ((1 - 2 b0) + j (1 - 2 b1)) / sqrt2. For
// z = A x + n, n of variance V, the LLR ln P(b=1)/P(b=0) of b0 is
// -2 sqrt2 A Re(z) / V (and Im for b1).
#ifndef INCLUDED_GPURX_LTE_PBCH_TRANSMIT_DIVERSITY_H
#define INCLUDED_GPURX_LTE_PBCH_TRANSMIT_DIVERSITY_H

#include "lte/common/lte_cell.h"

#include <cmath>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

constexpr float inv_sqrt2 = 0.70710678118654752f;

//! The two LLRs of QPSK symbol z = A x + n: \p scale = 2 sqrt2 A / V.
inline void qpsk_llr(cf z, float scale, float* llr)
{
    llr[0] = -scale * z.real();
    llr[1] = -scale * z.imag();
}

/*!
 * One port, maximum-ratio combining over \p n_rx antennas (y[r], h[r]):
 * z = sum conj(h) y = g x + noise g s2, so the LLRs are -2 sqrt2 z / s2.
 */
inline void single_port_llr(const cf* y, const cf* h, int n_rx, float inv_noise, float* llr)
{
    cf z(0.0f, 0.0f);
    for (int r = 0; r < n_rx; r++)
        z += std::conj(h[r]) * y[r];
    qpsk_llr(z, 2.0f * std::sqrt(2.0f) * inv_noise, llr);
}

/*!
 * One SFBC pair: the LLRs of x0 (llr[0..1]) and x1 (llr[2..3]) from REs a
 * and b at \p n_rx antennas (ya[r], yb[r]) and the channels of the pair's
 * two ports there (h0a[r] ...). With z = (g / sqrt2) x + noise g s2 the
 * scale is 2 sqrt2 (g / sqrt2) / (g s2) = 2 / s2.
 */
inline void sfbc_pair_llr(const cf* ya, const cf* yb, const cf* h0a, const cf* h1a, const cf* h0b, const cf* h1b,
                          int n_rx, float inv_noise, float* llr)
{
    cf z0(0.0f, 0.0f), z1(0.0f, 0.0f);
    for (int r = 0; r < n_rx; r++) {
        z0 += std::conj(h0a[r]) * ya[r] + h1b[r] * std::conj(yb[r]);
        z1 += std::conj(h0b[r]) * yb[r] - h1a[r] * std::conj(ya[r]);
    }
    qpsk_llr(z0, 2.0f * inv_noise, llr);
    qpsk_llr(z1, 2.0f * inv_noise, llr + 2);
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

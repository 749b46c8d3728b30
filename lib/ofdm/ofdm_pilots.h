/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The pilot subcarriers of the MIMO-OFDM frame's data symbols
// (docs/mimo-ofdm.md) and the common phase the receiver measures on them.
//
// Layout: `pilots` (even, 0..used/2) of the used subcarriers, pilots/2 on
// each side of DC at the signed offsets +-o_i, o_i = floor((2i + 1) h /
// pilots) + 1 with h = used/2, i = 0 .. pilots/2 - 1 (48 used, 4 pilots:
// +-7, +-19). The other used subcarriers carry data, in ascending order.
// Pilot i of data symbol s on transmit antenna j is pilot_value(s, i, j), a
// pseudo-random +-1 (unit energy, as a data symbol): the receiver sees
// their sum through the channel, g_r = sum_j H[r][j] p(s, i, j), which
// changes from symbol to symbol so that no subcarrier's sum stays in a
// null.
//
// Tracking: per data symbol s, the common phase error is the angle of
// sum_i sum_r conj(g_r) y_r (y: the received pilot, H: the training's
// estimate): the maximum-likelihood estimate of one phase rotation common
// to every subcarrier and receive antenna, weighted by the pilots' channel
// strength; with a window of w symbols (odd), the correlations of the w
// symbols centred on s are summed first (fewer at the frame's ends), which
// divides the estimate's noise by up to w where the phase moves little from
// symbol to symbol. The data subcarriers of that symbol are turned back by
// it.
//
// Slope (optional): a timing drift since the training (a sample clock's
// offset) turns subcarrier n (signed, -used/2 .. used/2 without 0) by a
// phase linear in n. Per symbol, with Z_i the window's correlations of
// pilot i in ascending order, the slope is the weighted least-squares fit
// sum_i w_i d_i arg(Z_(i+1) conj(Z_i)) / sum_i w_i d_i^2 over neighbouring
// pilots (d_i their distance in subcarriers, w_i = |Z_i| |Z_(i+1)|): it
// does not wrap while the slope times the pilots' spacing stays below pi.
// The common phase is then the angle of sum_i Z_i exp(-j slope n_i), and
// subcarrier n of the symbol is turned back by phase + slope n.
#ifndef INCLUDED_GPURX_OFDM_OFDM_PILOTS_H
#define INCLUDED_GPURX_OFDM_OFDM_PILOTS_H

#include "ofdm/mimo_training.h"

#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

//! Pilot i of data symbol s on transmit antenna j: +1 or -1.
inline float pilot_value(int s, int i, int j)
{
    uint32_t x = uint32_t(s) * 0x9E3779B1u ^ uint32_t(i + 1) * 0x85EBCA77u ^ uint32_t(j + 7) * 0xC2B2AE3Du;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return (x & 1u) ? -1.0f : 1.0f;
}

struct ofdm_pilot_layout {
    int used, pilots;
    std::vector<int> pilot_index; //!< used-subcarrier index of pilot i, ascending
    std::vector<int> data_index;  //!< used-subcarrier index of data carrier d, ascending

    //! Throws std::invalid_argument unless pilots is even and in 0..used/2
    //! (used even).
    ofdm_pilot_layout(int used, int pilots);
    int data_carriers() const { return used - pilots; }
    //! Signed subcarrier number of used subcarrier k: -used/2 .. -1, 1 .. used/2.
    int subcarrier(int k) const { return k < used / 2 ? k - used / 2 : k - used / 2 + 1; }
};

//! The common phase error (radians) of each of \p data_symbols data
//! symbols. \p y: every used subcarrier's y vectors in the estimator's
//! order, y[(k * data_symbols + s) * nr + r]; \p h: one H per used
//! subcarrier, h[(k * nr + r) * nt + j]; \p window: data symbols (odd)
//! whose pilots estimate each symbol's phase, centred on it. A symbol whose
//! pilots see no channel gets 0. \p slope not null: also the slope per
//! symbol (radians per subcarrier; 0 with fewer than 2 pilots), the phase
//! then at subcarrier 0.
std::vector<float> common_phase(const ofdm_pilot_layout& l, int nt, int nr, int data_symbols, const cfloat* y,
                                const cfloat* h, int window = 1, std::vector<float>* slope = nullptr);

//! The data carriers' y vectors and H (the same orders, pilots left out),
//! each y of symbol s on subcarrier n turned by -(phase[s] + slope[s] n)
//! (\p phase null: not turned; \p slope null: no slope).
void data_carriers(const ofdm_pilot_layout& l, int nt, int nr, int data_symbols, const cfloat* y,
                   const cfloat* h, const float* phase, cfloat* y_out, cfloat* h_out,
                   const float* slope = nullptr);

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// OFDM demodulation of one LTE downlink subframe (36.211 §6.12, read
// backwards): per receive antenna and OFDM symbol, drop the cyclic prefix,
// FFT, and keep the n_sc = 12 N_RB^DL subcarriers around DC (DC unused).
//
// FFT window. The window of symbol l starts `window_advance` samples before
// the end of its cyclic prefix, not at it: a timing error of up to that many
// samples early, or (CP - advance) late, then still stays inside the symbol
// and its own prefix (no inter-symbol interference). Starting d samples
// early multiplies subcarrier f (signed frequency index, f = k - n_sc/2 below
// DC, k - n_sc/2 + 1 above) by exp(-j 2 pi f d / N); the demodulator removes
// that linear phase, so the grid (and the channel seen in it) does not
// depend on the advance.
//
// Scale. The grid is FFT(x) * sqrt(n_sc) / N: a signal whose n_sc
// subcarriers carry unit-power REs at unit mean sample power comes out with
// unit-power REs (lte_dl_gen's convention), and complex white noise of
// variance s2 per sample comes out with variance s2 n_sc / N per RE.
#ifndef INCLUDED_GPURX_LTE_GRID_OFDM_DEMOD_H
#define INCLUDED_GPURX_LTE_GRID_OFDM_DEMOD_H

#include "lte/common/lte_cell.h"
#include "lte/common/resource_grid.h"

#include <cmath>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! The factor that undoes a window started \p advance samples early, and
//! scales, for FFT bin \p bin of \p fft_size (bins above N/2 are negative
//! frequencies; advance is an integer, so bin or bin - N give the same).
inline cf demod_bin_factor(int bin, int fft_size, int advance, float scale)
{
    const double ph = 2.0 * 3.14159265358979323846 * double((long long)bin * advance % fft_size) / fft_size;
    return cf(float(scale * std::cos(ph)), float(scale * std::sin(ph)));
}

class ofdm_demodulator
{
public:
    /*!
     * \p fft_size: the capture's (fft_size x 15 kHz sample rate; any size
     * of at least n_sc + 1). \p window_advance: samples before the end of
     * the cyclic prefix at which the FFT window starts, 0..the shortest
     * prefix; -1 picks a quarter of the shortest prefix.
     * Throws std::invalid_argument for a bad cell, size or advance.
     */
    ofdm_demodulator(const cell& c, int fft_size, int n_rx, int window_advance = -1);

    /*!
     * Demodulates one subframe: \p rx[a] points at the subframe's first
     * sample (its symbol 0's cyclic prefix) of antenna a, with at least
     * subframe_samples() samples. Fills \p grid ([rx][l][k]) and sets its
     * time to \p t.
     */
    void demodulate(const cf* const* rx, const subframe_time& t, subframe_grid& grid) const;
    //! The same for one antenna.
    void demodulate(const cf* rx, const subframe_time& t, subframe_grid& grid) const { demodulate(&rx, t, grid); }

    int subframe_samples() const { return d_num.subframe_samples(); }
    int window_advance() const { return d_advance; }
    int n_rx() const { return d_rx; }
    const numerology& num() const { return d_num; }
    //! Subcarrier k's FFT bin and the factor its bin is multiplied by (the
    //! GPU twin, lte/grid/cuda/, uses the same).
    const std::vector<int>& bins() const { return d_bin; }
    const std::vector<cf>& factors() const { return d_factor; }

private:
    cell d_cell;
    numerology d_num;
    int d_rx, d_advance;
    std::vector<int> d_bin;    //!< FFT bin of subcarrier k
    std::vector<cf> d_factor;  //!< phase and scale of subcarrier k
};

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

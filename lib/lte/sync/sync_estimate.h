/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Timing, frequency and quality from a PSS symbol and (when the cell is
// known) its SSS symbol, in the frequency domain: the channel on each of the
// 62 subcarriers is the received value times the known sequence's
// conjugate; a timing error turns the channel's phase linearly across
// subcarriers (2 pi delay / fft_size per subcarrier), a frequency offset
// turns it between the SSS and the PSS symbol, one symbol apart. Sums over
// antennas and half-frames are accumulated before the angles are taken.
#ifndef INCLUDED_GPURX_LTE_SYNC_SYNC_ESTIMATE_H
#define INCLUDED_GPURX_LTE_SYNC_SYNC_ESTIMATE_H

#include "lte/sync/pss.h"
#include "lte/sync/sync_fft.h"

#include <array>
#include <complex>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

//! The 62 synchronisation subcarriers of the fft.size() samples at \p x.
void sync_bins(sync_fft& fft, const cf* x, std::array<cf, SYNC_LENGTH>& bins);

class sync_accumulator
{
public:
    //! One antenna's PSS symbol (bins) and, if \p sss is not null, its SSS
    //! symbol taken with the window at the same place relative to it.
    void add(const std::array<cf, SYNC_LENGTH>& pss_bins,
             const std::array<cf, SYNC_LENGTH>& pss,
             const std::array<cf, SYNC_LENGTH>* sss_bins = nullptr,
             const std::array<float, SYNC_LENGTH>* sss = nullptr);

    /*!
     * Samples from the windows' starts to the symbols' useful parts'
     * starts (positive: the symbols come later). The neighbouring
     * subcarriers' phase slope gives a first value (+-fft_size/2, but noisy
     * at low SNR: a differential estimate); then the delay that maximises
     * the sum over symbols of |sum_n H(n) e^{j 2 pi offset(n) delay / N}|^2
     * (the maximum-likelihood timing of a known symbol with an unknown
     * phase) within fft_size/16 of it.
     */
    double delay(int fft_size) const;
    //! The frequency offset left in the samples (needs SSS symbols), Hz, within
    //! +-fs / (2 (fft_size + cp)).
    double cfo_hz(const numerology& nu) const;
    //! |sum_n Y(n) conj(d(n)) e^{-j slope offset(n)}|^2 / (62 sum |Y(n)|^2),
    //! the slope each symbol's own: 1 for a clean PSS with the window
    //! anywhere in the cyclic prefix, about 2/62 for noise.
    double pss_metric() const;
    int count() const { return d_count; }

private:
    double coherent(double delay, int fft_size) const;

    std::vector<std::array<std::complex<double>, SYNC_LENGTH>> d_channels; // per symbol
    std::complex<double> d_slope{ 0.0, 0.0 }, d_turn{ 0.0, 0.0 };
    double d_corr = 0.0, d_energy = 0.0;
    int d_count = 0;
};

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

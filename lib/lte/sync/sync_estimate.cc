/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/sync/sync_estimate.h"

#include <algorithm>
#include <cmath>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

void sync_bins(sync_fft& fft, const cf* x, std::array<cf, SYNC_LENGTH>& bins)
{
    std::copy(x, x + fft.size(), fft.in());
    fft.execute();
    for (int n = 0; n < SYNC_LENGTH; n++)
        bins[size_t(n)] = fft.out()[sync_fft_bin(n, fft.size())];
}

void sync_accumulator::add(const std::array<cf, SYNC_LENGTH>& pss_bins,
                           const std::array<cf, SYNC_LENGTH>& pss,
                           const std::array<cf, SYNC_LENGTH>* sss_bins,
                           const std::array<float, SYNC_LENGTH>* sss)
{
    std::array<std::complex<double>, SYNC_LENGTH> hp, hs;
    std::complex<double> corr(0.0, 0.0);
    for (int n = 0; n < SYNC_LENGTH; n++) {
        hp[size_t(n)] = std::complex<double>(pss_bins[size_t(n)] * std::conj(pss[size_t(n)]));
        corr += hp[size_t(n)];
        d_energy += std::norm(std::complex<double>(pss_bins[size_t(n)]));
    }
    d_corr += std::norm(corr) / SYNC_LENGTH;
    d_count++;
    const bool with_sss = sss_bins && sss;
    if (with_sss)
        for (int n = 0; n < SYNC_LENGTH; n++)
            hs[size_t(n)] = std::complex<double>((*sss_bins)[size_t(n)] * (*sss)[size_t(n)]);
    // Neighbouring subcarriers on the same side of DC (n = 30 and 31 are two
    // subcarriers apart, across DC, and are left out).
    for (int n = 0; n + 1 < SYNC_LENGTH; n++) {
        if (n == 30)
            continue;
        d_slope += hp[size_t(n + 1)] * std::conj(hp[size_t(n)]);
        if (with_sss)
            d_slope += hs[size_t(n + 1)] * std::conj(hs[size_t(n)]);
    }
    if (with_sss)
        for (int n = 0; n < SYNC_LENGTH; n++)
            d_turn += hp[size_t(n)] * std::conj(hs[size_t(n)]);
}

double sync_accumulator::delay(int fft_size) const
{
    if (std::abs(d_slope) == 0.0)
        return 0.0;
    return -std::arg(d_slope) * fft_size / (2.0 * M_PI);
}

double sync_accumulator::cfo_hz(const numerology& nu) const
{
    if (std::abs(d_turn) == 0.0)
        return 0.0;
    const int spacing = nu.fft_size + nu.cp_length(nu.symbols_per_slot() - 1);
    return std::arg(d_turn) * nu.sample_rate() / (2.0 * M_PI * spacing);
}

double sync_accumulator::pss_metric() const { return d_energy > 0.0 ? d_corr / d_energy : 0.0; }

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

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
    std::complex<double> own_slope(0.0, 0.0);
    for (int n = 0; n < SYNC_LENGTH; n++) {
        hp[size_t(n)] = std::complex<double>(pss_bins[size_t(n)] * std::conj(pss[size_t(n)]));
        d_energy += std::norm(std::complex<double>(pss_bins[size_t(n)]));
        if (n > 0 && n != 31)
            own_slope += hp[size_t(n)] * std::conj(hp[size_t(n - 1)]);
    }
    // The metric sums the channel coherently after taking out this symbol's
    // own phase slope, so a window a few samples off does not lower it.
    const double theta = std::abs(own_slope) > 0.0 ? std::arg(own_slope) : 0.0;
    std::complex<double> corr(0.0, 0.0);
    for (int n = 0; n < SYNC_LENGTH; n++)
        corr += hp[size_t(n)] * std::polar(1.0, -theta * sync_subcarrier_offset(n));
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
    d_channels.push_back(hp);
    if (with_sss)
        d_channels.push_back(hs);
}

double sync_accumulator::coherent(double delay, int fft_size) const
{
    // turn[n] = w^k for subcarrier offset k = -31..-1, 1..31: powers of one
    // phasor (conjugated below DC) instead of a sine and cosine each; the
    // delay search calls this some sixty times per estimate.
    std::array<std::complex<double>, SYNC_LENGTH> turn;
    const std::complex<double> w = std::polar(1.0, 2.0 * M_PI * delay / fft_size);
    std::complex<double> wk(1.0, 0.0);
    for (int k = 1; k <= SYNC_LENGTH / 2; k++) {
        wk *= w;
        turn[size_t(30 + k)] = wk;            // offset +k: n = k + 30
        turn[size_t(31 - k)] = std::conj(wk); // offset -k: n = 31 - k
    }
    double m = 0.0;
    for (const auto& h : d_channels) {
        std::complex<double> c(0.0, 0.0);
        for (int n = 0; n < SYNC_LENGTH; n++)
            c += h[size_t(n)] * turn[size_t(n)];
        m += std::norm(c);
    }
    return m;
}

double sync_accumulator::delay(int fft_size) const
{
    if (std::abs(d_slope) == 0.0)
        return 0.0;
    const double first = -std::arg(d_slope) * fft_size / (2.0 * M_PI);
    // A grid of 33 points over +-N/16 (the metric's main lobe is about N/62
    // wide), then a golden-section search around the best point.
    const double range = fft_size / 16.0, step = range / 16.0;
    double best = first, best_m = -1.0;
    for (int i = -16; i <= 16; i++) {
        const double d = first + i * step;
        const double m = coherent(d, fft_size);
        if (m > best_m) {
            best_m = m;
            best = d;
        }
    }
    double a = best - step, b = best + step;
    const double g = 0.5 * (std::sqrt(5.0) - 1.0);
    double c = b - g * (b - a), d = a + g * (b - a);
    double mc = coherent(c, fft_size), md = coherent(d, fft_size);
    for (int it = 0; it < 30 && b - a > 1e-3; it++) {
        if (mc > md) {
            b = d;
            d = c;
            md = mc;
            c = b - g * (b - a);
            mc = coherent(c, fft_size);
        } else {
            a = c;
            c = d;
            mc = md;
            d = a + g * (b - a);
            md = coherent(d, fft_size);
        }
    }
    return 0.5 * (a + b);
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

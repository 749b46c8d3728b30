/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/sync/pss.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

int pss_root(int n_id2)
{
    switch (n_id2) {
    case 0: return 25;
    case 1: return 29;
    case 2: return 34;
    default: throw std::invalid_argument("n_id2=" + std::to_string(n_id2) + " is not 0, 1 or 2");
    }
}

std::array<cf, SYNC_LENGTH> pss_sequence(int n_id2)
{
    const int u = pss_root(n_id2);
    std::array<cf, SYNC_LENGTH> d;
    for (int n = 0; n < SYNC_LENGTH; n++) {
        // §6.11.1.1: exponent u n (n+1) for n <= 30, u (n+1)(n+2) after the
        // punctured middle element; reduced mod 126 so the angle is exact.
        const long e = n <= 30 ? long(u) * n * (n + 1) : long(u) * (n + 1) * (n + 2);
        const double a = -M_PI * double(e % 126) / 63.0;
        d[size_t(n)] = cf(float(std::cos(a)), float(std::sin(a)));
    }
    return d;
}

std::vector<cf> pss_time_symbol(int n_id2, int fft_size)
{
    if (fft_size < 64)
        throw std::invalid_argument("fft_size=" + std::to_string(fft_size) + " is below 64");
    const auto d = pss_sequence(n_id2);
    // A direct inverse DFT of 62 bins: built once per tracker or search.
    std::vector<cf> t(static_cast<size_t>(fft_size));
    const double scale = 1.0 / fft_size;
    for (int i = 0; i < fft_size; i++) {
        std::complex<double> acc(0.0, 0.0);
        for (int n = 0; n < SYNC_LENGTH; n++) {
            const long m = (long(sync_subcarrier_offset(n)) * i) % fft_size;
            const double a = 2.0 * M_PI * double(m) / fft_size;
            acc += std::complex<double>(d[size_t(n)]) * std::complex<double>(std::cos(a), std::sin(a));
        }
        t[size_t(i)] = cf(acc * scale);
    }
    return t;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

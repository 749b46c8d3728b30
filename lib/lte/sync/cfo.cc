/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/sync/cfo.h"

#include <volk/volk.h>

#include <algorithm>
#include <cmath>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

void mix(const cf* in, cf* out, size_t n, double phase, double step)
{
    // A float phasor increment is off by up to ~6e-8 rad: 1024 steps keep
    // the drift within 1e-4 rad before the next exact start.
    constexpr size_t BLOCK = 1024;
    const lv_32fc_t w(float(std::cos(step)), float(std::sin(step)));
    for (size_t b = 0; b < n; b += BLOCK) {
        const double a = std::fmod(phase + step * double(b), 2.0 * M_PI);
        lv_32fc_t z(float(std::cos(a)), float(std::sin(a)));
        const size_t e = std::min(n, b + BLOCK);
        volk_32fc_s32fc_x2_rotator_32fc(out + b, in + b, w, &z, unsigned(e - b));
    }
}

std::complex<double> cp_correlation(const cf* subframe, const numerology& nu)
{
    std::complex<double> acc(0.0, 0.0);
    const int per_slot = nu.symbols_per_slot();
    for (int l = 0; l < 2 * per_slot; l++) {
        const int s = nu.symbol_start(l), cp = nu.cp_length(l % per_slot);
        std::complex<float> a(0.0f, 0.0f);
        for (int i = 0; i < cp; i++)
            a += subframe[s + i] * std::conj(subframe[s + i + nu.fft_size]);
        acc += std::complex<double>(a);
    }
    return acc;
}

double cfo_of_cp_correlation(std::complex<double> c, const numerology& nu)
{
    if (std::abs(c) == 0.0)
        return 0.0;
    return -std::arg(c) * nu.sample_rate() / (2.0 * M_PI * nu.fft_size);
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/sync/decimator.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

std::vector<cf> decimate(const cf* x, size_t n, int factor)
{
    if (factor < 1)
        throw std::invalid_argument("factor=" + std::to_string(factor) + " is not a positive decimation");
    if (factor == 1)
        return std::vector<cf>(x, x + n);
    const int half = 8 * factor;
    // Cutoff 950 kHz of an output rate of 1.92 MS/s: 0.495 / factor of the
    // input rate (cycles per sample).
    const double fc = 0.95 / 1.92 / factor;
    std::vector<float> h(size_t(2 * half + 1));
    double sum = 0.0;
    for (int i = -half; i <= half; i++) {
        const double t = double(i);
        const double sinc = i == 0 ? 2.0 * fc : std::sin(2.0 * M_PI * fc * t) / (M_PI * t);
        const double u = double(i + half) / double(2 * half);
        const double w = 0.42 - 0.5 * std::cos(2.0 * M_PI * u) + 0.08 * std::cos(4.0 * M_PI * u);
        h[size_t(i + half)] = float(sinc * w);
        sum += sinc * w;
    }
    for (float& v : h)
        v = float(v / sum);
    const size_t m_out = (n + size_t(factor) - 1) / size_t(factor);
    std::vector<cf> y(m_out);
    for (size_t m = 0; m < m_out; m++) {
        const long c = long(m) * factor;
        const long lo = std::max(0L, c - half), hi = std::min(long(n) - 1, c + half);
        float re = 0.0f, im = 0.0f;
        const float* hp = h.data() + (lo - (c - half));
        const cf* xp = x + lo;
        for (long i = 0; i <= hi - lo; i++) {
            re += hp[i] * xp[i].real();
            im += hp[i] * xp[i].imag();
        }
        y[m] = cf(re, im);
    }
    return y;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

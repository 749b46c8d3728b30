/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "link_sim.h"

#include <cmath>

namespace gr {
namespace gpurx {
namespace test {

namespace {
constexpr double pi = 3.14159265358979323846;
}

std::vector<float> rrc_taps(int sps, double alpha, int span)
{
    const int n = span * sps + 1, mid = n / 2;
    std::vector<double> h(static_cast<size_t>(n));
    double e = 0.0;
    for (int i = 0; i < n; i++) {
        const double t = double(i - mid) / sps;
        double v;
        if (std::abs(t) < 1e-12)
            v = 1.0 - alpha + 4.0 * alpha / pi;
        else if (std::abs(std::abs(4.0 * alpha * t) - 1.0) < 1e-9)
            v = alpha / std::sqrt(2.0) *
                ((1.0 + 2.0 / pi) * std::sin(pi / (4.0 * alpha)) + (1.0 - 2.0 / pi) * std::cos(pi / (4.0 * alpha)));
        else
            v = (std::sin(pi * t * (1.0 - alpha)) + 4.0 * alpha * t * std::cos(pi * t * (1.0 + alpha))) /
                (pi * t * (1.0 - 16.0 * alpha * alpha * t * t));
        h[i] = v;
        e += v * v;
    }
    std::vector<float> out(static_cast<size_t>(n));
    for (int i = 0; i < n; i++)
        out[i] = float(h[i] / std::sqrt(e));
    return out;
}

std::vector<cfloat> convolve(const std::vector<cfloat>& x, const std::vector<float>& h)
{
    std::vector<cfloat> y(x.size() + h.size() - 1, cfloat(0.0f, 0.0f));
    for (size_t i = 0; i < x.size(); i++)
        for (size_t k = 0; k < h.size(); k++)
            y[i + k] += x[i] * h[k];
    return y;
}

std::vector<cfloat> convolve(const std::vector<cfloat>& x, const std::vector<cfloat>& h)
{
    std::vector<cfloat> y(x.size() + h.size() - 1, cfloat(0.0f, 0.0f));
    for (size_t i = 0; i < x.size(); i++)
        for (size_t k = 0; k < h.size(); k++)
            y[i + k] += x[i] * h[k];
    return y;
}

std::vector<cfloat> shape(const std::vector<cfloat>& symbols, int sps, const std::vector<float>& rrc)
{
    std::vector<cfloat> up(symbols.size() * size_t(sps), cfloat(0.0f, 0.0f));
    for (size_t i = 0; i < symbols.size(); i++)
        up[i * size_t(sps)] = symbols[i];
    return convolve(up, rrc);
}

std::vector<cfloat> apply(const channel& c, const std::vector<cfloat>& x, std::mt19937_64& rng)
{
    // Delay: integer part by zeros, fraction by a Hann-windowed sinc.
    const int whole = int(std::floor(c.delay));
    const double frac = c.delay - whole;
    std::vector<cfloat> d(static_cast<size_t>(whole), cfloat(0.0f, 0.0f));
    d.insert(d.end(), x.begin(), x.end());
    if (frac > 0.0) {
        const int half = 16;
        std::vector<float> h(static_cast<size_t>(2 * half + 1));
        for (int k = -half; k <= half; k++) {
            const double t = k - frac;
            const double s = std::abs(t) < 1e-12 ? 1.0 : std::sin(pi * t) / (pi * t);
            const double w = 0.5 + 0.5 * std::cos(pi * t / (half + 1));
            h[k + half] = float(s * w);
        }
        d = convolve(d, h);
        d.erase(d.begin(), d.begin() + half); // keep the delay at frac, not frac + half
    }
    std::vector<cfloat> y = convolve(d, c.taps);
    std::normal_distribution<double> g(0.0, std::sqrt(c.n0 / 2.0));
    for (size_t i = 0; i < y.size(); i++) {
        const double ph = c.phase + 2.0 * pi * c.cfo * double(i);
        y[i] *= cfloat(float(std::cos(ph)), float(std::sin(ph)));
        if (c.n0 > 0.0)
            y[i] += cfloat(float(g(rng)), float(g(rng)));
    }
    return y;
}

std::vector<cfloat> random_symbols(int n, int qm, std::mt19937_64& rng)
{
    std::uniform_int_distribution<int> b(0, qm == 2 ? 1 : 3);
    const float s = qm == 2 ? float(1.0 / std::sqrt(2.0)) : float(1.0 / std::sqrt(10.0));
    std::vector<cfloat> v(static_cast<size_t>(n));
    for (auto& x : v) {
        const int i = b(rng), q = b(rng);
        x = qm == 2 ? cfloat(s * (2 * i - 1), s * (2 * q - 1)) : cfloat(s * (2 * i - 3), s * (2 * q - 3));
    }
    return v;
}

} // namespace test
} // namespace gpurx
} // namespace gr

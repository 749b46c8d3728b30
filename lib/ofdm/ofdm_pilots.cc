/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ofdm/ofdm_pilots.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

ofdm_pilot_layout::ofdm_pilot_layout(int used_, int pilots_) : used(used_), pilots(pilots_)
{
    if (used < 2 || used % 2 != 0)
        throw std::invalid_argument("used must be even and at least 2, got " + std::to_string(used));
    if (pilots < 0 || pilots % 2 != 0 || pilots > used / 2)
        throw std::invalid_argument("pilots must be even and in 0..used/2 (" + std::to_string(used / 2) +
                                    "), got " + std::to_string(pilots));
    const int h = used / 2;
    std::vector<char> is_pilot(size_t(used), 0);
    for (int i = 0; i < pilots / 2; i++) {
        const int o = int((int64_t(2 * i + 1) * h) / pilots) + 1; // 1..h
        is_pilot[size_t(h - o)] = 1;                              // -o
        is_pilot[size_t(h + o - 1)] = 1;                          // +o
    }
    for (int k = 0; k < used; k++)
        (is_pilot[size_t(k)] ? pilot_index : data_index).push_back(k);
}

std::vector<float> common_phase(const ofdm_pilot_layout& l, int nt, int nr, int D, const cfloat* y,
                                const cfloat* h, int window, std::vector<float>* slope)
{
    using cd = std::complex<double>;
    const size_t P = size_t(l.pilots);
    std::vector<float> phase(size_t(std::max(D, 0)), 0.0f);
    if (slope)
        slope->assign(size_t(std::max(D, 0)), 0.0f);
    // corr[s * P + i]: pilot i's correlation in symbol s.
    std::vector<cd> corr(size_t(std::max(D, 0)) * P);
    for (int s = 0; s < D; s++)
        for (size_t i = 0; i < P; i++) {
            const int k = l.pilot_index[i];
            cd acc(0.0, 0.0);
            for (int r = 0; r < nr; r++) {
                cd g(0.0, 0.0);
                for (int j = 0; j < nt; j++)
                    g += cd(h[(size_t(k) * nr + r) * nt + j]) * double(pilot_value(s, int(i), j));
                acc += std::conj(g) * cd(y[(size_t(k) * D + s) * nr + r]);
            }
            corr[size_t(s) * P + i] = acc;
        }
    auto finite = [](cd v) { return std::isfinite(v.real()) && std::isfinite(v.imag()); };
    const int half = std::max(window, 1) / 2;
    std::vector<cd> z(P);
    for (int s = 0; s < D; s++) {
        std::fill(z.begin(), z.end(), cd(0.0, 0.0));
        for (int t = std::max(0, s - half); t <= std::min(D - 1, s + half); t++)
            for (size_t i = 0; i < P; i++)
                z[i] += corr[size_t(t) * P + i];
        double b = 0.0;
        if (slope && P >= 2) {
            double num = 0.0, den = 0.0;
            for (size_t i = 0; i + 1 < P; i++) {
                const cd pair = z[i + 1] * std::conj(z[i]);
                if (!finite(pair) || std::abs(pair) == 0.0)
                    continue;
                const double d = double(l.subcarrier(l.pilot_index[i + 1]) - l.subcarrier(l.pilot_index[i]));
                const double w = std::abs(pair);
                num += w * d * std::arg(pair);
                den += w * d * d;
            }
            if (den > 0.0)
                b = num / den;
            (*slope)[size_t(s)] = float(b);
        }
        cd acc(0.0, 0.0);
        for (size_t i = 0; i < P; i++)
            acc += z[i] * std::polar(1.0, -b * double(l.subcarrier(l.pilot_index[i])));
        if (std::abs(acc) > 0.0 && finite(acc))
            phase[size_t(s)] = float(std::arg(acc));
    }
    return phase;
}

void data_carriers(const ofdm_pilot_layout& l, int nt, int nr, int D, const cfloat* y, const cfloat* h,
                   const float* phase, cfloat* y_out, cfloat* h_out, const float* slope)
{
    std::vector<cfloat> turn(size_t(std::max(D, 0)), cfloat(1.0f, 0.0f));
    if (phase)
        for (int s = 0; s < D; s++)
            turn[size_t(s)] = std::polar(1.0f, -phase[s]);
    for (const int k : l.data_index) {
        if (phase && slope)
            for (int s = 0; s < D; s++)
                turn[size_t(s)] = cfloat(std::polar(1.0, -(double(phase[s]) + double(slope[s]) * l.subcarrier(k))));
        for (int s = 0; s < D; s++)
            for (int r = 0; r < nr; r++)
                *y_out++ = y[(size_t(k) * D + s) * nr + r] * turn[size_t(s)];
        h_out = std::copy(h + size_t(k) * nr * nt, h + size_t(k + 1) * nr * nt, h_out);
    }
}

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte_ber_channel.h"

#include <cmath>
#include <limits>

namespace gr {
namespace gpurx {
namespace apps {

qam_awgn_channel::qam_awgn_channel(int qm, uint64_t seed, bool exact)
    : d_mod(core::qam::modulation_of_bits(qm)),
      d_points(core::qam::constellation_of(d_mod)),
      d_demap(d_mod, exact),
      d_rng(seed)
{
}

std::complex<float> qam_awgn_channel::normal()
{
    const float u1 = (float(d_rng.next() >> 8) + 1.0f) * (1.0f / 16777217.0f);
    const float u2 = float(d_rng.next() >> 8) * (1.0f / 16777216.0f);
    // Variance 1/2 per dimension: E|n|^2 = 1.
    const float r = std::sqrt(-std::log(u1));
    const float a = 6.28318530718f * u2;
    return { r * std::cos(a), r * std::sin(a) };
}

void qam_awgn_channel::transmit(const uint8_t* c, size_t g, double esn0_db, float* llr)
{
    const int qm = d_demap.bits();
    const float n0 = float(std::pow(10.0, -esn0_db / 10.0));
    const float sigma = std::sqrt(n0);
    for (size_t i = 0; i + size_t(qm) <= g; i += size_t(qm)) {
        size_t idx = 0;
        for (int b = 0; b < qm; b++)
            idx = (idx << 1) | (c[i + size_t(b)] & 1u);
        const auto s = d_points.points[idx];
        const std::complex<float> y = std::complex<float>(float(s.real()), float(s.imag())) + sigma * normal();
        d_demap.demap(y, n0, llr + i);
    }
}

} // namespace apps
} // namespace gpurx
} // namespace gr

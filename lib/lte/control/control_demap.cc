/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/control/control_demap.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {

float clamp_llr(float v)
{
    if (!std::isfinite(v))
        return 0.0f;
    return std::min(control_llr_limit, std::max(-control_llr_limit, v));
}

//! QPSK 36.211 Table 7.1.2-1: bit 0 -> +1/sqrt(2), so with y = d + noise
//! of variance v per complex sample L = -2 sqrt(2) Re y / v (and Im for the
//! second bit). \p z is the matched-filter output g d + noise of variance
//! g n0, so y = z / g and v = n0 / g: L = -2 sqrt(2) Re z / n0.
void qpsk_llr(cf z, float scale, float* llr)
{
    llr[0] = clamp_llr(-scale * z.real());
    llr[1] = clamp_llr(-scale * z.imag());
}

} // namespace

void demap_control_quadruplets(const subframe_grid& g, const channel_estimate& h, int ports, const int32_t* re,
                               int n_quads, float* llr)
{
    if (ports != 1 && ports != 2 && ports != 4)
        throw std::invalid_argument("ports=" + std::to_string(ports) + " is not 1, 2 or 4");
    if (h.n_ports < ports || h.n_rx < g.n_rx || h.n_sc != g.n_sc || h.n_symbols < g.n_symbols)
        throw std::invalid_argument("channel estimate of " + std::to_string(h.n_ports) + " ports, " +
                                    std::to_string(h.n_rx) + " antennas does not cover the grid");
    const int32_t re_count = int32_t(g.n_symbols) * int32_t(g.n_sc);
    for (int i = 0; i < 4 * n_quads; i++)
        if (re[i] < 0 || re[i] >= re_count)
            throw std::invalid_argument("re[" + std::to_string(i) + "]=" + std::to_string(re[i]) +
                                        " is outside the grid of " + std::to_string(g.n_symbols) + " x " +
                                        std::to_string(g.n_sc) + " REs");
    if (g.re.size() < size_t(g.n_rx) * size_t(re_count) || h.h.size() < size_t(h.n_rx) * size_t(h.n_ports) * size_t(h.n_symbols) * size_t(h.n_sc))
        throw std::invalid_argument("grid or channel estimate smaller than its dimensions say");
    const float n0 = std::max(std::isfinite(h.noise_var) ? h.noise_var : 0.0f, 1e-12f);
    const size_t plane = size_t(g.n_symbols) * size_t(g.n_sc);
    const size_t hplane = size_t(h.n_symbols) * size_t(h.n_sc);
    auto rx_at = [&](int a, int32_t off) { return g.re[size_t(a) * plane + size_t(off)]; };
    auto h_at = [&](int a, int p, int32_t off) {
        return h.h[(size_t(a) * size_t(h.n_ports) + size_t(p)) * hplane + size_t(off)];
    };

    if (ports == 1) {
        const float scale = 2.0f * std::sqrt(2.0f) / n0;
        for (int s = 0; s < 4 * n_quads; s++) {
            cf z(0.0f, 0.0f);
            for (int a = 0; a < g.n_rx; a++)
                z += std::conj(h_at(a, 0, re[s])) * rx_at(a, re[s]);
            qpsk_llr(z, scale, llr + 2 * s);
        }
        return;
    }
    // SFBC (§6.3.4.3): a pair d0, d1 goes out as [d0, d1] / sqrt(2) on port
    // pa and [-d1*, d0*] / sqrt(2) on port pb. With r0, r1 received on the
    // pair's REs and the channel taken as equal over them,
    // h_a* r0 + h_b r1* = g d0 / sqrt(2) and h_a* r1 - h_b r0* = g d1 / sqrt(2)
    // (g = |h_a|^2 + |h_b|^2), each with noise variance g n0: the QPSK LLR
    // is -2 Re z / n0.
    const float scale = 2.0f / n0;
    for (int pair = 0; pair < 2 * n_quads; pair++) {
        const int pa = ports == 2 ? 0 : (pair % 2 == 0 ? 0 : 1);
        const int pb = ports == 2 ? 1 : (pair % 2 == 0 ? 2 : 3);
        const int32_t o0 = re[2 * pair], o1 = re[2 * pair + 1];
        cf z0(0.0f, 0.0f), z1(0.0f, 0.0f);
        for (int a = 0; a < g.n_rx; a++) {
            const cf ha = 0.5f * (h_at(a, pa, o0) + h_at(a, pa, o1));
            const cf hb = 0.5f * (h_at(a, pb, o0) + h_at(a, pb, o1));
            const cf r0 = rx_at(a, o0), r1 = rx_at(a, o1);
            z0 += std::conj(ha) * r0 + hb * std::conj(r1);
            z1 += std::conj(ha) * r1 - hb * std::conj(r0);
        }
        qpsk_llr(z0, scale, llr + 4 * pair);
        qpsk_llr(z1, scale, llr + 4 * pair + 2);
    }
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/sync/sss.h"

#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {

/*!
 * 1 - 2 x(i), i = 0..30, of the length-31 m-sequence with recursion
 * x(i+5) = sum of x(i + t) over the taps t, started from x(0..4) = 0 0 0 0 1
 * (§6.11.2.1: s~ taps {2, 0}, c~ taps {3, 0}, z~ taps {4, 2, 1, 0}).
 */
template <size_t N_TAPS>
std::array<int, 31> m_sequence(const int (&taps)[N_TAPS])
{
    int x[31] = { 0, 0, 0, 0, 1 };
    for (int i = 0; i + 5 < 31; i++) {
        int s = 0;
        for (int t : taps)
            s += x[i + t];
        x[i + 5] = s & 1;
    }
    std::array<int, 31> r;
    for (int i = 0; i < 31; i++)
        r[size_t(i)] = 1 - 2 * x[i];
    return r;
}

} // namespace

sss_shifts sss_shifts_of(int n_id1)
{
    if (n_id1 < 0 || n_id1 > 167)
        throw std::invalid_argument("n_id1=" + std::to_string(n_id1) + " is outside 0..167");
    const int qp = n_id1 / 30;
    const int q = (n_id1 + qp * (qp + 1) / 2) / 30;
    const int mp = n_id1 + q * (q + 1) / 2;
    sss_shifts s;
    s.m0 = mp % 31;
    s.m1 = (s.m0 + mp / 31 + 1) % 31;
    return s;
}

std::array<float, SYNC_LENGTH> sss_sequence(int n_id1, int n_id2, bool in_subframe5)
{
    if (n_id2 < 0 || n_id2 > 2)
        throw std::invalid_argument("n_id2=" + std::to_string(n_id2) + " is not 0, 1 or 2");
    static const std::array<int, 31> s_t = m_sequence({ 2, 0 });
    static const std::array<int, 31> c_t = m_sequence({ 3, 0 });
    static const std::array<int, 31> z_t = m_sequence({ 4, 2, 1, 0 });
    const sss_shifts m = sss_shifts_of(n_id1);
    std::array<float, SYNC_LENGTH> d;
    for (int n = 0; n < 31; n++) {
        const int s0 = s_t[size_t((n + m.m0) % 31)], s1 = s_t[size_t((n + m.m1) % 31)];
        const int c0 = c_t[size_t((n + n_id2) % 31)], c1 = c_t[size_t((n + n_id2 + 3) % 31)];
        const int z1_m0 = z_t[size_t((n + m.m0 % 8) % 31)], z1_m1 = z_t[size_t((n + m.m1 % 8) % 31)];
        if (!in_subframe5) {
            d[size_t(2 * n)] = float(s0 * c0);
            d[size_t(2 * n + 1)] = float(s1 * c1 * z1_m0);
        } else {
            d[size_t(2 * n)] = float(s1 * c0);
            d[size_t(2 * n + 1)] = float(s0 * c1 * z1_m1);
        }
    }
    return d;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/pbch/mib.h"

#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {
int take(const uint8_t* bits, int& at, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++)
        v = (v << 1) | (bits[at++] ? 1 : 0);
    return v;
}
void put(uint8_t* bits, int& at, int n, int v)
{
    for (int i = n - 1; i >= 0; i--)
        bits[at++] = uint8_t((v >> i) & 1);
}
} // namespace

bool parse_mib(const uint8_t* bits, int frame_in_tti, mib& m)
{
    int at = 0;
    const int bw = take(bits, at, 3);
    if (bw > 5)
        return false;
    m.n_prb = standard_n_prb[bw];
    m.phich_extended = take(bits, at, 1) != 0;
    m.ng = phich_ng(take(bits, at, 2));
    m.sfn = 4 * take(bits, at, 8) + (frame_in_tti & 3);
    m.spare = take(bits, at, 10);
    return true;
}

void pack_mib(const mib& m, uint8_t* bits)
{
    int bw = -1;
    for (int i = 0; i < 6; i++)
        if (standard_n_prb[i] == m.n_prb)
            bw = i;
    if (bw < 0)
        throw std::invalid_argument("n_prb=" + std::to_string(m.n_prb) + " is not a bandwidth the MIB can signal");
    if (m.sfn < 0 || m.sfn > 1023)
        throw std::invalid_argument("sfn=" + std::to_string(m.sfn) + " is outside 0..1023");
    int at = 0;
    put(bits, at, 3, bw);
    put(bits, at, 1, m.phich_extended ? 1 : 0);
    put(bits, at, 2, int(m.ng));
    put(bits, at, 8, m.sfn >> 2);
    put(bits, at, 10, m.spare & 0x3ff);
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

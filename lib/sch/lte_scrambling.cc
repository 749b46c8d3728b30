/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "sch/lte_scrambling.h"
#include "sch/sch_arith.h"

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

namespace {

uint32_t advance(uint32_t s, bool x1, long steps)
{
    for (; steps >= 32; steps -= 32)
        s = x1 ? gold_x1_advance32(s) : gold_x2_advance32(s);
    for (; steps > 0; steps--)
        s = (s >> 1) | ((x1 ? gold_x1_next(s) : gold_x2_next(s)) << 30);
    return s;
}

// The matrix of `steps` steps of one register: column j is the state that
// unit state bit j becomes.
void matrix_of(bool x1, long steps, uint32_t* columns)
{
    for (int j = 0; j < 31; j++)
        columns[j] = advance(1u << j, x1, steps);
}

} // namespace

void gold_start(uint32_t c_init, uint32_t& x1, uint32_t& x2)
{
    static const uint32_t x1_start = advance(1u, true, GOLD_NC);
    x1 = x1_start;
    x2 = advance(c_init & 0x7FFFFFFFu, false, GOLD_NC);
}

void gold_words(uint32_t c_init, uint32_t* words, size_t n)
{
    uint32_t x1, x2;
    gold_start(c_init, x1, x2);
    for (size_t w = 0; w < n; w++) {
        words[w] = gold_word(x1, x2);
        x1 = gold_x1_advance32(x1);
        x2 = gold_x2_advance32(x2);
    }
}

std::vector<uint8_t> gold_bits(uint32_t c_init, size_t n)
{
    std::vector<uint32_t> w((n + 31) / 32);
    gold_words(c_init, w.data(), w.size());
    std::vector<uint8_t> bits(n);
    for (size_t i = 0; i < n; i++)
        bits[i] = uint8_t((w[i / 32] >> (i % 32)) & 1u);
    return bits;
}

const gold_warp_tables& gold_warp()
{
    static const gold_warp_tables t = [] {
        gold_warp_tables w;
        w.x1_group.resize(GOLD_GROUPS);
        w.x2_group.resize(size_t(GOLD_GROUPS) * 31);
        w.lane_x1.resize(32 * 31);
        w.lane_x2.resize(32 * 31);
        uint32_t x1 = advance(1u, true, GOLD_NC);
        uint32_t cols[31];
        matrix_of(false, GOLD_NC, cols);
        for (int g = 0; g < GOLD_GROUPS; g++) {
            w.x1_group[size_t(g)] = x1;
            for (int j = 0; j < 31; j++) {
                w.x2_group[size_t(g) * 31 + size_t(j)] = cols[j];
                cols[j] = advance(cols[j], false, 1024);
            }
            x1 = advance(x1, true, 1024);
        }
        for (int l = 0; l < 32; l++) {
            matrix_of(true, 32L * l, &w.lane_x1[size_t(l) * 31]);
            matrix_of(false, 32L * l, &w.lane_x2[size_t(l) * 31]);
        }
        return w;
    }();
    return t;
}

uint32_t gold_word_by_group(const gold_warp_tables& t, uint32_t c_init, uint32_t w)
{
    const uint32_t g = w / 32, l = w % 32;
    const uint32_t x2g = gf2_apply(&t.x2_group[size_t(g) * 31], c_init & 0x7FFFFFFFu);
    return gold_word(gf2_apply(&t.lane_x1[l * 31], t.x1_group[g]), gf2_apply(&t.lane_x2[l * 31], x2g));
}

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

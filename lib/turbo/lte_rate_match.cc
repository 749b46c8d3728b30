/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo/lte_rate_match.h"
#include "turbo/lte_qpp.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

namespace {

constexpr int COLUMNS = 32; // C_TC
// Inter-column permutation pattern of the sub-block interleaver (Table 5.1.4-1).
constexpr int COLUMN_PERMUTATION[COLUMNS] = { 0, 16, 8,  24, 4, 20, 12, 28, 2, 18, 10,
                                              26, 6, 22, 14, 30, 1, 17, 9,  25, 5, 21,
                                              13, 29, 3, 19, 11, 27, 7, 23, 15, 31 };

} // namespace

lte_rate_match::lte_rate_match(int K, int E_) : d_K(K)
{
    if (!lte_valid_K(K))
        throw std::invalid_argument("lte_rate_match: K=" + std::to_string(K) +
                                    " is not an LTE turbo block size");
    if (E_ < 0 || E_ > 64 * (3 * K + 12))
        throw std::invalid_argument("lte_rate_match: E=" + std::to_string(E_) + " must be in 1.." +
                                    std::to_string(64 * (3 * K + 12)) + " (0: 3K+12)");
    const int D = K + 4;                             // bits per stream, tail included
    const int R = (D + COLUMNS - 1) / COLUMNS;       // rows
    const int Kpi = R * COLUMNS;                     // stream length with dummies
    const int dummies = Kpi - D;                     // <NULL>s at the front of each stream
    // Stream i's interleaved position k holds y(i) index y; y < dummies is a
    // <NULL>, otherwise it is d(i)_{y - dummies}, codeword position 3(y - dummies) + i.
    auto stream_index = [&](int i, int k) {
        const int y = COLUMN_PERMUTATION[k / R] + COLUMNS * (k % R);
        return i < 2 ? y : (y + 1) % Kpi;
    };
    auto circular_buffer = [&](int w) { // w_k of §5.1.4.1.2: -1 for <NULL>
        int i, k;
        if (w < Kpi) {
            i = 0;
            k = w;
        } else {
            i = 1 + (w - Kpi) % 2;
            k = (w - Kpi) / 2;
        }
        const int y = stream_index(i, k);
        return y < dummies ? -1 : 3 * (y - dummies) + i;
    };
    const int Ncb = 3 * Kpi;
    const int k0 = 2 * R; // R (2 ceil(Ncb / 8R) rv + 2) with rv = 0
    const int E = E_ ? E_ : 3 * D;
    d_order.reserve(size_t(E));
    for (int j = 0; int(d_order.size()) < E; j++) {
        const int c = circular_buffer((k0 + j) % Ncb);
        if (c >= 0)
            d_order.push_back(c);
    }
}

void lte_rate_match::match(const uint8_t* codeword, uint8_t* sent) const
{
    for (size_t j = 0; j < d_order.size(); j++)
        sent[j] = codeword[d_order[j]];
}

void lte_rate_match::dematch(const float* received, float* llr) const
{
    std::fill(llr, llr + 3 * (d_K + 4), 0.0f);
    for (size_t j = 0; j < d_order.size(); j++)
        llr[d_order[j]] += received[j];
}

void lte_rate_match::feedback(const float* coded_ext, const float* received, float* apriori, float* scratch) const
{
    dematch(received, scratch);
    for (size_t j = 0; j < d_order.size(); j++) {
        const int c = d_order[j];
        apriori[j] = coded_ext[c] + (scratch[c] - received[j]);
    }
}

} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo/lte_rate_match.h"
#include "turbo/lte_circular_buffer.h"
#include "turbo/lte_qpp.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

lte_rate_match::lte_rate_match(int K, int E_) : d_K(K)
{
    if (!lte_valid_K(K))
        throw std::invalid_argument("lte_rate_match: K=" + std::to_string(K) +
                                    " is not an LTE turbo block size");
    if (E_ < 0 || E_ > 64 * (3 * K + 12))
        throw std::invalid_argument("lte_rate_match: E=" + std::to_string(E_) + " must be in 1.." +
                                    std::to_string(64 * (3 * K + 12)) + " (0: 3K+12)");
    const int D = K + 4; // bits per stream, tail included
    // No soft-buffer limit (N_cb = K_w), rv 0: k0 = 2R; no filler bits.
    const int R = turbo::subblock_rows(K);
    const int Ncb = turbo::circular_length(K);
    const int k0 = 2 * R;
    const int E = E_ ? E_ : 3 * D;
    d_order.reserve(size_t(E));
    for (int j = 0; int(d_order.size()) < E; j++) {
        const int c = turbo::circular_to_codeword(K, 0, (k0 + j) % Ncb);
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

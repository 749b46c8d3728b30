/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/coding/lte_cc.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {

constexpr int columns = 32; // C_subblock^CC, 36.212 §5.1.4.2.1

void check_positive(int v, const char* name)
{
    if (v < 1)
        throw std::invalid_argument(std::string(name) + "=" + std::to_string(v) + " is not positive");
}

// The bit collection w of §5.1.4.2 for D = K bits per stream, walked in
// order: w position j (0 .. 96R-1) holds the coded bit d[index] or <NULL>.
struct collection {
    int K, rows, dummies, length;

    explicit collection(int K_) : K(K_)
    {
        rows = (K + columns - 1) / columns;   // R_subblock^CC
        dummies = rows * columns - K;         // N_D, placed first (y_k = NULL, k < N_D)
        length = 3 * rows * columns;          // K_w = 3 K_Pi
    }

    // d's index (step * 3 + stream) of w_j, or -1 for <NULL>.
    int source(int j) const
    {
        const int kpi = rows * columns;
        const int stream = j / kpi;
        const int m = j - stream * kpi;
        // v_m is read column by column from the matrix whose columns were
        // permuted: column m / R of the output is column P(m / R) of the
        // matrix written row by row, so v_m = y_(row * C + P(column)).
        const int col = cc_column_permutation[m / rows];
        const int y = (m % rows) * columns + col;
        if (y < dummies)
            return -1;
        return 3 * (y - dummies) + stream;
    }
};

float finite_llr(float v)
{
    if (std::isnan(v))
        return 0.0f;
    if (v > cc_llr_limit)
        return cc_llr_limit;
    if (v < -cc_llr_limit)
        return -cc_llr_limit;
    return v;
}

} // namespace

void cc_encode(const uint8_t* c, int K, uint8_t* d)
{
    if (K < cc_min_bits)
        throw std::invalid_argument("K=" + std::to_string(K) + " is below the " + std::to_string(cc_min_bits) +
                                    " bits a tail-biting start state needs");
    // Register r: bit 6 the current input c_k, bit 5 - i = s_i (s_0 the
    // most recent previous input). 36.212 §5.1.3.1: s_i = c_(K-1-i) at start.
    unsigned s = 0;
    for (int i = 0; i < cc_min_bits; i++)
        s |= unsigned(c[K - 1 - i] ? 1u : 0u) << (cc_min_bits - 1 - i);
    for (int k = 0; k < K; k++) {
        const unsigned r = (unsigned(c[k] ? 1u : 0u) << cc_min_bits) | s;
        for (int i = 0; i < 3; i++)
            d[3 * k + i] = uint8_t(__builtin_parity(r & cc_generators[i]));
        s = r >> 1;
    }
}

std::vector<uint8_t> cc_encode(const std::vector<uint8_t>& c)
{
    std::vector<uint8_t> d(3 * c.size());
    cc_encode(c.data(), int(c.size()), d.data());
    return d;
}

void cc_rate_match_pattern(int K, std::vector<int>& pattern)
{
    check_positive(K, "K");
    const collection w(K);
    pattern.resize(size_t(3) * K);
    size_t k = 0;
    for (int j = 0; j < w.length; j++) {
        const int src = w.source(j);
        if (src >= 0)
            pattern[k++] = src;
    }
}

void cc_rate_match(const uint8_t* d, int K, int E, uint8_t* e)
{
    check_positive(K, "K");
    check_positive(E, "E");
    const collection w(K);
    int j = 0;
    for (int k = 0; k < E; j = (j + 1 == w.length) ? 0 : j + 1) {
        const int src = w.source(j);
        if (src >= 0)
            e[k++] = d[src];
    }
}

std::vector<uint8_t> cc_rate_match(const std::vector<uint8_t>& d, int E)
{
    if (d.size() % 3 != 0)
        throw std::invalid_argument("d.size()=" + std::to_string(d.size()) + " is not a multiple of 3");
    std::vector<uint8_t> e(E > 0 ? size_t(E) : 0);
    cc_rate_match(d.data(), int(d.size() / 3), E, e.data());
    return e;
}

void cc_rate_dematch(const float* e_llr, int E, int K, float* d_llr)
{
    check_positive(K, "K");
    check_positive(E, "E");
    const collection w(K);
    for (int i = 0; i < 3 * K; i++)
        d_llr[i] = 0.0f;
    int j = 0;
    for (int k = 0; k < E; j = (j + 1 == w.length) ? 0 : j + 1) {
        const int src = w.source(j);
        if (src >= 0)
            d_llr[src] += finite_llr(e_llr[k++]);
    }
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

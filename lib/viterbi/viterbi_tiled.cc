/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi/viterbi_tiled.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

namespace {
constexpr double unreachable = -std::numeric_limits<double>::infinity();
}

viterbi_tiled::viterbi_tiled(const viterbi_code& code, int chunk) : d_code(code), d_chunk(chunk)
{
    if (chunk < 1)
        throw std::invalid_argument("chunk must be at least 1 trellis step, got " + std::to_string(chunk));
    const size_t S = size_t(code.states());
    d_metric.resize(S);
    d_next.resize(S);
    d_table.resize(S * S);
}

void viterbi_tiled::chunk_branch_metrics(const float* llr, int t0, int t1)
{
    const int n = d_code.n();
    const size_t combos = size_t(1) << n;
    d_bm.resize(size_t(t1 - t0) * combos);
    for (int t = t0; t < t1; t++)
        viterbi::step_branch_metrics(llr + size_t(t) * n, n, &d_bm[size_t(t - t0) * combos]);
}

void viterbi_tiled::chunk_forward(int t0, int t1, int start, double* row, bool keep_decisions)
{
    const int S = d_code.states(), top = d_code.K() - 2, mask = S - 1;
    const size_t combos = size_t(1) << d_code.n();
    if (keep_decisions)
        d_decisions.resize(size_t(t1 - t0) * S);
    for (int s = 0; s < S; s++)
        d_metric[s] = s == start ? 0.0 : unreachable;
    for (int t = t0; t < t1; t++) {
        const double* bm = &d_bm[size_t(t - t0) * combos];
        uint8_t* dec = keep_decisions ? &d_decisions[size_t(t - t0) * S] : nullptr;
        for (int s = 0; s < S; s++) {
            const int u = s >> top;
            const int p0 = (s << 1) & mask, p1 = p0 | 1;
            const double m0 = d_metric[p0] + bm[d_code.outputs(p0, u)];
            const double m1 = d_metric[p1] + bm[d_code.outputs(p1, u)];
            d_next[s] = m1 > m0 ? m1 : m0; // a tie keeps the lower predecessor
            if (dec)
                dec[s] = m1 > m0;
        }
        d_metric.swap(d_next);
    }
    for (int s = 0; s < S; s++)
        row[s] = d_metric[s];
}

viterbi_path viterbi_tiled::decode(const float* llr, int frame_bits, uint8_t* bits)
{
    d_code.check_frame_bits(frame_bits);
    const int S = d_code.states(), top = d_code.K() - 2, mask = S - 1;
    const int steps = d_code.steps(frame_bits);
    const int chunks = (steps + d_chunk - 1) / d_chunk;
    const bool tail_biting = d_code.term() == viterbi::termination::tail_biting;
    // The frame's possible start states: all of them when tail-biting, else 0.
    const int starts = tail_biting ? S : 1;
    d_D.assign(size_t(starts) * S, unreachable);
    d_D_next.resize(d_D.size());
    d_middle.resize(size_t(chunks) * starts * S);

    // 1 + 2: decode each chunk from every start, fold it into D.
    for (int c = 0; c < chunks; c++) {
        const int t0 = c * d_chunk, t1 = std::min(steps, t0 + d_chunk);
        chunk_branch_metrics(llr, t0, t1);
        uint16_t* middle = &d_middle[size_t(c) * starts * S];
        if (c == 0) {
            // The first chunk starts where the frame does.
            for (int a = 0; a < starts; a++) {
                chunk_forward(t0, t1, a, &d_D[size_t(a) * S], false);
                for (int b = 0; b < S; b++)
                    middle[size_t(a) * S + b] = uint16_t(a);
            }
            continue;
        }
        for (int a = 0; a < S; a++)
            chunk_forward(t0, t1, a, &d_table[size_t(a) * S], false);
        for (int a = 0; a < starts; a++) {
            const double* D = &d_D[size_t(a) * S];
            double* out = &d_D_next[size_t(a) * S];
            uint16_t* mid = &middle[size_t(a) * S];
            for (int b = 0; b < S; b++) {
                double best = unreachable;
                int arg = 0;
                for (int s = 0; s < S; s++) {
                    const double v = D[s] + d_table[size_t(s) * S + b];
                    if (v > best) { // a tie keeps the lower middle state
                        best = v;
                        arg = s;
                    }
                }
                out[b] = best;
                mid[b] = uint16_t(arg);
            }
        }
        d_D.swap(d_D_next);
    }

    // 3: the end state, then the path's state at every chunk boundary.
    int start = 0, end = 0;
    switch (d_code.term()) {
    case viterbi::termination::terminated:
        break;
    case viterbi::termination::truncated:
        for (int b = 1; b < S; b++)
            if (d_D[b] > d_D[end])
                end = b;
        break;
    default:
        for (int s = 1; s < S; s++)
            if (d_D[size_t(s) * S + s] > d_D[size_t(start) * S + start])
                start = s;
        end = start;
        break;
    }
    const viterbi_path path{ d_D[size_t(tail_biting ? start : 0) * S + end], end };
    d_boundary.assign(size_t(chunks) + 1, 0);
    d_boundary[chunks] = end;
    for (int c = chunks - 1; c >= 0; c--)
        d_boundary[c] =
            d_middle[(size_t(c) * starts + (tail_biting ? start : 0)) * S + d_boundary[c + 1]];

    // Each chunk again from its known start, traced back from its known end.
    for (int c = 0; c < chunks; c++) {
        const int t0 = c * d_chunk, t1 = std::min(steps, t0 + d_chunk);
        chunk_branch_metrics(llr, t0, t1);
        chunk_forward(t0, t1, d_boundary[c], d_table.data(), true);
        int s = d_boundary[c + 1];
        for (int t = t1 - 1; t >= t0; t--) {
            if (t < frame_bits)
                bits[t] = uint8_t(s >> top);
            s = ((s << 1) & mask) | d_decisions[size_t(t - t0) * S + s];
        }
    }
    return path;
}

} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi/viterbi_reference.h"

#include <limits>

namespace gr {
namespace gpurx {
namespace core {

namespace {
constexpr double unreachable = -std::numeric_limits<double>::infinity();
}

viterbi_reference::viterbi_reference(const viterbi_code& code)
    : d_code(code),
      d_metric(size_t(code.states())),
      d_next(size_t(code.states())),
      d_bm(size_t(1) << code.n())
{
}

void viterbi_reference::forward(const float* llr, int steps, int start)
{
    const int S = d_code.states(), n = d_code.n(), top = d_code.K() - 2;
    const int mask = S - 1;
    d_decisions.resize(size_t(steps) * size_t(S));
    for (int s = 0; s < S; s++)
        d_metric[s] = s == start ? 0.0 : unreachable;
    for (int t = 0; t < steps; t++) {
        viterbi::step_branch_metrics(llr + size_t(t) * n, n, d_bm.data());
        uint8_t* dec = &d_decisions[size_t(t) * S];
        for (int s = 0; s < S; s++) {
            const int u = s >> top; // the input that leads into s
            const int p0 = (s << 1) & mask, p1 = p0 | 1;
            const double m0 = d_metric[p0] + d_bm[d_code.outputs(p0, u)];
            const double m1 = d_metric[p1] + d_bm[d_code.outputs(p1, u)];
            // Strictly better only: a tie keeps the lower predecessor.
            dec[s] = m1 > m0;
            d_next[s] = m1 > m0 ? m1 : m0;
        }
        d_metric.swap(d_next);
    }
}

void viterbi_reference::traceback(int steps, int end, int frame_bits, uint8_t* bits) const
{
    const int S = d_code.states(), top = d_code.K() - 2, mask = S - 1;
    int s = end;
    for (int t = steps - 1; t >= 0; t--) {
        if (t < frame_bits)
            bits[t] = uint8_t(s >> top);
        s = ((s << 1) & mask) | d_decisions[size_t(t) * S + s];
    }
}

viterbi_path viterbi_reference::decode(const float* llr, int frame_bits, uint8_t* bits)
{
    d_code.check_frame_bits(frame_bits);
    const int steps = d_code.steps(frame_bits), S = d_code.states();
    switch (d_code.term()) {
    case viterbi::termination::terminated: {
        forward(llr, steps, 0);
        const viterbi_path p{ d_metric[0], 0 };
        traceback(steps, 0, frame_bits, bits);
        return p;
    }
    case viterbi::termination::truncated: {
        forward(llr, steps, 0);
        int best = 0;
        for (int s = 1; s < S; s++)
            if (d_metric[s] > d_metric[best])
                best = s;
        const viterbi_path p{ d_metric[best], best };
        traceback(steps, best, frame_bits, bits);
        return p;
    }
    default: {
        // Exact tail-biting: the best over start states s of the best path
        // from s back to s.
        int best = 0;
        double best_metric = unreachable;
        for (int s = 0; s < S; s++) {
            forward(llr, steps, s);
            if (s == 0 || d_metric[s] > best_metric) {
                best_metric = d_metric[s];
                best = s;
            }
        }
        forward(llr, steps, best);
        traceback(steps, best, frame_bits, bits);
        return { best_metric, best };
    }
    }
}

} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi/viterbi_encoder.h"

namespace gr {
namespace gpurx {
namespace core {

std::vector<uint8_t> viterbi_encode(const viterbi_code& code, const uint8_t* bits, int frame_bits)
{
    code.check_frame_bits(frame_bits);
    const int K = code.K(), n = code.n(), steps = code.steps(frame_bits);
    int state = 0;
    if (code.term() == viterbi::termination::tail_biting)
        for (int t = frame_bits - (K - 1); t < frame_bits; t++)
            state = code.next_state(state, bits[t] ? 1 : 0); // the last K-1 bits, as if just sent
    const auto& keep = code.puncture();
    std::vector<uint8_t> out;
    out.reserve(code.coded_bits(frame_bits));
    size_t j = 0;
    for (int t = 0; t < steps; t++) {
        const int u = t < frame_bits && bits[t] ? 1 : 0; // tail steps input 0
        const unsigned o = code.outputs(state, u);
        for (int i = 0; i < n; i++, j++)
            if (keep[j % keep.size()])
                out.push_back(uint8_t((o >> i) & 1u));
        state = code.next_state(state, u);
    }
    return out;
}

} // namespace core
} // namespace gpurx
} // namespace gr

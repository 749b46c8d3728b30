/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Test helpers for the stream decoder: an independent reference of the
// definition in viterbi_stream.h (its own trellis from a window of the last
// K inputs, its own depuncturing, the whole stream in one array: no code
// shared with the decoder), and a stream run through the framer and a
// pipeline in pieces of given sizes, as the block does.
#ifndef INCLUDED_GPURX_VITERBI_STREAM_TEST_UTIL_H
#define INCLUDED_GPURX_VITERBI_STREAM_TEST_UTIL_H

#include "test_util.h"
#include "pipeline/batch_pipeline.h"
#include "viterbi/viterbi_stream.h"
#include "viterbi/viterbi_stream_framer.h"
#include "viterbi/viterbi_stream_implementations.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpurx {
namespace test {

/*!
 * The stream definition, computed directly: window c decodes [cL, (c+1)L)
 * from a Viterbi run over [max(0, cL - D), min((c+1)L + D, T)), from state
 * 0 when the run starts at step 0 and from all states at metric 0 otherwise,
 * traced back from the best end state (the lowest on ties); ties in
 * add-compare-select keep the lower predecessor. \p llr: the received
 * (punctured) LLRs; polys in the standards' order (MSB taps the current bit).
 */
inline std::vector<uint8_t> reference_stream_decode(int K,
                                                    const std::vector<unsigned>& polys,
                                                    const std::vector<int>& puncture,
                                                    int D,
                                                    int L,
                                                    const std::vector<float>& llr)
{
    const int n = int(polys.size()), S = 1 << (K - 1);
    // Depuncture the whole stream: every step whose kept LLRs have all
    // arrived (a step cut short at the end is dropped).
    auto kept = [&](size_t pos) { return puncture.empty() || puncture[pos % puncture.size()] != 0; };
    std::vector<std::vector<double>> rx;
    for (size_t t = 0, k = 0;; t++) {
        size_t need = 0;
        for (int i = 0; i < n; i++)
            need += kept(t * size_t(n) + size_t(i));
        if (k + need > llr.size())
            break;
        std::vector<double> step(size_t(n), 0.0);
        for (int i = 0; i < n; i++)
            if (kept(t * size_t(n) + size_t(i)))
                step[size_t(i)] = double(llr[k++]);
        rx.push_back(step);
    }
    const int T = int(rx.size());
    // Branch metric of the step from state s (bit j-1 of the window = input
    // j steps ago, read from s: the newest input is s's MSB) with input u.
    auto branch = [&](int t, int s, int u) {
        double m = 0.0;
        for (int i = 0; i < n; i++) {
            int c = u & int((polys[size_t(i)] >> (K - 1)) & 1u);
            for (int j = 1; j < K; j++) {
                const int past = (s >> (K - 1 - j)) & 1;
                c ^= past & int((polys[size_t(i)] >> (K - 1 - j)) & 1u);
            }
            m += c ? 0.5 * rx[size_t(t)][size_t(i)] : -0.5 * rx[size_t(t)][size_t(i)];
        }
        return m;
    };
    std::vector<uint8_t> bits(size_t(T), 0);
    const double minus_inf = -std::numeric_limits<double>::infinity();
    for (int c = 0; long(c) * L < T; c++) {
        const int a = std::max(0, c * L - D), b = std::min((c + 1) * L + D, T);
        std::vector<double> m(size_t(S), 0.0), nm(size_t(S), 0.0);
        if (a == 0)
            for (int s = 1; s < S; s++)
                m[size_t(s)] = minus_inf;
        std::vector<std::vector<int>> from(size_t(b - a), std::vector<int>(size_t(S)));
        for (int t = a; t < b; t++) {
            for (int s = 0; s < S; s++) {
                const int u = s >> (K - 2); // the newest input is the new state's MSB
                double best = minus_inf;
                int arg = -1;
                for (int pred = 0; pred < S; pred++) { // in increasing order: ties keep the lower
                    if (((pred >> 1) | (u << (K - 2))) != s)
                        continue;
                    const double v = m[size_t(pred)] + branch(t, pred, u);
                    if (arg < 0 || v > best) {
                        best = v;
                        arg = pred;
                    }
                }
                nm[size_t(s)] = best;
                from[size_t(t - a)][size_t(s)] = arg;
            }
            m.swap(nm);
        }
        int s = 0;
        for (int x = 1; x < S; x++)
            if (m[size_t(x)] > m[size_t(s)])
                s = x;
        for (int t = b - 1; t >= a; t--) {
            if (t >= c * L && t < (c + 1) * L)
                bits[size_t(t)] = uint8_t(s >> (K - 2));
            s = from[size_t(t - a)][size_t(s)];
        }
    }
    return bits;
}

//! A stream's items as the block stages them: float LLRs, or bytes.
struct stream_input {
    core::viterbi::input_kind input;
    std::vector<uint8_t> bytes;
    size_t items() const { return bytes.size() / core::stream_item_bytes(input); }
};

inline stream_input soft_stream(const std::vector<float>& llr)
{
    stream_input s{ core::viterbi::INPUT_SOFT, std::vector<uint8_t>(llr.size() * sizeof(float)) };
    std::memcpy(s.bytes.data(), llr.data(), s.bytes.size());
    return s;
}

/*!
 * Decodes a stream through the framer and a pipeline on \p where, appending
 * the items in pieces of the given sizes (cycled; empty: all at once), then
 * ending the stream. Returns every output bit.
 */
inline std::vector<uint8_t> run_stream(const core::viterbi_stream_config& cfg,
                                       const core::backend_choice& where,
                                       const stream_input& in,
                                       std::vector<size_t> pieces = {},
                                       size_t max_batch = 4)
{
    const auto code = cfg.code();
    const auto choice = core::choose_viterbi_stream_implementation(cfg);
    auto pc = test_pipeline_config(core::viterbi::stream_frame_types_of(), max_batch);
    pc.max_in_bytes = size_t(code.n()) * size_t(cfg.max_frame_steps()) * core::stream_item_bytes(in.input);
    pc.max_out_bytes = size_t(cfg.frame_windows) * size_t(cfg.chunk);
    auto pipe = core::make_pipeline(core::viterbi_stream_kernel_factories(cfg, choice), where, pc);
    core::viterbi_stream_framer framer(cfg, in.input);
    std::vector<uint8_t> out;
    auto run = run_frames(*pipe, [&](const core::completed_frame& r) {
        if (r.rejected || r.result_as<core::viterbi::stream_frame_result>()->status != core::viterbi::FRAME_DECODED)
            throw std::runtime_error("run_stream: a frame was rejected");
        out.insert(out.end(), r.data, r.data + r.out_bytes);
    });
    auto submit_ready = [&](bool at_end) {
        core::viterbi_stream_framer::frame f;
        while (framer.next(at_end, f)) {
            run.submit(f.data, f.bytes, size_t(f.params.payload), &f.params);
            framer.advance();
            run.take_ready(false);
        }
    };
    if (pieces.empty())
        pieces.push_back(std::max<size_t>(in.items(), 1));
    const size_t ib = core::stream_item_bytes(in.input);
    for (size_t done = 0, p = 0; done < in.items(); p++) {
        const size_t n = std::min(pieces[p % pieces.size()], in.items() - done);
        framer.append(in.bytes.data() + done * ib, n);
        done += n;
        submit_ready(false);
    }
    submit_ready(true);
    run.finish("run_stream");
    return out;
}

} // namespace test
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi/viterbi_stream_cpu_kernel.h"
#include "pipeline/worker_pool.h"
#include "viterbi/viterbi_decoder.h"

#include <cstring>
#include <limits>

namespace gr {
namespace gpurx {
namespace core {

namespace {
constexpr double unreachable = -std::numeric_limits<double>::infinity();
}

void stream_depuncture(const viterbi_code& code,
                       const uint8_t* in,
                       viterbi::input_kind input,
                       int phase,
                       int first,
                       int steps,
                       float* out)
{
    const auto& pat = code.puncture();
    const int n = code.n(), period = int(pat.size()) / n;
    size_t k = stream_coded_items(code, phase, first);
    int r = (phase + first) % period;
    for (int t = 0; t < steps; t++) {
        for (int i = 0; i < n; i++) {
            float v = 0.0f;
            if (pat[size_t(r) * n + i]) {
                if (input == viterbi::INPUT_SOFT)
                    std::memcpy(&v, in + k * sizeof(float), sizeof(float));
                else if (input == viterbi::INPUT_INT8)
                    v = float(int8_t(in[k]));
                else
                    v = in[k] ? 1.0f : -1.0f;
                k++;
            }
            out[size_t(t) * n + i] = v;
        }
        r = r + 1 == period ? 0 : r + 1;
    }
}

viterbi_stream_cpu_kernel::viterbi_stream_cpu_kernel(const viterbi_stream_config& cfg)
    : d_cfg(cfg), d_code(cfg.code())
{
    d_cfg.validate();
}

void viterbi_stream_cpu_kernel::decode_window(const batch_view& b, const window_ref& ref, workspace& ws) const
{
    const auto& p = b.params_as<viterbi::stream_frame_params>()[ref.frame];
    const frame_desc& fd = b.frames[ref.frame];
    const viterbi::stream_window w = viterbi::stream_window_of(p, d_cfg.chunk, d_cfg.traceback, ref.index);
    const int S = d_code.states(), n = d_code.n(), top = d_code.K() - 2, mask = S - 1;
    const int steps = w.last - w.first;
    ws.llr.resize(size_t(steps) * n);
    stream_depuncture(d_code, b.in + fd.in_offset, viterbi::input_kind(p.input), p.phase, w.first, steps,
                      ws.llr.data());
    ws.metric.resize(S);
    ws.next.resize(S);
    ws.bm.resize(size_t(1) << n);
    ws.decisions.resize(size_t(w.last - w.begin) * S);
    for (int s = 0; s < S; s++)
        ws.metric[s] = (!w.known_start || s == 0) ? 0.0 : unreachable;
    for (int t = w.first; t < w.last; t++) {
        viterbi::step_branch_metrics(&ws.llr[size_t(t - w.first) * n], n, ws.bm.data());
        uint8_t* dec = t >= w.begin ? &ws.decisions[size_t(t - w.begin) * S] : nullptr;
        for (int s = 0; s < S; s++) {
            const int u = s >> top; // the input that leads into s
            const int p0 = (s << 1) & mask, p1 = p0 | 1;
            const double m0 = ws.metric[p0] + ws.bm[d_code.outputs(p0, u)];
            const double m1 = ws.metric[p1] + ws.bm[d_code.outputs(p1, u)];
            // Strictly better only: a tie keeps the even predecessor.
            ws.next[s] = m1 > m0 ? m1 : m0;
            if (dec)
                dec[s] = m1 > m0;
        }
        ws.metric.swap(ws.next);
    }
    int s = 0; // the best end state, the lowest on ties
    for (int x = 1; x < S; x++)
        if (ws.metric[x] > ws.metric[s])
            s = x;
    uint8_t* bits = b.out + fd.out_offset; // bit 0: the frame's step payload_begin
    for (int t = w.last - 1; t >= w.begin; t--) {
        if (t < w.end)
            bits[t - p.payload_begin] = uint8_t(s >> top);
        s = ((s << 1) & mask) | ws.decisions[size_t(t - w.begin) * S + s];
    }
}

void viterbi_stream_cpu_kernel::run(const batch_view& b, worker_pool& pool)
{
    const auto* params = b.params_as<viterbi::stream_frame_params>();
    auto* results = b.results_as<viterbi::stream_frame_result>();
    d_windows.clear();
    for (size_t f = 0; f < b.nframes; f++) {
        if (!stream_frame_problem(d_cfg, d_code, params[f], b.frames[f]).empty()) {
            std::memset(b.out + b.frames[f].out_offset, 0, b.frames[f].out_bytes);
            results[f] = { viterbi::FRAME_REJECTED, 0 };
            continue;
        }
        const int nw = viterbi::stream_windows_of(params[f], d_cfg.chunk);
        for (int j = 0; j < nw; j++)
            d_windows.push_back({ f, j });
        results[f] = { viterbi::FRAME_DECODED, nw };
    }
    if (d_workspaces.size() < pool.size())
        d_workspaces.resize(pool.size());
    pool.parallel_for(d_windows.size(),
                      [&](size_t i, size_t worker) { decode_window(b, d_windows[i], d_workspaces[worker]); });
}

} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Test signals of the OFDM channel estimator made from the definitions
// (Y_t = H X_t + W, the Hadamard cover written out here), and frames run
// through the batching pipeline on either backend.
#ifndef INCLUDED_GPURX_OFDM_TESTS_CHANEST_TEST_UTIL_H
#define INCLUDED_GPURX_OFDM_TESTS_CHANEST_TEST_UTIL_H

#include "ofdm/chanest_frame.h"
#include "ofdm/chanest_implementations.h"
#include "ofdm/mimo_chanest.h"
#include "test_util.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpurx {
namespace test {
namespace chanest {

using core::ofdm::cfloat;
using core::ofdm::mimo_training;

struct trial {
    std::vector<cfloat> h; // per subcarrier, row-major nr x nt
    std::vector<cfloat> y; // (t * nr + r) * used + k
};

// Hadamard entry written out independently of mimo_training::cover.
inline float hadamard(int nt, int j, int c)
{
    static const int h2[2][2] = { { 1, 1 }, { 1, -1 } };
    int s = 1;
    for (int b = 1; b < nt; b <<= 1) {
        const int jb = (j & b) ? 1 : 0, cb = (c & b) ? 1 : 0;
        s *= h2[jb][cb];
    }
    return float(s);
}

//! The training symbols received through x.h (per subcarrier) with noise n0:
//! x.y from the definition, Y_t = H X_t + W.
inline void receive_training(const mimo_training& tr, int nr, double n0, std::mt19937_64& rng, trial& x)
{
    const int nt = tr.nt, K = tr.used, T = tr.symbols();
    x.y.resize(size_t(T) * nr * K);
    std::normal_distribution<double> w(0.0, std::sqrt(n0 / 2.0));
    for (int t = 0; t < T; t++)
        for (int r = 0; r < nr; r++)
            for (int k = 0; k < K; k++) {
                std::complex<double> v = 0.0;
                for (int j = 0; j < nt; j++)
                    v += std::complex<double>(x.h[(size_t(k) * nr + r) * nt + j]) * double(hadamard(nt, j, t % nt)) *
                         std::complex<double>(tr.sequence()[k]);
                if (n0 > 0.0)
                    v += std::complex<double>(w(rng), w(rng));
                x.y[(size_t(t) * nr + r) * K + k] = cfloat(v);
            }
}

//! Independent Rayleigh H per subcarrier (or one for all, flat), then its training.
inline trial make_trial(const mimo_training& tr, int nr, double n0, std::mt19937_64& rng, bool flat = false)
{
    std::normal_distribution<double> g(0.0, std::sqrt(0.5));
    const int nt = tr.nt, K = tr.used;
    trial x;
    x.h.resize(size_t(K) * nr * nt);
    for (size_t i = 0; i < x.h.size(); i++)
        x.h[i] = (flat && i >= size_t(nr) * nt) ? x.h[i % (size_t(nr) * nt)] : cfloat(float(g(rng)), float(g(rng)));
    receive_training(tr, nr, n0, rng, x);
    return x;
}

//! A whole frame's input (chanest_frame.h): \p x's training, then
//! p.data_symbols symbols of random values.
inline std::vector<cfloat> frame_input(const core::ofdm::chanest_frame_params& p, const trial& x, std::mt19937_64& rng)
{
    std::vector<cfloat> in(x.y);
    std::normal_distribution<float> g;
    in.resize(core::ofdm::chanest_in_values(p));
    for (size_t i = x.y.size(); i < in.size(); i++)
        in[i] = cfloat(g(rng), g(rng));
    return in;
}

//! The y vectors the frame's output starts with, from its input (the
//! detector's order, written out here).
inline std::vector<cfloat> expected_y(const core::ofdm::chanest_frame_params& p, const std::vector<cfloat>& in)
{
    const int T = p.repeats * p.nt;
    std::vector<cfloat> y;
    for (int k = 0; k < p.used; k++)
        for (int s = 0; s < p.data_symbols; s++)
            for (int r = 0; r < p.nr; r++)
                y.push_back(in[(size_t(T + s) * p.nr + r) * p.used + k]);
    return y;
}

struct frame_out {
    std::vector<cfloat> y, h;
    double n0 = 0.0;
    int status = -1;
};

//! \p frames (each with its record) through a pipeline of \p cfg on
//! \p where, batches of \p max_batch; outputs in submission order.
inline std::vector<frame_out> run_pipeline(const core::backend_choice& where,
                                           core::ofdm::chanest_config cfg,
                                           const std::vector<core::ofdm::chanest_frame_params>& params,
                                           const std::vector<std::vector<cfloat>>& frames,
                                           size_t max_batch = 3)
{
    const auto choice = core::choose_chanest_implementation(cfg);
    auto pc = test_pipeline_config(core::ofdm::chanest_frame_types(), max_batch);
    for (size_t i = 0; i < frames.size(); i++) {
        pc.max_in_bytes = std::max(pc.max_in_bytes, frames[i].size() * sizeof(cfloat));
        pc.max_out_bytes = std::max(pc.max_out_bytes, core::ofdm::chanest_out_bytes(params[i]));
    }
    auto pipe = core::make_pipeline(core::chanest_kernel_factories(cfg, choice), where, pc);
    std::vector<frame_out> out;
    auto runner = run_frames(*pipe, [&](const core::completed_frame& f) {
        const auto& p = params[f.user];
        frame_out o;
        const auto* v = reinterpret_cast<const cfloat*>(f.data);
        const size_t ny = core::ofdm::chanest_y_values(p);
        if (f.out_bytes != core::ofdm::chanest_out_bytes(p))
            throw std::runtime_error("chanest: output of " + std::to_string(f.out_bytes) + " bytes");
        o.y.assign(v, v + ny);
        o.h.assign(v + ny, v + ny + core::ofdm::chanest_h_values(p));
        const auto* r = f.result_as<core::ofdm::chanest_frame_result>();
        o.n0 = r->n0;
        o.status = r->status;
        out.push_back(std::move(o));
    });
    for (size_t i = 0; i < frames.size(); i++)
        runner.submit(frames[i].data(), frames[i].size() * sizeof(cfloat), core::ofdm::chanest_out_bytes(params[i]),
                      &params[i], uint64_t(i));
    runner.finish("chanest pipeline");
    return out;
}

} // namespace chanest
} // namespace test
} // namespace gpurx
} // namespace gr

#endif

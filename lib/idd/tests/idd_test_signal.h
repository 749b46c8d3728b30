/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Test signals of the IDD receiver, built from the public parts only: a TB
// of random bits through the transport encoder (sch_encoder), its G coded
// bits mapped to QAM (qam::map_bits) in the detector's output order, sent
// over independent Rayleigh channels (one H per channel, entries CN(0,
// 1/nt)) with white noise of variance n0, and the IDD frame (idd_frame.h)
// carrying them; and the IDD pipeline run over such frames.
#ifndef INCLUDED_GPURX_IDD_TESTS_IDD_TEST_SIGNAL_H
#define INCLUDED_GPURX_IDD_TESTS_IDD_TEST_SIGNAL_H

#include "idd/idd_frame.h"
#include "idd/idd_implementations.h"
#include "modulation/qam.h"
#include "sch/sch_encoder.h"
#include "sch/sch_params.h"
#include "test_util.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <random>
#include <vector>

namespace gr {
namespace gpurx {
namespace test {

struct idd_tb {
    core::idd::frame_params p;
    std::vector<uint8_t> sent;  //!< the TB's bits
    std::vector<float> input;   //!< the frame's input (H and y per channel), as floats
};

struct idd_shape {
    int nt = 2, nr = 2, qm = 4, channels = 8, vectors = 12, tbs = 0;
};

//! A TB of \p s through the channel at noise variance \p n0.
inline idd_tb make_idd_tb(const idd_shape& s, float n0, int rnti, std::mt19937& rng)
{
    idd_tb t;
    core::sch::tb_request req;
    req.tbs = s.tbs;
    req.qm = s.qm;
    req.g = s.channels * s.vectors * s.nt * s.qm;
    req.rnti = rnti;
    req.cell_id = 3;
    req.subframe = rnti % 10;
    t.p.tb = core::sch::frame_params_of(req);
    t.p.det = { s.nt, s.nr, s.qm, s.vectors, n0, 0, s.channels };
    std::bernoulli_distribution coin;
    t.sent.resize(size_t(s.tbs));
    for (auto& b : t.sent)
        b = uint8_t(coin(rng));
    core::sch::sch_encoder enc;
    const auto coded = enc.encode(t.sent.data(), t.sent.size(), req);
    const auto mod = core::qam::modulation_of_bits(s.qm);
    std::normal_distribution<float> g;
    const float h_sd = std::sqrt(0.5f / float(s.nt)), n_sd = std::sqrt(0.5f * n0);
    for (int c = 0; c < s.channels; c++) {
        std::vector<std::complex<float>> H(size_t(s.nr) * s.nt);
        for (auto& h : H)
            h = { h_sd * g(rng), h_sd * g(rng) };
        for (const auto& h : H) {
            t.input.push_back(h.real());
            t.input.push_back(h.imag());
        }
        for (int v = 0; v < s.vectors; v++) {
            std::vector<std::complex<double>> x(size_t(s.nt));
            for (int j = 0; j < s.nt; j++)
                x[size_t(j)] = core::qam::map_bits(
                    mod, coded.data() + ((size_t(c) * s.vectors + size_t(v)) * s.nt + size_t(j)) * s.qm);
            for (int r = 0; r < s.nr; r++) {
                std::complex<double> y = 0;
                for (int j = 0; j < s.nt; j++)
                    y += std::complex<double>(H[size_t(r) * s.nt + size_t(j)]) * x[size_t(j)];
                t.input.push_back(float(y.real()) + n_sd * g(rng));
                t.input.push_back(float(y.imag()) + n_sd * g(rng));
            }
        }
    }
    return t;
}

//! The IDD configuration of the tests: detector \p algorithm on \p s,
//! float max-log-MAP turbo, 6 iterations, \p passes.
inline core::mimo_idd_config idd_test_config(const idd_shape& s, core::mimo::algorithm a, int passes)
{
    core::mimo_idd_config c;
    c.detector.nt = s.nt;
    c.detector.nr = s.nr;
    c.detector.modulation = core::qam::modulation_of_bits(s.qm);
    c.detector.algorithm = a;
    c.detector.max_channels = s.channels;
    c.decoder.turbo.iterations = 6;
    c.decoder.max_tbs = std::max(s.tbs, 16);
    c.decoder.max_g = s.channels * s.vectors * s.nt * s.qm;
    c.decoder.extrinsic_scale = 0.75f;
    c.passes = passes;
    return c;
}

struct idd_out {
    std::vector<uint8_t> bits;
    core::idd::frame_result res;
};

//! The TBs through an IDD pipeline of \p cfg on \p where.
inline std::vector<idd_out> run_idd(const core::backend_choice& where, core::mimo_idd_config cfg,
                                    const std::vector<idd_tb>& tbs)
{
    const auto choice = core::choose_idd_implementation(cfg);
    auto pc = test_pipeline_config(core::idd::frame_types_of(), 16);
    size_t in = 0, out = 0;
    for (const auto& t : tbs) {
        in = std::max(in, core::idd::in_bytes(t.p));
        out = std::max(out, core::idd::out_bytes(t.p));
    }
    pc.max_in_bytes = in;
    pc.max_out_bytes = out;
    auto pipe = core::make_pipeline(core::idd_kernel_factories(cfg, choice), where, pc);
    std::vector<idd_out> res;
    auto run = run_frames(*pipe, [&](const core::completed_frame& f) {
        idd_out o;
        o.bits.assign(f.data, f.data + f.out_bytes);
        o.res = *f.result_as<core::idd::frame_result>();
        res.push_back(std::move(o));
    });
    for (const auto& t : tbs)
        run.submit(t.input.data(), t.input.size() * sizeof(float), core::idd::out_bytes(t.p), &t.p);
    run.finish("run_idd");
    return res;
}

} // namespace test
} // namespace gpurx
} // namespace gr

#endif

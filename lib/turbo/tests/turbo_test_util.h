/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Test helpers for the turbo code: random bits, BPSK over AWGN as LLRs, and
// running a batch of codewords through a pipeline on either backend.
#ifndef INCLUDED_GPURX_TURBO_TEST_UTIL_H
#define INCLUDED_GPURX_TURBO_TEST_UTIL_H

#include "test_util.h"
#include "pipeline/batch_pipeline.h"
#include "turbo/lte_turbo_encoder.h"
#include "turbo/turbo_frame.h"
#include "turbo/turbo_implementations.h"

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpurx {
namespace test {

struct codeword {
    int K;
    std::vector<uint8_t> bits; // K
    std::vector<float> llr;    // 3K+12, positive for 1
};

//! Encodes random bits; LLRs for BPSK (bit 1 -> +1) over AWGN at Es/N0 in dB,
//! or noiseless (+-8) when esn0_db is +inf.
inline codeword make_codeword(int K, double esn0_db, std::mt19937& rng)
{
    codeword cw{ K, std::vector<uint8_t>(K), std::vector<float>(3 * K + 12) };
    std::bernoulli_distribution coin;
    for (auto& b : cw.bits)
        b = coin(rng);
    std::vector<uint8_t> c(3 * K + 12);
    core::lte_turbo_encoder(K).encode(cw.bits.data(), c.data());
    if (std::isinf(esn0_db)) {
        for (size_t i = 0; i < c.size(); i++)
            cw.llr[i] = c[i] ? 8.0f : -8.0f;
        return cw;
    }
    const double n0 = std::pow(10.0, -esn0_db / 10.0); // Es = 1
    std::normal_distribution<double> noise(0.0, std::sqrt(n0 / 2));
    for (size_t i = 0; i < c.size(); i++) {
        const double y = (c[i] ? 1.0 : -1.0) + noise(rng);
        cw.llr[i] = float(4.0 * y / n0); // ln p(y|1)/p(y|0)
    }
    return cw;
}

struct decoded {
    std::vector<uint8_t> hard;
    std::vector<float> soft;
    std::vector<float> coded; //!< 3K+12, with coded_output
    core::turbo::frame_result result;
};

//! Decodes the codewords as one stream of batches on the given backend.
inline std::vector<decoded> decode_all(const std::vector<codeword>& cws,
                                       const core::turbo_config& cfg,
                                       const core::backend_choice& where,
                                       size_t max_batch = 64)
{
    core::turbo_config c = cfg;
    const auto choice = core::choose_turbo_implementation(c);
    auto pc = test_pipeline_config(core::turbo::frame_types_of(), max_batch);
    pc.max_in_bytes = (3 * core::lte_max_K + 12) * sizeof(float);
    pc.max_out_bytes = core::turbo_out_bytes(core::lte_max_K, cfg.soft_output, cfg.coded_output);
    auto pipe = core::make_pipeline(core::turbo_kernel_factories(c, choice), where, pc);
    std::vector<decoded> out;
    auto run = run_frames(*pipe, [&](const core::completed_frame& f) {
        const int K = cws[out.size()].K;
        decoded d;
        d.hard.assign(f.data, f.data + K);
        if (cfg.soft_output) {
            const float* s = reinterpret_cast<const float*>(f.data + core::turbo_soft_offset(K));
            d.soft.assign(s, s + K);
        }
        if (cfg.coded_output) {
            const float* c = reinterpret_cast<const float*>(f.data + core::turbo_coded_offset(K, cfg.soft_output));
            d.coded.assign(c, c + 3 * K + 12);
        }
        d.result = *f.result_as<core::turbo::frame_result>();
        out.push_back(std::move(d));
    });
    for (const auto& cw : cws) {
        const auto params = core::turbo::frame_params_for(cw.K);
        run.submit(cw.llr.data(), cw.llr.size() * sizeof(float), core::turbo_out_bytes(cw.K, cfg.soft_output, cfg.coded_output),
                   &params);
    }
    run.finish("decode_all");
    return out;
}

inline size_t bit_errors(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b)
{
    size_t e = 0;
    for (size_t i = 0; i < a.size(); i++)
        e += a[i] != b[i];
    return e;
}

} // namespace test
} // namespace gpurx
} // namespace gr

#endif

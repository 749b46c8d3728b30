/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Test helpers for the Viterbi family: the codes under test, an encoder
// written here independently of the library (a window of the last K input
// bits, not the library's state numbering or tables), BPSK over AWGN as
// LLRs, path metrics recomputed from scratch, and running frames through a
// pipeline.
#ifndef INCLUDED_GPURX_VITERBI_TEST_UTIL_H
#define INCLUDED_GPURX_VITERBI_TEST_UTIL_H

#include "test_util.h"
#include "pipeline/batch_pipeline.h"
#include "viterbi/viterbi_config.h"
#include "viterbi/viterbi_frame.h"
#include "viterbi/viterbi_implementations.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace test {

struct conv_code_case {
    std::string name;
    int K;
    std::vector<unsigned> polys; // standards' order: MSB taps the current input
};

//! The codes the family must decode.
inline std::vector<conv_code_case> viterbi_codes()
{
    return {
        { "K3-7-5", 3, { 07, 05 } },
        { "GSM-K5", 5, { 023, 033 } },
        { "K7-133-171", 7, { 0133, 0171 } },
        { "LTE-K7-r13", 7, { 0133, 0171, 0165 } },
        { "IS95-K9", 9, { 0753, 0561 } },
        // Rate 1/4, K=5: a maximum free distance code (Larsen's table).
        { "K5-r14", 5, { 025, 027, 033, 037 } },
    };
}

//! 802.11 puncturing of the K=7 rate-1/2 code: rate 2/3 and 3/4.
inline std::vector<int> puncture_2_3() { return { 1, 1, 1, 0 }; }
inline std::vector<int> puncture_3_4() { return { 1, 1, 1, 0, 0, 1 }; }

/*!
 * Independent encoder. window[j] is the input bit j steps ago (window[0] the
 * current one); polynomial bit K-1-j taps window[j], so the polynomial's MSB
 * taps the current bit. Terminated: K-1 zero tail bits; tail-biting: the
 * first step sees the frame's last K-1 bits as its history (window[j] = bits[L-j]).
 * Returns the punctured coded bits, the n of each step together.
 */
inline std::vector<uint8_t> independent_encode(int K,
                                               const std::vector<unsigned>& polys,
                                               core::viterbi::termination term,
                                               const std::vector<int>& puncture,
                                               const std::vector<uint8_t>& bits)
{
    const int L = int(bits.size());
    std::vector<int> window(K, 0);
    if (term == core::viterbi::termination::tail_biting)
        for (int j = 1; j < K; j++)
            window[j - 1] = bits[L - j]; // shifted to window[j] by the first step
    const int steps = L + (term == core::viterbi::termination::terminated ? K - 1 : 0);
    std::vector<uint8_t> out;
    size_t pos = 0;
    for (int t = 0; t < steps; t++) {
        for (int j = K - 1; j > 0; j--)
            window[j] = window[j - 1];
        window[0] = t < L ? bits[t] : 0;
        for (unsigned g : polys) {
            int c = 0;
            for (int j = 0; j < K; j++)
                c ^= window[j] & int((g >> (K - 1 - j)) & 1u);
            if (puncture.empty() || puncture[pos % puncture.size()])
                out.push_back(uint8_t(c));
            pos++;
        }
    }
    return out;
}

//! BPSK, bit 1 -> +1, bit 0 -> -1, over AWGN of variance sigma^2 per real
//! dimension with Eb/N0 = ebn0_db for a code of \p rate (information bits
//! per transmitted coded bit): sigma^2 = 1 / (2 rate Eb/N0). The LLR of a
//! received y is ln p(y|1)/p(y|0) = 2y/sigma^2.
inline std::vector<float>
bpsk_awgn_llrs(const std::vector<uint8_t>& coded, double rate, double ebn0_db, std::mt19937& rng)
{
    const double sigma2 = 1.0 / (2.0 * rate * std::pow(10.0, ebn0_db / 10.0));
    std::normal_distribution<double> noise(0.0, std::sqrt(sigma2));
    std::vector<float> llr(coded.size());
    for (size_t i = 0; i < coded.size(); i++)
        llr[i] = float(2.0 * ((coded[i] ? 1.0 : -1.0) + noise(rng)) / sigma2);
    return llr;
}

//! Hard decisions of LLRs: 1 where positive.
inline std::vector<uint8_t> hard_bits(const std::vector<float>& llr)
{
    std::vector<uint8_t> h(llr.size());
    for (size_t i = 0; i < llr.size(); i++)
        h[i] = llr[i] > 0.0f;
    return h;
}

inline std::vector<uint8_t> random_bits(size_t n, std::mt19937& rng)
{
    std::bernoulli_distribution coin;
    std::vector<uint8_t> b(n);
    for (auto& x : b)
        x = coin(rng);
    return b;
}

//! Correlation of a coded sequence with received LLRs: sum of +-L/2.
inline double correlation(const std::vector<uint8_t>& coded, const std::vector<float>& llr)
{
    double m = 0.0;
    for (size_t i = 0; i < coded.size(); i++)
        m += coded[i] ? 0.5 * double(llr[i]) : -0.5 * double(llr[i]);
    return m;
}

inline size_t hamming(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b)
{
    size_t e = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); i++)
        e += a[i] != b[i];
    return e;
}

//! One frame for the pipeline: soft LLRs, or hard bytes.
struct viterbi_frame_in {
    int frame_bits;
    core::viterbi::input_kind input;
    std::vector<float> llr;     // soft
    std::vector<uint8_t> hard;  // hard
};

struct viterbi_frame_out {
    std::vector<uint8_t> bits;
    core::viterbi::frame_result result;
};

//! Decodes the frames as one stream of batches on the given backend.
inline std::vector<viterbi_frame_out> viterbi_decode_all(const std::vector<viterbi_frame_in>& frames,
                                                         const core::viterbi_config& cfg,
                                                         const core::backend_choice& where,
                                                         size_t max_batch = 8)
{
    const auto choice = core::choose_viterbi_implementation(cfg);
    auto pc = test_pipeline_config(core::viterbi::frame_types_of(), max_batch);
    for (const auto& f : frames) {
        pc.max_in_bytes = std::max(pc.max_in_bytes, f.llr.size() * sizeof(float) + f.hard.size());
        pc.max_out_bytes = std::max(pc.max_out_bytes, size_t(f.frame_bits));
    }
    auto pipe = core::make_pipeline(core::viterbi_kernel_factories(cfg, choice), where, pc);
    std::vector<viterbi_frame_out> out;
    auto run = run_frames(*pipe, [&](const core::completed_frame& r) {
        const int L = frames[out.size()].frame_bits;
        out.push_back({ std::vector<uint8_t>(r.data, r.data + L), *r.result_as<core::viterbi::frame_result>() });
    });
    for (const auto& f : frames) {
        const core::viterbi::frame_params params{ f.frame_bits, f.input };
        if (f.input != core::viterbi::INPUT_SOFT) // hard bits or int8 LLRs: bytes
            run.submit(f.hard.data(), f.hard.size(), size_t(f.frame_bits), &params);
        else
            run.submit(f.llr.data(), f.llr.size() * sizeof(float), size_t(f.frame_bits), &params);
    }
    run.finish("viterbi_decode_all");
    return out;
}

} // namespace test
} // namespace gpurx
} // namespace gr

#endif

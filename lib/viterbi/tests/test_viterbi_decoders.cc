/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The decoders: noiseless round trips, the tiled decoder against the
// full-frame reference on noisy frames, short tail-biting frames, a BER
// sanity check, and the pipeline kernel. Every frame is encoded by the
// independent encoder of viterbi_test_util.h.
#include "pipeline/worker_pool.h"
#include "test_util.h"
#include "viterbi/tests/viterbi_test_util.h"
#include "viterbi/viterbi_cpu_kernel.h"
#include "viterbi/viterbi_reference.h"
#include "viterbi/viterbi_tiled.h"
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

using namespace gr::gpurx;
using core::viterbi::termination;

namespace {

const std::vector<termination> all_terminations{ termination::terminated, termination::truncated,
                                                 termination::tail_biting };

core::viterbi_code make_code(const test::conv_code_case& c, termination t, const std::vector<int>& punct = {})
{
    return core::viterbi_code(c.K, c.polys, core::viterbi::polynomial_order::msb_current, t, punct);
}

struct decoded {
    std::vector<uint8_t> bits;
    core::viterbi_path path;
};

// Depuncture the channel values (soft LLRs, or hard bits as +-1) and decode.
decoded decode(core::viterbi_decoder& d, const core::viterbi_code& code, const std::vector<float>& llr,
               const std::vector<uint8_t>* hard, int L)
{
    std::vector<float> in(size_t(code.n()) * code.steps(L));
    if (hard)
        code.depuncture_hard(hard->data(), L, in.data());
    else
        code.depuncture(llr.data(), L, in.data());
    decoded r{ std::vector<uint8_t>(L), {} };
    r.path = d.decode(in.data(), L, r.bits.data());
    return r;
}

// Rate of a code with puncturing (information bits per coded bit, long frames).
double rate_of(const core::viterbi_code& code)
{
    return 1000000.0 / double(code.coded_bits(1000000));
}

} // namespace

TEST(ViterbiDecoders, NoiselessRoundTripEveryCodeAndTermination)
{
    std::mt19937 rng(1);
    for (const auto& c : test::viterbi_codes())
        for (auto term : all_terminations) {
            SCOPED_TRACE(c.name + " " + core::viterbi::termination_name(term));
            const auto code = make_code(c, term);
            core::viterbi_reference ref(code);
            core::viterbi_tiled tiled(code, 16);
            for (int L : { c.K - 1, 37, 160 }) {
                const auto bits = test::random_bits(L, rng);
                const auto coded = test::independent_encode(c.K, c.polys, term, {}, bits);
                std::vector<float> llr(coded.size());
                for (size_t i = 0; i < coded.size(); i++)
                    llr[i] = coded[i] ? 4.0f : -4.0f;
                for (auto* d : { static_cast<core::viterbi_decoder*>(&ref), static_cast<core::viterbi_decoder*>(&tiled) }) {
                    const auto soft = decode(*d, code, llr, nullptr, L);
                    EXPECT_EQ(soft.bits, bits) << d->name() << " soft, L " << L;
                    // Every coded bit agrees: the metric is 2 x (coded bits).
                    EXPECT_EQ(soft.path.metric, 2.0 * coded.size()) << d->name();
                    const auto hard = decode(*d, code, {}, &coded, L);
                    EXPECT_EQ(hard.bits, bits) << d->name() << " hard, L " << L;
                    EXPECT_EQ(hard.path.metric, 0.5 * coded.size()) << d->name();
                }
            }
        }
}

TEST(ViterbiDecoders, TiledEqualsReferenceOnNoisyFrames)
{
    // Frames not a multiple of any chunk; chunks from a few steps to longer
    // than the frame. Soft input must agree bit for bit; hard input may tie
    // (Hamming distances are small integers), so where the bits differ both
    // paths must have exactly the same distance to the received bits.
    // Both decoders' paths must also be at least as good as the transmitted
    // one (maximum likelihood), and their reported metric must be the
    // recomputed one.
    std::mt19937 rng(7);
    size_t frames = 0, hard_ties = 0;
    for (const auto& c : test::viterbi_codes())
        for (auto term : all_terminations) {
            std::vector<std::vector<int>> punctures{ {} };
            if (c.K == 7 && c.polys.size() == 2)
                punctures = { {}, test::puncture_2_3(), test::puncture_3_4() };
            for (const auto& punct : punctures) {
                const auto code = make_code(c, term, punct);
                const bool big = c.K == 9;
                const int L = big ? 61 : 101;
                core::viterbi_reference ref(code);
                std::vector<int> chunks{ 3, 8, 50, 10000 };
                if (big && term == termination::tail_biting)
                    chunks = { 8, 50, 10000 }; // 2^24 operations per merge: keep the merges few
                for (int chunk : chunks) {
                    core::viterbi_tiled tiled(code, chunk);
                    SCOPED_TRACE(c.name + " " + core::viterbi::termination_name(term) + " puncture " +
                                 std::to_string(punct.size()) + " chunk " + std::to_string(chunk));
                    for (int f = 0; f < 3; f++) {
                        const auto bits = test::random_bits(L, rng);
                        const auto coded = test::independent_encode(c.K, c.polys, term, punct, bits);
                        const auto llr = test::bpsk_awgn_llrs(coded, rate_of(code), 1.0, rng);
                        const auto hard = test::hard_bits(llr);
                        frames++;
                        // Soft.
                        const auto a = decode(ref, code, llr, nullptr, L);
                        const auto b = decode(tiled, code, llr, nullptr, L);
                        EXPECT_EQ(b.bits, a.bits) << "soft frame " << f;
                        const double ma = test::correlation(test::independent_encode(c.K, c.polys, term, punct, a.bits), llr);
                        const double mb = test::correlation(test::independent_encode(c.K, c.polys, term, punct, b.bits), llr);
                        const double truth = test::correlation(coded, llr);
                        const double tol = 1e-9 * (1.0 + std::fabs(ma));
                        EXPECT_NEAR(a.path.metric, ma, tol);
                        EXPECT_NEAR(b.path.metric, mb, tol);
                        EXPECT_GE(ma, truth - tol) << "reference is not maximum likelihood";
                        EXPECT_GE(mb, truth - tol) << "tiled is not maximum likelihood";
                        // Hard.
                        const auto ha = decode(ref, code, {}, &hard, L);
                        const auto hb = decode(tiled, code, {}, &hard, L);
                        const size_t da = test::hamming(test::independent_encode(c.K, c.polys, term, punct, ha.bits), hard);
                        const size_t db = test::hamming(test::independent_encode(c.K, c.polys, term, punct, hb.bits), hard);
                        EXPECT_EQ(da, db) << "hard frame " << f;
                        EXPECT_LE(da, test::hamming(coded, hard)) << "hard reference is not minimum distance";
                        EXPECT_EQ(0.5 * hard.size() - ha.path.metric, double(da));
                        EXPECT_EQ(0.5 * hard.size() - hb.path.metric, double(db));
                        hard_ties += ha.bits != hb.bits;
                    }
                }
            }
        }
    std::printf("%zu noisy frames; hard-input paths of equal distance but other bits: %zu\n", frames, hard_ties);
}

TEST(ViterbiDecoders, ShortTailBitingFramesDecodeOrAreRejected)
{
    // Tail-biting needs K-1 bits for the encoder's start state; from there
    // up both decoders are exact maximum likelihood, so short frames (below
    // 4(K-1), where wrap-around decoders give up) must decode right
    // noiselessly. One bit less is rejected naming frame_bits.
    std::mt19937 rng(5);
    for (const auto& c : test::viterbi_codes()) {
        SCOPED_TRACE(c.name);
        const auto code = make_code(c, termination::tail_biting);
        core::viterbi_reference ref(code);
        // Several chunks per frame; K=9 merges cost 2^24 each, so fewer there.
        core::viterbi_tiled tiled(code, c.K == 9 ? 12 : 4);
        for (int L = c.K - 1; L <= 4 * (c.K - 1) + 2; L++)
            for (int f = 0; f < 4; f++) {
                auto bits = test::random_bits(L, rng);
                if (f == 0)
                    bits.assign(L, 1);
                const auto coded = test::independent_encode(c.K, c.polys, termination::tail_biting, {}, bits);
                std::vector<float> llr(coded.size());
                for (size_t i = 0; i < coded.size(); i++)
                    llr[i] = coded[i] ? 3.0f : -3.0f;
                EXPECT_EQ(decode(ref, code, llr, nullptr, L).bits, bits) << "reference L " << L;
                EXPECT_EQ(decode(tiled, code, llr, nullptr, L).bits, bits) << "tiled L " << L;
            }
        std::vector<float> llr(size_t(code.n()) * c.K, 1.0f);
        std::vector<uint8_t> out(c.K);
        for (auto* d : { static_cast<core::viterbi_decoder*>(&ref), static_cast<core::viterbi_decoder*>(&tiled) }) {
            try {
                d->decode(llr.data(), c.K - 2, out.data());
                ADD_FAILURE() << d->name() << " accepted a tail-biting frame of K-2 bits";
            } catch (const std::invalid_argument& e) {
                EXPECT_NE(std::string(e.what()).find("frame_bits"), std::string::npos) << e.what();
                EXPECT_NE(std::string(e.what()).find("tail-biting"), std::string::npos) << e.what();
            }
        }
    }
}

TEST(ViterbiDecoders, BerOfK7SoftAt4dB)
{
    // K=7 (0133, 0171), rate 1/2, terminated, soft: BER < 1e-3 at Eb/N0 =
    // 4 dB over 200 frames of 1000 bits (textbook: about 1e-5), while the
    // channel's own hard decisions are wrong far more often (about 5.6%).
    const test::conv_code_case c{ "K7", 7, { 0133, 0171 } };
    const auto code = make_code(c, termination::terminated);
    core::viterbi_reference ref(code);
    std::mt19937 rng(2026);
    size_t errors = 0, raw_errors = 0, bits_total = 0, coded_total = 0;
    for (int f = 0; f < 200; f++) {
        const auto bits = test::random_bits(1000, rng);
        const auto coded = test::independent_encode(7, c.polys, termination::terminated, {}, bits);
        const auto llr = test::bpsk_awgn_llrs(coded, 0.5, 4.0, rng);
        errors += test::hamming(decode(ref, code, llr, nullptr, 1000).bits, bits);
        raw_errors += test::hamming(test::hard_bits(llr), coded);
        bits_total += bits.size();
        coded_total += coded.size();
    }
    const double ber = double(errors) / bits_total, raw = double(raw_errors) / coded_total;
    std::printf("K=7 soft, Eb/N0 4 dB: BER %.2e over %zu bits (channel %.3f)\n", ber, bits_total, raw);
    EXPECT_LT(ber, 1e-3);
    EXPECT_GT(raw, 0.04);
    EXPECT_LT(raw, 0.07);
}

TEST(ViterbiKernel, MixedFramesThroughThePipelineMatchTheDecoders)
{
    // Frames of several lengths and both input kinds in the same batches,
    // through both implementations; one frame too short to be tail-biting
    // and one with the wrong input size come back rejected, as zeros.
    const test::conv_code_case c{ "LTE", 7, { 0133, 0171, 0165 } };
    core::viterbi_config cfg;
    cfg.K = 7;
    cfg.polynomials = c.polys;
    cfg.termination = termination::tail_biting;
    cfg.chunk = 24;
    const auto code = cfg.code();
    std::mt19937 rng(9);
    std::vector<test::viterbi_frame_in> frames;
    std::vector<std::vector<uint8_t>> truth;
    for (int L : { 40, 6, 100, 57, 200, 5, 33 }) {
        const int real_L = std::max(L, 6);
        const auto bits = test::random_bits(real_L, rng);
        const auto coded = test::independent_encode(7, c.polys, termination::tail_biting, {}, bits);
        auto llr = test::bpsk_awgn_llrs(coded, 1.0 / 3, 2.0, rng);
        test::viterbi_frame_in f{ L, frames.size() % 2 ? core::viterbi::INPUT_HARD : core::viterbi::INPUT_SOFT, {}, {} };
        if (L == 33)
            llr.pop_back(); // wrong input size for 33 bits
        if (f.input == core::viterbi::INPUT_HARD)
            f.hard = test::hard_bits(llr);
        else
            f.llr = llr;
        frames.push_back(f);
        truth.push_back(bits);
    }
    for (const char* impl : { "cpu-reference", "cpu-tiled" }) {
        SCOPED_TRACE(impl);
        cfg.implementation = impl;
        const auto out = test::viterbi_decode_all(frames, cfg, test::cpu_backend(), 3);
        ASSERT_EQ(out.size(), frames.size());
        core::viterbi_reference ref(code);
        for (size_t i = 0; i < frames.size(); i++) {
            const auto& f = frames[i];
            if (f.frame_bits == 5 || f.frame_bits == 33) {
                EXPECT_EQ(out[i].result.status, core::viterbi::FRAME_REJECTED) << "frame " << i;
                EXPECT_EQ(out[i].bits, std::vector<uint8_t>(f.frame_bits, 0));
                continue;
            }
            EXPECT_EQ(out[i].result.status, core::viterbi::FRAME_DECODED) << "frame " << i;
            const bool hard = f.input == core::viterbi::INPUT_HARD;
            const auto direct = decode(ref, code, f.llr, hard ? &f.hard : nullptr, f.frame_bits);
            const auto recoded = test::independent_encode(7, c.polys, termination::tail_biting, {}, out[i].bits);
            if (hard) {
                // The reported metric is the Hamming distance; ties may pick other bits.
                EXPECT_EQ(out[i].result.metric, float(test::hamming(recoded, f.hard))) << "frame " << i;
                EXPECT_EQ(out[i].result.metric, float(0.5 * f.hard.size() - direct.path.metric));
            } else {
                EXPECT_EQ(out[i].bits, direct.bits) << "frame " << i;
                EXPECT_NEAR(out[i].result.metric, test::correlation(recoded, f.llr),
                            1e-5 * std::fabs(out[i].result.metric));
                EXPECT_EQ(out[i].result.end_state, direct.path.end_state);
            }
        }
    }
}

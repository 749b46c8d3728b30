/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The stream decoder (viterbi_stream.h):
//  - cpu-stream equals the independent reference of the definition bit for
//    bit, for every code, punctured or not, soft / hard / int8 input, short
//    and long windows, traceback 0, shorter and longer than the chunk, and
//    streams shorter than one window;
//  - the output does not depend on how the input arrives (piece sizes), on
//    frame_windows or on the batch size; nothing is lost at the end;
//  - with D = 96 at K = 7 its BER equals full-frame Viterbi's;
//  - on CUDA, both GPU kernels equal cpu-stream bit for bit (LLRs on a grid
//    of 1/8, so float and double sums are exact and equal).
#include "test_util.h"
#include "viterbi/tests/viterbi_stream_test_util.h"
#include "viterbi/tests/viterbi_test_util.h"
#include "viterbi/viterbi_reference.h"
#include <gtest/gtest.h>

#include <cmath>

using namespace gr::gpurx;

namespace {

struct stream_case {
    std::string name;
    core::viterbi_stream_config cfg;
    int steps; // information bits (trellis steps) of the stream
};

core::viterbi_stream_config config_of(const test::conv_code_case& c, int L, int D, int frame_windows)
{
    core::viterbi_stream_config cfg;
    cfg.K = c.K;
    cfg.polynomials = c.polys;
    cfg.chunk = L;
    cfg.traceback = D;
    cfg.frame_windows = frame_windows;
    return cfg;
}

std::vector<stream_case> cases()
{
    std::vector<stream_case> v;
    const auto codes = test::viterbi_codes();
    for (const auto& c : codes) {
        const bool big = c.K == 9;
        v.push_back({ c.name + " L64 D30", config_of(c, 64, 30, 3), big ? 700 : 1500 });
        v.push_back({ c.name + " L20 D48", config_of(c, 20, 48, 5), big ? 400 : 1000 });
    }
    auto k7 = config_of(codes[2], 37, 16, 2);
    v.push_back({ "K7 L37 D16 punctured 3/4", k7, 1201 });
    v.back().cfg.puncture = test::puncture_3_4();
    v.push_back({ "K7 L50 D0", config_of(codes[2], 50, 0, 4), 777 });
    v.push_back({ "K7 L1 D12", config_of(codes[2], 1, 12, 40), 300 });
    v.push_back({ "K7 shorter than D", config_of(codes[2], 64, 96, 2), 50 });
    v.push_back({ "K5 one step", config_of(codes[1], 8, 10, 2), 1 });
    return v;
}

// BPSK / AWGN LLRs of a random stream's coded bits, on a grid of 1/8.
std::vector<float> noisy_stream(const core::viterbi_stream_config& cfg,
                                int steps,
                                double ebn0_db,
                                std::mt19937& rng,
                                std::vector<uint8_t>* bits_out = nullptr)
{
    const auto bits = test::random_bits(size_t(steps), rng);
    const auto coded = test::independent_encode(cfg.K, cfg.polynomials, core::viterbi::termination::truncated,
                                                cfg.puncture, bits);
    const double rate = double(steps) / double(coded.size());
    auto llr = test::bpsk_awgn_llrs(coded, rate, ebn0_db, rng);
    for (auto& x : llr)
        x = std::round(x * 8.0f) / 8.0f;
    if (bits_out)
        *bits_out = bits;
    return llr;
}

test::stream_input hard_stream(const std::vector<float>& llr)
{
    return { core::viterbi::INPUT_HARD, test::hard_bits(llr) };
}

// int8 LLRs: the values x 4, rounded and saturated; \p llr becomes those values.
test::stream_input int8_stream(std::vector<float>& llr)
{
    test::stream_input s{ core::viterbi::INPUT_INT8, {} };
    for (auto& x : llr) {
        x = std::max(-127.0f, std::min(127.0f, std::round(x * 4.0f)));
        s.bytes.push_back(uint8_t(int8_t(x)));
    }
    return s;
}

} // namespace

TEST(ViterbiStream, CpuEqualsIndependentReference)
{
    std::mt19937 rng(2024);
    for (const auto& c : cases()) {
        SCOPED_TRACE(c.name);
        auto cfg = c.cfg;
        cfg.implementation = "cpu-stream";
        auto llr = noisy_stream(cfg, c.steps, 2.0, rng);
        const auto ref = test::reference_stream_decode(cfg.K, cfg.polynomials, cfg.puncture, cfg.traceback,
                                                       cfg.chunk, llr);
        ASSERT_EQ(ref.size(), size_t(c.steps));
        EXPECT_EQ(test::run_stream(cfg, test::cpu_backend(), test::soft_stream(llr), { 97 }), ref) << "soft";
        const auto hard = hard_stream(llr);
        std::vector<float> pm(llr.size());
        for (size_t i = 0; i < llr.size(); i++)
            pm[i] = hard.bytes[i] ? 1.0f : -1.0f;
        EXPECT_EQ(test::run_stream(cfg, test::cpu_backend(), hard, { 13 }),
                  test::reference_stream_decode(cfg.K, cfg.polynomials, cfg.puncture, cfg.traceback, cfg.chunk, pm))
            << "hard";
        const auto q = int8_stream(llr);
        EXPECT_EQ(test::run_stream(cfg, test::cpu_backend(), q, { 1000 }),
                  test::reference_stream_decode(cfg.K, cfg.polynomials, cfg.puncture, cfg.traceback, cfg.chunk, llr))
            << "int8";
    }
}

// The windows are the stream's, whatever the framing: pieces of any size,
// any frame_windows and batch size give the same bits.
TEST(ViterbiStream, OutputIndependentOfPiecesFramesAndBatches)
{
    std::mt19937 rng(77);
    auto cfg = config_of(test::viterbi_codes()[2], 40, 24, 3);
    cfg.puncture = test::puncture_2_3();
    const auto llr = noisy_stream(cfg, 2500, 2.5, rng);
    const auto in = test::soft_stream(llr);
    const auto whole = test::run_stream(cfg, test::cpu_backend(), in);
    ASSERT_EQ(whole.size(), 2500u);
    for (const std::vector<size_t>& pieces :
         { std::vector<size_t>{ 1 }, { 2, 3 }, { 7 }, { 333, 1, 4096 }, { 59, 60, 61 } })
        EXPECT_EQ(test::run_stream(cfg, test::cpu_backend(), in, pieces), whole) << "pieces " << pieces[0];
    for (int fw : { 1, 2, 50 }) {
        auto c2 = cfg;
        c2.frame_windows = fw;
        EXPECT_EQ(test::run_stream(c2, test::cpu_backend(), in, { 100 }, fw == 1 ? 1 : 3), whole) << "fw " << fw;
    }
}

// A clean stream decodes without error, every bit comes out, and items of
// a step cut short at the end are not decoded (no bit invented).
TEST(ViterbiStream, CleanStreamNothingLostAtTheEnd)
{
    std::mt19937 rng(8);
    for (int steps : { 1, 95, 96, 97, 1000, 4099 }) {
        auto cfg = config_of(test::viterbi_codes()[2], 64, 96, 4);
        const auto bits = test::random_bits(size_t(steps), rng);
        const auto coded =
            test::independent_encode(7, cfg.polynomials, core::viterbi::termination::truncated, {}, bits);
        std::vector<float> llr(coded.size());
        for (size_t i = 0; i < coded.size(); i++)
            llr[i] = coded[i] ? 4.0f : -4.0f;
        EXPECT_EQ(test::run_stream(cfg, test::cpu_backend(), test::soft_stream(llr), { 31 }), bits)
            << steps << " steps";
        llr.push_back(4.0f); // half a step more
        EXPECT_EQ(test::run_stream(cfg, test::cpu_backend(), test::soft_stream(llr), { 31 }), bits)
            << steps << " steps and a half";
    }
}

TEST(ViterbiStream, FramerCountsStepsAndKeepsOnlyTheOverlap)
{
    core::viterbi_stream_config cfg;
    cfg.chunk = 10;
    cfg.traceback = 5;
    cfg.frame_windows = 2;
    cfg.puncture = test::puncture_3_4(); // 4 items per 3 steps
    core::viterbi_stream_framer fr(cfg, core::viterbi::INPUT_HARD);
    std::vector<uint8_t> items(400, 1);
    fr.append(items.data(), 5); // steps 0,1,2 (4 items) and step 3's first item
    EXPECT_EQ(fr.steps_complete(), 3u);
    EXPECT_EQ(fr.partial_step_items(), 1u);
    core::viterbi_stream_framer::frame f;
    EXPECT_FALSE(fr.next(false, f)); // no window + traceback yet
    fr.append(items.data() + 5, 395); // 300 steps
    ASSERT_TRUE(fr.next(false, f));
    EXPECT_EQ(f.params.payload, 20); // frame_windows x chunk
    EXPECT_EQ(f.params.payload_begin, 0);
    EXPECT_EQ(f.params.steps, 25);
    EXPECT_EQ(f.params.stream_start, 1);
    fr.advance();
    ASSERT_TRUE(fr.next(false, f));
    EXPECT_EQ(f.params.payload_begin, 5);
    EXPECT_EQ(f.params.steps, 30);
    EXPECT_EQ(f.params.phase, 15 % 3);
    EXPECT_EQ(f.params.stream_start, 0);
    EXPECT_EQ(f.bytes, core::stream_coded_items(cfg.code(), f.params.phase, 30));
    for (int i = 0; i < 20; i++) {
        fr.advance();
        if (!fr.next(false, f))
            break;
    }
    EXPECT_LT(fr.items_held(), 200u); // the consumed input was dropped
    // 300 steps: the window [280, 290) has its traceback (to 295), [290, 300) not.
    EXPECT_EQ(fr.steps_emitted(), 290u);
    ASSERT_TRUE(fr.next(true, f)); // the end: the last window traces back from step 300
    EXPECT_EQ(f.params.payload, 10);
    EXPECT_EQ(f.params.payload_begin, 5);
    EXPECT_EQ(f.params.steps, 15);
    fr.advance();
    EXPECT_FALSE(fr.next(true, f));
}

TEST(ViterbiStream, BadConfigurationNamesTheParameter)
{
    auto expect_throw = [](core::viterbi_stream_config c, const char* word) {
        try {
            c.validate();
            ADD_FAILURE() << "no exception for " << word;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
        }
    };
    core::viterbi_stream_config c;
    c.traceback = -1;
    expect_throw(c, "traceback");
    c = {};
    c.chunk = 0;
    expect_throw(c, "chunk");
    c = {};
    c.frame_windows = 0;
    expect_throw(c, "frame_windows");
    c = {};
    c.K = 10;
    expect_throw(c, "K");
    c = {};
    c.implementation = "cuda-nonsense";
    EXPECT_THROW(core::choose_viterbi_stream_implementation(c), std::invalid_argument);
}

// Statistically the same as full-frame Viterbi: K=7, D=96 (16 (K-1)),
// noisy BPSK; the two decoders may differ only in rare bits.
TEST(ViterbiStream, BerEqualsFullFrameViterbi)
{
    std::mt19937 rng(99);
    auto cfg = config_of(test::viterbi_codes()[2], 256, 96, 64);
    std::vector<uint8_t> bits;
    const int steps = 60000;
    const auto llr = noisy_stream(cfg, steps, 2.5, rng, &bits);
    const auto stream = test::run_stream(cfg, test::cpu_backend(), test::soft_stream(llr), {}, 8);
    core::viterbi_config full;
    full.termination = core::viterbi::termination::truncated;
    const auto code = full.code();
    std::vector<float> dep(size_t(code.n()) * size_t(steps));
    code.depuncture(llr.data(), steps, dep.data());
    core::viterbi_reference ref(code);
    std::vector<uint8_t> whole(size_t(steps), 0);
    ref.decode(dep.data(), steps, whole.data());
    const size_t e_stream = test::hamming(stream, bits), e_full = test::hamming(whole, bits);
    const size_t differ = test::hamming(stream, whole);
    std::printf("Eb/N0 2.5 dB, %d bits: stream (L=256, D=96) %zu errors, full frame %zu, differing %zu\n", steps,
                e_stream, e_full, differ);
    EXPECT_GT(e_full, 20u); // the channel is noisy enough to measure
    EXPECT_LE(double(e_stream), double(e_full) + 3.0 * std::sqrt(double(e_full)) + 3.0);
    EXPECT_LE(differ * 20, e_full + 20);
}

// ---- CUDA: both kernels bit for bit equal to cpu-stream.
TEST(ViterbiStreamCuda, GpuKernelsEqualCpu)
{
    std::mt19937 rng(4242);
    size_t runs = 0;
    for (const auto& c : cases())
        for (const char* impl : { "cuda-stream-regs", "cuda-stream-warp" }) {
            auto cfg = c.cfg;
            cfg.implementation = impl;
            if (core::choose_viterbi_stream_implementation(cfg).cuda != impl)
                continue; // a code without a register kernel
            SCOPED_TRACE(c.name + " " + impl);
            auto llr = noisy_stream(cfg, c.steps, 2.0, rng);
            const auto soft = test::soft_stream(llr);
            const auto hard = hard_stream(llr);
            auto llr8 = llr;
            const auto q = int8_stream(llr8);
            for (const auto* in : { &soft, &hard, &q }) {
                const auto gpu = test::run_stream(cfg, test::cuda_backend(), *in, { 211 });
                cfg.implementation = "cpu-stream";
                const auto cpu = test::run_stream(cfg, test::cpu_backend(), *in, { 211 });
                cfg.implementation = impl;
                EXPECT_EQ(gpu, cpu) << "input kind " << in->input;
            }
            runs++;
        }
    EXPECT_GT(runs, 20u);
}

TEST(ViterbiStreamCuda, AutomaticChoice)
{
    core::viterbi_stream_config cfg;
    EXPECT_EQ(core::choose_viterbi_stream_implementation(cfg).cuda, "cuda-stream-regs");
    cfg.K = 9;
    cfg.polynomials = { 0753, 0561 };
    EXPECT_EQ(core::choose_viterbi_stream_implementation(cfg).cuda, "cuda-stream-warp");
}

// Long stream, many windows per batch: the regs kernel's layout at scale.
TEST(ViterbiStreamCuda, LongStreamEqualsCpu)
{
    std::mt19937 rng(5150);
    auto cfg = config_of(test::viterbi_codes()[2], 256, 96, 64);
    const auto llr = noisy_stream(cfg, 200000, 3.0, rng);
    const auto in = test::soft_stream(llr);
    cfg.implementation = "cuda-stream-regs";
    const auto gpu = test::run_stream(cfg, test::cuda_backend(), in, { 50000 }, 8);
    cfg.implementation = "cpu-stream";
    const auto cpu = test::run_stream(cfg, test::cpu_backend(), in, { 50000 }, 8);
    EXPECT_EQ(gpu, cpu);
}

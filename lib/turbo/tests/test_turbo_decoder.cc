/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The turbo decoder on both backends: noiseless decoding for all 188 block
// sizes, CPU/GPU agreement on noisy input, early termination, int8 input, and
// the 16-bit bounds of the fixed-point arithmetic.
//
// `impl` below names a CUDA implementation (registry names); the CPU runs
// its twin of equal arithmetic: cpu-float for the float ones, cpu-fixed16-simd
// for cuda-fixed16-dpx ("auto" would give the CPU cpu-window16-simd, which
// chooses its own windows; log-MAP stays float).
#include "turbo/lte_crc.h"
#include "turbo/lte_turbo_encoder.h"
#include "turbo/turbo_decoder_cpu.h"
#include "turbo/turbo_fixed.h"
#include "test_util.h"
#include "turbo/tests/turbo_test_util.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <set>

using namespace gr::gpurx;
using test::codeword;

namespace {

const double noiseless = std::numeric_limits<double>::infinity();

std::vector<codeword> all_sizes(std::mt19937& rng)
{
    std::vector<codeword> v;
    for (const auto& q : core::lte_qpp_table())
        v.push_back(test::make_codeword(q.K, noiseless, rng));
    return v;
}

const char* const float_block = "cuda-float-block";   // the paper's layout: guard 0 only
const char* const float_window = "cuda-float-window";
const char* const float_state = "cuda-float-state";   // at most 64 windows
const char* const fixed16 = "cuda-fixed16-dpx";

core::turbo_config cfg_of(core::turbo::algorithm a, int P, int iters = 4, const std::string& impl = fixed16)
{
    core::turbo_config c;
    c.algorithm = a;
    c.subblocks = P;
    c.iterations = iters;
    // The arithmetic of the name, also where the named layout cannot run the
    // configuration and the automatic choice takes over.
    c.fixed_point = impl == fixed16;
#ifdef GPURX_HAVE_CUDA
    c.implementation = impl;
#else
    // The CUDA names are not registered: their CPU twins.
    c.implementation = impl == fixed16 ? "cpu-fixed16-simd" : "cpu-float";
#endif
    core::choose_turbo_implementation(c); // the named arithmetic
    return c;
}

void noiseless_all_sizes(const core::backend_choice& where, const std::string& impl)
{
    std::mt19937 rng(3);
    const auto cws = all_sizes(rng);
    for (auto a : { core::turbo::LOG_MAP, core::turbo::MAX_LOG_MAP, core::turbo::SCALED_MAX_LOG_MAP })
        for (int P : { 0, 1, 8, impl == float_state ? 64 : 96 }) {
            auto cfg = cfg_of(a, P, 2, impl);
            cfg.guard = impl == float_block ? 0 : 32;
            const auto out = test::decode_all(cws, cfg, where, 50);
            for (size_t i = 0; i < cws.size(); i++) {
                ASSERT_EQ(out[i].hard, cws[i].bits)
                    << "K=" << cws[i].K << " P=" << P << " " << core::turbo::algorithm_name(a)
                    << " " << impl;
                EXPECT_EQ(out[i].result.iterations, 2);
            }
        }
}

// The same noisy codewords (several K, mixed in batches) through both
// backends. Max-log-MAP must agree bit for bit, soft values included; log-MAP
// differs only in the last bits of expf/log1pf, so its hard decisions must
// agree on all but a tiny fraction of bits.
// Block sizes of a batch: all different neighbours (the fixed-point kernel
// decodes such pairs one after the other), or runs of one K (decoded two per
// block), with odd counts.
const std::vector<int> mixed_K = { 40, 1024, 6144, 512, 3200 };
const std::vector<int> runs_K = { 6144, 6144, 6144, 6144, 6144, 40, 40, 1024, 1024, 1024, 528 };

void cpu_gpu_agree(core::turbo::algorithm a, int P, int guard = 32, const std::string& impl = fixed16,
                   const std::vector<int>& Ks = mixed_K)
{
    std::mt19937 rng(17 + P);
    std::vector<codeword> cws;
    for (int i = 0; i < 24; i++) {
        const int K = Ks[i % Ks.size()];
        cws.push_back(test::make_codeword(K, -4.0, rng)); // near the waterfall
    }
    auto cfg = cfg_of(a, P, 6, impl);
    cfg.soft_output = true;
    cfg.guard = guard;
    const auto cpu = test::decode_all(cws, cfg, test::cpu_backend(), 7);
    const auto gpu = test::decode_all(cws, cfg, test::cuda_backend(), 7);
    size_t bits = 0, differ = 0, frames_differ = 0;
    for (size_t i = 0; i < cws.size(); i++) {
        const size_t d = test::bit_errors(cpu[i].hard, gpu[i].hard);
        bits += cws[i].K;
        differ += d;
        frames_differ += d > 0;
        if (a != core::turbo::LOG_MAP) {
            ASSERT_EQ(d, 0u) << "frame " << i << " K=" << cws[i].K;
            ASSERT_EQ(cpu[i].soft, gpu[i].soft) << "frame " << i;
        }
    }
    std::printf("%s P=%d guard=%d %s: %zu of %zu hard decisions differ, in %zu of %zu frames\n",
                core::turbo::algorithm_name(a), P, guard, impl.c_str(), differ, bits, frames_differ, cws.size());
    EXPECT_LE(double(differ), 1e-3 * double(bits));
}

} // namespace

TEST(TurboDecoder, CpuNoiselessAllSizes) { noiseless_all_sizes(test::cpu_backend(), float_window); }
TEST(TurboDecoder, CpuFixedNoiselessAllSizes) { noiseless_all_sizes(test::cpu_backend(), fixed16); }
TEST(TurboDecoderCuda, NoiselessAllSizes) { noiseless_all_sizes(test::cuda_backend(), float_window); }
TEST(TurboDecoderCuda, FloatBlockNoiselessAllSizes) { noiseless_all_sizes(test::cuda_backend(), float_block); }
TEST(TurboDecoderCuda, FloatStateNoiselessAllSizes) { noiseless_all_sizes(test::cuda_backend(), float_state); }
TEST(TurboDecoderCuda, FixedNoiselessAllSizes) { noiseless_all_sizes(test::cuda_backend(), fixed16); }

TEST(TurboDecoderCuda, AgreesWithCpuMaxLogP1) { cpu_gpu_agree(core::turbo::MAX_LOG_MAP, 1, 32, float_window); }
TEST(TurboDecoderCuda, AgreesWithCpuScaledP96) { cpu_gpu_agree(core::turbo::SCALED_MAX_LOG_MAP, 96, 32, float_window); }
TEST(TurboDecoderCuda, AgreesWithCpuScaledP7) { cpu_gpu_agree(core::turbo::SCALED_MAX_LOG_MAP, 7, 32, float_window); }
TEST(TurboDecoderCuda, AgreesWithCpuLogMapP32) { cpu_gpu_agree(core::turbo::LOG_MAP, 32); }
TEST(TurboDecoderCuda, AgreesWithCpuNoGuardP96) { cpu_gpu_agree(core::turbo::MAX_LOG_MAP, 96, 0, float_window); }
TEST(TurboDecoderCuda, AgreesWithCpuGuard5P50) { cpu_gpu_agree(core::turbo::MAX_LOG_MAP, 50, 5, float_window); }
TEST(TurboDecoderCuda, FloatStateAgreesWithCpuP64) { cpu_gpu_agree(core::turbo::SCALED_MAX_LOG_MAP, 64, 32, float_state); }
TEST(TurboDecoderCuda, FloatStateAgreesWithCpuLogMapP16) { cpu_gpu_agree(core::turbo::LOG_MAP, 16, 32, float_state); }
TEST(TurboDecoderCuda, FloatStateFallsBackAbove64Windows) { cpu_gpu_agree(core::turbo::MAX_LOG_MAP, 200, 16, float_state); }
TEST(TurboDecoderCuda, FloatBlockAgreesWithCpuP96) { cpu_gpu_agree(core::turbo::SCALED_MAX_LOG_MAP, 96, 0, float_block); }
TEST(TurboDecoderCuda, FloatBlockAgreesWithCpuLogMapP1) { cpu_gpu_agree(core::turbo::LOG_MAP, 1, 0, float_block); }
TEST(TurboDecoderCuda, FixedAgreesWithCpuScaledP96Pairs)
{
    cpu_gpu_agree(core::turbo::SCALED_MAX_LOG_MAP, 96, 16, fixed16, runs_K);
}
TEST(TurboDecoderCuda, FixedAgreesWithCpuScaledP96Mixed) { cpu_gpu_agree(core::turbo::SCALED_MAX_LOG_MAP, 96, 16, fixed16); }
TEST(TurboDecoderCuda, FixedAgreesWithCpuMaxLogP1) { cpu_gpu_agree(core::turbo::MAX_LOG_MAP, 1, 16, fixed16, runs_K); }
TEST(TurboDecoderCuda, FixedAgreesWithCpuP7Guard5) { cpu_gpu_agree(core::turbo::SCALED_MAX_LOG_MAP, 7, 5, fixed16, runs_K); }
TEST(TurboDecoderCuda, FixedAgreesWithCpuNoGuardP50) { cpu_gpu_agree(core::turbo::MAX_LOG_MAP, 50, 0, fixed16, runs_K); }
TEST(TurboDecoderCuda, FixedAgreesWithCpuAutoP) { cpu_gpu_agree(core::turbo::SCALED_MAX_LOG_MAP, 0, 16, fixed16, runs_K); }
TEST(TurboDecoderCuda, AgreesWithCpuAutoPMixed) { cpu_gpu_agree(core::turbo::MAX_LOG_MAP, 0, 16, float_window); }
TEST(TurboDecoderCuda, FloatBlockAgreesWithCpuAutoP) { cpu_gpu_agree(core::turbo::MAX_LOG_MAP, 0, 0, float_block); }
TEST(TurboDecoderCuda, FloatStateAgreesWithCpuAutoP) { cpu_gpu_agree(core::turbo::MAX_LOG_MAP, 0, 16, float_state); }
TEST(TurboDecoderCuda, FixedAgreesWithCpuP256) { cpu_gpu_agree(core::turbo::SCALED_MAX_LOG_MAP, 256, 16, fixed16, runs_K); }

namespace {
void early_termination(const core::backend_choice& where, const std::string& impl)
{
    std::mt19937 rng(23);
    std::vector<codeword> cws;
    for (int K : { 40, 6144, 1024 }) {
        codeword cw = test::make_codeword(K, noiseless, rng);
        // Give the block a valid CRC24B, then re-encode.
        core::crc24_attach(cw.bits.data(), K - 24, core::crc24_type::b);
        std::vector<uint8_t> c(3 * K + 12);
        core::lte_turbo_encoder(K).encode(cw.bits.data(), c.data());
        for (size_t i = 0; i < c.size(); i++)
            cw.llr[i] = c[i] ? 3.0f : -3.0f;
        cws.push_back(cw);
    }
    auto cfg = cfg_of(core::turbo::SCALED_MAX_LOG_MAP, 16, 8, impl);
    cfg.stop = core::turbo::early_stop::crc24b;
    auto out = test::decode_all(cws, cfg, where);
    for (size_t i = 0; i < cws.size(); i++) {
        EXPECT_EQ(out[i].hard, cws[i].bits);
        EXPECT_EQ(out[i].result.iterations, 1) << "CRC passes after the first iteration";
        EXPECT_EQ(out[i].result.check, 1);
    }
    cfg.stop = core::turbo::early_stop::crc24a; // wrong CRC: never passes, runs all 8
    out = test::decode_all(cws, cfg, where);
    for (size_t i = 0; i < cws.size(); i++) {
        EXPECT_EQ(out[i].result.iterations, 8);
        EXPECT_EQ(out[i].result.check, 0);
    }
    cfg.stop = core::turbo::early_stop::hard_decision; // decisions stable from iteration 1
    out = test::decode_all(cws, cfg, where);
    for (size_t i = 0; i < cws.size(); i++) {
        EXPECT_EQ(out[i].hard, cws[i].bits);
        EXPECT_EQ(out[i].result.iterations, 2);
        EXPECT_EQ(out[i].result.check, -1);
    }
}
} // namespace

TEST(TurboDecoder, CpuEarlyTermination)
{
    early_termination(test::cpu_backend(), float_window);
    early_termination(test::cpu_backend(), fixed16);
}
TEST(TurboDecoderCuda, EarlyTermination)
{
    early_termination(test::cuda_backend(), float_window);
    early_termination(test::cuda_backend(), fixed16);
}

namespace {
// A codeword carrying a valid CRC24A, through BPSK and AWGN of deviation
// sigma (LLRs 2y/sigma^2): a range of sigma makes frames that need different
// numbers of iterations.
codeword crc_codeword_awgn(int K, float sigma, std::mt19937& rng)
{
    codeword cw = test::make_codeword(K, noiseless, rng);
    core::crc24_attach(cw.bits.data(), K - 24, core::crc24_type::a);
    std::vector<uint8_t> c(3 * K + 12);
    core::lte_turbo_encoder(K).encode(cw.bits.data(), c.data());
    std::normal_distribution<float> n(0.0f, 1.0f);
    for (size_t j = 0; j < c.size(); j++)
        cw.llr[j] = 2.0f * ((c[j] ? 1.0f : -1.0f) + sigma * n(rng)) / (sigma * sigma);
    return cw;
}

} // namespace

// Early termination per codeword while the other codeword of a pair goes
// on: frames that pass their CRC at different iterations, side by side.
TEST(TurboDecoderCuda, FixedEarlyTerminationPerCodewordMatchesCpu)
{
    std::mt19937 rng(41);
    std::vector<codeword> cws;
    const int K = 1024;
    for (int i = 0; i < 16; i++)
        cws.push_back(crc_codeword_awgn(K, 0.75f + 0.03f * float(i), rng));
    auto cfg = cfg_of(core::turbo::SCALED_MAX_LOG_MAP, 16, 10, fixed16);
    cfg.stop = core::turbo::early_stop::crc24a;
    cfg.soft_output = true;
    const auto cpu = test::decode_all(cws, cfg, test::cpu_backend());
    const auto gpu = test::decode_all(cws, cfg, test::cuda_backend());
    std::set<int> iters;
    for (size_t i = 0; i < cws.size(); i++) {
        EXPECT_EQ(cpu[i].hard, gpu[i].hard) << i;
        EXPECT_EQ(cpu[i].soft, gpu[i].soft) << i;
        EXPECT_EQ(cpu[i].result.iterations, gpu[i].result.iterations) << i;
        EXPECT_EQ(cpu[i].result.check, gpu[i].result.check) << i;
        iters.insert(cpu[i].result.iterations);
    }
    EXPECT_GE(iters.size(), 2u) << "the frames should stop at different iterations";
}

// The kernel's portable arithmetic (s16x2_portable_ops, what GPUs without
// DPX run), forced on this GPU with GPURX_CUDA_PORTABLE=1, decodes bit for
// bit as the CPU twin and as the default (DPX on Hopper) path: decisions,
// soft values, iterations and CRC, for each block-size variant of the kernel
// (96 and 128 windows: constant row stride; 16: general).
TEST(TurboDecoderCuda, PortablePathMatchesCpuTwin)
{
    std::mt19937 rng(71);
    struct shape {
        int K, P;
    };
    int frames = 0;
    for (const shape sh : { shape{ 1024, 16 }, shape{ 6144, 96 }, shape{ 6144, 128 } }) {
        std::vector<codeword> cws;
        for (int i = 0; i < 9; i++) // odd: one codeword decodes alone
            cws.push_back(crc_codeword_awgn(sh.K, 0.72f + 0.03f * float(i), rng));
        auto cfg = cfg_of(core::turbo::SCALED_MAX_LOG_MAP, sh.P, 8, fixed16);
        cfg.stop = core::turbo::early_stop::crc24a;
        cfg.soft_output = true;
        const auto cpu = test::decode_all(cws, cfg, test::cpu_backend());
        const auto dflt = test::decode_all(cws, cfg, test::cuda_backend());
        ::setenv("GPURX_CUDA_PORTABLE", "1", 1);
        const auto port = test::decode_all(cws, cfg, test::cuda_backend());
        ::unsetenv("GPURX_CUDA_PORTABLE");
        for (size_t i = 0; i < cws.size(); i++) {
            EXPECT_EQ(cpu[i].hard, port[i].hard) << sh.K << " " << i;
            EXPECT_EQ(cpu[i].soft, port[i].soft) << sh.K << " " << i;
            EXPECT_EQ(cpu[i].result.iterations, port[i].result.iterations) << i;
            EXPECT_EQ(cpu[i].result.check, port[i].result.check) << i;
            EXPECT_EQ(dflt[i].hard, port[i].hard) << i;
            EXPECT_EQ(dflt[i].soft, port[i].soft) << i;
            frames++;
        }
    }
    EXPECT_EQ(frames, 27);
}

TEST(TurboDecoderCuda, Int8InputMatchesCpu)
{
    for (const char* impl : { float_window, fixed16 }) {
    std::mt19937 rng(29);
    const int K = 2048;
    const float q_scale = 0.25f;
    std::vector<codeword> cws;
    for (int i = 0; i < 6; i++)
        cws.push_back(test::make_codeword(K, -3.0, rng));
    auto cfg = cfg_of(core::turbo::MAX_LOG_MAP, 32, 5, impl);
    const auto choice = core::choose_turbo_implementation(cfg);
    const auto kernels = core::turbo_kernel_factories(cfg, choice, q_scale);
    core::pipeline_config pc;
    pc.types = core::turbo::frame_types_of();
    pc.cpu_threads = 1;
    pc.max_batch = 8;
    pc.slots = 1;
    pc.max_in_bytes = 3 * K + 12;
    pc.max_out_bytes = K;
    pc.flush_timeout = std::chrono::microseconds(0);
    auto gp = core::make_pipeline(kernels, test::cuda_backend(), pc);
    auto cp = core::make_pipeline(kernels, test::cpu_backend(), pc);
    const auto params = core::turbo::frame_params_for(K, core::turbo::INPUT_INT8);
    for (const auto& cw : cws) {
        std::vector<int8_t> q(cw.llr.size());
        for (size_t i = 0; i < q.size(); i++)
            q[i] = int8_t(std::max(-127.0f, std::min(127.0f, std::nearbyint(cw.llr[i] / q_scale))));
        for (auto* p : { gp.get(), cp.get() }) {
            p->submit(q.data(), q.size(), K, &params);
            p->drain();
        }
        const auto* g = gp->front(true);
        const auto* c = cp->front(true);
        ASSERT_TRUE(g && c);
        EXPECT_EQ(std::vector<uint8_t>(g->data, g->data + K), std::vector<uint8_t>(c->data, c->data + K));
        EXPECT_LE(test::bit_errors(std::vector<uint8_t>(g->data, g->data + K), cw.bits), size_t(K / 20));
        gp->pop();
        cp->pop();
    }
    }
}

TEST(TurboDecoder, CpuCorrectsErrorsAtModerateSnr)
{
    // Statistical sanity: at Es/N0 = -3 dB (Eb/N0 about 1.8 dB) the raw channel
    // BER is about 16%; six iterations of log-MAP leave essentially none.
    std::mt19937 rng(31);
    std::vector<codeword> cws;
    for (int i = 0; i < 8; i++)
        cws.push_back(test::make_codeword(1024, -3.0, rng));
    const auto out = test::decode_all(cws, cfg_of(core::turbo::LOG_MAP, 1, 6), test::cpu_backend());
    size_t raw = 0, dec = 0, bits = 0;
    for (size_t i = 0; i < cws.size(); i++) {
        for (int k = 0; k < cws[i].K; k++)
            raw += (cws[i].llr[3 * k] > 0) != bool(cws[i].bits[k]);
        dec += test::bit_errors(out[i].hard, cws[i].bits);
        bits += cws[i].K;
    }
    EXPECT_GT(double(raw) / bits, 0.10);
    EXPECT_LT(double(dec) / bits, 1e-3);
}

// The CPU's vectorisable quantiser is the shared one (which the GPU kernel
// runs) for every input: ties, saturation, +-Inf and NaN.
// The GPU's clamp-then-scale extrinsic scaling equals the shared one for
// every int16 difference and every scale.
TEST(TurboDecoder, ClampFirstExtrinsicScalingMatchesShared)
{
    long mismatches = 0;
    for (int sq = 1; sq <= core::turbo_fx::SCALE_ONE; sq++) {
        const auto c = core::turbo_fx::ext_clamp_of(sq);
        for (int le = -32768; le <= 32767; le++) {
            const int clamped = le < c.lo ? c.lo : (le > c.hi ? c.hi : le);
            if (((clamped * sq) >> 8) != core::turbo_fx::scale_extrinsic(le, sq))
                mismatches++;
        }
    }
    EXPECT_EQ(mismatches, 0);
}

TEST(TurboDecoder, VectorisableQuantiserMatchesShared)
{
    std::mt19937 rng(61);
    std::uniform_real_distribution<float> u(-40.0f, 40.0f);
    std::vector<float> xs = { 0.0f, -0.0f, 0.0625f, -0.0625f, 0.1875f, -0.1875f, 15.9375f, -15.9375f,
                              15.8125f, 16.0f, -16.0f, 1e30f, -1e30f,
                              std::numeric_limits<float>::infinity(),
                              -std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::quiet_NaN() };
    for (int i = -2100; i <= 2100; i++)
        xs.push_back(float(i) / 128.0f); // every half step: ties at scale 8
    for (int i = 0; i < 100000; i++)
        xs.push_back(u(rng));
    size_t checked = 0;
    for (float scale : { 8.0f, 4.0f, 0.5f, 3.7f })
        for (float x : xs) {
            ASSERT_EQ(core::turbo_fx::quantize_vectorisable(x, scale), core::turbo_fx::quantize(x, scale))
                << "x=" << x << " scale=" << scale;
            checked++;
        }
    EXPECT_EQ(core::turbo_fx::quantize(0.0625f, 8.0f), 0);  // 0.5: half to even
    EXPECT_EQ(core::turbo_fx::quantize(0.1875f, 8.0f), 2);  // 1.5
    EXPECT_EQ(core::turbo_fx::quantize(std::numeric_limits<float>::infinity(), 8.0f), 127);
    EXPECT_GT(checked, 400000u);
}

// The bounds argument of turbo_fixed.h, checked: every intermediate value of
// the CPU twin stays in the int16 range on saturated random input (the worst
// case for the metric spread), on noiseless saturated input and on noisy
// input, for several window counts, with and without extrinsic scaling.
TEST(TurboDecoder, FixedPointStaysInInt16)
{
    std::mt19937 rng(43);
    const int K = 1024;
    std::uniform_int_distribution<int> sat(0, 1), any(-127, 127);
    std::vector<std::vector<int>> inputs;
    std::vector<int> q(3 * K + 12);
    for (auto& v : q)
        v = sat(rng) ? 127 : -127;
    inputs.push_back(q);
    for (auto& v : q)
        v = any(rng);
    inputs.push_back(q);
    codeword cw = test::make_codeword(K, noiseless, rng);
    for (size_t i = 0; i < q.size(); i++)
        q[i] = cw.llr[i] > 0 ? 127 : -127;
    inputs.push_back(q);
    cw = test::make_codeword(K, -4.0, rng);
    for (size_t i = 0; i < q.size(); i++)
        q[i] = core::turbo_fx::quantize(cw.llr[i], 8.0f);
    inputs.push_back(q);
    std::vector<uint8_t> hard(K);
    std::vector<float> soft(K);
    long checked = 0;
    for (auto a : { core::turbo::MAX_LOG_MAP, core::turbo::SCALED_MAX_LOG_MAP })
        for (int P : { 1, 16, 96 })
            for (int guard : { 0, 16 })
            for (const auto& in : inputs) {
                auto cfg = cfg_of(a, P, 8, fixed16);
                cfg.guard = guard;
                core::turbo_decoder_cpu dec(cfg);
                core::turbo_fx::checked_int_ops::violations = 0;
                dec.decode_fixed<core::turbo_fx::checked_int_ops>(in.data(), K, 0.125f, hard.data(), soft.data());
                EXPECT_EQ(core::turbo_fx::checked_int_ops::violations, 0)
                    << core::turbo::algorithm_name(a) << " P=" << P;
                checked++;
            }
    EXPECT_EQ(checked, 48);
    std::printf("largest intermediate magnitude: %d (bound 23746)\n", core::turbo_fx::checked_int_ops::max_abs);
    EXPECT_LE(core::turbo_fx::checked_int_ops::max_abs, 23746);
    // and the values each add-max compares are within 2^15 - 1 of each
    // other (counted as violations above): what s16x2_portable_ops needs
    std::printf("largest add-max distance: %d (portable path needs <= 32767)\n",
                core::turbo_fx::checked_int_ops::max_dist);
    EXPECT_LE(core::turbo_fx::checked_int_ops::max_dist, 32767);
}

// The GPU's portable packed arithmetic (turbo_fx::s16x2_portable_ops, run
// on GPUs without DPX) is lane for lane the DPX instructions it replaces:
// add.s16x2 / sub.s16x2 wrapping modulo 2^16 on any words (random and
// int16 edges), and max(a + b, c) per signed lane (__viaddmax_s16x2)
// wherever the two compared values differ by less than 2^15 (what
// turbo_fixed.h's bounds guarantee and FixedPointStaysInInt16 checks).
TEST(TurboDecoder, PortablePackedOpsMatchDpxSemantics)
{
    using P = core::turbo_fx::s16x2_portable_ops;
    auto lane = [](uint32_t v, int l) { return int(int16_t(uint16_t(v >> (16 * l)))); };
    auto ref_add = [&](uint32_t a, uint32_t b, int sign) {
        uint32_t r = 0;
        for (int l = 0; l < 2; l++)
            r |= uint32_t(uint16_t(lane(a, l) + sign * lane(b, l))) << (16 * l);
        return r;
    };
    auto ref_addmax = [&](uint32_t a, uint32_t b, uint32_t c) {
        const uint32_t s = ref_add(a, b, 1);
        uint32_t r = 0;
        for (int l = 0; l < 2; l++)
            r |= uint32_t(uint16_t(std::max(lane(s, l), lane(c, l)))) << (16 * l);
        return r;
    };
    std::mt19937 rng(61);
    const uint32_t edges[] = { 0u, 1u, 0xFFFFu, 0x7FFFu, 0x8000u, 0x7FFF8000u, 0x80007FFFu,
                               0xFFFF0000u, 0xFFFFFFFFu, 0x80008000u, 0x7FFF7FFFu, 0x00010001u };
    long n = 0;
    for (uint32_t a : edges)
        for (uint32_t b : edges) {
            ASSERT_EQ(P::add(a, b), ref_add(a, b, 1)) << std::hex << a << " " << b;
            ASSERT_EQ(P::sub(a, b), ref_add(a, b, -1)) << std::hex << a << " " << b;
        }
    for (int i = 0; i < 2000000; i++) {
        const uint32_t a = rng(), b = rng();
        ASSERT_EQ(P::add(a, b), ref_add(a, b, 1)) << std::hex << a << " " << b;
        ASSERT_EQ(P::sub(a, b), ref_add(a, b, -1)) << std::hex << a << " " << b;
    }
    // addmax: per lane, a + b and c within 2^15 - 1 of each other.
    std::uniform_int_distribution<int> half(-16384, 16383), any(-32768, 32767);
    auto pk = [](int l, int h) { return (uint32_t(l) & 0xFFFFu) | (uint32_t(h) << 16); };
    auto near_lane = [&](int& a, int& b, int& c) {
        for (;;) {
            a = any(rng), b = any(rng), c = any(rng);
            const int s = int(int16_t(uint16_t(a + b)));
            if (std::abs(s - c) <= 32767)
                return;
        }
    };
    for (int i = 0; i < 2000000; i++) {
        int a0, b0, c0, a1, b1, c1;
        if (i % 2) {
            near_lane(a0, b0, c0);
            near_lane(a1, b1, c1);
        } else {
            a0 = half(rng), b0 = 0, c0 = half(rng), a1 = half(rng), b1 = 0, c1 = half(rng);
        }
        const uint32_t a = pk(a0, a1), b = pk(b0, b1), c = pk(c0, c1);
        ASSERT_EQ(P::addmax(a, b, c), ref_addmax(a, b, c)) << std::hex << a << " " << b << " " << c;
        n++;
    }
    // The extremes of the allowed distance, in both lanes and orders.
    for (int base : { -32768, -16384, -1, 0, 1 }) {
        const int top = base + 32767;
        if (top > 32767)
            continue;
        for (auto [x, y] : { std::pair<int, int>{ base, top }, std::pair<int, int>{ top, base } }) {
            const uint32_t a = pk(x, y), c = pk(y, x);
            ASSERT_EQ(P::addmax(a, 0u, c), ref_addmax(a, 0u, c)) << base;
            n++;
        }
    }
    for (int x : { -32768, -2048, -1, 0, 1, 127, 32767 }) {
        EXPECT_EQ(P::lo(P::splat(x)), x);
        EXPECT_EQ(P::hi(P::splat(x)), x);
    }
    EXPECT_EQ(P::zero(), 0u);
    EXPECT_GT(n, 2000000);
}

// The CPU twin run with the GPU's portable packed arithmetic in either lane
// (the other lane carrying other values) decodes bit for bit as with plain
// int: decisions, soft values and iterations, on saturated, random and noisy
// input, several window counts, guard and both max-log-MAP kinds. The
// CUDA test PortablePathMatchesCpuTwin runs the same arithmetic on a GPU.
TEST(TurboDecoder, PortablePackedArithmeticMatchesInt)
{
    std::mt19937 rng(67);
    std::uniform_int_distribution<int> sat(0, 1), any(-127, 127);
    long compared = 0;
    for (int K : { 40, 1024, 6144 }) {
        std::vector<std::vector<int>> inputs;
        std::vector<int> q(3 * K + 12);
        for (auto& v : q)
            v = sat(rng) ? 127 : -127;
        inputs.push_back(q);
        for (auto& v : q)
            v = any(rng);
        inputs.push_back(q);
        for (float sigma : { 0.7f, 0.9f }) {
            const codeword cw = crc_codeword_awgn(K, sigma, rng);
            for (size_t i = 0; i < q.size(); i++)
                q[i] = core::turbo_fx::quantize(cw.llr[i], 8.0f);
            inputs.push_back(q);
        }
        for (auto a : { core::turbo::MAX_LOG_MAP, core::turbo::SCALED_MAX_LOG_MAP })
            for (int P : { 1, 16, 96 })
                for (int guard : { 0, 16 })
                    for (const auto& in : inputs) {
                        auto cfg = cfg_of(a, P, 8, fixed16);
                        cfg.guard = guard;
                        core::turbo_decoder_cpu dec(cfg);
                        std::vector<uint8_t> h0(K), h1(K), h2(K);
                        std::vector<float> s0(K), s1(K), s2(K);
                        const auto r0 = dec.decode_fixed<core::turbo_fx::int_ops>(in.data(), K, 0.125f, h0.data(), s0.data());
                        const auto r1 = dec.decode_fixed<core::turbo_fx::s16x2_lane_ops<0>>(in.data(), K, 0.125f, h1.data(), s1.data());
                        const auto r2 = dec.decode_fixed<core::turbo_fx::s16x2_lane_ops<1>>(in.data(), K, 0.125f, h2.data(), s2.data());
                        ASSERT_EQ(h0, h1) << "K=" << K << " P=" << P;
                        ASSERT_EQ(h0, h2) << "K=" << K << " P=" << P;
                        ASSERT_EQ(0, std::memcmp(s0.data(), s1.data(), K * sizeof(float)));
                        ASSERT_EQ(0, std::memcmp(s0.data(), s2.data(), K * sizeof(float)));
                        ASSERT_EQ(r0.iterations, r1.iterations);
                        ASSERT_EQ(r0.iterations, r2.iterations);
                        ASSERT_EQ(r0.check, r1.check);
                        ASSERT_EQ(r0.check, r2.check);
                        compared++;
                    }
    }
    EXPECT_EQ(compared, 3 * 2 * 3 * 2 * 4);
}

// The CPU backend's SIMD path (codewords as vector lanes) is the scalar
// fixed-point decoder bit for bit, per lane: decisions, soft values and
// iterations, with lanes stopping early at different iterations, partial
// vectors, several window counts and both early-termination kinds.
TEST(TurboDecoder, SimdLanesMatchScalar)
{
    std::mt19937 rng(53);
    const int K = 1024;
    std::vector<std::vector<int>> q;
    for (int i = 0; i < 16; i++) {
        const codeword cw = crc_codeword_awgn(K, 0.75f + 0.03f * float(i), rng);
        std::vector<int> v(cw.llr.size());
        for (size_t j = 0; j < v.size(); j++)
            v[j] = core::turbo_fx::quantize(cw.llr[j], 8.0f);
        q.push_back(v);
    }
    std::set<int> iters;
    for (bool baseline : { false, true }) {
    core::turbo_decoder_cpu::force_baseline_simd(baseline);
    std::printf("SIMD build: %s\n", core::turbo_decoder_cpu::simd_isa());
    for (auto stop : { core::turbo::early_stop::crc24a, core::turbo::early_stop::hard_decision, core::turbo::early_stop::none })
        for (int P : { 1, 16, 50 })
            for (int n : { 16, 5 }) {
                auto cfg = cfg_of(core::turbo::SCALED_MAX_LOG_MAP, P, 8, fixed16);
                cfg.stop = stop;
                core::turbo_decoder_cpu scalar(cfg), simd(cfg);
                std::vector<std::vector<uint8_t>> h1(n, std::vector<uint8_t>(K)), h2 = h1;
                std::vector<std::vector<float>> s1(n, std::vector<float>(K)), s2 = s1;
                std::vector<core::turbo_decode_result> r1(n), r2(n);
                std::vector<const int*> qp;
                std::vector<uint8_t*> hp;
                std::vector<float*> sp;
                for (int l = 0; l < n; l++) {
                    r1[l] = scalar.decode_fixed<core::turbo_fx::int_ops>(q[l].data(), K, 0.125f,
                                                                        h1[l].data(), s1[l].data());
                    qp.push_back(q[l].data());
                    hp.push_back(h2[l].data());
                    sp.push_back(s2[l].data());
                }
                simd.decode_fixed_lanes(qp.data(), n, K, 0.125f, hp.data(), sp.data(), r2.data());
                for (int l = 0; l < n; l++) {
                    ASSERT_EQ(h1[l], h2[l]) << "lane " << l << " P=" << P;
                    ASSERT_EQ(s1[l], s2[l]) << "lane " << l << " P=" << P;
                    ASSERT_EQ(r1[l].iterations, r2[l].iterations) << "lane " << l << " P=" << P;
                    ASSERT_EQ(r1[l].check, r2[l].check) << "lane " << l << " P=" << P;
                    iters.insert(r1[l].iterations);
                }
            }
    }
    core::turbo_decoder_cpu::force_baseline_simd(false);
    EXPECT_GE(iters.size(), 3u) << "lanes should stop at different iterations";
}

// subblocks = 0 is, for each K, the explicit P = ceil(K/48): windows of at
// most 48 steps.
TEST(TurboDecoder, AutomaticSubblocksAreWindowsOf48)
{
    std::mt19937 rng(59);
    for (int K : { 40, 48, 56, 1024, 3200, 6144 }) {
        const codeword cw = test::make_codeword(K, -4.0, rng);
        auto automatic = cfg_of(core::turbo::SCALED_MAX_LOG_MAP, 0, 6, fixed16);
        auto expl = cfg_of(core::turbo::SCALED_MAX_LOG_MAP, (K + 47) / 48, 6, fixed16);
        EXPECT_EQ(automatic.subblocks_for(K), expl.subblocks);
        EXPECT_LE(core::turbo::window_length(K, automatic.subblocks_for(K)), 48);
        std::vector<uint8_t> h1(K), h2(K);
        std::vector<float> s1(K), s2(K);
        core::turbo_decoder_cpu(automatic).decode(cw.llr.data(), K, h1.data(), s1.data());
        core::turbo_decoder_cpu(expl).decode(cw.llr.data(), K, h2.data(), s2.data());
        EXPECT_EQ(h1, h2) << "K=" << K;
        EXPECT_EQ(s1, s2) << "K=" << K;
    }
}

// The fixed-point decoder is the float decoder to within quantisation: on the
// same noisy frames both correct nearly all channel errors, and they agree on
// all but a few decisions.
TEST(TurboDecoder, FixedPointTracksFloat)
{
    std::mt19937 rng(47);
    std::vector<codeword> cws;
    for (int i = 0; i < 12; i++)
        cws.push_back(test::make_codeword(1024, -3.5, rng));
    const auto fx = test::decode_all(cws, cfg_of(core::turbo::SCALED_MAX_LOG_MAP, 16, 6, fixed16), test::cpu_backend());
    const auto fl = test::decode_all(cws, cfg_of(core::turbo::SCALED_MAX_LOG_MAP, 16, 6, float_window), test::cpu_backend());
    size_t e_fx = 0, e_fl = 0, raw = 0, bits = 0;
    for (size_t i = 0; i < cws.size(); i++) {
        e_fx += test::bit_errors(fx[i].hard, cws[i].bits);
        e_fl += test::bit_errors(fl[i].hard, cws[i].bits);
        for (int k = 0; k < cws[i].K; k++)
            raw += (cws[i].llr[3 * k] > 0) != bool(cws[i].bits[k]);
        bits += cws[i].K;
    }
    std::printf("raw %zu, float %zu, fixed %zu bit errors of %zu\n", raw, e_fl, e_fx, bits);
    EXPECT_GT(double(raw) / bits, 0.10);
    EXPECT_LT(double(e_fx) / bits, 2e-3);
    EXPECT_LT(double(e_fl) / bits, 2e-3);
}

TEST(TurboDecoder, ConfigErrorsNameTheParameter)
{
    auto names = [](core::turbo_config c, const char* name) {
        try {
            c.validate();
            FAIL() << name;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    };
    core::turbo_config c;
    c.iterations = 0;
    names(c, "iterations");
    c = {};
    c.iterations = 17;
    names(c, "iterations");
    c = {};
    c.subblocks = -1;
    names(c, "subblocks");
    c = {};
    c.subblocks = 257;
    names(c, "subblocks");
    c = {};
    c.scaling = 0;
    names(c, "scaling");
    c = {};
    c.guard = -1;
    names(c, "guard");
    c = {};
    c.fixed_scale = 0;
    names(c, "fixed_scale");
    c = {};
    c.implementation = "cuda-fast";
    try {
        core::choose_turbo_implementation(c);
        ADD_FAILURE() << "unknown implementation accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("implementation"), std::string::npos) << e.what();
    }
    EXPECT_THROW(core::turbo::parse_algorithm("map"), std::invalid_argument);
    EXPECT_THROW(core::turbo::parse_early_stop("crc16"), std::invalid_argument);
}

#ifdef GPURX_HAVE_CUDA
// A named implementation that cannot run the configuration falls back to the
// automatic choice with a note for the log, never silently.
TEST(TurboDecoder, ImplementationFallbackIsReported)
{
    core::turbo_config c;
    c.implementation = "cuda-float-block"; // needs guard 0; the default is 16
    const auto choice = core::choose_turbo_implementation(c);
    EXPECT_NE(choice.note.find("guard"), std::string::npos) << choice.note;
    EXPECT_EQ(choice.cuda, "cuda-fixed16-dpx");
    c = {};
    c.implementation = "cuda-float-state";
    c.subblocks = 0; // automatic: up to 128 windows, more than the layout runs
    EXPECT_NE(core::choose_turbo_implementation(c).note.find("at most 64"), std::string::npos);
    c = {};
    c.implementation = "cuda-float-state";
    c.subblocks = 64;
    const auto ok = core::choose_turbo_implementation(c);
    EXPECT_TRUE(ok.note.empty()) << ok.note;
    EXPECT_EQ(ok.cuda, "cuda-float-state");
    EXPECT_EQ(ok.cpu, "cpu-float"); // its twin of equal arithmetic
}
#endif

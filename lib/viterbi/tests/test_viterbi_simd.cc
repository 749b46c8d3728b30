/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cpu-simd (viterbi_simd.h): every instruction-set variant this CPU runs
// (generic, SSE2, AVX2), as VOLK tests each kernel against its generic one,
// against cpu-reference and against the independent encoder and metric of
// viterbi_test_util.h, on noisy frames of every code, termination and
// puncturing:
//   int8 and hard input  bit for bit, the same metric and end state
//   float input          the same bits except near-ties, which are counted
//                        and shown to be near-ties
// and the pipeline kernel and registry entry.
#include "test_util.h"
#include "viterbi/tests/viterbi_test_util.h"
#include "viterbi/viterbi_reference.h"
#include "viterbi/viterbi_simd.h"
#include "viterbi/viterbi_packed.h"
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

using namespace gr::gpurx;
using core::viterbi::simd_isa;
using core::viterbi::termination;

namespace {

const std::vector<termination> all_terminations{ termination::terminated, termination::truncated,
                                                 termination::tail_biting };

std::vector<simd_isa> runnable_isas()
{
    std::vector<simd_isa> v;
    for (simd_isa isa : { simd_isa::generic, simd_isa::sse2, simd_isa::avx2 })
        if (core::viterbi::simd_isa_supported(isa))
            v.push_back(isa);
    return v;
}

// The family's codes, and codes with polynomials that tap only one end of
// the register (the non-symmetric pass): K=5 for SSE2 int16, K=7 for AVX2.
std::vector<test::conv_code_case> codes_under_test()
{
    auto v = test::viterbi_codes();
    v.push_back({ "K5-one-ended", 5, { 023, 036, 013 } });  // 036: current only, 013: oldest only
    v.push_back({ "K7-one-ended", 7, { 0133, 0170, 0013 } }); // 0170: current only, 0013: oldest only
    v.push_back({ "K4-r12", 4, { 015, 017 } });              // narrower than every SIMD lane count
    return v;
}

std::vector<std::vector<int>> punctures_for(const test::conv_code_case& c)
{
    if (c.polys.size() == 2)
        return { {}, test::puncture_2_3(), test::puncture_3_4() };
    if (c.polys.size() == 3)
        return { {}, { 1, 1, 0, 1, 0, 1 } };
    return { {} };
}

core::viterbi_code make_code(const test::conv_code_case& c, termination t, const std::vector<int>& punct)
{
    return core::viterbi_code(c.K, c.polys, core::viterbi::polynomial_order::msb_current, t, punct);
}

double rate_of(const core::viterbi_code& code) { return 1e6 / double(code.coded_bits(1000000)); }

// int8 channel values: noisy LLRs scaled so that some saturate at -128/127,
// or the extremes alone (the largest branch metrics the int16 bound covers).
std::vector<int8_t> quantize(const std::vector<float>& llr, float scale)
{
    std::vector<int8_t> q(llr.size());
    for (size_t i = 0; i < llr.size(); i++)
        q[i] = int8_t(std::max(-128.0f, std::min(127.0f, std::round(scale * llr[i]))));
    return q;
}

std::vector<float> as_float(const std::vector<int8_t>& q) { return std::vector<float>(q.begin(), q.end()); }

struct decoded {
    std::vector<uint8_t> bits;
    core::viterbi_path path;
};

decoded reference_decode(const core::viterbi_code& code, const std::vector<float>& punctured_llr, int L)
{
    std::vector<float> in(size_t(code.n()) * code.steps(L));
    code.depuncture(punctured_llr.data(), L, in.data());
    core::viterbi_reference ref(code);
    decoded r{ std::vector<uint8_t>(L), {} };
    r.path = ref.decode(in.data(), L, r.bits.data());
    return r;
}

decoded simd_decode_int8(core::viterbi_simd& d, const core::viterbi_code& code, const std::vector<int8_t>& q, int L)
{
    std::vector<int8_t> in(size_t(code.n()) * code.steps(L));
    code.depuncture_int8(q.data(), L, in.data());
    decoded r{ std::vector<uint8_t>(L), {} };
    r.path = d.decode_int8(in.data(), L, r.bits.data());
    return r;
}

decoded simd_decode_hard(core::viterbi_simd& d, const core::viterbi_code& code, const std::vector<uint8_t>& h, int L)
{
    std::vector<int8_t> in(size_t(code.n()) * code.steps(L));
    code.depuncture_hard(h.data(), L, in.data());
    decoded r{ std::vector<uint8_t>(L), {} };
    r.path = d.decode_int8(in.data(), L, r.bits.data());
    return r;
}

decoded simd_decode_float(core::viterbi_simd& d, const core::viterbi_code& code, const std::vector<float>& llr, int L)
{
    std::vector<float> in(size_t(code.n()) * code.steps(L));
    code.depuncture(llr.data(), L, in.data());
    decoded r{ std::vector<uint8_t>(L), {} };
    r.path = d.decode(in.data(), L, r.bits.data());
    return r;
}

std::vector<int> lengths_for(const test::conv_code_case& c, termination t)
{
    // Short frames (fewer steps than K-1: unreached states at the end),
    // one across several renormalisations; fewer for K=9 tail-biting, whose
    // reference makes 256 passes per frame.
    std::vector<int> v{ t == termination::tail_biting ? c.K - 1 : 1, c.K + 1, 37, 101 };
    if (!(c.K == 9 && t == termination::tail_biting))
        v.push_back(700);
    return v;
}

} // namespace

TEST(ViterbiSimd, Int8AndHardInputBitExactWithReferenceEveryVariant)
{
    std::mt19937 rng(11);
    size_t frames = 0;
    for (const auto& c : codes_under_test())
        for (auto term : all_terminations)
            for (const auto& punct : punctures_for(c)) {
                const auto code = make_code(c, term, punct);
                std::vector<std::unique_ptr<core::viterbi_simd>> variants;
                for (simd_isa isa : runnable_isas())
                    variants.push_back(std::make_unique<core::viterbi_simd>(code, isa));
                for (int L : lengths_for(c, term))
                    for (int kind = 0; kind < 3; kind++) { // int8 noisy, int8 extremes, hard
                        SCOPED_TRACE(c.name + " " + core::viterbi::termination_name(term) + " puncture " +
                                     std::to_string(punct.size()) + " L " + std::to_string(L) + " kind " +
                                     std::to_string(kind));
                        const auto bits = test::random_bits(L, rng);
                        const auto coded = test::independent_encode(c.K, c.polys, term, punct, bits);
                        const auto llr = test::bpsk_awgn_llrs(coded, rate_of(code), 1.5, rng);
                        std::vector<int8_t> q = quantize(llr, kind == 1 ? 1000.0f : 6.0f);
                        const auto hard = test::hard_bits(llr);
                        std::vector<float> values = as_float(q);
                        if (kind == 2)
                            for (size_t i = 0; i < hard.size(); i++)
                                values[i] = hard[i] ? 1.0f : -1.0f;
                        const decoded ref = reference_decode(code, values, L);
                        // The independent metric of the reference's path:
                        // it must be what it reports, and maximum likelihood.
                        const double recomputed = test::correlation(
                            test::independent_encode(c.K, c.polys, term, punct, ref.bits), values);
                        EXPECT_EQ(ref.path.metric, recomputed);
                        EXPECT_GE(recomputed, test::correlation(coded, values));
                        for (auto& d : variants) {
                            const decoded got = kind == 2 ? simd_decode_hard(*d, code, hard, L)
                                                          : simd_decode_int8(*d, code, q, L);
                            const char* isa = core::viterbi::simd_isa_name(d->int8_isa());
                            EXPECT_EQ(got.bits, ref.bits) << isa;
                            EXPECT_EQ(got.path.metric, ref.path.metric) << isa;
                            EXPECT_EQ(got.path.end_state, ref.path.end_state) << isa;
                        }
                        frames++;
                    }
            }
    std::printf("%zu frames x %zu variants, bit-exact\n", frames, runnable_isas().size());
}

TEST(ViterbiSimd, FloatInputEqualsReferenceUpToNearTies)
{
    // float32 lanes order two paths as the reference (doubles) does unless
    // their metrics are within float rounding. Every variant rounds alike
    // (the same operations in the same order), so they equal each other
    // exactly; against the reference a differing frame must be a near-tie:
    // both paths' metrics, recomputed independently, within 1e-5 relative.
    std::mt19937 rng(12);
    size_t frames = 0, near_ties = 0;
    for (const auto& c : codes_under_test())
        for (auto term : all_terminations)
            for (const auto& punct : punctures_for(c)) {
                const auto code = make_code(c, term, punct);
                std::vector<std::unique_ptr<core::viterbi_simd>> variants;
                for (simd_isa isa : runnable_isas())
                    variants.push_back(std::make_unique<core::viterbi_simd>(code, isa));
                for (int L : lengths_for(c, term))
                    for (int f = 0; f < 2; f++) {
                        SCOPED_TRACE(c.name + " " + core::viterbi::termination_name(term) + " puncture " +
                                     std::to_string(punct.size()) + " L " + std::to_string(L));
                        const auto bits = test::random_bits(L, rng);
                        const auto coded = test::independent_encode(c.K, c.polys, term, punct, bits);
                        const auto llr = test::bpsk_awgn_llrs(coded, rate_of(code), 1.5, rng);
                        const decoded ref = reference_decode(code, llr, L);
                        const decoded first = simd_decode_float(*variants[0], code, llr, L);
                        for (size_t v = 1; v < variants.size(); v++) {
                            const decoded got = simd_decode_float(*variants[v], code, llr, L);
                            EXPECT_EQ(got.bits, first.bits) << core::viterbi::simd_isa_name(variants[v]->float_isa());
                            EXPECT_EQ(got.path.metric, first.path.metric);
                        }
                        const double m_ref = test::correlation(
                            test::independent_encode(c.K, c.polys, term, punct, ref.bits), llr);
                        const double m_got = test::correlation(
                            test::independent_encode(c.K, c.polys, term, punct, first.bits), llr);
                        const double tol = 1e-5 * (1.0 + std::fabs(m_ref));
                        EXPECT_NEAR(first.path.metric, m_got, tol);
                        if (first.bits != ref.bits) {
                            near_ties++;
                            EXPECT_NEAR(m_got, m_ref, tol) << "paths differ by more than float rounding";
                        }
                        frames++;
                    }
            }
    std::printf("%zu float frames; paths other than the reference's (near-ties): %zu\n", frames, near_ties);
    EXPECT_LE(near_ties * 100, frames) << "near-ties should be rare";
}

TEST(ViterbiSimd, LongFrameKeepsInt16InRange)
{
    // K=9 rate 1/4 does not exist in the family's list; the bound's worst
    // case is K=9 with the most polynomials: a rate-1/4 K=9 code, extreme
    // LLRs, 20000 steps (hundreds of renormalisations).
    const test::conv_code_case c{ "K9-r14", 9, { 0753, 0561, 0711, 0663 } };
    std::mt19937 rng(13);
    for (auto term : { termination::terminated, termination::truncated }) {
        const auto code = make_code(c, term, {});
        const int L = 20000;
        const auto bits = test::random_bits(L, rng);
        const auto coded = test::independent_encode(c.K, c.polys, term, {}, bits);
        auto q = quantize(test::bpsk_awgn_llrs(coded, 0.25, -1.0, rng), 1000.0f);
        const decoded ref = reference_decode(code, as_float(q), L);
        for (simd_isa isa : runnable_isas()) {
            core::viterbi_simd d(code, isa);
            const decoded got = simd_decode_int8(d, code, q, L);
            EXPECT_EQ(got.bits, ref.bits) << core::viterbi::simd_isa_name(isa);
            EXPECT_EQ(got.path.metric, ref.path.metric) << core::viterbi::simd_isa_name(isa);
        }
    }
}

TEST(ViterbiSimd, VariantNamesAndErrors)
{
    EXPECT_EQ(core::viterbi::parse_simd_isa("avx2", "isa"), simd_isa::avx2);
    try {
        core::viterbi::parse_simd_isa("avx512", "GPURX_VITERBI_SIMD");
        ADD_FAILURE() << "accepted avx512";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("GPURX_VITERBI_SIMD"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(core::viterbi::simd_isa_supported(simd_isa::generic));
    // A code narrower than the lanes steps down: K=3 has 2 butterflies.
    const auto k3 = make_code(test::viterbi_codes()[0], termination::terminated, {});
    core::viterbi_simd d(k3, core::viterbi::default_simd_isa());
    EXPECT_EQ(d.int8_isa(), simd_isa::generic);
    std::printf("this CPU: %s\n", core::viterbi::simd_isa_name(core::viterbi::default_simd_isa()));
}

TEST(ViterbiSimdKernel, AutoPicksItAndThePipelineMatchesTheReference)
{
    core::viterbi_config cfg;
    cfg.puncture = test::puncture_3_4();
    cfg.termination = termination::truncated;
    EXPECT_EQ(core::choose_viterbi_implementation(cfg).cpu, "cpu-simd");
    const auto code = cfg.code();
    std::mt19937 rng(14);
    std::vector<test::viterbi_frame_in> frames;
    for (int L : { 40, 300, 7, 1000, 57, 2048 })
        for (auto input : { core::viterbi::INPUT_SOFT, core::viterbi::INPUT_INT8, core::viterbi::INPUT_HARD }) {
            const auto bits = test::random_bits(L, rng);
            const auto coded = test::independent_encode(7, cfg.polynomials, cfg.termination, cfg.puncture, bits);
            const auto llr = test::bpsk_awgn_llrs(coded, 0.75, 3.0, rng);
            test::viterbi_frame_in f{ L, input, {}, {} };
            if (input == core::viterbi::INPUT_SOFT)
                f.llr = llr;
            else if (input == core::viterbi::INPUT_HARD)
                f.hard = test::hard_bits(llr);
            else
                for (int8_t v : quantize(llr, 8.0f))
                    f.hard.push_back(uint8_t(v));
            frames.push_back(f);
        }
    cfg.implementation = "cpu-simd";
    const auto got = test::viterbi_decode_all(frames, cfg, test::cpu_backend(), 4);
    cfg.implementation = "cpu-reference";
    const auto ref = test::viterbi_decode_all(frames, cfg, test::cpu_backend(), 4);
    for (size_t i = 0; i < frames.size(); i++) {
        ASSERT_EQ(got[i].result.status, core::viterbi::FRAME_DECODED) << "frame " << i;
        EXPECT_EQ(got[i].bits, ref[i].bits) << "frame " << i << " input " << frames[i].input;
        EXPECT_EQ(got[i].result.end_state, ref[i].result.end_state) << "frame " << i;
        if (frames[i].input == core::viterbi::INPUT_SOFT)
            EXPECT_NEAR(got[i].result.metric, ref[i].result.metric, 1e-5 * std::fabs(ref[i].result.metric));
        else
            EXPECT_EQ(got[i].result.metric, ref[i].result.metric) << "frame " << i;
    }
}

// The cuda-thread decoder's portable packed max (GPUs without max.u16x2,
// viterbi_packed::max_u16x2_from_diff) equals max.u16x2 lane by lane for
// every pair of metrics below 2^15 (the decoder's bound): each lane swept
// over all 2^15 values against edge and random partners, plus random pairs.
TEST(ViterbiPacked, PortableMaxEqualsMaxU16x2)
{
    namespace vp = core::viterbi_packed;
    std::mt19937 rng(77);
    std::uniform_int_distribution<uint32_t> m15(0, 0x7fff);
    long n = 0;
    auto check = [&](uint32_t a0, uint32_t a1) {
        const uint32_t got = vp::max_u16x2_from_diff(a0, a1, vp::diff_u16x2(a0, a1));
        ASSERT_EQ(got, vp::max_u16x2_reference(a0, a1)) << std::hex << a0 << " " << a1;
        n++;
    };
    std::vector<uint32_t> partners = { 0, 1, 0x3fff, 0x4000, 0x7ffe, 0x7fff };
    for (int i = 0; i < 10; i++)
        partners.push_back(m15(rng));
    for (uint32_t x = 0; x < 0x8000; x++)
        for (uint32_t p : partners) {
            const uint32_t o = m15(rng); // the other lane: anything in range
            check(x | (o << 16), p | (m15(rng) << 16));
            check(p | (o << 16), x | (m15(rng) << 16));
            check(o | (x << 16), m15(rng) | (p << 16));
            check(m15(rng) | (p << 16), o | (x << 16));
        }
    for (int i = 0; i < 4000000; i++)
        check(m15(rng) | (m15(rng) << 16), m15(rng) | (m15(rng) << 16));
    EXPECT_GT(n, 6000000);
}

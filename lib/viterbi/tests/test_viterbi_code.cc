/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The convolutional code itself: polynomial bit order pinned by vectors
// derived by hand, the library encoder against the independent one, gr-fec's
// polynomial order, puncturing arithmetic and parameter validation.
#include "viterbi/tests/viterbi_test_util.h"
#include "viterbi/viterbi_config.h"
#include "viterbi/viterbi_encoder.h"
#include "viterbi/viterbi_implementations.h"
#include "viterbi/viterbi_reference.h"
#include <gtest/gtest.h>

#include <functional>

using namespace gr::gpurx;
using core::viterbi::termination;

namespace {

const std::vector<termination> all_terminations{ termination::terminated, termination::truncated,
                                                 termination::tail_biting };

// Runs f and expects std::invalid_argument whose message contains every word.
void expect_error(const std::function<void()>& f, const std::vector<std::string>& words)
{
    try {
        f();
        ADD_FAILURE() << "no exception; expected one naming " << words[0];
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        for (const auto& w : words)
            EXPECT_NE(what.find(w), std::string::npos) << "\"" << what << "\" does not mention " << w;
    }
}

} // namespace

// K=7, 0133 = 1 011 011 and 0171 = 1 111 001: MSB first, the taps on the
// current input and on the inputs 1..6 steps ago. Input 1,0,1,1 from state 0,
// then the six zero tail bits. By hand, the first steps:
//   t0: u=1, history 000000: A = 1 (current tap)           B = 1
//   t1: u=0, d1=1:           A = 0 (133 has no d1 tap)     B = 1 (171 taps d1)
//   t2: u=1, d1=0, d2=1:     A = 1^1 = 0 (current, d2)     B = 1^0^1 = 0
//   t3: u=1, d1=1, d2=0, d3=1: A = 1^0^1 = 0 (cur, d2, d3) B = 1^1^0^1 = 1
// and the rest by superposing the impulse responses (A: 1011011, B: 1111001)
// started at t = 0, 2, 3.
const std::vector<uint8_t> k7_input{ 1, 0, 1, 1 };
const std::vector<uint8_t> k7_coded{ 1, 1, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 1 };

TEST(ViterbiCode, K7KnownVectorPinsThePolynomialBitOrder)
{
    const core::viterbi_code code(7, { 0133, 0171 });
    EXPECT_EQ(core::viterbi_encode(code, k7_input.data(), 4), k7_coded);
    EXPECT_EQ(test::independent_encode(7, { 0133, 0171 }, termination::terminated, {}, k7_input), k7_coded);
}

TEST(ViterbiCode, ImpulseResponseReadsEachPolynomialFromItsMsb)
{
    // A single 1 then zeros: polynomial i's coded bit at step t is its bit
    // K-1-t, for every code (GSM 023 = 10011 -> 1,0,0,1,1).
    for (const auto& c : test::viterbi_codes()) {
        SCOPED_TRACE(c.name);
        const core::viterbi_code code(c.K, c.polys);
        const uint8_t one = 1;
        const auto coded = core::viterbi_encode(code, &one, 1);
        ASSERT_EQ(coded.size(), size_t(c.K) * c.polys.size());
        for (int t = 0; t < c.K; t++)
            for (size_t i = 0; i < c.polys.size(); i++)
                EXPECT_EQ(coded[t * c.polys.size() + i], (c.polys[i] >> (c.K - 1 - t)) & 1u)
                    << "step " << t << " polynomial " << i;
    }
}

TEST(ViterbiCode, Puncture80211Rate34KnownVector)
{
    // The K7 vector above through 1,1,1,0,0,1 (per 3 steps: A0 B0 A1 . . B2):
    // 20 coded bits -> 3 whole periods of 4 kept + A9 B9.
    const core::viterbi_code code(7, { 0133, 0171 }, core::viterbi::polynomial_order::msb_current,
                                  termination::terminated, test::puncture_3_4());
    const std::vector<uint8_t> expect{ 1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 1, 1 };
    EXPECT_EQ(code.coded_bits(4), expect.size());
    EXPECT_EQ(core::viterbi_encode(code, k7_input.data(), 4), expect);
    const core::viterbi_code two_thirds(7, { 0133, 0171 }, core::viterbi::polynomial_order::msb_current,
                                        termination::truncated, test::puncture_2_3());
    EXPECT_EQ(two_thirds.coded_bits(100), 150u); // rate 2/3
}

TEST(ViterbiCode, LibraryEncoderMatchesTheIndependentOne)
{
    std::mt19937 rng(11);
    for (const auto& c : test::viterbi_codes())
        for (auto term : all_terminations)
            for (const auto& punct : { std::vector<int>{}, std::vector<int>(c.polys.size() * 2 + 1 - 1, 1) }) {
                SCOPED_TRACE(c.name + " " + core::viterbi::termination_name(term));
                std::vector<int> pattern = punct;
                if (!pattern.empty())
                    pattern[1] = 0; // drop one coded bit in two steps
                const core::viterbi_code code(c.K, c.polys, core::viterbi::polynomial_order::msb_current,
                                              term, pattern);
                for (int L : { c.K - 1, 13, 100 }) {
                    const auto bits = test::random_bits(L, rng);
                    const auto lib = core::viterbi_encode(code, bits.data(), L);
                    EXPECT_EQ(lib.size(), code.coded_bits(L));
                    EXPECT_EQ(lib, test::independent_encode(c.K, c.polys, term, pattern, bits)) << "L " << L;
                }
            }
}

TEST(ViterbiCode, GrFecOrderIsTheSameCodeBitReversed)
{
    EXPECT_EQ(core::viterbi::reverse_polynomial(0133, 7), 109u);
    EXPECT_EQ(core::viterbi::reverse_polynomial(0171, 7), 79u);
    const core::viterbi_code standard(7, { 0133, 0171 });
    const core::viterbi_code gr_fec(7, { 109, 79 }, core::viterbi::polynomial_order::gr_fec);
    EXPECT_EQ(gr_fec.polynomials(), standard.polynomials());

    // The same decoder: equal decisions and metric on a noisy frame.
    std::mt19937 rng(3);
    const auto bits = test::random_bits(300, rng);
    const auto llr = test::bpsk_awgn_llrs(core::viterbi_encode(standard, bits.data(), 300), 0.5, 2.0, rng);
    std::vector<float> d(size_t(2) * standard.steps(300));
    standard.depuncture(llr.data(), 300, d.data());
    std::vector<uint8_t> a(300), b(300);
    const auto pa = core::viterbi_reference(standard).decode(d.data(), 300, a.data());
    const auto pb = core::viterbi_reference(gr_fec).decode(d.data(), 300, b.data());
    EXPECT_EQ(a, b);
    EXPECT_EQ(pa.metric, pb.metric);

    // Through the configuration switch too.
    core::viterbi_config cfg;
    cfg.polynomials = { 109, 79 };
    cfg.gr_fec_order = true;
    EXPECT_EQ(cfg.code().polynomials(), standard.polynomials());
}

TEST(ViterbiCode, BadParametersThrowNamingTheParameter)
{
    using core::viterbi_code;
    using order = core::viterbi::polynomial_order;
    expect_error([] { viterbi_code(2, { 07, 05 }); }, { "K", "3..9", "2" });
    expect_error([] { viterbi_code(10, { 01753, 01151 }); }, { "K", "10" });
    expect_error([] { viterbi_code(7, { 0133 }); }, { "polynomials", "2..4", "1" });
    expect_error([] { viterbi_code(7, { 0133, 0171, 0165, 0133, 0171 }); }, { "polynomials", "5" });
    expect_error([] { viterbi_code(7, { 0133, 0 }); }, { "polynomials[1]", "all zero" });
    expect_error([] { viterbi_code(7, { 0233, 0171 }); }, { "polynomials[0]", "0233", "degree", "2^K" });
    expect_error([] { viterbi_code(7, { 0133, 076 }); }, { "polynomials[1]", "076", "neither" });
    // gr-fec order reverses first: 0140 (1100000) and 0160 (1110000)
    // become 0000011 and 0000111: each taps the oldest bit, none the current.
    expect_error([] { viterbi_code(7, { 0140, 0160 }, order::gr_fec); }, { "none taps the current", "gr-fec" });
    expect_error([] { viterbi_code(5, { 030, 034 }); }, { "polynomials", "none taps the oldest" });
    expect_error([] { viterbi_code(5, { 013, 015 }); }, { "polynomials", "none taps the current" });
    expect_error([] { viterbi_code(7, { 0133, 0171 }, order::msb_current, termination::truncated, { 0, 0, 0, 0 }); },
                 { "puncture", "keeps no" });
    expect_error([] { viterbi_code(7, { 0133, 0171 }, order::msb_current, termination::truncated, { 1, 1, 0 }); },
                 { "puncture", "3 values" });
    expect_error([] { viterbi_code(7, { 0133, 0171 }, order::msb_current, termination::truncated, { 1, 2 }); },
                 { "puncture[1]", "0 or 1", "2" });
    expect_error([] { core::viterbi::parse_termination("zero-tail"); }, { "termination", "zero-tail" });
    expect_error([] { viterbi_code(7, { 0133, 0171 }).check_frame_bits(0); }, { "frame_bits", "0" });
    core::viterbi_config cfg;
    cfg.chunk = 0;
    expect_error([&] { cfg.validate(); }, { "chunk", "0" });
    cfg.chunk = 64;
    cfg.implementation = "cuda-magic";
    expect_error([&] { core::choose_viterbi_implementation(cfg); }, { "implementation", "cuda-magic" });
}

// Massey and Sain: a rate-1/n feedforward code is catastrophic when its
// generators' gcd over GF(2) is not a power of x. Worked by hand here.
TEST(ViterbiCode, CatastrophicCodesAreRefused)
{
    using core::viterbi_code;
    using order = core::viterbi::polynomial_order;
    // The same polynomial twice.
    expect_error([] { viterbi_code(7, { 0133, 0133 }); }, { "polynomials[0] and [1]", "same", "catastrophic" });
    expect_error([] { viterbi_code(7, { 0133, 0171, 0133 }); }, { "polynomials[0] and [2]", "catastrophic" });
    // K = 3: 1 + D (06: current and previous bit) and 1 + D^2 (05) =
    // (1 + D)^2 share 1 + D.
    expect_error([] { viterbi_code(3, { 06, 05 }); }, { "polynomials", "catastrophic", "03" });
    // K = 4, rate 1/3: (1 + D)^3 (017), 1 + D^3 (011) = (1 + D)(1 + D + D^2),
    // 1 + D (014): share 1 + D.
    expect_error([] { viterbi_code(4, { 017, 011, 014 }); }, { "polynomials", "catastrophic" });
    // The same K = 3 code in gr-fec's order (bits reversed): 03 and 05.
    expect_error([] { viterbi_code(3, { 03, 05 }, order::gr_fec); }, { "polynomials", "catastrophic" });
    // The standards' codes are not catastrophic.
    const std::vector<std::pair<int, std::vector<unsigned>>> good = {
        { 3, { 07, 05 } }, { 5, { 023, 035 } }, { 7, { 0133, 0171 } },
        { 7, { 0133, 0171, 0165 } }, { 9, { 0557, 0663, 0711 } }
    };
    for (const auto& c : good)
        EXPECT_NO_THROW(viterbi_code(c.first, c.second)) << "K = " << c.first;
}

TEST(ViterbiCode, TerminationNamesRoundTrip)
{
    for (auto t : all_terminations)
        EXPECT_EQ(core::viterbi::parse_termination(core::viterbi::termination_name(t)), t);
}

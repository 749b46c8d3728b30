/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The receive chain of the BCH / DCI code: encode, rate match, BPSK LLRs
// (noiseless and noisy), de-match, decode; the decoder against an
// exhaustive maximum-likelihood search over every message (small K) and
// against viterbi_reference (exact tail-biting, every start state); the
// CRC16 masks found back through decode_with_crc16.
#include "lte/coding/lte_cc.h"
#include "lte/coding/lte_cc_decoder.h"
#include "lte/coding/lte_crc16.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

using namespace gr::gpurx::core;
using namespace gr::gpurx::core::lte;

namespace {

std::vector<uint8_t> random_bits(int n, std::mt19937& rng)
{
    std::vector<uint8_t> b(n);
    for (auto& x : b)
        x = uint8_t(rng() & 1);
    return b;
}

// BPSK over AWGN at Es/N0 = snr_db: x = +1 for bit 1, -1 for bit 0 (the
// LLR convention's sign), y = x + n, L = 2 y / sigma^2. sigma = 0: +-8.
std::vector<float> bpsk_llrs(const std::vector<uint8_t>& e, double snr_db, std::mt19937& rng)
{
    std::vector<float> l(e.size());
    if (std::isinf(snr_db)) {
        for (size_t i = 0; i < e.size(); i++)
            l[i] = e[i] ? 8.0f : -8.0f;
        return l;
    }
    const double sigma = std::sqrt(0.5 * std::pow(10.0, -snr_db / 10.0));
    std::normal_distribution<double> n(0.0, sigma);
    for (size_t i = 0; i < e.size(); i++)
        l[i] = float(2.0 * ((e[i] ? 1.0 : -1.0) + n(rng)) / (sigma * sigma));
    return l;
}

// A DCI or MIB payload with its CRC attached, rate matched to E.
struct coded_block {
    std::vector<uint8_t> c; // payload + 16 parity bits
    std::vector<uint8_t> e;
};

coded_block make_block(int payload_bits, int E, uint16_t mask, std::mt19937& rng)
{
    coded_block b;
    b.c = random_bits(payload_bits, rng);
    b.c.resize(payload_bits + 16);
    attach_crc16(b.c.data(), payload_bits, mask);
    b.e = cc_rate_match(cc_encode(b.c), E);
    return b;
}

const int aggregation_E[4] = { 72, 144, 288, 576 };

// Tail-biting maximum likelihood by brute force: the message whose
// codeword has the largest correlation sum(+-L/2).
double best_correlation(const std::vector<float>& d_llr, int K)
{
    double best = -std::numeric_limits<double>::infinity();
    std::vector<uint8_t> c(K);
    for (uint32_t m = 0; m < (1u << K); m++) {
        for (int k = 0; k < K; k++)
            c[k] = uint8_t((m >> k) & 1u);
        const auto d = cc_encode(c);
        double s = 0.0;
        for (int i = 0; i < 3 * K; i++)
            s += d[i] ? 0.5 * d_llr[i] : -0.5 * d_llr[i];
        best = std::max(best, s);
    }
    return best;
}

double correlation(const std::vector<uint8_t>& c, const std::vector<float>& d_llr)
{
    const auto d = cc_encode(c);
    double s = 0.0;
    for (size_t i = 0; i < d.size(); i++)
        s += d[i] ? 0.5 * d_llr[i] : -0.5 * d_llr[i];
    return s;
}

} // namespace

TEST(CcDecoder, CodeMatchesOurEncoderNoiseless)
{
    // The Viterbi family's polynomial / bit order against 36.212: decode
    // what cc_encode wrote, straight from d (no rate matching).
    std::mt19937 rng(3);
    tail_biting_decoder dec;
    for (int K : { 6, 7, 12, 40, 57, 86, 200 }) {
        const auto c = random_bits(K, rng);
        const auto l = bpsk_llrs(cc_encode(c), INFINITY, rng);
        std::vector<uint8_t> out(K, 9);
        dec.decode(l.data(), K, out.data());
        EXPECT_EQ(out, c) << "K=" << K;
    }
}

TEST(CcDecoder, MibNoiselessAndNoisy)
{
    // BCH: 24 bits + CRC16 = 40, E = 1920 (normal cyclic prefix).
    std::mt19937 rng(4);
    tail_biting_decoder dec;
    int errors = 0;
    for (int t = 0; t < 50; t++) {
        for (int ports : { 1, 2, 4 }) {
            const auto b = make_block(24, 1920, pbch_crc_mask(ports), rng);
            for (double snr : { double(INFINITY), -8.0 }) {
                const auto l = bpsk_llrs(b.e, snr, rng);
                std::vector<uint8_t> out(40);
                const auto r = dec.decode_with_crc16(l.data(), 1920, 24, out.data());
                if (std::isinf(snr)) {
                    ASSERT_EQ(out, b.c);
                    ASSERT_EQ(pbch_ports_of_mask(r.crc_xor), ports);
                } else if (out != b.c || pbch_ports_of_mask(r.crc_xor) != ports) {
                    errors++;
                }
            }
        }
    }
    // Rate 1/48 at Es/N0 = -8 dB is about 9 dB of Eb/N0: no block may fail.
    EXPECT_EQ(errors, 0);
}

TEST(CcDecoder, DciSizesAndAggregationsNoiseless)
{
    // DCI payloads 20..70 bits + CRC16 at the four aggregation levels' E.
    // Noiseless decoding recovers the message wherever the code's rate
    // K / E leaves it uniquely decodable: we require it up to rate 3/4
    // (the rates a UE monitors); above it a noiseless block may have
    // several messages at the same distance.
    std::mt19937 rng(6);
    tail_biting_decoder dec;
    int cases = 0;
    for (int a = 20; a <= 70; a++)
        for (int E : aggregation_E) {
            const int K = a + 16;
            if (4 * K > 3 * E)
                continue;
            const uint16_t rnti = uint16_t(rng());
            const auto b = make_block(a, E, pdcch_crc_mask(rnti), rng);
            const auto l = bpsk_llrs(b.e, INFINITY, rng);
            std::vector<uint8_t> out(K);
            const auto r = dec.decode_with_crc16(l.data(), E, a, out.data());
            ASSERT_EQ(out, b.c) << "a=" << a << " E=" << E;
            ASSERT_EQ(r.crc_xor, rnti) << "a=" << a << " E=" << E;
            cases++;
        }
    EXPECT_GT(cases, 140);
}

TEST(CcDecoder, DciNoisyFindsTheRnti)
{
    // At Es/N0 = 0 dB a rate-1/3-or-lower DCI decodes almost always; the
    // decoded CRC XOR is the RNTI exactly when the payload came back.
    std::mt19937 rng(7);
    tail_biting_decoder dec;
    int blocks = 0, errors = 0;
    for (int a : { 20, 27, 31, 44, 57, 70 })
        for (int E : { 288, 576 })
            for (int t = 0; t < 20; t++) {
                const uint16_t rnti = uint16_t(0x003D + t);
                const auto b = make_block(a, E, pdcch_crc_mask(rnti), rng);
                const auto l = bpsk_llrs(b.e, 0.0, rng);
                std::vector<uint8_t> out(a + 16);
                const auto r = dec.decode_with_crc16(l.data(), E, a, out.data());
                const bool right = out == b.c;
                EXPECT_EQ(right, r.crc_xor == rnti);
                errors += !right;
                blocks++;
            }
    EXPECT_LE(errors, blocks / 50) << errors << " of " << blocks;
}

TEST(CcDecoder, ExhaustiveMaximumLikelihood)
{
    // For K = 8..12 every message's codeword is scored: the decoder's path
    // must reach the best correlation (ties could pick another message).
    std::mt19937 rng(8);
    tail_biting_decoder dec;
    for (int K = 8; K <= 12; K++)
        for (int t = 0; t < 6; t++) {
            const auto c = random_bits(K, rng);
            const auto l = bpsk_llrs(cc_encode(c), -3.0, rng);
            std::vector<uint8_t> out(K);
            const auto p = dec.decode(l.data(), K, out.data());
            const double best = best_correlation(l, K);
            EXPECT_NEAR(correlation(out, l), best, 1e-3 * (1.0 + std::fabs(best))) << "K=" << K;
            EXPECT_NEAR(p.metric, best, 1e-3 * (1.0 + std::fabs(best))) << "K=" << K;
        }
}

TEST(CcDecoder, SameBitsAsTheReferenceOnNoisyFrames)
{
    // viterbi_reference: one double-precision pass per start state. The
    // default (cpu-simd, float) must give the same bits on frames noisy
    // enough to fail often.
    std::mt19937 rng(9);
    tail_biting_decoder fast, ref(cc_backend::reference);
    EXPECT_STREQ(fast.decoder_name(), "cpu-simd");
    EXPECT_STREQ(ref.decoder_name(), "cpu-reference");
    int frames = 0, wrong = 0;
    for (int K : { 40, 36, 57, 86 })
        for (int E : { 72, 144, 288, 1920 })
            for (int t = 0; t < 6; t++) {
                const auto b = make_block(K - 16, E, 0, rng);
                const auto l = bpsk_llrs(b.e, E > 3 * K ? -7.0 : -1.0, rng);
                std::vector<float> d(3 * K);
                cc_rate_dematch(l.data(), E, K, d.data());
                std::vector<uint8_t> o1(K), o2(K);
                const auto p1 = fast.decode(d.data(), K, o1.data());
                const auto p2 = ref.decode(d.data(), K, o2.data());
                ASSERT_EQ(o1, o2) << "K=" << K << " E=" << E << " t=" << t;
                EXPECT_NEAR(p1.metric, p2.metric, 1e-4 * (1.0 + std::fabs(p2.metric)));
                EXPECT_EQ(p1.end_state, p2.end_state);
                wrong += o1 != b.c;
                frames++;
            }
    // The comparison must have covered failing frames too.
    EXPECT_GT(wrong, 0);
    EXPECT_LT(wrong, frames);
}

TEST(CcDecoder, CombinedChainEqualsItsSteps)
{
    // decode_with_crc16 (cached rate matching pattern) = cc_rate_dematch,
    // decode and crc16 one after the other.
    std::mt19937 rng(12);
    tail_biting_decoder dec;
    for (int a : { 24, 27, 44, 70 })
        for (int E : { 72, 288, 1920 }) {
            const auto b = make_block(a, E, 0x1234, rng);
            const auto l = bpsk_llrs(b.e, -2.0, rng);
            const int K = a + 16;
            std::vector<uint8_t> o1(K), o2(K);
            const auto r = dec.decode_with_crc16(l.data(), E, a, o1.data());
            std::vector<float> d(3 * K);
            cc_rate_dematch(l.data(), E, K, d.data());
            const auto p = dec.decode(d.data(), K, o2.data());
            ASSERT_EQ(o1, o2) << "a=" << a << " E=" << E;
            // The thread's own decoder behind the free functions: the same.
            std::vector<uint8_t> o3(K), o4(K);
            EXPECT_EQ(cc_decode_with_crc16(l.data(), E, a, o3.data()).crc_xor, r.crc_xor);
            EXPECT_EQ(cc_decode(d.data(), K, o4.data()).metric, p.metric);
            EXPECT_EQ(o3, o1);
            EXPECT_EQ(o4, o1);
            EXPECT_EQ(r.metric, p.metric);
            EXPECT_EQ(r.crc_xor, uint16_t(bits_to_value(o2.data() + a, 16) ^ crc16(o2.data(), a)));
        }
}

TEST(CcDecoder, MalformedLlrsGiveBitsNotNans)
{
    std::mt19937 rng(10);
    tail_biting_decoder dec;
    std::vector<float> l(576, std::numeric_limits<float>::quiet_NaN());
    for (size_t i = 0; i < l.size(); i += 3)
        l[i] = (i % 2) ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
    std::vector<uint8_t> out(43, 7);
    const auto r = dec.decode_with_crc16(l.data(), 576, 27, out.data());
    EXPECT_TRUE(std::isfinite(r.metric));
    for (uint8_t b : out)
        EXPECT_LE(b, 1);
    std::vector<float> d(3 * 43, std::numeric_limits<float>::quiet_NaN());
    const auto p = dec.decode(d.data(), 43, out.data());
    EXPECT_TRUE(std::isfinite(p.metric));
}

TEST(CcDecoder, BadParametersThrow)
{
    tail_biting_decoder dec;
    std::vector<float> l(2000);
    std::vector<uint8_t> out(5000);
    EXPECT_THROW(dec.decode(l.data(), 5, out.data()), std::invalid_argument);
    EXPECT_THROW(dec.decode_with_crc16(l.data(), 0, 24, out.data()), std::invalid_argument);
    EXPECT_THROW(dec.decode_with_crc16(l.data(), 100, 0, out.data()), std::invalid_argument);
    try {
        dec.decode_with_crc16(l.data(), 100, 5000, out.data());
        FAIL() << "no throw";
    } catch (const std::invalid_argument& ex) {
        EXPECT_NE(std::string(ex.what()).find("payload_bits=5000"), std::string::npos) << ex.what();
    }
}

// The wrap-around decoder (one pass over the circularly extended frame)
// against the exact one (every start state) on noisy DCIs at every PDCCH
// aggregation: where the exact decoder finds the block, the wrap-around one
// finds the same bits but for a few marginal blocks (measured with 60 steps
// of wrap: 8 of the 736 the exact decoder finds, at Es/N0 -2..2 dB; the
// bound is 2%). The test prints the counts.
TEST(CcDecoder, WrapAroundAgreesWithTheExactDecoder)
{
    std::mt19937 rng(11);
    tail_biting_decoder exact(cc_backend::simd), wrap(cc_backend::wrap_around);
    int blocks = 0, exact_ok = 0, wrap_ok = 0, differ_when_exact_ok = 0;
    for (int a : { 20, 27, 31, 44, 57, 70 })
        for (int E : { 72, 144, 288, 576 })
            for (double snr : { -2.0, 0.0, 2.0 })
                for (int t = 0; t < 12; t++) {
                    if ((a + 16) * 3 > E * 4) // code rate above 3/4 (an eNodeB does not send it)
                        continue;
                    const auto b = make_block(a, E, pdcch_crc_mask(0x1234), rng);
                    const auto l = bpsk_llrs(b.e, snr, rng);
                    std::vector<uint8_t> x(size_t(a + 16)), w(size_t(a + 16));
                    exact.decode_with_crc16(l.data(), E, a, x.data());
                    wrap.decode_with_crc16(l.data(), E, a, w.data());
                    blocks++;
                    exact_ok += x == b.c;
                    wrap_ok += w == b.c;
                    differ_when_exact_ok += x == b.c && w != x;
                }
    std::printf("wrap-around vs exact: %d blocks, exact right %d, wrap-around right %d, wrong where exact was right %d\n",
                blocks, exact_ok, wrap_ok, differ_when_exact_ok);
    EXPECT_GT(blocks, 400);
    EXPECT_LE(differ_when_exact_ok, exact_ok / 50);
    EXPECT_EQ(cc_wrap_steps >= 5 * (cc_constraint_length - 1), true);
}

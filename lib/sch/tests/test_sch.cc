/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The shared channel's steps against 36.212's own numbers, and transport
// blocks through the encoder and both backends' decoders. The encoder is
// checked bit for bit against an independent reference in
// python/gpurx/qa_lte_sch_reference.py.
#include "pipeline/batch_pipeline.h"
#include "sch/lte_scrambling.h"
#include "sch/sch_arith.h"
#include "sch/sch_encoder.h"
#include "sch/sch_harq.h"
#include "sch/sch_implementations.h"
#include "sch/sch_rate_match.h"
#include "sch/sch_steps.h"
#include "test_util.h"
#include "turbo/lte_qpp.h"
#include "turbo/turbo_frame.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <set>

using namespace gr::gpurx;
using namespace gr::gpurx::core;

namespace {

// 36.212 §5.1.2 worked by hand from Table 5.1.3-3.
TEST(Segmentation, MatchesTheSpecification)
{
    // TBS 6121: B = 6145 > Z, so C = 2 and B' = 6193; K+ is the smallest K
    // >= 3097 (K steps by 64 above 2048): 3136; K- = 3072; C- = floor((2 x
    // 3136 - 6193) / 64) = 1, C+ = 1, F = 3136 + 3072 - 6193 = 15.
    auto s = sch::segment(6121);
    EXPECT_EQ(s.C, 2);
    EXPECT_EQ(s.Kp, 3136);
    EXPECT_EQ(s.Km, 3072);
    EXPECT_EQ(s.Cm, 1);
    EXPECT_EQ(s.Cp, 1);
    EXPECT_EQ(s.F, 15);
    s = sch::segment(16);
    EXPECT_EQ(s.C, 1);
    EXPECT_EQ(s.Kp, 40);
    EXPECT_EQ(s.F, 0);
    s = sch::segment(20);
    EXPECT_EQ(s.Kp, 48);
    EXPECT_EQ(s.F, 4);
    s = sch::segment(6120);
    EXPECT_EQ(s.C, 1);
    EXPECT_EQ(s.Kp, 6144);
    EXPECT_EQ(s.F, 0);
    // TBS 75376: B = 75400, C = ceil(75400 / 6120) = 13, B' = 75712 = 13 x 5824.
    s = sch::segment(75376);
    EXPECT_EQ(s.C, 13);
    EXPECT_EQ(s.Kp, 5824);
    EXPECT_EQ(s.Cm, 0);
    EXPECT_EQ(s.F, 0);
    // TBS 97896: B = 97920, C = 16, B' = 98304 = 16 x 6144.
    s = sch::segment(97896);
    EXPECT_EQ(s.C, 16);
    EXPECT_EQ(s.Kp, 6144);
    EXPECT_EQ(s.Cm, 0);
    EXPECT_EQ(s.F, 0);
    // Every TBS: the blocks hold B' bits exactly, with F < the K step.
    for (int A = 1; A <= 20000; A += 7) {
        const auto t = sch::segment(A);
        const int Bp = t.C == 1 ? A + 24 : A + 24 + 24 * t.C;
        ASSERT_EQ(t.Cp * t.Kp + t.Cm * t.Km - t.F, Bp) << "A=" << A;
        ASSERT_GE(t.F, 0);
        ASSERT_LT(t.F, t.C == 1 && Bp < 40 ? 40 : 64) << "A=" << A;
    }
}

TEST(Scrambling, JumpsAgreeWithTheRegisters)
{
    for (uint32_t c_init : { 0u, 1u, 0x12345u, (61u << 14) + (3u << 9) + 1u, 0x7FFFFFFFu }) {
        std::vector<uint32_t> w(5000);
        sch::gold_words(c_init, w.data(), w.size());
        for (uint32_t i : { 0u, 1u, 2u, 31u, 32u, 1000u, 4095u, 4999u })
            EXPECT_EQ(sch::gold_word_by_group(sch::gold_warp(), c_init, i), w[i]) << c_init << " " << i;
    }
}

// 36.211 §7.2 from its definition, bit by bit, apart from the word code.
TEST(Scrambling, MatchesTheDefinition)
{
    const uint32_t c_init = (0x1234u << 14) + (5u << 9) + 77u;
    const int N = 3000, Nc = 1600;
    std::vector<uint8_t> x1(N + Nc + 31), x2(N + Nc + 31);
    x1[0] = 1;
    for (int i = 0; i < 31; i++)
        x2[i] = (c_init >> i) & 1u;
    for (int n = 0; n + 31 < N + Nc + 31; n++) {
        x1[n + 31] = (x1[n + 3] + x1[n]) % 2;
        x2[n + 31] = (x2[n + 3] + x2[n + 2] + x2[n + 1] + x2[n]) % 2;
    }
    const auto c = sch::gold_bits(c_init, N);
    for (int n = 0; n < N; n++)
        ASSERT_EQ(c[n], (x1[n + Nc] + x2[n + Nc]) % 2) << n;
}

// descramble() (its AVX2 build where the CPU has one) equals its plain
// loops value for value: float LLRs with ties, saturation, +-Inf and NaN,
// every int8 value, lengths with and without a remainder of 32.
TEST(Scrambling, DescrambleMatchesThePlainLoops)
{
    std::mt19937 rng(29);
    std::uniform_real_distribution<float> u(-20.0f, 20.0f);
    const float specials[] = { 0.0625f, -0.0625f, 0.1875f, 15.9375f, -15.9375f, 1e30f, -1e30f,
                               std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::quiet_NaN(), -0.0f, 15.8125f };
    for (int G : { 1, 31, 32, 33, 1000, 86400, 86413 }) {
        sch::frame_params p{};
        p.G = G;
        p.c_init = uint32_t(rng()) & 0x7FFFFFFFu;
        std::vector<float> x(static_cast<size_t>(G));
        std::vector<int8_t> q(static_cast<size_t>(G));
        for (size_t i = 0; i < x.size(); i++) {
            x[i] = i % 5 == 0 ? specials[(i / 5) % 12] : u(rng);
            q[i] = int8_t(i % 3 == 0 ? int(i % 256) - 128 : int(rng() % 256) - 128);
        }
        for (int kind : { turbo::INPUT_FLOAT32, turbo::INPUT_INT8 }) {
            p.input = kind;
            const auto* in = kind == turbo::INPUT_INT8 ? reinterpret_cast<const uint8_t*>(q.data())
                                                       : reinterpret_cast<const uint8_t*>(x.data());
            std::vector<int8_t> fast(static_cast<size_t>(G)), plain(static_cast<size_t>(G));
            sch::descramble(p, in, fast.data());
            sch::descramble_reference(p, in, plain.data());
            ASSERT_EQ(fast, plain) << "G=" << G << " input " << kind;
        }
    }
}

TEST(RateMatch, CircularBufferHoldsEveryCodedBitOnce)
{
    for (int K : { 40, 48, 512, 1056, 6144 })
        for (int F : { 0, 4, 15 }) {
            const int Kw = sch::circular_length(K);
            std::vector<int> seen(3 * K + 12, 0);
            for (int w = 0; w < Kw; w++) {
                const int c = sch::circular_to_codeword(K, F, w);
                if (c >= 0)
                    seen[c]++;
            }
            for (int c = 0; c < 3 * K + 12; c++) {
                const bool filler = c / 3 < F && c % 3 < 2;
                ASSERT_EQ(seen[c], filler ? 0 : 1) << "K=" << K << " F=" << F << " c=" << c;
            }
        }
}

// The GPU's closed-form ranks against counting, position by position.
TEST(RateMatch, ClosedFormRanksCountTheNulls)
{
    for (const auto& q : lte_qpp_table())
        for (int F : { 0, 1, 4, 31, 32, 63 }) {
            if (F > q.K / 2)
                continue;
            sch::circular_layout L;
            L.init(q.K, F);
            const int Kw = sch::circular_length(q.K);
            int rank = 0;
            for (int w = 0; w <= Kw; w++) {
                ASSERT_EQ(L.rank(w), rank) << "K=" << q.K << " F=" << F << " w=" << w;
                if (w == Kw)
                    break;
                const int c = sch::circular_to_codeword(q.K, F, w);
                const int i = w < L.Kpi ? 0 : 1 + ((w - L.Kpi) & 1);
                const int k = i == 0 ? w : (w - L.Kpi) >> 1;
                ASSERT_EQ(L.codeword(i, k / L.R, k % L.R), c) << "K=" << q.K << " w=" << w;
                ASSERT_EQ(L.position(i, k / L.R, k % L.R), w);
                rank += c >= 0;
            }
        }
}

sch::tb_request request(sch::channel_kind ch, int tbs, int g, int qm, int rv)
{
    sch::tb_request r;
    r.channel = ch;
    r.tbs = tbs;
    r.g = g;
    r.qm = qm;
    r.rv = rv;
    r.rnti = 61;
    r.cell_id = 1;
    r.subframe = 3;
    return r;
}

// The TBs the decoding cases run: 1..16 code blocks, filler bits, every rv
// and qm, two layers, a soft-buffer limit, the uplink interleaver. rv 1-3
// start past the systematic bits: alone they decode only at lower rates.
std::vector<sch::tb_request> decode_cases()
{
    std::vector<sch::tb_request> v;
    v.push_back(request(sch::DLSCH, 16, 96, 2, 0));
    v.push_back(request(sch::DLSCH, 20, 120, 2, 1));
    v.push_back(request(sch::DLSCH, 1000, 3000, 4, 2));
    v.push_back(request(sch::DLSCH, 6121, 14400, 6, 3));
    v.push_back(request(sch::DLSCH, 75376, 86400, 6, 0));
    // N_IR = 1152000 / (2 x 8) = 72000: N_cb = 12000 of K_w = 16128.
    auto limited = request(sch::DLSCH, 31704, 86400, 6, 2);
    limited.n_soft = 1152000;
    limited.k_mimo = 2;
    v.push_back(limited);
    auto two = request(sch::DLSCH, 31704, 86400, 8, 1);
    two.nl = 2;
    two.codeword = 1;
    v.push_back(two);
    v.push_back(request(sch::ULSCH, 2984, 7200, 2, 0));
    auto ul = request(sch::ULSCH, 15264, 43200, 6, 2);
    ul.n_symb = 10;
    v.push_back(ul);
    v.push_back(request(sch::DLSCH, 97896, 110592, 8, 0));
    return v;
}

struct decoded {
    std::vector<uint8_t> bits;
    sch::frame_result res;
};

std::vector<decoded> decode_all(const backend_choice& where,
                                sch_config cfg,
                                const std::vector<sch::tb_request>& reqs,
                                const std::vector<std::vector<float>>& llrs,
                                const std::vector<int>& slots = {},
                                const std::vector<int>& combine = {},
                                const std::vector<std::vector<int8_t>>* int8_llrs = nullptr)
{
    auto reg = sch_registry();
    const auto choice = reg.choose(cfg);
    auto pc = test::test_pipeline_config(sch::frame_types_of(), 8);
    pc.max_in_bytes = size_t(cfg.max_g) * sizeof(float);
    pc.max_out_bytes = size_t(cfg.max_tbs);
    auto pipe = make_pipeline(reg.factories(cfg, choice), where, pc);
    std::vector<decoded> out;
    auto run = test::run_frames(*pipe, [&](const completed_frame& f) {
        decoded d;
        d.bits.assign(f.data, f.data + f.out_bytes);
        d.res = *f.result_as<sch::frame_result>();
        out.push_back(d);
    });
    for (size_t i = 0; i < reqs.size(); i++) {
        auto p = sch::frame_params_of(reqs[i]);
        p.input = int8_llrs ? turbo::INPUT_INT8 : turbo::INPUT_FLOAT32;
        if (!slots.empty()) {
            p.harq_slot = slots[i];
            p.combine = combine[i];
        }
        if (int8_llrs)
            run.submit((*int8_llrs)[i].data(), (*int8_llrs)[i].size(), size_t(p.tbs), &p);
        else
            run.submit(llrs[i].data(), llrs[i].size() * sizeof(float), size_t(p.tbs), &p);
        // A retransmission must not be in flight beside the TB it combines
        // with (two batches may run at once, on two streams): wait for it,
        // as the blocks do (harq_pool::must_wait).
        if (!slots.empty())
            pipe->drain();
    }
    run.finish("decode_all");
    return out;
}

std::vector<uint8_t> random_bits(std::mt19937& rng, int n)
{
    std::vector<uint8_t> b(static_cast<size_t>(n));
    for (auto& x : b)
        x = uint8_t(rng() & 1u);
    return b;
}

std::vector<float> noiseless(const std::vector<uint8_t>& coded, float a)
{
    std::vector<float> l(coded.size());
    for (size_t i = 0; i < coded.size(); i++)
        l[i] = coded[i] ? a : -a;
    return l;
}

void noiseless_cases_decode(const backend_choice& where)
{
    std::mt19937 rng(7);
    sch::sch_encoder enc;
    const auto reqs = decode_cases();
    std::vector<std::vector<uint8_t>> tbs;
    std::vector<std::vector<float>> llrs;
    for (const auto& r : reqs) {
        tbs.push_back(random_bits(rng, r.tbs));
        llrs.push_back(noiseless(enc.encode(tbs.back().data(), tbs.back().size(), r), 4.0f));
    }
    sch_config cfg;
    cfg.harq_buffers = 0;
    const auto out = decode_all(where, cfg, reqs, llrs);
    ASSERT_EQ(out.size(), reqs.size());
    for (size_t i = 0; i < reqs.size(); i++) {
        EXPECT_EQ(out[i].bits, tbs[i]) << "case " << i << " tbs " << reqs[i].tbs;
        EXPECT_EQ(out[i].res.crc_ok, 1) << "case " << i;
        const int C = sch::segment(reqs[i].tbs).C;
        EXPECT_EQ(out[i].res.C, C);
        EXPECT_EQ(out[i].res.cb_crc, C == 64 ? ~uint64_t(0) : (uint64_t(1) << C) - 1) << "case " << i;
        EXPECT_GE(out[i].res.iterations, 1);
    }
}

TEST(Decode, NoiselessTransportBlocksDecode) { noiseless_cases_decode(test::cpu_backend()); }
TEST(Decode, CudaNoiselessTransportBlocksDecode) { noiseless_cases_decode(test::cuda_backend()); }

// A wrong bit flips the TB CRC; the block whose bits are wrong fails its own.
TEST(Decode, CorruptedCodeBlockFailsItsCrc)
{
    std::mt19937 rng(3);
    sch::sch_encoder enc;
    auto r = request(sch::DLSCH, 15264, 21600, 6, 0);
    auto bits = random_bits(rng, r.tbs);
    auto llr = noiseless(enc.encode(bits.data(), bits.size(), r), 4.0f);
    const auto p = sch::frame_params_of(r);
    // Code block 1's E bits all erased and inverted: it cannot decode.
    for (int e = 0; e < sch::cb_E(p, 1); e++)
        llr[size_t(sch::cb_offset(p, 1) + e)] *= -1.0f;
    sch_config cfg;
    cfg.harq_buffers = 0;
    const auto out = decode_all(test::cpu_backend(), cfg, { r }, { llr });
    EXPECT_EQ(out[0].res.crc_ok, 0);
    EXPECT_EQ(out[0].res.cb_crc & 2u, 0u);
    EXPECT_EQ(out[0].res.cb_crc & 1u, 1u);
}

// HARQ: rv 0 punctured below what one transmission can decode in noise, then
// rv 2 combined into the same buffer; combining gives back the TB.
void harq_combines(const backend_choice& where)
{
    std::mt19937 rng(11);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    sch::sch_encoder enc;
    auto r0 = request(sch::DLSCH, 6120, 7200, 2, 0); // rate 0.85
    auto bits = random_bits(rng, r0.tbs);
    const float sigma = 0.9f; // Es/N0 about 0.9 dB per bit
    auto tx = [&](int rv) {
        auto r = r0;
        r.rv = rv;
        const auto c = enc.encode(bits.data(), bits.size(), r);
        std::vector<float> l(c.size());
        for (size_t i = 0; i < c.size(); i++)
            l[i] = 2.0f * ((c[i] ? 1.0f : -1.0f) + sigma * noise(rng)) / (sigma * sigma);
        return l;
    };
    auto r2 = r0;
    r2.rv = 2;
    const auto l0 = tx(0), l2 = tx(2);
    sch_config cfg;
    cfg.harq_buffers = 2;
    const auto alone = decode_all(where, cfg, { r0 }, { l0 }, { 0 }, { 0 });
    EXPECT_EQ(alone[0].res.crc_ok, 0) << "rv 0 alone decoded: the case does not test combining";
    const auto both = decode_all(where, cfg, { r0, r2 }, { l0, l2 }, { 0, 0 }, { 0, 1 });
    EXPECT_EQ(both[1].res.crc_ok, 1);
    EXPECT_EQ(both[1].bits, bits);
}

// A TB whose input holds fewer soft values than information bits is not
// decoded, whatever its CRC says: an all-zero TB has a zero CRC24A, so a
// dead input, LLRs below the int8 scale's half step, or a lone
// retransmission without systematic bits would otherwise "pass" as zeros.
// A real all-zero TB, sent and received, still decodes.
void uninformed_tb_is_not_decoded(const backend_choice& where)
{
    sch::sch_encoder enc;
    const std::vector<uint8_t> zeros(2000, 0);
    auto full = request(sch::DLSCH, 2000, 6000, 2, 0); // K = 2048, F = 24
    auto rv2 = request(sch::DLSCH, 2000, 1400, 2, 2);  // 1400 parity bits < K - F
    const auto sent = noiseless(enc.encode(zeros.data(), zeros.size(), full), 4.0f);
    const auto sent_rv2 = noiseless(enc.encode(zeros.data(), zeros.size(), rv2), 4.0f);
    const auto tiny = noiseless(enc.encode(zeros.data(), zeros.size(), full), 0.05f); // rounds to 0 in int8
    const std::vector<float> dead(6000, 0.0f);
    sch_config cfg;
    cfg.harq_buffers = 1;
    const auto out = decode_all(where, cfg, { full, full, full, rv2, full, rv2 },
                                { sent, dead, tiny, sent_rv2, sent, sent_rv2 }, { -1, -1, -1, -1, 0, 0 },
                                { 0, 0, 0, 0, 0, 1 });
    ASSERT_EQ(out.size(), 6u);
    EXPECT_EQ(out[0].res.crc_ok, 1) << "a sent all-zero TB";
    EXPECT_EQ(out[0].res.uninformed, 0);
    for (int i : { 1, 2, 3 }) {
        EXPECT_EQ(out[size_t(i)].res.crc_ok, 0) << "case " << i << " carried no information";
        EXPECT_EQ(out[size_t(i)].res.uninformed, 1) << "case " << i;
    }
    // The same rv 2 combined with a buffer that holds rv 0 is informed.
    EXPECT_EQ(out[5].res.crc_ok, 1);
    EXPECT_EQ(out[5].res.uninformed, 0);
    EXPECT_EQ(out[5].bits, zeros);
}

TEST(Decode, UninformedTransportBlockIsNotDecoded) { uninformed_tb_is_not_decoded(test::cpu_backend()); }
TEST(Decode, CudaUninformedTransportBlockIsNotDecoded) { uninformed_tb_is_not_decoded(test::cuda_backend()); }

// Every TB of the noiseless cases holds enough soft values.
TEST(Decode, InformedCountsTheFillerAsKnown)
{
    auto r = request(sch::DLSCH, 2000, 4200, 2, 0); // K = 2048, F = 24
    const auto p = sch::frame_params_of(r);
    // K - F = 2024 received values and the 2F certain-zero filler positions.
    EXPECT_TRUE(sch::cb_informed(p, 0, 2024 + 48));
    EXPECT_FALSE(sch::cb_informed(p, 0, 2023 + 48));
}

TEST(Harq, TwoRedundancyVersionsCombine) { harq_combines(test::cpu_backend()); }
TEST(Harq, CudaTwoRedundancyVersionsCombine) { harq_combines(test::cuda_backend()); }

TEST(Harq, PoolFollowsNdiReleaseAndEviction)
{
    sch::harq_pool pool(2);
    auto r = request(sch::DLSCH, 1000, 3000, 2, 0);
    const auto p = sch::frame_params_of(r);
    auto d = pool.assign(r, p);
    EXPECT_EQ(d.slot, 0);
    EXPECT_FALSE(d.combine);
    EXPECT_TRUE(pool.must_wait(r));
    pool.completed(d.slot, false);
    EXPECT_FALSE(pool.must_wait(r));
    r.rv = 2; // same ndi: a retransmission
    d = pool.assign(r, p);
    EXPECT_EQ(d.slot, 0);
    EXPECT_TRUE(d.combine);
    EXPECT_EQ(d.transmissions, 2);
    pool.completed(d.slot, false);
    r.ndi = 1; // toggled: a new TB in the same buffer
    d = pool.assign(r, p);
    EXPECT_EQ(d.slot, 0);
    EXPECT_FALSE(d.combine);
    pool.completed(d.slot, false);
    // A contradicting retransmission is decoded alone and reported.
    auto limited = r; // N_IR = 16000 / 8 = 2000 of K_w = 3168
    limited.n_soft = 16000;
    d = pool.assign(limited, sch::frame_params_of(limited));
    EXPECT_EQ(d.slot, -1);
    EXPECT_NE(d.error.find("contradicts"), std::string::npos);
    // Two more users: the least recently used buffer is evicted.
    auto u2 = r, u3 = r;
    u2.rnti = 62;
    u3.rnti = 63;
    d = pool.assign(u2, p);
    EXPECT_EQ(d.slot, 1);
    pool.completed(d.slot, false);
    d = pool.assign(u3, p);
    EXPECT_EQ(d.slot, 0);
    EXPECT_NE(d.evicted.find("rnti 61,"), std::string::npos) << d.evicted;
    pool.completed(d.slot, true); // passed: released
    EXPECT_EQ(pool.in_use(), 1);
}

TEST(Harq, ResetStartsTheBufferAfreshWhateverNdiSays)
{
    // A key that comes back to a decoder that held it before (scale-out:
    // moved away and back) finds a stale buffer of the same ndi and tbs:
    // without harq_reset its next transmission would be combined with it.
    sch::harq_pool pool(2);
    auto r = request(sch::DLSCH, 1000, 3000, 2, 0);
    const auto p = sch::frame_params_of(r);
    auto d = pool.assign(r, p);
    pool.completed(d.slot, false);
    r.rv = 2;
    r.harq_reset = true;
    d = pool.assign(r, p);
    EXPECT_EQ(d.slot, 0);
    EXPECT_FALSE(d.combine);
    EXPECT_EQ(d.transmissions, 1);
    EXPECT_TRUE(d.error.empty());
    pool.completed(d.slot, false);
    // The buffer now holds this transmission: the next one combines with it.
    r.rv = 3;
    r.harq_reset = false;
    d = pool.assign(r, p);
    EXPECT_EQ(d.slot, 0);
    EXPECT_TRUE(d.combine);
    EXPECT_EQ(d.transmissions, 2);
    pool.completed(d.slot, false);
    // On a key without a buffer it changes nothing: a fresh buffer.
    auto other = r;
    other.rnti = 99;
    other.harq_reset = true;
    d = pool.assign(other, p);
    EXPECT_EQ(d.slot, 1);
    EXPECT_FALSE(d.combine);
    EXPECT_EQ(d.transmissions, 1);
    pool.completed(d.slot, false);
    EXPECT_EQ(pool.in_use(), 2);
}

// The buffer is the transport block's, named by (cell, rnti, process, TB
// index): a lone retransmission of TB 2 travels on codeword 0 (36.212
// Table 5.3.3.1.5-2) and must find TB 2's buffer, not TB 1's.
TEST(Harq, KeyIsTheTransportBlockNotTheCodeword)
{
    sch::harq_pool pool(4);
    auto tb1 = request(sch::DLSCH, 1000, 3000, 2, 0);
    auto tb2 = tb1;
    tb1.codeword = 0;
    tb1.tb_index = 0;
    tb2.codeword = 1;
    tb2.tb_index = 1;
    const auto p = sch::frame_params_of(tb1);
    auto d1 = pool.assign(tb1, p);
    auto d2 = pool.assign(tb2, sch::frame_params_of(tb2));
    EXPECT_NE(d1.slot, d2.slot);
    pool.completed(d1.slot, true); // TB 1 passed
    pool.completed(d2.slot, false);
    auto retx = tb2; // TB 2 alone, on codeword 0
    retx.codeword = 0;
    retx.rv = 2;
    const auto d = pool.assign(retx, sch::frame_params_of(retx));
    EXPECT_EQ(d.slot, d2.slot);
    EXPECT_TRUE(d.combine);
    EXPECT_EQ(d.transmissions, 2);
    EXPECT_FALSE(d.duplicate);
    pool.completed(d.slot, false);
    // Another cell's UE with the same rnti, process and TB: its own buffer.
    auto other_cell = tb2;
    other_cell.cell_id = tb2.cell_id + 1;
    const auto o = pool.assign(other_cell, sch::frame_params_of(other_cell));
    EXPECT_NE(o.slot, d2.slot);
    EXPECT_FALSE(o.combine);
    // Without tb_index, the codeword names it, as before.
    auto legacy = request(sch::DLSCH, 1000, 3000, 2, 0);
    legacy.codeword = 1;
    EXPECT_EQ(sch::harq_request_of(legacy).tb_index, 1);
}

// A retransmission of a TB that already passed (its ACK was lost) is a
// duplicate; a new TB (toggled ndi) on the same key is not.
TEST(Harq, RetransmissionOfADeliveredTransportBlockIsADuplicate)
{
    sch::harq_pool pool(2);
    auto r = request(sch::DLSCH, 1000, 3000, 2, 0);
    const auto p = sch::frame_params_of(r);
    auto d = pool.assign(r, p);
    pool.completed(d.slot, true); // delivered
    r.rv = 2;
    d = pool.assign(r, p);
    EXPECT_TRUE(d.duplicate);
    EXPECT_EQ(d.slot, -1);
    d = pool.assign(r, p); // and again
    EXPECT_TRUE(d.duplicate);
    r.ndi = 1 - r.ndi; // a new TB
    r.rv = 0;
    d = pool.assign(r, p);
    EXPECT_FALSE(d.duplicate);
    EXPECT_GE(d.slot, 0);
    pool.completed(d.slot, false);
    // harq_reset: the sender says the key starts afresh: not a duplicate.
    auto s = request(sch::DLSCH, 1000, 3000, 2, 0);
    s.rnti = 77;
    d = pool.assign(s, p);
    pool.completed(d.slot, true);
    s.harq_reset = true;
    EXPECT_FALSE(pool.assign(s, p).duplicate);
    // A TB decoded alone (its key's buffer in flight elsewhere, or evicted)
    // is remembered too.
    sch::harq_pool one(1);
    auto a = request(sch::DLSCH, 1000, 3000, 2, 0);
    a.rnti = 90;
    one.delivered_alone(sch::harq_request_of(a), true);
    EXPECT_TRUE(one.assign(sch::harq_request_of(a), p).duplicate);
    // Without buffers (harq_buffers = 0) there is no HARQ state: no duplicates.
    sch::harq_pool none(0);
    d = none.assign(sch::harq_request_of(a), p);
    EXPECT_EQ(d.slot, -1);
    none.delivered_alone(sch::harq_request_of(a), true);
    EXPECT_FALSE(none.assign(sch::harq_request_of(a), p).duplicate);
}

// Mixed subframes, noisy, on both backends: the CUDA decoder gives the CPU
// twin's bits, CRCs and iteration counts exactly.
TEST(Agreement, CudaMatchesCpuBitForBit)
{
    std::mt19937 rng(5);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    sch::sch_encoder enc;
    std::vector<sch::tb_request> reqs;
    std::vector<std::vector<float>> llrs;
    const auto cases = decode_cases();
    for (int rep = 0; rep < 2; rep++)
        for (const auto& r : cases) {
            const auto bits = random_bits(rng, r.tbs);
            const auto c = enc.encode(bits.data(), bits.size(), r);
            const float sigma = 0.55f + 0.05f * float(rep);
            std::vector<float> l(c.size());
            for (size_t i = 0; i < c.size(); i++)
                l[i] = 2.0f * ((c[i] ? 1.0f : -1.0f) + sigma * noise(rng)) / (sigma * sigma);
            reqs.push_back(r);
            llrs.push_back(l);
        }
    sch_config cfg;
    cfg.harq_buffers = 0;
    cfg.turbo.implementation = "cuda-fixed16-dpx";
    const auto cpu = decode_all(test::cpu_backend(), cfg, reqs, llrs);
    const auto gpu = decode_all(test::cuda_backend(), cfg, reqs, llrs);
    ASSERT_EQ(cpu.size(), gpu.size());
    int passed = 0;
    for (size_t i = 0; i < cpu.size(); i++) {
        EXPECT_EQ(cpu[i].bits, gpu[i].bits) << i;
        EXPECT_EQ(cpu[i].res.crc_ok, gpu[i].res.crc_ok) << i;
        EXPECT_EQ(cpu[i].res.cb_crc, gpu[i].res.cb_crc) << i;
        EXPECT_EQ(cpu[i].res.iterations, gpu[i].res.iterations) << i;
        passed += cpu[i].res.crc_ok;
    }
    std::printf("agreement: %d of %zu TBs passed\n", passed, cpu.size());
    // The closed-form dematching (what runs when the gather-table space is
    // full) gives the same.
    setenv("GPURX_SCH_CLOSED_FORM", "1", 1);
    const auto closed = decode_all(test::cuda_backend(), cfg, reqs, llrs);
    unsetenv("GPURX_SCH_CLOSED_FORM");
    for (size_t i = 0; i < cpu.size(); i++) {
        EXPECT_EQ(cpu[i].bits, closed[i].bits) << i;
        EXPECT_EQ(cpu[i].res.cb_crc, closed[i].res.cb_crc) << i;
        EXPECT_EQ(cpu[i].res.iterations, closed[i].res.iterations) << i;
    }
}

// The same with int8 LLRs (what the benchmark feeds): the downlink's
// descrambling inside the dematching reads them four at a time, and -128
// must still clamp to -127 as on the CPU.
TEST(Agreement, CudaMatchesCpuBitForBitInt8)
{
    std::mt19937 rng(11);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    sch::sch_encoder enc;
    std::vector<sch::tb_request> reqs;
    std::vector<std::vector<float>> unused;
    std::vector<std::vector<int8_t>> llrs;
    for (const auto& r : decode_cases()) {
        const auto bits = random_bits(rng, r.tbs);
        const auto c = enc.encode(bits.data(), bits.size(), r);
        std::vector<int8_t> l(c.size());
        for (size_t i = 0; i < c.size(); i++) {
            // Some sure bits at the extremes: -128 must clamp to -127.
            const float v = i % 97 == 0 ? (c[i] ? 127.0f : -128.0f)
                                        : std::round(40.0f * ((c[i] ? 1.0f : -1.0f) + 0.55f * noise(rng)));
            l[i] = int8_t(std::max(-128.0f, std::min(127.0f, v)));
        }
        reqs.push_back(r);
        unused.emplace_back();
        llrs.push_back(l);
    }
    sch_config cfg;
    cfg.harq_buffers = 0;
    cfg.turbo.implementation = "cuda-fixed16-dpx";
    const auto cpu = decode_all(test::cpu_backend(), cfg, reqs, unused, {}, {}, &llrs);
    const auto gpu = decode_all(test::cuda_backend(), cfg, reqs, unused, {}, {}, &llrs);
    ASSERT_EQ(cpu.size(), gpu.size());
    int passed = 0;
    for (size_t i = 0; i < cpu.size(); i++) {
        EXPECT_EQ(cpu[i].bits, gpu[i].bits) << i;
        EXPECT_EQ(cpu[i].res.crc_ok, gpu[i].res.crc_ok) << i;
        EXPECT_EQ(cpu[i].res.cb_crc, gpu[i].res.cb_crc) << i;
        EXPECT_EQ(cpu[i].res.iterations, gpu[i].res.iterations) << i;
        passed += cpu[i].res.crc_ok;
    }
    std::printf("agreement (int8): %d of %zu TBs passed\n", passed, cpu.size());
}

TEST(Params, BadInputNamesTheField)
{
    auto expect = [](sch::tb_request r, const char* field) {
        try {
            sch::frame_params_of(r);
            ADD_FAILURE() << "accepted, expected an error naming " << field;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
        }
    };
    auto r = request(sch::DLSCH, 1000, 3000, 2, 0);
    auto b = r;
    b.g = 3001;
    expect(b, "g=3001");
    b = r;
    b.nl = 2;
    b.g = 3002;
    expect(b, "g=3002");
    b = r;
    b.tbs = 0;
    expect(b, "tbs=0");
    b = r;
    b.tbs = 500000;
    expect(b, "tbs=500000");
    b = r;
    b.g = 2; // two code blocks, one QPSK symbol
    b.tbs = 10000;
    expect(b, "g=2");
    b = r;
    b.channel = sch::ULSCH;
    b.g = 2 * 13 * 11; // G/qm = 143, not a multiple of 12
    expect(b, "g=286");
    b = r;
    b.rv = 4;
    expect(b, "rv=4");
    b = r;
    b.qm = 3;
    expect(b, "qm=3");
    // The soft-buffer factors are bounded by 36.212's values, so N_IR's
    // divisor cannot wrap to zero (it did: SIGFPE).
    b = r;
    b.n_soft = 1000000;
    b.kc = 1 << 30;
    b.k_mimo = 1 << 30;
    b.m_dl_harq = 16;
    b.m_limit = 16;
    expect(b, "kc=1073741824");
    b.kc = 1;
    expect(b, "k_mimo=1073741824");
    b.k_mimo = 2;
    expect(b, "m_dl_harq=16");
    b.m_dl_harq = 15;
    expect(b, "m_limit=16");
    b.m_limit = 8;
    EXPECT_NO_THROW(sch::frame_params_of(b));
    // A soft buffer smaller than the code blocks is refused naming n_soft,
    // before k0 is reduced modulo N_cb (n_soft 1..7 gave N_cb 0: SIGFPE).
    for (long n_soft : { 1L, 7L, 1000L }) {
        b = r;
        b.n_soft = n_soft;
        expect(b, ("n_soft=" + std::to_string(n_soft)).c_str());
    }
    // n_symb is the uplink's: ignored on the downlink, checked on the uplink.
    b = r;
    b.n_symb = 0;
    EXPECT_NO_THROW(sch::frame_params_of(b));
    b.channel = sch::ULSCH;
    expect(b, "n_symb=0");
}

} // namespace

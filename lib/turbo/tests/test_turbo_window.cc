/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cpu-window16-simd (turbo_window_decoder.h): its interleaver tables, every
// build bit for bit the generic one, each codeword bit for bit the reference
// schedule (turbo_decoder_cpu with the same windows and guard 0), and
// decoding through the pipeline (all 188 sizes, float and int8 input, early
// termination, noisy frames).
#include "turbo/lte_crc.h"
#include "turbo/lte_qpp.h"
#include "turbo/turbo_decoder_cpu.h"
#include "turbo/turbo_fixed.h"
#include "turbo/turbo_window_decoder.h"
#include "test_util.h"
#include "turbo/tests/turbo_test_util.h"
#include <gtest/gtest.h>

#include <limits>
#include <set>

using namespace gr::gpurx;
namespace tw = core::turbo_win;

namespace {

const double noiseless = std::numeric_limits<double>::infinity();

std::vector<tw::simd_isa> builds()
{
    std::vector<tw::simd_isa> v = { tw::simd_isa::generic };
    if (tw::simd_isa_supported(tw::simd_isa::avx2))
        v.push_back(tw::simd_isa::avx2);
    else
        std::printf("no AVX2 on this CPU: the generic build only\n");
    return v;
}

core::turbo_config window_cfg(int iterations = 6)
{
    core::turbo_config c;
    c.iterations = iterations;
    c.implementation = "cpu-window16-simd";
    return c;
}

// The reference schedule of K: turbo_decoder_cpu with the windows the
// window decoder uses, guard 0.
core::turbo_config reference_cfg(const core::turbo_config& c, int K)
{
    core::turbo_config r = c;
    r.subblocks = tw::windows_for(K);
    r.guard = 0;
    return r;
}

std::vector<int> quantised(const std::vector<float>& llr)
{
    std::vector<int> q(llr.size());
    for (size_t i = 0; i < q.size(); i++)
        q[i] = core::turbo_fx::quantize(llr[i], 8.0f);
    return q;
}

struct outputs {
    std::vector<std::vector<uint8_t>> hard;
    std::vector<std::vector<float>> soft;
    std::vector<core::turbo_decode_result> res;
};

// The window decoder on quantised codewords, in calls of as many as a vector
// takes (the last one partial).
outputs decode_window(const core::turbo_config& cfg, tw::simd_isa isa, int K,
                      const std::vector<std::vector<int>>& q, size_t per_call)
{
    core::turbo_window_decoder dec(cfg, isa);
    const size_t n = q.size();
    outputs o{ std::vector<std::vector<uint8_t>>(n, std::vector<uint8_t>(K)),
               std::vector<std::vector<float>>(n, std::vector<float>(K)),
               std::vector<core::turbo_decode_result>(n) };
    for (size_t f = 0; f < n; f += per_call) {
        const size_t m = std::min(per_call, n - f);
        std::vector<const int*> qp;
        std::vector<uint8_t*> hp;
        std::vector<float*> sp;
        for (size_t i = f; i < f + m; i++) {
            qp.push_back(q[i].data());
            hp.push_back(o.hard[i].data());
            sp.push_back(o.soft[i].data());
        }
        dec.decode_quantised(qp.data(), int(m), K, 0.125f, hp.data(), sp.data(), &o.res[f]);
    }
    return o;
}

outputs decode_reference(const core::turbo_config& cfg, int K, const std::vector<std::vector<int>>& q)
{
    core::turbo_decoder_cpu ref(reference_cfg(cfg, K));
    const size_t n = q.size();
    outputs o{ std::vector<std::vector<uint8_t>>(n, std::vector<uint8_t>(K)),
               std::vector<std::vector<float>>(n, std::vector<float>(K)),
               std::vector<core::turbo_decode_result>(n) };
    for (size_t i = 0; i < n; i++)
        o.res[i] = ref.decode_fixed<core::turbo_fx::int_ops>(q[i].data(), K, 0.125f, o.hard[i].data(),
                                                              o.soft[i].data());
    return o;
}

void expect_same(const outputs& a, const outputs& b, const std::string& what)
{
    ASSERT_EQ(a.hard.size(), b.hard.size());
    for (size_t i = 0; i < a.hard.size(); i++) {
        ASSERT_EQ(a.hard[i], b.hard[i]) << what << " codeword " << i;
        ASSERT_EQ(a.soft[i], b.soft[i]) << what << " codeword " << i;
        ASSERT_EQ(a.res[i].iterations, b.res[i].iterations) << what << " codeword " << i;
        ASSERT_EQ(a.res[i].check, b.res[i].check) << what << " codeword " << i;
    }
}

// A codeword with a valid CRC24A at BPSK/AWGN deviation sigma.
test::codeword crc_codeword(int K, float sigma, std::mt19937& rng)
{
    test::codeword cw = test::make_codeword(K, noiseless, rng);
    core::crc24_attach(cw.bits.data(), K - 24, core::crc24_type::a);
    std::vector<uint8_t> c(3 * K + 12);
    core::lte_turbo_encoder(K).encode(cw.bits.data(), c.data());
    std::normal_distribution<float> n(0.0f, 1.0f);
    for (size_t j = 0; j < c.size(); j++)
        cw.llr[j] = 2.0f * ((c[j] ? 1.0f : -1.0f) + sigma * n(rng)) / (sigma * sigma);
    return cw;
}

// Block sizes with every window count (1, 2, 4, 8, 16 windows per codeword).
const std::vector<int> some_K = { 40, 48, 64, 120, 248, 256, 504, 512, 528, 1008, 1024, 2048, 4160, 6144 };

} // namespace

// The tables say what the QPP interleaver says, for every K: interleaved
// element (j, lane c*P + t) is natural step pi(j + tW) of the same codeword.
TEST(TurboWindow, PlanIsTheQppInterleaver)
{
    for (const auto& q : core::lte_qpp_table()) {
        const auto& p = tw::plan_for(q.K);
        ASSERT_EQ(p.K, q.K);
        ASSERT_EQ(p.P & (p.P - 1), 0) << "P=" << p.P << " is not a power of two";
        ASSERT_EQ(p.P * p.W, q.K);
        ASSERT_EQ(p.P * p.C, tw::LANES);
        EXPECT_TRUE(p.W >= tw::MIN_WINDOW || p.P == 1) << q.K;
        for (int j = 0; j < p.W; j++) {
            ASSERT_EQ(p.int_row[p.nat_row[j]], j);
            for (int lane = 0; lane < tw::LANES; lane++) {
                const int c = lane / p.P, t = lane % p.P;
                const int i = core::qpp_index(q, j + t * p.W);
                const int src = p.to_int[size_t(p.nat_row[j]) * tw::LANES + lane]; // natural lane
                ASSERT_EQ(src / p.P, c);
                ASSERT_EQ(i, (src % p.P) * p.W + p.nat_row[j]) << "K=" << q.K;
                ASSERT_EQ(p.to_nat[size_t(j) * tw::LANES + src], lane);
            }
        }
    }
    EXPECT_EQ(tw::windows_for(6144), 16);
    for (int K : { -8, 0, 32, 39, 41, 513, 520, 1040, 2080, 6080 + 32, 6145, 6208, 1 << 30 })
        EXPECT_THROW(tw::plan_for(K), std::invalid_argument) << K;
    EXPECT_EQ(tw::windows_for(2048), 16);
    EXPECT_EQ(tw::windows_for(1024), 8);
    EXPECT_EQ(tw::windows_for(40), 1);
    EXPECT_EQ(tw::windows_for(504), 2);
}

// Each build's extrinsic scaling is turbo_fx::scale_extrinsic for every int16
// difference and every scale.
TEST(TurboWindow, ScalingMatchesSharedForEveryInput)
{
    std::vector<int16_t> le(65536), out(65536);
    for (int i = 0; i < 65536; i++)
        le[i] = int16_t(i - 32768);
    long mismatches = 0;
    for (auto isa : builds())
        for (int sq = 1; sq <= core::turbo_fx::SCALE_ONE; sq++) {
            tw::build_of(isa).scale(le.data(), le.size(), sq, out.data());
            for (int i = 0; i < 65536; i++)
                mismatches += out[i] != core::turbo_fx::scale_extrinsic(le[i], sq);
        }
    EXPECT_EQ(mismatches, 0);
}

// Each build's int8 split (every int8 value, -128 saturating) and its row
// permutation between the decoders' layouts are the shared definitions'.
TEST(TurboWindow, BuildsSplitInt8AndPermuteRowsAsShared)
{
    std::mt19937 rng(71);
    for (int K : { 40, 1024, 6144, 1008, 5824 }) {
        std::vector<int8_t> in(3 * K + 12);
        for (size_t i = 0; i < in.size(); i++)
            in[i] = int8_t(i % 5 == 0 ? int(i % 256) - 128 : int(rng() % 256) - 128);
        for (auto isa : builds()) {
            std::vector<int16_t> s(3 * K + 12);
            tw::build_of(isa).split_int8(in.data(), K, s.data(), s.data() + K, s.data() + 2 * K, s.data() + 3 * K);
            for (int k = 0; k < K; k++)
                for (int i = 0; i < 3; i++)
                    ASSERT_EQ(s[i * K + k], core::turbo_fx::quantize(in[3 * k + i])) << "k=" << k;
            for (int i = 0; i < 12; i++)
                ASSERT_EQ(s[3 * K + i], core::turbo_fx::quantize(in[3 * K + i]));
        }
    }
    std::uniform_int_distribution<int> v(-32768, 32767);
    for (int K : { 6144, 5824, 1024, 504, 40 }) {
        const tw::plan& p = tw::plan_for(K);
        const size_t n = size_t(p.W) * tw::LANES;
        core::turbo_decoder_cpu::avector<int16_t> src(n), want(n), got(n);
        for (auto& x : src)
            x = int16_t(v(rng));
        for (int r = 0; r < p.W; r++)
            for (int t = 0; t < tw::LANES; t++)
                want[size_t(p.int_row[r]) * tw::LANES + t] = src[size_t(r) * tw::LANES + p.to_int[size_t(r) * tw::LANES + t]];
        for (auto isa : builds()) {
            std::fill(got.begin(), got.end(), int16_t(0));
            tw::build_of(isa).permute_rows(src.data(), p.W, p.int_row.data(), p.to_int.data(), p.to_int_ctl.data(),
                                           got.data());
            ASSERT_TRUE(std::equal(got.begin(), got.end(), want.begin())) << "K=" << K;
        }
    }
}

// Each build's input and output moves: float LLRs quantised as the shared
// quantiser does (ties, saturation, +-Inf, NaN) and split into streams;
// into and out of the lane layout, for window lengths with and without a
// remainder of 16 rows.
TEST(TurboWindow, BuildsMoveDataAsShared)
{
    std::mt19937 rng(67);
    std::uniform_real_distribution<float> u(-20.0f, 20.0f);
    const float specials[] = { 0.0625f, -0.0625f, 0.1875f, 15.9375f, -15.9375f, 1e30f, -1e30f,
                               std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::quiet_NaN() };
    for (int K : { 40, 1024, 6144, 1008 }) {
        std::vector<float> in(3 * K + 12);
        for (size_t i = 0; i < in.size(); i++)
            in[i] = i % 7 == 0 ? specials[(i / 7) % 10] : u(rng);
        for (auto isa : builds()) {
            std::vector<int16_t> s(3 * K + 12);
            tw::build_of(isa).quantise_split(in.data(), K, 8.0f, s.data(), s.data() + K, s.data() + 2 * K,
                                             s.data() + 3 * K);
            for (int k = 0; k < K; k++)
                for (int i = 0; i < 3; i++)
                    ASSERT_EQ(s[i * K + k], core::turbo_fx::quantize(in[3 * k + i], 8.0f)) << "k=" << k;
            for (int i = 0; i < 12; i++)
                ASSERT_EQ(s[3 * K + i], core::turbo_fx::quantize(in[3 * K + i], 8.0f));
        }
    }
    std::uniform_int_distribution<int> v(-32768, 32767);
    for (int W : { 3, 16, 40, 63, 384 }) {
        std::vector<std::vector<int16_t>> cols(tw::LANES, std::vector<int16_t>(W));
        std::vector<const int16_t*> src;
        for (auto& c : cols) {
            for (auto& x : c)
                x = int16_t(v(rng));
            src.push_back(c.data());
        }
        for (auto isa : builds()) {
            core::turbo_decoder_cpu::avector<int16_t> lanes(size_t(W) * tw::LANES);
            tw::build_of(isa).to_lanes(src.data(), W, lanes.data());
            std::vector<std::vector<uint8_t>> hard(tw::LANES, std::vector<uint8_t>(W, 7));
            std::vector<uint8_t*> dst;
            for (auto& h : hard)
                dst.push_back(h.data());
            tw::build_of(isa).hard_from_lanes(lanes.data(), W, dst.data());
            for (int t = 0; t < tw::LANES; t++)
                for (int r = 0; r < W; r++) {
                    ASSERT_EQ(lanes[size_t(r) * tw::LANES + t], cols[t][r]) << tw::simd_isa_name(isa);
                    ASSERT_EQ(hard[t][r], cols[t][r] > 0 ? 1 : 0) << tw::simd_isa_name(isa);
                }
        }
    }
}

// Float and int8 input decode as their quantised values do, in every build.
TEST(TurboWindow, FloatAndInt8InputAreQuantisedAsShared)
{
    std::mt19937 rng(97);
    for (int K : { 1024, 6144 }) {
        const auto cw = crc_codeword(K, 0.8f, rng);
        auto llr = cw.llr;
        llr[5] = std::numeric_limits<float>::quiet_NaN();
        llr[7] = std::numeric_limits<float>::infinity();
        std::vector<int8_t> i8(llr.size());
        for (size_t i = 0; i < i8.size(); i++)
            i8[i] = int8_t(std::max(-128.0f, std::min(127.0f, std::nearbyint(cw.llr[i] * 4))));
        std::vector<int> q8(i8.size());
        for (size_t i = 0; i < q8.size(); i++)
            q8[i] = core::turbo_fx::quantize(i8[i]);
        const auto cfg = window_cfg();
        const auto ref = decode_reference(cfg, K, { quantised(llr) });
        const auto ref8 = decode_reference(cfg, K, { q8 });
        for (auto isa : builds()) {
            core::turbo_window_decoder dec(cfg, isa);
            outputs o{ { std::vector<uint8_t>(K) }, { std::vector<float>(K) }, { {} } };
            const float* f = llr.data();
            uint8_t* h = o.hard[0].data();
            float* s = o.soft[0].data();
            dec.decode(&f, 1, K, &h, &s, o.res.data());
            expect_same(o, ref, std::string("float ") + tw::simd_isa_name(isa));
            const int8_t* p8 = i8.data();
            dec.decode_int8(&p8, 1, K, 0.125f, &h, &s, o.res.data());
            expect_same(o, ref8, std::string("int8 ") + tw::simd_isa_name(isa));
        }
    }
}

// Every build, every codeword: the reference schedule bit for bit (hard and
// soft output, iterations, CRC), on noisy codewords at several K, with whole
// and partial vectors, each early termination and several extrinsic scales.
TEST(TurboWindow, MatchesReferenceSchedule)
{
    std::mt19937 rng(71);
    std::set<int> iters;
    for (int K : some_K) {
        const int C = core::turbo_window_decoder::codewords_per_call(K);
        std::vector<std::vector<int>> q;
        for (int i = 0; i < C + 3; i++)
            q.push_back(quantised(crc_codeword(K, 0.75f + 0.02f * float(i % 12), rng).llr));
        for (auto stop : { core::turbo::early_stop::none, core::turbo::early_stop::crc24a,
                           core::turbo::early_stop::hard_decision })
            for (float scaling : { 0.75f, 1.0f, 0.3f }) {
                if (K > 1024 && scaling != 0.75f)
                    continue; // keeps the test short; small K cover the scales
                auto cfg = window_cfg(8);
                cfg.stop = stop;
                cfg.scaling = scaling;
                const auto ref = decode_reference(cfg, K, q);
                for (auto isa : builds()) {
                    const auto got = decode_window(cfg, isa, K, q, size_t(C));
                    expect_same(got, ref, std::string(tw::simd_isa_name(isa)) + " K=" + std::to_string(K));
                }
                for (const auto& r : ref.res)
                    iters.insert(r.iterations);
            }
    }
    EXPECT_GE(iters.size(), 3u) << "codewords should stop at different iterations";
}

// Saturated and random inputs (the worst cases for the metric range): every
// build is the generic one bit for bit, and the reference schedule stays in
// int16 (checked arithmetic).
TEST(TurboWindow, BuildsAgreeOnExtremeInputs)
{
    std::mt19937 rng(73);
    std::uniform_int_distribution<int> sat(0, 1), any(-127, 127);
    for (int K : { 40, 528, 1024, 6144 }) {
        const int C = core::turbo_window_decoder::codewords_per_call(K);
        std::vector<std::vector<int>> q;
        for (int i = 0; i < C; i++) {
            std::vector<int> v(3 * K + 12);
            for (auto& x : v)
                x = i % 2 ? any(rng) : (sat(rng) ? 127 : -127);
            q.push_back(v);
        }
        auto cfg = window_cfg(8);
        const auto gen = decode_window(cfg, tw::simd_isa::generic, K, q, size_t(C));
        for (auto isa : builds())
            expect_same(decode_window(cfg, isa, K, q, size_t(C)), gen, tw::simd_isa_name(isa));
        core::turbo_decoder_cpu ref(reference_cfg(cfg, K));
        std::vector<uint8_t> h(K);
        std::vector<float> s(K);
        core::turbo_fx::checked_int_ops::violations = 0;
        for (const auto& v : q)
            ref.decode_fixed<core::turbo_fx::checked_int_ops>(v.data(), K, 0.125f, h.data(), s.data());
        EXPECT_EQ(core::turbo_fx::checked_int_ops::violations, 0) << "K=" << K;
    }
}

// Through the pipeline (the registry's kernel): every LTE size decodes
// noiseless codewords, from float and from int8 LLRs.
TEST(TurboWindow, NoiselessAllSizes)
{
    std::mt19937 rng(79);
    std::vector<test::codeword> cws;
    for (const auto& q : core::lte_qpp_table())
        cws.push_back(test::make_codeword(q.K, noiseless, rng));
    const auto out = test::decode_all(cws, window_cfg(2), test::cpu_backend(), 50);
    for (size_t i = 0; i < cws.size(); i++) {
        ASSERT_EQ(out[i].hard, cws[i].bits) << "K=" << cws[i].K;
        EXPECT_EQ(out[i].result.iterations, 2);
    }
    // int8: the decoder straight (the pipeline's int8 frames take the same path).
    core::turbo_window_decoder dec(window_cfg(2));
    for (const auto& cw : cws) {
        std::vector<int8_t> q(cw.llr.size());
        for (size_t i = 0; i < q.size(); i++)
            q[i] = cw.llr[i] > 0 ? 20 : -20;
        std::vector<uint8_t> hard(cw.K);
        const int8_t* in = q.data();
        uint8_t* h = hard.data();
        float* s = nullptr;
        core::turbo_decode_result r;
        dec.decode_int8(&in, 1, cw.K, 0.5f, &h, &s, &r);
        ASSERT_EQ(hard, cw.bits) << "int8 K=" << cw.K;
    }
}

// At Es/N0 = -3.5 dB (raw BER over 10%) six iterations leave nearly no
// errors, as cpu-fixed16-simd does on the same frames.
TEST(TurboWindow, CorrectsErrorsAtModerateSnr)
{
    std::mt19937 rng(83);
    std::vector<test::codeword> cws;
    for (int i = 0; i < 12; i++)
        cws.push_back(test::make_codeword(i % 2 ? 1024 : 6144, -3.5, rng));
    auto twin = window_cfg();
    twin.implementation = "cpu-fixed16-simd";
    const auto win = test::decode_all(cws, window_cfg(), test::cpu_backend());
    const auto ref = test::decode_all(cws, twin, test::cpu_backend());
    size_t raw = 0, e_win = 0, e_ref = 0, bits = 0;
    for (size_t i = 0; i < cws.size(); i++) {
        for (int k = 0; k < cws[i].K; k++)
            raw += (cws[i].llr[3 * k] > 0) != bool(cws[i].bits[k]);
        e_win += test::bit_errors(win[i].hard, cws[i].bits);
        e_ref += test::bit_errors(ref[i].hard, cws[i].bits);
        bits += cws[i].K;
    }
    std::printf("raw %zu, cpu-window16-simd %zu, cpu-fixed16-simd %zu bit errors of %zu\n", raw, e_win, e_ref, bits);
    EXPECT_GT(double(raw) / bits, 0.10);
    EXPECT_LT(double(e_win) / bits, 2e-3);
}

// Early termination through the pipeline: a valid CRC24B stops after the
// first iteration, a wrong CRC type never, hard-decision after two.
TEST(TurboWindow, EarlyTermination)
{
    std::mt19937 rng(89);
    std::vector<test::codeword> cws;
    for (int K : { 40, 6144, 1024, 1024, 40 }) {
        test::codeword cw = test::make_codeword(K, noiseless, rng);
        core::crc24_attach(cw.bits.data(), K - 24, core::crc24_type::b);
        std::vector<uint8_t> c(3 * K + 12);
        core::lte_turbo_encoder(K).encode(cw.bits.data(), c.data());
        for (size_t i = 0; i < c.size(); i++)
            cw.llr[i] = c[i] ? 3.0f : -3.0f;
        cws.push_back(cw);
    }
    auto cfg = window_cfg(8);
    cfg.stop = core::turbo::early_stop::crc24b;
    auto out = test::decode_all(cws, cfg, test::cpu_backend());
    for (size_t i = 0; i < cws.size(); i++) {
        EXPECT_EQ(out[i].hard, cws[i].bits);
        EXPECT_EQ(out[i].result.iterations, 1);
        EXPECT_EQ(out[i].result.check, 1);
    }
    cfg.stop = core::turbo::early_stop::crc24a;
    out = test::decode_all(cws, cfg, test::cpu_backend());
    for (size_t i = 0; i < cws.size(); i++) {
        EXPECT_EQ(out[i].result.iterations, 8);
        EXPECT_EQ(out[i].result.check, 0);
    }
    cfg.stop = core::turbo::early_stop::hard_decision;
    out = test::decode_all(cws, cfg, test::cpu_backend());
    for (size_t i = 0; i < cws.size(); i++) {
        EXPECT_EQ(out[i].hard, cws[i].bits);
        EXPECT_EQ(out[i].result.iterations, 2);
        EXPECT_EQ(out[i].result.check, -1);
    }
}

// The registry: "auto" runs fixed point on the CPU with this decoder; a
// named cpu implementation is kept; log-MAP stays float.
TEST(TurboWindow, AutoChoosesIt)
{
    core::turbo_config c;
    EXPECT_EQ(core::choose_turbo_implementation(c).cpu, "cpu-window16-simd");
    c.implementation = "cpu-fixed16-simd";
    EXPECT_EQ(core::choose_turbo_implementation(c).cpu, "cpu-fixed16-simd");
    c = {};
    c.algorithm = core::turbo::LOG_MAP;
    EXPECT_EQ(core::choose_turbo_implementation(c).cpu, "cpu-float");
    c = {};
    c.implementation = "cpu-window16-simd";
    c.fixed_point = false;
    const auto ch = core::choose_turbo_implementation(c);
    EXPECT_EQ(ch.cpu, "cpu-window16-simd");
    EXPECT_TRUE(c.fixed_point);
    EXPECT_THROW(tw::parse_simd_isa("avx9", "GPURX_TURBO_SIMD"), std::invalid_argument);
}

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The IDD receiver (lib/idd), on TBs sent over Rayleigh MIMO channels
// (idd_test_signal.h):
//   - one pass is the detector and the transport decoder run one after the
//     other, each through its own public API (mimo_cpu_kernel::detect_frame,
//     the lte-sch pipeline): equal bits and CRCs;
//   - P = 2, 3 passes equal a plain host loop written here from the same
//     public parts: detect with priors, decode with extrinsic output, feed
//     the extrinsics back as the next pass's priors, stop a TB at its
//     first CRC pass; bit for bit (bits, CRCs, passes, per-pass CRCs);
//   - where one pass loses a sizable share of TBs, two and three passes
//     lose fewer (statistical, with a stated margin);
//   - CUDA against the CPU (the "Cuda" cases, --cuda on a GPU host).
#include "idd/idd_batch.h"
#include "idd/idd_implementations.h"
#include "idd_test_signal.h"
#include "mimo/mimo_cpu_kernel.h"
#include "mimo/mimo_detector.h"
#include "sch/sch_implementations.h"
#include "turbo/turbo_frame.h"
#include <gtest/gtest.h>
#include <cstdio>

#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

using namespace gr::gpurx;
using namespace gr::gpurx::core;

namespace {

struct decoded {
    std::vector<uint8_t> bits;
    int crc_ok;
    std::vector<float> ext;
};

// The TBs' G float LLRs through an lte-sch pipeline of \p cfg on the CPU.
std::vector<decoded> sch_decode(sch_config cfg, const std::vector<test::idd_tb>& tbs,
                                const std::vector<std::vector<float>>& llrs)
{
    auto reg = sch_registry();
    const auto choice = reg.choose(cfg);
    auto pc = test::test_pipeline_config(sch::frame_types_of(), 8);
    pc.max_in_bytes = size_t(cfg.max_g) * sizeof(float);
    pc.max_out_bytes = cfg.out_bytes(cfg.max_tbs, cfg.max_g);
    auto pipe = make_pipeline(reg.factories(cfg, choice), test::cpu_backend(), pc);
    std::vector<decoded> out;
    auto run = test::run_frames(*pipe, [&](const completed_frame& f) {
        const auto& p = tbs[out.size()].p.tb;
        decoded d;
        d.bits.assign(f.data, f.data + p.tbs);
        d.crc_ok = f.result_as<sch::frame_result>()->crc_ok;
        if (cfg.extrinsic_output) {
            const float* e = reinterpret_cast<const float*>(f.data + sch::extrinsic_offset(p.tbs));
            d.ext.assign(e, e + p.G);
        }
        out.push_back(std::move(d));
    });
    std::vector<sch::frame_params> ps;
    for (const auto& t : tbs) {
        ps.push_back(t.p.tb);
        ps.back().input = turbo::INPUT_FLOAT32;
        ps.back().harq_slot = -1;
        ps.back().combine = 0;
    }
    for (size_t i = 0; i < tbs.size(); i++)
        run.submit(llrs[i].data(), llrs[i].size() * sizeof(float), cfg.out_bytes(ps[i].tbs, ps[i].G), &ps[i]);
    run.finish("sch_decode");
    return out;
}

// One TB's detector input with \p priors (nullptr: a frame without them),
// laid out as mimo_frame.h states: per channel H, its vectors, its priors.
std::vector<float> detector_input(const test::idd_tb& t, const float* priors)
{
    const auto& d = t.p.det;
    const size_t hy = (size_t(d.nr) * d.nt + size_t(d.vectors) * d.nr) * 2;
    const size_t per = size_t(d.vectors) * d.nt * d.bits_per_symbol;
    std::vector<float> in;
    for (int c = 0; c < d.channels; c++) {
        in.insert(in.end(), t.input.begin() + std::ptrdiff_t(size_t(c) * hy),
                  t.input.begin() + std::ptrdiff_t(size_t(c + 1) * hy));
        if (priors)
            in.insert(in.end(), priors + size_t(c) * per, priors + size_t(c + 1) * per);
    }
    return in;
}

// The TB's G LLRs from detector \p cfg (its own apriori and output).
std::vector<float> detect(const mimo_config& cfg, const test::idd_tb& t, const float* priors)
{
    auto det = mimo::make_detector(cfg);
    auto p = t.p.det;
    p.apriori = priors ? 1 : 0;
    const auto in = detector_input(t, priors);
    std::vector<float> llr(size_t(t.p.tb.G));
    mimo_cpu_kernel::detect_frame(*det, cfg, p, reinterpret_cast<const uint8_t*>(in.data()),
                                  in.size() * sizeof(float), reinterpret_cast<uint8_t*>(llr.data()),
                                  llr.size() * sizeof(float));
    return llr;
}

std::vector<test::idd_tb> make_tbs(const test::idd_shape& s, float n0, size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::vector<test::idd_tb> tbs;
    for (size_t i = 0; i < n; i++)
        tbs.push_back(test::make_idd_tb(s, n0, int(100 + i), rng));
    return tbs;
}

test::idd_shape shape_2x2_16qam(int tbs)
{
    test::idd_shape s;
    s.nt = 2;
    s.nr = 2;
    s.qm = 4;
    s.channels = 8;
    s.vectors = 12; // G = 768
    s.tbs = tbs;
    return s;
}

size_t decoded_count(const std::vector<test::idd_out>& out, const std::vector<test::idd_tb>& tbs)
{
    size_t n = 0;
    for (size_t i = 0; i < out.size(); i++)
        n += out[i].res.tb.crc_ok && out[i].bits == tbs[i].sent;
    return n;
}

} // namespace

TEST(IddConfig, NamesBadFields)
{
    mimo_idd_config c;
    c.passes = 0;
    try {
        c.validate();
        FAIL() << "passes 0 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("passes"), std::string::npos) << e.what();
    }
    c.passes = 2;
    c.decoder.turbo.fixed_point = true; // no extrinsic output in fixed point
    try {
        c.validate();
        FAIL() << "fixed-point turbo accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("fixed_point"), std::string::npos) << e.what();
    }
    const auto s = shape_2x2_16qam(200);
    auto cfg = test::idd_test_config(s, mimo::algorithm::mtt, 2);
    std::mt19937 rng(1);
    auto t = test::make_idd_tb(s, 0.1f, 5, rng);
    EXPECT_EQ(idd::frame_problem(t.p, cfg), "");
    auto bad = t.p;
    bad.det.vectors = 11;
    EXPECT_NE(idd::frame_problem(bad, cfg).find("tb.G"), std::string::npos);
    bad = t.p;
    bad.det.apriori = 1;
    EXPECT_NE(idd::frame_problem(bad, cfg).find("apriori"), std::string::npos);
    bad = t.p;
    bad.det.nt = 1;
    EXPECT_NE(idd::frame_problem(bad, cfg).find("nt"), std::string::npos);
}

// One pass: the detector (plain: no priors, a-posteriori LLRs) and the
// decoder (no extrinsic output) run separately.
TEST(Idd, OnePassIsDetectorThenDecoder)
{
    for (auto a : { mimo::algorithm::mtt, mimo::algorithm::lmmse }) {
        const auto s = shape_2x2_16qam(240);
        const auto tbs = make_tbs(s, 0.2f, 24, 7);
        auto cfg = test::idd_test_config(s, a, 1);
        const auto got = test::run_idd(test::cpu_backend(), cfg, tbs);
        std::vector<std::vector<float>> llrs;
        for (const auto& t : tbs)
            llrs.push_back(detect(cfg.detector, t, nullptr));
        sch_config plain = cfg.decoder;
        plain.harq_buffers = 0;
        const auto want = sch_decode(plain, tbs, llrs);
        ASSERT_EQ(got.size(), tbs.size());
        size_t ok = 0;
        for (size_t i = 0; i < tbs.size(); i++) {
            EXPECT_EQ(got[i].bits, want[i].bits) << mimo::algorithm_name(a) << " TB " << i;
            EXPECT_EQ(got[i].res.tb.crc_ok, want[i].crc_ok) << "TB " << i;
            EXPECT_EQ(got[i].res.passes, 1);
            EXPECT_EQ(got[i].res.pass_crc, want[i].crc_ok);
            ok += want[i].crc_ok;
        }
        // Both outcomes present: the comparison covers failed TBs too.
        EXPECT_GT(ok, 0u) << mimo::algorithm_name(a);
        EXPECT_LT(ok, tbs.size()) << mimo::algorithm_name(a);
    }
}

// P passes: the plain host loop of the public parts.
TEST(Idd, PassesEqualHostLoop)
{
    for (int P : { 2, 3 }) {
        for (auto a : { mimo::algorithm::mtt, mimo::algorithm::lmmse }) {
            const auto s = shape_2x2_16qam(240);
            const auto tbs = make_tbs(s, 0.2f, 24, 11);
            auto cfg = test::idd_test_config(s, a, P);
            const auto got = test::run_idd(test::cpu_backend(), cfg, tbs);
            const mimo_config det = cfg.detector_config();
            const sch_config dec = cfg.decoder_config();
            const size_t n = tbs.size();
            std::vector<std::vector<float>> priors(n);
            for (size_t i = 0; i < n; i++)
                priors[i].assign(size_t(tbs[i].p.tb.G), 0.0f);
            std::vector<decoded> final(n);
            std::vector<int> passes(n, 0), pass_crc(n, 0);
            std::vector<size_t> active(n);
            for (size_t i = 0; i < n; i++)
                active[i] = i;
            for (int pass = 1; pass <= P && !active.empty(); pass++) {
                std::vector<test::idd_tb> these;
                std::vector<std::vector<float>> llrs;
                for (size_t i : active) {
                    these.push_back(tbs[i]);
                    llrs.push_back(detect(det, tbs[i], priors[i].data()));
                }
                const auto d = sch_decode(dec, these, llrs);
                std::vector<size_t> next;
                for (size_t k = 0; k < active.size(); k++) {
                    const size_t i = active[k];
                    final[i] = d[k];
                    passes[i] = pass;
                    if (d[k].crc_ok)
                        pass_crc[i] |= 1 << (pass - 1);
                    else {
                        priors[i] = d[k].ext;
                        next.push_back(i);
                    }
                }
                active.swap(next);
            }
            size_t later = 0;
            for (size_t i = 0; i < n; i++) {
                EXPECT_EQ(got[i].bits, final[i].bits) << "P " << P << " " << mimo::algorithm_name(a) << " TB " << i;
                EXPECT_EQ(got[i].res.tb.crc_ok, final[i].crc_ok) << "TB " << i;
                EXPECT_EQ(got[i].res.passes, passes[i]) << "TB " << i;
                EXPECT_EQ(got[i].res.pass_crc, pass_crc[i]) << "TB " << i;
                later += passes[i] > 1;
            }
            EXPECT_GT(later, 0u) << "no TB ran a second pass: the loop was not exercised";
        }
    }
}

// The gain: on the same received TBs (160 per point, 2x2 16-QAM, 8
// channels of 12 vectors, G = 768), 2 and 3 passes decode more than one.
// Points where one pass loses a sizable share (measured once with these
// seeds, 1 / 3 passes: MTT rate 1/3 at N0 0.2: 91 / 126; MTT rate 2/3 at
// N0 0.06: 38 / 83; LMMSE rate 1/3 at N0 0.25: 43 / 63). A TB that one
// pass decodes, more passes decode too (their first pass is the same), so
// the counts can only grow; the assertions ask for about a third of the
// measured gain of 3 passes from 2.
TEST(Idd, MorePassesDecodeMore)
{
    struct point {
        mimo::algorithm a;
        int tbs;
        float n0;
        size_t margin;
    };
    for (const auto& pt : { point{ mimo::algorithm::mtt, 240, 0.20f, 12 }, point{ mimo::algorithm::mtt, 488, 0.06f, 12 },
                            point{ mimo::algorithm::lmmse, 240, 0.25f, 6 } }) {
        const auto s = shape_2x2_16qam(pt.tbs);
        const auto tbs = make_tbs(s, pt.n0, 160, 23);
        size_t count[4] = {};
        for (int P : { 1, 2, 3 }) {
            const auto out = test::run_idd(test::cpu_backend(), test::idd_test_config(s, pt.a, P), tbs);
            count[P] = decoded_count(out, tbs);
        }
        std::printf("%s tbs %d n0 %.3f: decoded %zu / %zu / %zu of %zu with 1 / 2 / 3 passes\n",
                    mimo::algorithm_name(pt.a), pt.tbs, double(pt.n0), count[1], count[2], count[3], tbs.size());
        EXPECT_LE(count[1], tbs.size() * 3 / 4) << "one pass loses too few for the test to mean much";
        EXPECT_GE(count[2], count[1]) << mimo::algorithm_name(pt.a);
        EXPECT_GE(count[3], count[2]) << mimo::algorithm_name(pt.a);
        EXPECT_GE(count[3], count[1] + pt.margin) << mimo::algorithm_name(pt.a);
    }
}

// A channel of zeros carries no information: the detector's LLRs are all
// 0, and the decoder's output (zeros, whose CRC24A is zero) must not count
// as a decoded TB. Every TB comes out not decoded, its code blocks counted
// in no_information (sch::frame_result::uninformed), on both backends.
void zero_channel_is_not_decoded(const core::backend_choice& where)
{
    const auto s = shape_2x2_16qam(240);
    for (auto a : { mimo::algorithm::mtt, mimo::algorithm::lmmse }) {
        auto tbs = make_tbs(s, 0.02f, 6, 41);
        const size_t hy = size_t(2 * s.nr * s.nt + 2 * s.vectors * s.nr);
        for (auto& t : tbs)
            for (int c = 0; c < s.channels; c++)
                std::fill(t.input.begin() + long(size_t(c) * hy), t.input.begin() + long(size_t(c) * hy) + 2 * s.nr * s.nt,
                          0.0f);
        const auto out = test::run_idd(where, test::idd_test_config(s, a, 2), tbs);
        ASSERT_EQ(out.size(), tbs.size());
        for (size_t i = 0; i < out.size(); i++) {
            EXPECT_EQ(out[i].res.tb.crc_ok, 0) << mimo::algorithm_name(a) << " TB " << i;
            EXPECT_GE(out[i].res.tb.uninformed, 1) << mimo::algorithm_name(a) << " TB " << i;
        }
    }
}

TEST(Idd, ZeroChannelIsNotDecoded) { zero_channel_is_not_decoded(test::cpu_backend()); }
TEST(IddCuda, ZeroChannelIsNotDecoded) { zero_channel_is_not_decoded(test::cuda_backend()); }

// CUDA against the CPU: the detector's fp32 kernels against their double
// CPU twins, so LLRs differ in the last bits; a TB's CRC outcome may differ
// only near its threshold. At a noise level where every TB decodes on both
// in one pass, the outputs are equal; at the statistical point at most 5% of
// TBs may differ in outcome, and every TB both decode has equal bits.
TEST(IddCuda, AgreesWithCpu)
{
    for (auto a : { mimo::algorithm::mtt, mimo::algorithm::lmmse }) {
        const auto s = shape_2x2_16qam(240);
        for (float n0 : { 0.02f, 0.20f }) {
            const auto tbs = make_tbs(s, n0, 64, 31);
            auto cfg = test::idd_test_config(s, a, 3);
            const auto cpu = test::run_idd(test::cpu_backend(), cfg, tbs);
            const auto gpu = test::run_idd(test::cuda_backend(), cfg, tbs);
            size_t differ = 0;
            for (size_t i = 0; i < tbs.size(); i++) {
                if (cpu[i].res.tb.crc_ok != gpu[i].res.tb.crc_ok || cpu[i].res.passes != gpu[i].res.passes) {
                    // Which TBs, for a failure's log: scattered ones point at
                    // the arithmetic, a run of one batch at its ordering.
                    std::printf("%s n0 %.2f: TB %zu differs (crc %d/%d, passes %d/%d)\n", mimo::algorithm_name(a),
                                double(n0), i, cpu[i].res.tb.crc_ok, gpu[i].res.tb.crc_ok, cpu[i].res.passes,
                                gpu[i].res.passes);
                    differ++;
                    continue;
                }
                if (cpu[i].res.tb.crc_ok) {
                    EXPECT_EQ(gpu[i].bits, cpu[i].bits) << "TB " << i;
                }
                EXPECT_EQ(gpu[i].res.pass_crc, cpu[i].res.pass_crc) << "TB " << i;
            }
            if (n0 < 0.05f) {
                EXPECT_EQ(differ, 0u) << mimo::algorithm_name(a);
                for (size_t i = 0; i < tbs.size(); i++)
                    EXPECT_EQ(gpu[i].res.passes, 1) << "TB " << i;
            } else {
                EXPECT_LE(differ, tbs.size() / 20) << mimo::algorithm_name(a);
            }
        }
    }
}

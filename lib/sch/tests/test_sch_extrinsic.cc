/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The transport decoder's codeword extrinsics (sch_config::extrinsic_output),
// for iterative detection and decoding:
//   - against a plain reference built here from the turbo family's own
//     parts, code block by code block: quantise and descramble the LLRs
//     (36.211 §7.2 sequence), E of each block from 36.212 §5.1.4.1.2,
//     lte_rate_match (rv 0, no soft-buffer limit: blocks without filler
//     bits) to dematch, turbo_decoder_cpu::decode_coded(),
//     lte_rate_match::feedback(), scrambled back; bit for bit on the CPU,
//     undamped and with extrinsic_scale 0.75;
//   - in an independent sense: on clean LLRs every output's sign is the
//     scrambled coded bit sent;
//   - the decoded bits are those of the same decoder without the option;
//   - CUDA against the CPU, bit for bit, on TBs with filler bits, several
//     code blocks, puncturing and repetition, the uplink interleaver, int8
//     input and HARQ combining (the "Cuda" case, --cuda on a GPU host).
#include "pipeline/batch_pipeline.h"
#include "sch/lte_scrambling.h"
#include "sch/sch_config.h"
#include "sch/sch_encoder.h"
#include "sch/sch_implementations.h"
#include "sch/sch_params.h"
#include "test_util.h"
#include "turbo/lte_rate_match.h"
#include "turbo/turbo_frame.h"
#include "turbo/turbo_decoder_cpu.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace gr::gpurx;
using namespace gr::gpurx::core;

namespace {

sch::tb_request request(sch::channel_kind ch, int tbs, int g, int qm, int rv = 0)
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

sch_config ext_config()
{
    sch_config c;
    c.turbo.fixed_point = false; // extrinsics need float
    c.turbo.iterations = 6;
    c.extrinsic_output = true;
    c.max_tbs = 16000;
    c.max_g = 1 << 16;
    c.harq_buffers = 4;
    return c;
}

struct tb_out {
    std::vector<uint8_t> bits;
    std::vector<float> ext; //!< G, with extrinsic_output
    sch::frame_result res;
};

// Decodes the TBs as one stream on \p where. \p int8: the LLRs as int8
// (steps of 1/8) instead of float. \p slots / \p combine: HARQ, per TB.
std::vector<tb_out> decode(const backend_choice& where, sch_config cfg, const std::vector<sch::tb_request>& reqs,
                           const std::vector<std::vector<float>>& llrs, bool int8 = false,
                           const std::vector<int>& slots = {}, const std::vector<int>& combine = {})
{
    auto reg = sch_registry();
    const auto choice = reg.choose(cfg);
    auto pc = test::test_pipeline_config(sch::frame_types_of(), 8);
    pc.max_in_bytes = size_t(cfg.max_g) * sizeof(float);
    pc.max_out_bytes = cfg.out_bytes(cfg.max_tbs, cfg.max_g);
    auto pipe = make_pipeline(reg.factories(cfg, choice), where, pc);
    std::vector<tb_out> out;
    std::vector<sch::frame_params> ps;
    for (const auto& r : reqs)
        ps.push_back(sch::frame_params_of(r));
    auto run = test::run_frames(*pipe, [&](const completed_frame& f) {
        const auto& p = ps[out.size()];
        tb_out d;
        d.bits.assign(f.data, f.data + p.tbs);
        if (cfg.extrinsic_output) {
            const float* e = reinterpret_cast<const float*>(f.data + sch::extrinsic_offset(p.tbs));
            d.ext.assign(e, e + p.G);
        }
        d.res = *f.result_as<sch::frame_result>();
        out.push_back(std::move(d));
    });
    std::vector<std::vector<int8_t>> q(reqs.size());
    for (size_t i = 0; i < reqs.size(); i++) {
        auto p = ps[i];
        p.input = int8 ? turbo::INPUT_INT8 : turbo::INPUT_FLOAT32;
        if (!slots.empty()) {
            p.harq_slot = slots[i];
            p.combine = combine[i];
        }
        const size_t ob = cfg.out_bytes(p.tbs, p.G);
        if (int8) {
            for (float x : llrs[i])
                q[i].push_back(int8_t(std::max(-127.0f, std::min(127.0f, std::nearbyint(x * 8.0f)))));
            run.submit(q[i].data(), q[i].size(), ob, &p);
        } else {
            run.submit(llrs[i].data(), llrs[i].size() * sizeof(float), ob, &p);
        }
        if (!slots.empty())
            pipe->drain(); // a retransmission waits for the TB it combines with
    }
    run.finish("decode");
    return out;
}

// The scrambled coded bits of random data, and noisy LLRs of them: a
// consistent Gaussian LLR, mean +-mu (positive for 1) and variance 2 mu,
// clamped to +-clamp.
struct tb_case {
    sch::tb_request req;
    std::vector<uint8_t> sent; //!< G scrambled bits
    std::vector<float> llr;
};
tb_case make_case(const sch::tb_request& req, float mu, float clamp, std::mt19937& rng)
{
    tb_case c{ req, {}, {} };
    std::vector<uint8_t> data(static_cast<size_t>(req.tbs));
    for (auto& b : data)
        b = uint8_t(rng() & 1u);
    sch::sch_encoder enc;
    c.sent = enc.encode(data.data(), data.size(), req);
    std::normal_distribution<float> noise(0.0f, std::sqrt(2.0f * mu));
    for (uint8_t b : c.sent) {
        const float x = (b ? mu : -mu) + (mu > 0 ? noise(rng) : 0.0f);
        c.llr.push_back(std::max(-clamp, std::min(clamp, x)));
    }
    return c;
}

// The reference: see the file comment. Blocks must have no filler bits.
std::vector<float> reference(const sch_config& cfg, const sch::tb_request& req, const std::vector<float>& llr)
{
    const auto seg = sch::segment(req.tbs);
    EXPECT_EQ(seg.F, 0) << "the reference handles no filler bits";
    const int G = req.g, C = seg.C, nlqm = req.nl * req.qm;
    const auto c = sch::gold_bits(sch::scrambling_seed(req), size_t(G));
    std::vector<float> rx(static_cast<size_t>(G));
    for (int j = 0; j < G; j++) {
        const float q = std::max(-127.0f, std::min(127.0f, std::nearbyint(llr[j] * 8.0f))) / 8.0f;
        rx[j] = c[j] ? -q : q;
    }
    std::vector<float> out(static_cast<size_t>(G));
    // 36.212 §5.1.4.1.2: G' = G / (N_L Q_m), gamma = G' mod C; the last gamma
    // blocks get one symbol more.
    const int Gp = G / nlqm, gamma = Gp % C;
    int at = 0;
    for (int r = 0; r < C; r++) {
        const int K = r < seg.Cm ? seg.Km : seg.Kp;
        const int E = nlqm * (r <= C - gamma - 1 ? Gp / C : (Gp + C - 1) / C);
        const lte_rate_match rm(K, E);
        const float* mine = rx.data() + at;
        std::vector<float> dec(3 * size_t(K) + 12), coded(dec.size()), scratch(dec.size()), apriori(E);
        rm.dematch(mine, dec.data());
        for (float v : dec)
            EXPECT_LE(std::fabs(v), 127.0f / 8.0f) << "a sum the decoder's int8 input saturates";
        turbo_decoder_cpu td(cfg.turbo_for(C == 1));
        std::vector<uint8_t> hard(static_cast<size_t>(K));
        td.decode_coded(dec.data(), K, hard.data(), coded.data());
        for (auto& x : coded)
            x *= cfg.extrinsic_scale; // damped before the feedback, as gpurx-mimo-ber does
        rm.feedback(coded.data(), mine, apriori.data(), scratch.data());
        for (int e = 0; e < E; e++)
            out[at + e] = c[at + e] ? -apriori[e] : apriori[e];
        at += E;
    }
    EXPECT_EQ(at, G);
    return out;
}

// TBs without filler bits: 1000 (K 1024), 6120 (K 6144), 12216 (two of
// 6144); one lap exactly (rate 1/3), punctured (rate 2/3: 6120 bits in
// 9600), two blocks near rate 1/3, and repetition (4000 bits of a lap of
// 3084) with LLRs clamped to +-5 so no sum of copies saturates.
TEST(SchExtrinsic, CpuMatchesPlainReference)
{
    auto cfg = ext_config();
    std::mt19937 rng(5);
    struct spec {
        sch::tb_request req;
        float mu, clamp;
    };
    const spec specs[] = {
        { request(sch::DLSCH, 1000, 3084, 2), 2.0f, 15.0f },
        { request(sch::DLSCH, 6120, 9600, 4), 6.0f, 15.0f },
        { request(sch::DLSCH, 12216, 36000, 2), 1.0f, 15.0f },
        { request(sch::DLSCH, 1000, 4000, 2), 2.0f, 5.0f },
        { request(sch::DLSCH, 6120, 9600, 4), 1.5f, 15.0f }, // fails to decode
    };
    std::vector<sch::tb_request> reqs;
    std::vector<std::vector<float>> llrs;
    for (const auto& s : specs) {
        auto c = make_case(s.req, s.mu, s.clamp, rng);
        reqs.push_back(c.req);
        llrs.push_back(c.llr);
    }
    const auto got = decode(test::cpu_backend(), cfg, reqs, llrs);
    auto damped = cfg;
    damped.extrinsic_scale = 0.75f;
    const auto got_damped = decode(test::cpu_backend(), damped, reqs, llrs);
    auto plain = cfg;
    plain.extrinsic_output = false;
    const auto bits_only = decode(test::cpu_backend(), plain, reqs, llrs);
    int passed = 0;
    for (size_t i = 0; i < reqs.size(); i++) {
        SCOPED_TRACE("TB " + std::to_string(i));
        const auto want = reference(cfg, reqs[i], llrs[i]);
        ASSERT_EQ(got[i].ext.size(), want.size());
        size_t differ = 0;
        for (size_t j = 0; j < want.size(); j++)
            differ += std::memcmp(&got[i].ext[j], &want[j], sizeof(float)) != 0;
        EXPECT_EQ(differ, 0u) << "first: " << [&] {
            for (size_t j = 0; j < want.size(); j++)
                if (got[i].ext[j] != want[j])
                    return std::to_string(j) + " got " + std::to_string(got[i].ext[j]) + " want " +
                           std::to_string(want[j]);
            return std::string("-");
        }();
        const auto want_damped = reference(damped, reqs[i], llrs[i]);
        EXPECT_EQ(got_damped[i].ext, want_damped) << "extrinsic_scale 0.75";
        EXPECT_EQ(got[i].bits, bits_only[i].bits);
        EXPECT_EQ(got[i].res.crc_ok, bits_only[i].res.crc_ok);
        passed += got[i].res.crc_ok;
    }
    // Both decoded and failed TBs are covered.
    EXPECT_GT(passed, 0);
    EXPECT_LT(passed, int(reqs.size()));
}

// Clean LLRs (+-4): every TB decodes and each output, which leaves its own
// received LLR out, still has the sign of the scrambled bit sent; filler
// bits, the uplink and several code blocks included. The trellis tails' bits
// are the exception: decode_coded() gives them no extrinsic (0), so theirs
// is 0 without repetition; at most 12 per code block.
TEST(SchExtrinsic, CpuCleanSignsAreTheBitsSent)
{
    auto cfg = ext_config();
    std::mt19937 rng(9);
    std::vector<sch::tb_request> reqs = { request(sch::DLSCH, 20, 120, 2), request(sch::DLSCH, 6121, 14400, 6, 0),
                                          request(sch::ULSCH, 2984, 7200, 2), request(sch::DLSCH, 12216, 18000, 4) };
    std::vector<tb_case> cases;
    std::vector<std::vector<float>> llrs;
    for (const auto& r : reqs) {
        cases.push_back(make_case(r, 4.0f, 4.0f, rng));
        cases.back().llr.assign(cases.back().llr.size(), 0.0f);
        for (size_t j = 0; j < cases.back().sent.size(); j++)
            cases.back().llr[j] = cases.back().sent[j] ? 4.0f : -4.0f;
        llrs.push_back(cases.back().llr);
    }
    const auto got = decode(test::cpu_backend(), cfg, reqs, llrs);
    for (size_t i = 0; i < reqs.size(); i++) {
        EXPECT_EQ(got[i].res.crc_ok, 1) << "TB " << i;
        size_t wrong = 0, zero = 0;
        for (size_t j = 0; j < cases[i].sent.size(); j++) {
            if (got[i].ext[j] == 0.0f)
                zero++;
            else
                wrong += cases[i].sent[j] ? !(got[i].ext[j] > 0) : !(got[i].ext[j] < 0);
        }
        EXPECT_EQ(wrong, 0u) << "TB " << i;
        EXPECT_LE(zero, 12u * size_t(got[i].res.C)) << "TB " << i;
    }
}

TEST(SchExtrinsic, NeedsFloatTurboArithmetic)
{
    auto cfg = ext_config();
    cfg.turbo.fixed_point = true;
    try {
        cfg.validate();
        FAIL() << "fixed point accepted with extrinsic_output";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("extrinsic_output"), std::string::npos) << e.what();
    }
}

// CUDA against the CPU, bit for bit: the same float operations in the same
// order on the same decoder outputs (the coded extrinsics agree bit for bit
// for max-log-MAP: test_turbo_coded_output).
TEST(SchExtrinsicCuda, AgreesWithCpu)
{
    auto cfg = ext_config();
    std::mt19937 rng(13);
    std::vector<sch::tb_request> reqs = { request(sch::DLSCH, 20, 120, 2),       request(sch::DLSCH, 1000, 4000, 2),
                                          request(sch::DLSCH, 6121, 14400, 6),   request(sch::ULSCH, 2984, 7200, 2),
                                          request(sch::DLSCH, 12216, 36000, 2),  request(sch::DLSCH, 6120, 9600, 4) };
    std::vector<std::vector<float>> llrs;
    for (const auto& r : reqs)
        llrs.push_back(make_case(r, 1.5f, 15.0f, rng).llr);
    for (bool int8 : { false, true }) {
        cfg.extrinsic_scale = int8 ? 0.75f : 1.0f;
        const auto cpu = decode(test::cpu_backend(), cfg, reqs, llrs, int8);
        const auto gpu = decode(test::cuda_backend(), cfg, reqs, llrs, int8);
        for (size_t i = 0; i < reqs.size(); i++) {
            EXPECT_EQ(gpu[i].bits, cpu[i].bits) << "TB " << i << " int8 " << int8;
            EXPECT_EQ(gpu[i].res.crc_ok, cpu[i].res.crc_ok) << "TB " << i;
            EXPECT_EQ(gpu[i].ext, cpu[i].ext) << "TB " << i << " int8 " << int8;
        }
    }
    // HARQ: rv 0 then rv 2 of one TB, combined.
    auto a = request(sch::DLSCH, 6120, 9600, 4, 0);
    auto b = a;
    b.rv = 2;
    std::vector<uint8_t> data(6120);
    for (auto& x : data)
        x = uint8_t(rng() & 1u);
    std::vector<std::vector<float>> hl;
    std::normal_distribution<float> noise(0.0f, 1.5f);
    for (const auto& r : { a, b }) {
        sch::sch_encoder enc;
        const auto sent = enc.encode(data.data(), data.size(), r);
        std::vector<float> l;
        for (uint8_t s : sent)
            l.push_back((s ? 1.0f : -1.0f) + noise(rng));
        hl.push_back(l);
    }
    const auto cpu = decode(test::cpu_backend(), cfg, { a, b }, hl, false, { 1, 1 }, { 0, 1 });
    const auto gpu = decode(test::cuda_backend(), cfg, { a, b }, hl, false, { 1, 1 }, { 0, 1 });
    for (size_t i = 0; i < 2; i++) {
        EXPECT_EQ(gpu[i].bits, cpu[i].bits) << "HARQ TB " << i;
        EXPECT_EQ(gpu[i].ext, cpu[i].ext) << "HARQ TB " << i;
    }
}

} // namespace

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Every family x implementation x backend against the family's reference, as
// VOLK tests each kernel against its generic one. The walk is over the
// module-wide listing (families.h): a family without an agreement runner
// here fails the test, so a new family cannot be forgotten.
//
// The CPU run checks the CPU implementations, the --cuda run the CUDA ones.
// Each implementation must agree with its reference to the tolerance its
// registry entry states (implementation_info::tolerance): bit for bit, a
// fraction of hard decisions, or soft values within a bound. A reference is
// checked against the channel truth (or an independent exhaustive search).
#include "copy/copy_kernel.h"
#include "families.h"
#include "idd/tests/idd_test_signal.h"
#include "mimo/tests/mimo_test_util.h"
#include "ofdm/tests/chanest_test_util.h"
#include "sch/sch_encoder.h"
#include "sch/sch_implementations.h"
#include "test_util.h"
#include "turbo/tests/turbo_test_util.h"
#include "viterbi/tests/viterbi_stream_test_util.h"
#include "viterbi/tests/viterbi_test_util.h"
#include <gtest/gtest.h>

#include <algorithm>

#include <functional>
#include <map>

using namespace gr::gpurx;

namespace {

core::backend_choice backend_of(const core::implementation_info& i)
{
    return i.backend == core::backend_kind::cuda ? test::cuda_backend() : test::cpu_backend();
}

// ---- lte-turbo: noisy codewords of mixed K; hard decisions and iterations.
std::vector<test::codeword> turbo_codewords()
{
    std::mt19937 rng(2024);
    std::vector<test::codeword> v;
    for (int K : { 40, 1024, 6144, 512, 512, 3200 })
        for (int r = 0; r < 3; r++)
            v.push_back(test::make_codeword(K, -3.0, rng));
    return v;
}

// The configuration an implementation runs, as its registry entry binds it
// (the turbo family's arithmetic, the MIMO family's algorithm).
template <typename Config>
Config bound_to(const core::registry<Config>& r, const std::string& name, Config c)
{
    c.implementation = name;
    r.choose(c);
    return c;
}

std::vector<test::decoded> run_turbo(const core::implementation_info& i, const std::string& name, core::turbo::algorithm a)
{
    core::turbo_config c;
    c.algorithm = a;
    c.subblocks = 32; // within every layout's limits
    c.guard = 0;      // the block layout's only guard
    c.iterations = 5;
    c = bound_to(core::turbo_registry(), name, c);
    return test::decode_all(turbo_codewords(), c, backend_of(i), 7);
}

void agree_turbo(const core::implementation_info& i)
{
    const auto& tol = i.tolerance;
    const auto cws = turbo_codewords();
    for (auto a : { core::turbo::MAX_LOG_MAP, core::turbo::SCALED_MAX_LOG_MAP, core::turbo::LOG_MAP }) {
        core::turbo_config probe;
        probe.algorithm = a;
        probe.implementation = i.name;
        if (!core::turbo_registry().find(i.name)->unsupported(bound_to(core::turbo_registry(), i.name, probe)).empty())
            continue; // log-MAP in fixed point
        SCOPED_TRACE(std::string(core::turbo::algorithm_name(a)));
        const auto got = run_turbo(i, i.name, a);
        // A reference checks against the channel truth: the decoded BER at
        // this SNR (raw BER about 20%) is far below the raw one.
        const auto ref = i.reference.empty() ? got : run_turbo(core::turbo_registry().find(i.reference)->info, i.reference, a);
        size_t differ = 0, bits = 0, errors = 0;
        for (size_t f = 0; f < cws.size(); f++) {
            differ += test::bit_errors(got[f].hard, ref[f].hard);
            errors += test::bit_errors(got[f].hard, cws[f].bits);
            bits += cws[f].K;
            if (tol.bit_exact) {
                EXPECT_EQ(got[f].result.iterations, ref[f].result.iterations) << "frame " << f;
            }
        }
        std::printf("  %s: %zu of %zu decisions differ from %s\n", core::turbo::algorithm_name(a), differ,
                    bits, i.reference.empty() ? "itself" : i.reference.c_str());
        EXPECT_LE(double(differ), tol.decisions * bits) << i.name << " against " << i.reference;
        EXPECT_LT(double(errors) / bits, 0.01) << i.name << " does not decode";
    }
}

// ---- viterbi: noisy soft frames of several lengths; decoded bits and
// metrics. Three configurations cover the terminations, puncturing and
// chunks shorter and longer than the frames.
std::vector<core::viterbi_config> viterbi_configs()
{
    std::vector<core::viterbi_config> v(3);
    v[0].puncture = test::puncture_3_4(); // K=7 (0133, 0171), terminated, 802.11 rate 3/4
    v[0].chunk = 20;
    v[1].polynomials = { 0133, 0171, 0165 }; // LTE, tail-biting
    v[1].termination = core::viterbi::termination::tail_biting;
    v[1].chunk = 16;
    v[2].K = 5; // GSM, truncated
    v[2].polynomials = { 023, 033 };
    v[2].termination = core::viterbi::termination::truncated;
    v[2].chunk = 500;
    return v;
}

void agree_viterbi(const core::implementation_info& i)
{
    for (auto cfg : viterbi_configs()) {
        SCOPED_TRACE(std::string(core::viterbi::termination_name(cfg.termination)));
        cfg.max_frame_bits = 1000; // the longest frame below (sizes cuda-tiled's memory)
        const auto code = cfg.code();
        const double rate = 1e6 / double(code.coded_bits(1000000));
        std::mt19937 rng(31);
        std::vector<test::viterbi_frame_in> frames;
        std::vector<std::vector<uint8_t>> truth;
        size_t raw_errors = 0;
        for (int L : { 40, 113, 300, 57, 300, 1000 }) {
            const auto bits = test::random_bits(L, rng);
            const auto coded = test::independent_encode(cfg.K, cfg.polynomials, cfg.termination, cfg.puncture, bits);
            const auto llr = test::bpsk_awgn_llrs(coded, rate, 2.5, rng);
            raw_errors += test::hamming(test::hard_bits(llr), coded);
            frames.push_back({ L, core::viterbi::INPUT_SOFT, llr, {} });
            truth.push_back(bits);
        }
        cfg.implementation = i.name;
        const auto got = test::viterbi_decode_all(frames, cfg, backend_of(i), 4);
        cfg.implementation = i.reference.empty() ? i.name : i.reference;
        const auto ref = test::viterbi_decode_all(frames, cfg, test::cpu_backend(), 4);
        size_t errors = 0, differ = 0, bits = 0;
        for (size_t f = 0; f < frames.size(); f++) {
            ASSERT_EQ(got[f].result.status, core::viterbi::FRAME_DECODED) << "frame " << f;
            differ += test::bit_errors(got[f].bits, ref[f].bits);
            bits += got[f].bits.size();
            EXPECT_NEAR(got[f].result.metric, ref[f].result.metric, 1e-4 * std::fabs(ref[f].result.metric));
            errors += test::bit_errors(got[f].bits, truth[f]);
        }
        EXPECT_LE(double(differ), i.tolerance.decisions * bits) << i.name << " against " << i.reference;
        // A decoder at all: fewer decoded errors than the channel made.
        EXPECT_LT(errors * 4, raw_errors) << i.name << " does not decode";
    }
}

// ---- mimo: frames of mixed shapes, modulations and noise through the
// pipeline; LLRs to the entry's tolerance. An implementation checked against
// the reference, max-log ML, is checked where its algorithm provably equals
// it: mtt for nt <= 2, one-pass for one stream, kbest with K = Q^nt, lmmse on
// orthogonal columns. The reference, cpu-ml, is checked against the
// exhaustive search of mimo_test_util.h, which shares no code with it.
std::vector<test::mimo_frame> mimo_frames(core::mimo::algorithm algorithm, bool against_ml)
{
    std::mt19937 rng(77);
    const bool lmmse = against_ml && algorithm == core::mimo::algorithm::lmmse;
    // one-pass equals max-log ML for one stream only.
    const bool one_stream = against_ml && algorithm == core::mimo::algorithm::one_pass;
    // nt, nr, bits per symbol
    const int shapes[][3] = { { 2, 2, 4 }, { 1, 1, 6 }, { 2, 4, 2 },
                              { 2, 2, 6 }, { 1, 2, 8 }, { 2, 3, 4 } };
    std::vector<test::mimo_frame> frames;
    for (int i = 0; i < 14; i++) {
        const auto* s = shapes[i % 6];
        // Some two-stream channels ill-conditioned, except for lmmse
        // (orthogonal columns only).
        const auto kind = lmmse ? test::channel_kind::orthogonal
                          : i % 5 == 4 && s[0] == 2 ? test::channel_kind::ill
                                                    : test::channel_kind::rayleigh;
        frames.push_back(test::make_frame(one_stream ? 1 : s[0], s[1], s[2], 1 + i % 3,
                                          0.1 + 0.1 * (i % 4), kind, rng));
    }
    return frames;
}

core::mimo_config mimo_config_of(const std::string& impl, int k)
{
    core::mimo_config c;
    c.k = k; // 4096 = Q^nt of every frame above: nothing pruned
    c.clip = 1e6f;
    return bound_to(core::mimo_registry(), impl, c);
}

std::vector<test::detected> run_mimo(const core::implementation_info& i,
                                     const std::vector<test::mimo_frame>& frames,
                                     int k)
{
    return test::detect_all(frames, mimo_config_of(i.name, k), backend_of(i), 4);
}

void agree_mimo(const core::implementation_info& i)
{
    const auto& reg = core::mimo_registry();
    const auto* ref_entry = i.reference.empty() ? nullptr : reg.find(i.reference);
    const bool against_ml = ref_entry && ref_entry->info.role == core::implementation_role::reference;
    const auto algorithm = mimo_config_of(i.name, 1).algorithm;
    auto frames = mimo_frames(algorithm, against_ml);
    // CUDA: fp32 against its double-precision CPU twin, with the twin's
    // settings, at K = 64 (cuda-kbest keeps at most 4096 children).
    const int paths = i.backend == core::backend_kind::cuda ? 64 : 4096;
    // A frame whose shape the entry cannot run is rejected as a bad frame
    // (cuda-kbest: 256-QAM at K = 64): not part of its agreement.
    frames.erase(std::remove_if(frames.begin(), frames.end(),
                                [&](const test::mimo_frame& f) {
                                    auto c = mimo_config_of(i.name, paths);
                                    c.nt = f.params.nt;
                                    c.modulation = core::qam::modulation_of_bits(f.params.bits_per_symbol);
                                    return !reg.find(i.name)->unsupported(c).empty();
                                }),
                 frames.end());
    const auto got = run_mimo(i, frames, paths);
    std::vector<test::detected> ref;
    if (ref_entry)
        ref = run_mimo(ref_entry->info, frames, paths);
    auto close = [&i](double g, double w) { return i.tolerance.llr_close(g, w); };
    for (size_t f = 0; f < frames.size(); f++) {
        const auto& p = frames[f].params;
        const size_t per = size_t(p.nt) * p.bits_per_symbol;
        ASSERT_EQ(got[f].result.status, core::mimo::STATUS_OK) << "frame " << f;
        ASSERT_EQ(got[f].llr.size(), per * p.vectors) << "frame " << f;
        for (int v = 0; v < p.vectors; v++) {
            std::vector<double> want(per);
            if (i.reference.empty())
                want = test::exhaustive_llrs(frames[f].h(), p.nr, p.nt, p.bits_per_symbol,
                                             frames[f].y(v), p.n0);
            else
                for (size_t k = 0; k < per; k++)
                    want[k] = ref[f].llr[v * per + k];
            for (size_t k = 0; k < per; k++)
                ASSERT_TRUE(close(got[f].llr[v * per + k], want[k]))
                    << i.name << " frame " << f << " vector " << v << " LLR " << k << ": "
                    << got[f].llr[v * per + k] << ", "
                    << (i.reference.empty() ? "exhaustive" : i.reference)
                    << " " << want[k];
        }
    }
}

// ---- copy: random frames, exact.
std::vector<float> run_copy(const core::implementation_info& i, const std::vector<float>& x, size_t vlen)
{
    core::copy_config c;
    c.vlen = vlen;
    c.scale = -1.25f;
    core::pipeline_config pc;
    pc.max_batch = 5;
    pc.slots = 2;
    pc.max_in_bytes = pc.max_out_bytes = vlen * 4;
    pc.flush_timeout = std::chrono::microseconds(0);
    auto pipe = core::make_pipeline(core::copy_kernel_factories(c), backend_of(i), pc);
    std::vector<float> y;
    auto run = test::run_frames(*pipe, [&](const core::completed_frame& r) {
        y.insert(y.end(), (const float*)r.data, (const float*)r.data + vlen);
    });
    for (size_t f = 0; f * vlen < x.size(); f++)
        run.submit(x.data() + f * vlen, vlen * 4, vlen * 4, nullptr);
    run.finish("run_copy");
    return y;
}

// ---- viterbi-stream: a noisy soft stream in pieces; decoded bits. A
// punctured K=7 code (the register kernel's) and K=9 (the warp kernel's).
void agree_viterbi_stream(const core::implementation_info& i)
{
    std::vector<core::viterbi_stream_config> cfgs(2);
    cfgs[0].chunk = 40;
    cfgs[0].traceback = 24;
    cfgs[0].frame_windows = 3;
    cfgs[0].puncture = test::puncture_3_4();
    cfgs[1].K = 9;
    cfgs[1].polynomials = { 0753, 0561 };
    cfgs[1].chunk = 100;
    cfgs[1].traceback = 40;
    cfgs[1].frame_windows = 4;
    for (auto cfg : cfgs) {
        SCOPED_TRACE("K=" + std::to_string(cfg.K));
        std::mt19937 rng(37);
        const int steps = 3000;
        const auto bits = test::random_bits(steps, rng);
        const auto coded = test::independent_encode(cfg.K, cfg.polynomials, core::viterbi::termination::truncated,
                                                    cfg.puncture, bits);
        auto llr = test::bpsk_awgn_llrs(coded, double(steps) / double(coded.size()), 4.5, rng);
        for (auto& x : llr)
            x = std::round(x * 8.0f) / 8.0f; // exact in float and double
        const auto raw_errors = test::hamming(test::hard_bits(llr), coded);
        cfg.implementation = i.name;
        if (core::choose_viterbi_stream_implementation(cfg).cuda != i.name && i.backend == core::backend_kind::cuda)
            continue; // a code the implementation does not have
        const auto got = test::run_stream(cfg, backend_of(i), test::soft_stream(llr), { 500 });
        cfg.implementation = i.reference.empty() ? i.name : i.reference;
        const auto ref = test::run_stream(cfg, test::cpu_backend(), test::soft_stream(llr), { 500 });
        EXPECT_LE(double(test::hamming(got, ref)), i.tolerance.decisions * got.size())
            << i.name << " against " << i.reference;
        EXPECT_LT(test::hamming(got, bits) * 4, raw_errors) << i.name << " does not decode";
    }
}

// ---- lte-sch: transport blocks (downlink with two layers and the
// soft-buffer limit, uplink, filler bits) through one pipeline; the
// reference against the bits sent, the others against it.
struct sch_run {
    std::vector<std::vector<uint8_t>> bits;
    std::vector<core::sch::frame_result> res;
};

sch_run run_sch(const core::backend_choice& where, const std::string& name, const std::vector<core::sch::tb_request>& reqs,
                const std::vector<std::vector<float>>& llrs)
{
    core::sch_config cfg;
    cfg.harq_buffers = 0;
    cfg.implementation = name;
    auto reg = core::sch_registry();
    const auto choice = reg.choose(cfg);
    auto pc = test::test_pipeline_config(core::sch::frame_types_of(), 4);
    pc.max_in_bytes = size_t(cfg.max_g) * sizeof(float);
    pc.max_out_bytes = size_t(cfg.max_tbs);
    auto pipe = core::make_pipeline(reg.factories(cfg, choice), where, pc);
    sch_run out;
    auto run = test::run_frames(*pipe, [&](const core::completed_frame& f) {
        out.bits.emplace_back(f.data, f.data + f.out_bytes);
        out.res.push_back(*f.result_as<core::sch::frame_result>());
    });
    for (size_t k = 0; k < reqs.size(); k++) {
        auto p = core::sch::frame_params_of(reqs[k]);
        p.input = core::turbo::INPUT_FLOAT32;
        run.submit(llrs[k].data(), llrs[k].size() * sizeof(float), size_t(p.tbs), &p);
    }
    run.finish("run_sch");
    return out;
}

void agree_sch(const core::implementation_info& i)
{
    std::vector<core::sch::tb_request> reqs;
    auto add = [&](core::sch::channel_kind ch, int tbs, int g, int qm, int rv) {
        core::sch::tb_request r;
        r.channel = ch;
        r.tbs = tbs;
        r.g = g;
        r.qm = qm;
        r.rv = rv;
        r.rnti = 100 + int(reqs.size());
        r.cell_id = 7;
        r.subframe = int(reqs.size()) % 10;
        reqs.push_back(r);
        return &reqs.back();
    };
    add(core::sch::DLSCH, 20, 120, 2, 0);
    add(core::sch::DLSCH, 6121, 14400, 4, 0);
    auto* two = add(core::sch::DLSCH, 31704, 57600, 6, 0);
    two->nl = 2;
    two->n_soft = 1152000;
    two->k_mimo = 2;
    add(core::sch::ULSCH, 2984, 7200, 2, 0);
    std::mt19937 rng(41);
    std::normal_distribution<float> g;
    core::sch::sch_encoder enc;
    std::vector<std::vector<uint8_t>> sent;
    std::vector<std::vector<float>> clean, noisy;
    for (const auto& r : reqs) {
        sent.push_back(test::random_bits(r.tbs, rng));
        const auto c = enc.encode(sent.back().data(), sent.back().size(), r);
        std::vector<float> a(c.size()), b(c.size());
        const float sigma = 0.8f;
        for (size_t k = 0; k < c.size(); k++) {
            const float x = c[k] ? 1.0f : -1.0f;
            a[k] = 4.0f * x;
            b[k] = 2.0f * (x + sigma * g(rng)) / (sigma * sigma);
        }
        clean.push_back(a);
        noisy.push_back(b);
    }
    if (i.reference.empty()) {
        const auto got = run_sch(backend_of(i), i.name, reqs, clean);
        for (size_t k = 0; k < reqs.size(); k++) {
            EXPECT_EQ(got.bits[k], sent[k]) << i.name << " TB " << k;
            EXPECT_EQ(got.res[k].crc_ok, 1) << i.name << " TB " << k;
        }
        return;
    }
    const auto got = run_sch(backend_of(i), i.name, reqs, noisy);
    const auto ref = run_sch(test::cpu_backend(), i.reference, reqs, noisy);
    size_t differ = 0, total = 0;
    for (size_t k = 0; k < reqs.size(); k++) {
        differ += test::hamming(got.bits[k], ref.bits[k]);
        total += got.bits[k].size();
        if (i.tolerance.bit_exact) {
            EXPECT_EQ(got.res[k].crc_ok, ref.res[k].crc_ok) << i.name << " TB " << k;
        }
    }
    EXPECT_LE(double(differ), i.tolerance.decisions * double(total)) << i.name << " against " << i.reference;
}

void agree_copy(const core::implementation_info& i)
{
    const size_t vlen = 37;
    std::mt19937 rng(5);
    std::normal_distribution<float> g;
    std::vector<float> x(vlen * 23);
    for (auto& v : x)
        v = g(rng);
    const auto y = run_copy(i, x, vlen);
    ASSERT_EQ(y.size(), x.size());
    for (size_t k = 0; k < x.size(); k++)
        ASSERT_EQ(y[k], x[k] * -1.25f) << i.name << " item " << k;
}

// ---- mimo-idd: the reference decodes every TB of a clean signal in one
// pass; others decide as their reference within the tolerance, on a noisy
// signal where more passes matter (2x2 16-QAM, rate about 1/3, 3 passes).
void agree_idd(const core::implementation_info& i)
{
    test::idd_shape s;
    s.tbs = 240;
    std::mt19937 rng(43);
    const bool ref = i.reference.empty();
    std::vector<test::idd_tb> tbs;
    for (int k = 0; k < 32; k++)
        tbs.push_back(test::make_idd_tb(s, ref ? 0.01f : 0.2f, 200 + k, rng));
    auto cfg = test::idd_test_config(s, core::mimo::algorithm::mtt, 3);
    cfg.implementation = i.name;
    const auto got = test::run_idd(backend_of(i), cfg, tbs);
    if (ref) {
        for (size_t k = 0; k < tbs.size(); k++) {
            EXPECT_EQ(got[k].bits, tbs[k].sent) << i.name << " TB " << k;
            EXPECT_EQ(got[k].res.passes, 1) << i.name << " TB " << k;
        }
        return;
    }
    cfg.implementation = i.reference;
    const auto want = test::run_idd(test::cpu_backend(), cfg, tbs);
    size_t differ = 0, total = 0;
    for (size_t k = 0; k < tbs.size(); k++) {
        differ += test::hamming(got[k].bits, want[k].bits);
        total += got[k].bits.size();
    }
    EXPECT_LE(double(differ), i.tolerance.decisions * double(total)) << i.name << " against " << i.reference;
}

// ---- ofdm-chanest: the reference recovers noiseless channels (to the
// float rounding of its input); others estimate noisy frames as their
// reference does, H and N0 within the tolerance, the y vectors equal.
void agree_chanest(const core::implementation_info& i)
{
    namespace ch = test::chanest;
    core::ofdm::chanest_config cfg;
    cfg.nt = 2, cfg.nr = 4, cfg.used = 96, cfg.repeats = 2, cfg.data_symbols = 2, cfg.group = 1;
    cfg.implementation = i.name;
    const bool ref = i.reference.empty();
    std::mt19937_64 rng(77);
    std::vector<core::ofdm::chanest_frame_params> params;
    std::vector<std::vector<ch::cfloat>> frames;
    std::vector<ch::trial> truth;
    const ch::mimo_training tr(cfg.nt, cfg.used, cfg.repeats);
    for (int f = 0; f < 5; f++) {
        truth.push_back(ch::make_trial(tr, cfg.nr, ref ? 0.0 : 0.05, rng));
        params.push_back(cfg.frame_params());
        frames.push_back(ch::frame_input(params.back(), truth.back(), rng));
    }
    const auto got = ch::run_pipeline(backend_of(i), cfg, params, frames);
    ASSERT_EQ(got.size(), frames.size());
    if (ref) {
        for (size_t f = 0; f < frames.size(); f++) {
            EXPECT_EQ(got[f].y, ch::expected_y(params[f], frames[f])) << i.name << " frame " << f;
            ASSERT_EQ(got[f].h.size(), truth[f].h.size());
            for (size_t k = 0; k < got[f].h.size(); k++)
                ASSERT_LT(std::abs(got[f].h[k] - truth[f].h[k]), 1e-5) << i.name << " frame " << f << " entry " << k;
            EXPECT_LT(got[f].n0, 1e-10) << i.name << " frame " << f;
        }
        return;
    }
    cfg.implementation = i.reference;
    const auto want = ch::run_pipeline(test::cpu_backend(), cfg, params, frames);
    const auto& tol = i.tolerance;
    for (size_t f = 0; f < frames.size(); f++) {
        EXPECT_EQ(got[f].y, want[f].y) << i.name << " frame " << f;
        ASSERT_EQ(got[f].h.size(), want[f].h.size());
        for (size_t k = 0; k < got[f].h.size(); k++) {
            ASSERT_TRUE(tol.llr_close(got[f].h[k].real(), want[f].h[k].real()) &&
                        tol.llr_close(got[f].h[k].imag(), want[f].h[k].imag()))
                << i.name << " frame " << f << " entry " << k << ": " << got[f].h[k] << " against " << want[f].h[k];
        }
        EXPECT_TRUE(tol.llr_close(got[f].n0, want[f].n0)) << i.name << " frame " << f << " N0 " << got[f].n0
                                                            << " against " << want[f].n0;
    }
}

const std::map<std::string, std::function<void(const core::implementation_info&)>>& runners()
{
    static const std::map<std::string, std::function<void(const core::implementation_info&)>> r{
        { "lte-turbo", agree_turbo },
        { "viterbi", agree_viterbi },
        { "viterbi-stream", agree_viterbi_stream },
        { "mimo", agree_mimo },
        { "lte-sch", agree_sch },
        { "copy", agree_copy },
        { "mimo-idd", agree_idd },
        { "ofdm-chanest", agree_chanest },
    };
    return r;
}

void walk(core::backend_kind backend)
{
    size_t checked = 0;
    for (const auto& f : core::all_families()) {
        const auto runner = runners().find(f.family);
        ASSERT_NE(runner, runners().end()) << "family " << f.family << " has no agreement runner";
        bool has_reference = false;
        for (const auto& i : f.implementations) {
            has_reference |= i.backend == core::backend_kind::cpu && i.reference.empty();
            if (i.backend != backend)
                continue;
            SCOPED_TRACE(f.family + " / " + i.name);
            std::printf("%s / %s [%s] against %s\n", f.family.c_str(), i.name.c_str(),
                        core::backend_name(i.backend), i.reference.empty() ? "(reference)" : i.reference.c_str());
            runner->second(i);
            checked++;
        }
        EXPECT_TRUE(has_reference) << f.family << " has no CPU reference implementation";
    }
    EXPECT_GT(checked, 0u);
}

} // namespace

TEST(Agreement, CpuImplementationsMatchTheirReferences) { walk(core::backend_kind::cpu); }
TEST(AgreementCuda, CudaImplementationsMatchTheirReferences) { walk(core::backend_kind::cuda); }

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// turbo_decoder_cpu::decode_coded, the extrinsic LLRs of all 3K+12 coded bits
// (for iterative detection and decoding), against an independent double
// precision reference written here from 3GPP TS 36.212 5.1.3.2 and the
// decoder's documented schedule (one window, subblocks = 1):
//   - the reference trellis re-encodes to core::lte_turbo_encoder's codewords;
//   - max-log-MAP and scaled max-log-MAP (1 and 4 iterations) and log-MAP (2)
//     on noisy and clean frames: every output within a relative tolerance of
//     the reference, tails 0, hard bits the sign of the APP, and decode()'s
//     soft output the systematic extrinsic plus the channel LLR;
//   - noiseless strong LLRs: every output's sign is the transmitted bit's;
//   - fixed-point max-log configurations are refused;
//   - the pipeline kernels' coded output (turbo_config::coded_output): the
//     CPU kernel's is decode_coded()'s, and the CUDA kernel
//     (cuda-float-window) agrees with the CPU (the "Cuda" cases, run with
//     --cuda on a GPU host).
//
// LLRs are ln P(1)/P(0). Layout c[3k+i] = d(i)_k; tail entries 3K + 6e + 2t
// (systematic) and 3K + 6e + 2t + 1 (parity) of encoder e, tail step t.
#include "turbo/lte_qpp.h"
#include "turbo/lte_turbo_encoder.h"
#include "turbo/turbo_config.h"
#include "turbo/turbo_decoder_cpu.h"
#include "turbo/turbo_implementations.h"
#include "test_util.h"
#include "turbo/tests/turbo_test_util.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gr::gpurx;
using test::codeword;

namespace {

// ---------------------------------------------------------------------------
// Reference decoder (written from 36.212, not from the implementation).
// ---------------------------------------------------------------------------
namespace ref {

// The constituent RSC of 36.212 5.1.3.2.1: transfer function [1, g1/g0],
// g0 = 1 + D^2 + D^3 (feedback), g1 = 1 + D + D^3 (parity). State s holds the
// shift register: bit 0 = a_{k-1}, bit 1 = a_{k-2}, bit 2 = a_{k-3}, where
// a_k = u_k + a_{k-2} + a_{k-3} and z_k = a_k + a_{k-1} + a_{k-3} (mod 2).
// Termination (5.1.3.2.2): the input is the feedback a_{k-2} + a_{k-3}, so
// a_k = 0 and three steps reach state 0 from anywhere.
struct rsc_trellis {
    int next[8][2], par[8][2];    // information steps, by state and input
    int tnext[8], tsys[8], tpar[8]; // termination steps, by state
    rsc_trellis()
    {
        for (int s = 0; s < 8; s++) {
            const int r1 = s & 1, r2 = (s >> 1) & 1, r3 = (s >> 2) & 1;
            const int fb = r2 ^ r3;
            for (int u = 0; u < 2; u++) {
                const int a = u ^ fb;
                next[s][u] = a | (r1 << 1) | (r2 << 2);
                par[s][u] = a ^ r1 ^ r3;
            }
            tsys[s] = fb;
            tnext[s] = next[s][fb];
            tpar[s] = par[s][fb];
        }
    }
};

const rsc_trellis& trellis()
{
    static const rsc_trellis t;
    return t;
}

// max (max-log-MAP) or max* = ln(e^a + e^b) (log-MAP).
template <typename R>
R mx(R a, R b, bool logmap)
{
    if (!logmap)
        return std::max(a, b);
    if (a == -std::numeric_limits<R>::infinity())
        return b;
    if (b == -std::numeric_limits<R>::infinity())
        return a;
    return std::max(a, b) + std::log1p(std::exp(-std::fabs(a - b)));
}

template <typename R>
void normalise(std::array<R, 8>& m)
{
    const R top = *std::max_element(m.begin(), m.end());
    for (auto& v : m)
        v -= top;
}

// One constituent BCJR pass. Lu: input LLRs (systematic + a-priori), Lp:
// parity LLRs, K of each; tail: sys0, par0, sys1, par1, sys2, par2 of this
// encoder's termination. Branch metric u*Lu + z*Lp. Outputs: le_sys, the
// systematic extrinsic (Lu left out), and le_par, the parity extrinsic (Lp
// left out), K of each.
template <typename R>
void siso(int K, const R* Lu, const R* Lp, const R* tail, bool logmap, R* le_sys, R* le_par)
{
    const auto& t = trellis();
    const R ninf = -std::numeric_limits<R>::infinity();
    std::vector<std::array<R, 8>> alpha(K + 1), beta(K + 1);
    alpha[0].fill(ninf);
    alpha[0][0] = 0;
    for (int k = 0; k < K; k++) {
        auto& a = alpha[k + 1];
        a.fill(ninf);
        for (int s = 0; s < 8; s++)
            for (int u = 0; u < 2; u++) {
                const int n = t.next[s][u];
                a[n] = mx<R>(a[n], alpha[k][s] + u * Lu[k] + t.par[s][u] * Lp[k], logmap);
            }
        normalise(a);
    }
    // beta_{K+3}: state 0; three termination steps back to beta_K, one branch
    // out of each state.
    std::array<R, 8> b;
    b.fill(ninf);
    b[0] = 0;
    for (int step = 2; step >= 0; step--) {
        std::array<R, 8> nb;
        for (int s = 0; s < 8; s++)
            nb[s] = t.tsys[s] * tail[2 * step] + t.tpar[s] * tail[2 * step + 1] + b[t.tnext[s]];
        b = nb;
    }
    normalise(b);
    beta[K] = b;
    for (int k = K - 1; k >= 0; k--) {
        auto& bk = beta[k];
        bk.fill(ninf);
        for (int s = 0; s < 8; s++)
            for (int u = 0; u < 2; u++)
                bk[s] = mx<R>(bk[s],
                              u * Lu[k] + t.par[s][u] * Lp[k] + beta[k + 1][t.next[s][u]],
                              logmap);
        normalise(bk);
    }
    for (int k = 0; k < K; k++) {
        R sys[2] = { ninf, ninf }, par[2] = { ninf, ninf };
        for (int s = 0; s < 8; s++)
            for (int u = 0; u < 2; u++) {
                const int z = t.par[s][u];
                const R base = alpha[k][s] + beta[k + 1][t.next[s][u]];
                sys[u] = mx<R>(sys[u], base + z * Lp[k], logmap);
                par[z] = mx<R>(par[z], base + u * Lu[k], logmap);
            }
        le_sys[k] = sys[1] - sys[0];
        le_par[k] = par[1] - par[0];
    }
}

template <typename R>
struct result {
    std::vector<R> app;       // K a-posteriori LLRs
    std::vector<R> coded_ext; // 3K+12, the decode_coded layout
};

// The documented schedule: per iteration decoder 1 (natural order), then
// decoder 2 (interleaved order); extrinsics scaled by s between them.
template <typename R>
result<R> decode(const float* llr, int K, core::turbo::algorithm alg, int iterations, float scaling)
{
    const auto q = core::lte_qpp(K);
    std::vector<int> pi(K);
    for (int k = 0; k < K; k++)
        pi[k] = core::qpp_index(q, k);
    const bool logmap = alg == core::turbo::LOG_MAP;
    const R s = alg == core::turbo::SCALED_MAX_LOG_MAP ? R(scaling) : R(1);
    std::vector<R> La1(K, R(0)), Le1(K), Lu(K), Lp(K), le(K), lp(K);
    R tail1[6], tail2[6];
    for (int i = 0; i < 6; i++) {
        tail1[i] = llr[3 * K + i];
        tail2[i] = llr[3 * K + 6 + i];
    }
    result<R> out{ std::vector<R>(K), std::vector<R>(3 * K + 12, R(0)) };
    for (int it = 0; it < iterations; it++) {
        for (int k = 0; k < K; k++) {
            Lu[k] = R(llr[3 * k]) + La1[k];
            Lp[k] = llr[3 * k + 1];
        }
        siso<R>(K, Lu.data(), Lp.data(), tail1, logmap, le.data(), lp.data());
        for (int k = 0; k < K; k++) {
            Le1[k] = s * le[k];
            out.coded_ext[3 * k + 1] = lp[k];
        }
        for (int k = 0; k < K; k++) {
            Lu[k] = R(llr[3 * pi[k]]) + Le1[pi[k]];
            Lp[k] = llr[3 * k + 2];
        }
        siso<R>(K, Lu.data(), Lp.data(), tail2, logmap, le.data(), lp.data());
        for (int k = 0; k < K; k++) {
            const int j = pi[k];
            La1[j] = s * le[k];
            out.app[j] = R(llr[3 * j]) + Le1[j] + le[k];
            out.coded_ext[3 * j] = Le1[j] + le[k];
            out.coded_ext[3 * k + 2] = lp[k];
        }
    }
    return out;
}

} // namespace ref

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

core::turbo_config float_cfg(core::turbo::algorithm a, int iterations)
{
    core::turbo_config c;
    c.algorithm = a;
    c.iterations = iterations;
    c.subblocks = 1;
    c.scaling = 0.75f;
    c.stop = core::turbo::early_stop::none;
    c.fixed_point = false;
    c.implementation = "auto";
    return c;
}

// Noiseless BPSK LLRs of the given magnitude for random bits.
codeword clean_codeword(int K, float magnitude, std::mt19937& rng)
{
    codeword cw = test::make_codeword(K, std::numeric_limits<double>::infinity(), rng); // +-8
    for (auto& v : cw.llr)
        v = v > 0 ? magnitude : -magnitude;
    return cw;
}

std::vector<uint8_t> encode(const codeword& cw)
{
    std::vector<uint8_t> c(3 * cw.K + 12);
    core::lte_turbo_encoder(cw.K).encode(cw.bits.data(), c.data());
    return c;
}

// |got - want| <= rel * (1 + |want|) everywhere; counts the rest and
// describes the first few.
size_t count_mismatches(const std::vector<float>& got, const std::vector<double>& want, double rel,
                        std::string& report)
{
    std::ostringstream os;
    size_t bad = 0;
    for (size_t i = 0; i < want.size(); i++) {
        const double d = std::fabs(double(got[i]) - want[i]);
        if (!(d <= rel * (1.0 + std::fabs(want[i])))) {
            if (bad < 5)
                os << " [" << i << " (3k+" << i % 3 << "): got " << got[i] << ", want " << want[i]
                   << "]";
            bad++;
        }
    }
    report = os.str();
    return bad;
}

struct check_stats {
    size_t frames = 0, frames_with_errors = 0, bit_errors = 0, bits = 0;
};

// Runs decode_coded and decode on one codeword with one decoder and checks
// them against the reference at relative tolerance `rel`.
void check_codeword(core::turbo_decoder_cpu& dec, const codeword& cw, double rel, check_stats& st)
{
    const auto& cfg = dec.config();
    const int K = cw.K;
    const int N = 3 * K + 12;
    const std::string what = std::string(core::turbo::algorithm_name(cfg.algorithm)) + " K=" +
                             std::to_string(K) + " iterations=" + std::to_string(cfg.iterations);
    SCOPED_TRACE(what);

    const auto want = ref::decode<double>(cw.llr.data(), K, cfg.algorithm, cfg.iterations, cfg.scaling);

    std::vector<uint8_t> hard(K, 2);
    std::vector<float> ext(N, std::numeric_limits<float>::quiet_NaN());
    const auto res = dec.decode_coded(cw.llr.data(), K, hard.data(), ext.data());
    EXPECT_EQ(res.iterations, cfg.iterations);

    // 1. Every coded output against the reference; the tails exactly 0.
    std::string report;
    const size_t bad = count_mismatches(ext, want.coded_ext, rel, report);
    EXPECT_EQ(bad, 0u) << bad << " of " << N << " coded extrinsics off by more than " << rel
                       << "*(1+|ref|):" << report;
    for (int i = 3 * K; i < N; i++)
        EXPECT_EQ(ext[i], 0.0f) << "tail entry " << i;

    // 2. Hard bits: the sign of the APP, the reference's where it is clearly
    //    away from 0, and the decoder's own (coded_ext[3j] + llr[3j]).
    size_t hard_vs_ref = 0, hard_vs_own = 0, not_bits = 0;
    for (int j = 0; j < K; j++) {
        ASSERT_LE(hard[j], 1) << "bit " << j << " not written";
        // Near-zero APPs are skipped: the APP inherits the absolute error
        // of coded_ext[3j], up to rel * (1 + |coded_ext[3j]|), and float
        // sums of LLRs of either sign round by about eps * their magnitude.
        const double a = want.app[j];
        const double mag = 1.0 + std::fabs(want.coded_ext[3 * j]) + std::fabs(cw.llr[3 * j]);
        if (std::fabs(a) > 2 * rel * mag && hard[j] != (a > 0))
            hard_vs_ref++;
        const double own = double(ext[3 * j]) + cw.llr[3 * j];
        if (std::fabs(own) > 1e-4 * mag && hard[j] != (own > 0))
            hard_vs_own++;
        not_bits += (a > 0) != bool(cw.bits[j]);
    }
    EXPECT_EQ(hard_vs_ref, 0u) << "hard decisions against the reference APP's sign";
    EXPECT_EQ(hard_vs_own, 0u) << "hard decisions against the sign of coded_ext[3j] + llr[3j]";

    // 3. decode() on the same decoder: same hard bits and result, and its soft
    //    output is the APP, coded_ext[3j] + llr[3j]. Both are float results
    //    of the same schedule; the tolerance is the reference's, against the
    //    magnitudes summed, in case the two take differently ordered paths.
    std::vector<uint8_t> hard2(K, 2);
    std::vector<float> soft(K, std::numeric_limits<float>::quiet_NaN());
    const auto res2 = dec.decode(cw.llr.data(), K, hard2.data(), soft.data());
    EXPECT_EQ(res2.iterations, res.iterations);
    EXPECT_EQ(res2.check, res.check);
    size_t soft_bad = 0, hard_differ = 0;
    std::ostringstream os;
    for (int j = 0; j < K; j++) {
        const double own = double(ext[3 * j]) + cw.llr[3 * j];
        const double mag = 1.0 + std::fabs(ext[3 * j]) + std::fabs(cw.llr[3 * j]);
        if (!(std::fabs(soft[j] - own) <= rel * mag)) {
            if (soft_bad < 5)
                os << " [" << j << ": soft " << soft[j] << ", coded_ext+llr " << own << "]";
            soft_bad++;
        }
        if (hard2[j] != hard[j] && std::fabs(own) > 2 * rel * mag)
            hard_differ++;
    }
    EXPECT_EQ(soft_bad, 0u) << "decode()'s soft output against coded_ext[3j] + llr[3j]:" << os.str();
    EXPECT_EQ(hard_differ, 0u) << "decode() and decode_coded() hard decisions";

    st.frames++;
    st.bits += K;
    st.bit_errors += not_bits;
    st.frames_with_errors += not_bits > 0;
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

// The reference's trellis is the code: it re-encodes random bits to
// core::lte_turbo_encoder's codewords, tails included, ending in state 0.
TEST(TurboCodedOutput, ReferenceTrellisMatchesEncoder)
{
    std::mt19937 rng(101);
    const auto& t = ref::trellis();
    for (int K : { 40, 512, 1056, 6144 }) {
        const codeword cw = test::make_codeword(K, std::numeric_limits<double>::infinity(), rng);
        const auto c = encode(cw);
        const auto q = core::lte_qpp(K);
        std::vector<uint8_t> mine(3 * K + 12);
        for (int e = 0; e < 2; e++) {
            int s = 0;
            for (int k = 0; k < K; k++) {
                const int u = e == 0 ? cw.bits[k] : cw.bits[core::qpp_index(q, k)];
                if (e == 0)
                    mine[3 * k] = u;
                mine[3 * k + 1 + e] = t.par[s][u];
                s = t.next[s][u];
            }
            for (int step = 0; step < 3; step++) {
                mine[3 * K + 6 * e + 2 * step] = t.tsys[s];
                mine[3 * K + 6 * e + 2 * step + 1] = t.tpar[s];
                s = t.tnext[s];
            }
            EXPECT_EQ(s, 0) << "K=" << K << " encoder " << e << " not terminated";
        }
        EXPECT_EQ(mine, c) << "K=" << K;
    }
}

// Max-log-MAP and scaled max-log-MAP against the reference, with tolerance
// 1e-3 * (1 + |ref|). The decoder runs in float and renormalises its metrics,
// the reference in double. Near the waterfall the iterations amplify float
// rounding: a float copy of the reference differs from the double one by up
// to 4e-6 (relative) after 1 iteration at Es/N0 -4 dB, but up to 1e-3 after
// 4 iterations at -5 dB and 3e-4 at -4 dB (66 frames each). So 4 iterations
// run at -3.5 dB (float copy: under 1e-4 here, 1.4e-4 in 66 frames), still
// short of correcting every frame at K = 40.
TEST(TurboCodedOutput, CpuMaxLogMatchesReference)
{
    const double rel = 1e-3;
    for (auto alg : { core::turbo::MAX_LOG_MAP, core::turbo::SCALED_MAX_LOG_MAP })
        for (int iterations : { 1, 4 }) {
            core::turbo_decoder_cpu dec(float_cfg(alg, iterations)); // one decoder for every K
            std::mt19937 rng(7 + iterations);
            // Es/N0 -4 dB is Eb/N0 about 0.8 dB at rate 1/3.
            const double low_snr = iterations == 1 ? -4.0 : -3.5;
            check_stats low, high;
            for (int K : { 40, 512, 1056, 6144 }) {
                const int n = K == 40 ? 4 : K == 6144 ? 1 : 2;
                for (int i = 0; i < n; i++) {
                    // Noisy: some frames keep errors.
                    check_codeword(dec, test::make_codeword(K, low_snr, rng), rel, low);
                    // Es/N0 +1 dB: a clean decode with large extrinsics.
                    check_codeword(dec, test::make_codeword(K, 1.0, rng), rel, high);
                }
            }
            std::printf("%s, %d iteration(s): reference bit errors %zu of %zu in %zu of %zu frames "
                        "at %.1f dB, %zu at +1 dB\n",
                        core::turbo::algorithm_name(alg), iterations, low.bit_errors, low.bits,
                        low.frames_with_errors, low.frames, low_snr, high.bit_errors);
            // The noisy set exercises frames the decoder does not fully correct.
            EXPECT_GT(low.frames_with_errors, 0u);
            EXPECT_LT(low.frames_with_errors, low.frames);
            EXPECT_EQ(high.bit_errors, 0u);
        }
}

// log-MAP against the log-sum-exp reference, 2 iterations at Es/N0 -4 dB and
// +1 dB. The correction terms ln(1 + e^-|a-b|), in float, add rounding at
// every max* (and an implementation may evaluate them differently), so the
// tolerance is looser: 2e-3 * (1 + |ref|) (a float copy of the reference:
// under 4e-6). log-MAP always runs in float, so fixed_point = true is
// accepted too and gives the same.
TEST(TurboCodedOutput, CpuLogMapMatchesReference)
{
    const double rel = 2e-3;
    for (bool fixed_flag : { false, true }) {
        auto cfg = float_cfg(core::turbo::LOG_MAP, 2);
        cfg.fixed_point = fixed_flag;
        core::turbo_decoder_cpu dec(cfg);
        std::mt19937 rng(23);
        check_stats low, high;
        for (int K : { 40, 1056 })
            for (int i = 0; i < 2; i++) {
                check_codeword(dec, test::make_codeword(K, -4.0, rng), rel, low);
                check_codeword(dec, test::make_codeword(K, 1.0, rng), rel, high);
            }
        std::printf("log-map (fixed_point=%d), 2 iterations: reference bit errors %zu of %zu at "
                    "-4 dB, %zu at +1 dB\n",
                    int(fixed_flag), low.bit_errors, low.bits, high.bit_errors);
        EXPECT_EQ(high.bit_errors, 0u);
    }
}

// Noiseless, strong (+-10) LLRs: every systematic and parity extrinsic
// (tails excepted) has the sign of the transmitted bit, and the hard bits are
// the information bits, for all three algorithms.
TEST(TurboCodedOutput, CpuNoiselessSignsAgreeWithCodeword)
{
    std::mt19937 rng(31);
    for (auto alg : { core::turbo::LOG_MAP, core::turbo::MAX_LOG_MAP, core::turbo::SCALED_MAX_LOG_MAP })
        for (int iterations : { 1, 3 }) {
            core::turbo_decoder_cpu dec(float_cfg(alg, iterations));
            for (int K : { 40, 1056, 6144 }) {
                const codeword cw = clean_codeword(K, 10.0f, rng);
                const auto c = encode(cw);
                std::vector<uint8_t> hard(K, 2);
                std::vector<float> ext(3 * K + 12, std::numeric_limits<float>::quiet_NaN());
                dec.decode_coded(cw.llr.data(), K, hard.data(), ext.data());
                size_t wrong = 0;
                int first = -1;
                for (int i = 0; i < 3 * K; i++) {
                    const bool ok = c[i] ? ext[i] > 0 : ext[i] < 0; // NaN and 0 fail
                    if (!ok) {
                        if (first < 0)
                            first = i;
                        wrong++;
                    }
                }
                EXPECT_EQ(wrong, 0u) << core::turbo::algorithm_name(alg) << " K=" << K
                                     << " iterations=" << iterations << ", first at " << first
                                     << (first >= 0 ? " value " + std::to_string(ext[first]) : "");
                EXPECT_EQ(hard, cw.bits) << core::turbo::algorithm_name(alg) << " K=" << K;
            }
        }
}

// decode_coded runs in float only: fixed-point max-log configurations throw.
// Early stop: a codeword that stops after i iterations gives what a run of
// exactly i iterations gives (the coded LLRs are those of the last iteration
// run), bit for bit, since the two run the same schedule.
TEST(TurboCodedOutput, EarlyStopGivesTheLastIterationsOutput)
{
    std::mt19937 rng(47);
    int stopped_early = 0;
    for (int f = 0; f < 6; f++) {
        const int K = 1056;
        const codeword cw = test::make_codeword(K, -3.0, rng);
        auto cfg = float_cfg(core::turbo::SCALED_MAX_LOG_MAP, 8);
        cfg.stop = core::turbo::early_stop::hard_decision;
        core::turbo_decoder_cpu stopping(cfg);
        std::vector<uint8_t> hard(K), hard_ref(K);
        std::vector<float> ext(3 * K + 12), ext_ref(3 * K + 12);
        const auto res = stopping.decode_coded(cw.llr.data(), K, hard.data(), ext.data());
        stopped_early += res.iterations < 8;
        core::turbo_decoder_cpu fixed_count(float_cfg(core::turbo::SCALED_MAX_LOG_MAP, res.iterations));
        fixed_count.decode_coded(cw.llr.data(), K, hard_ref.data(), ext_ref.data());
        EXPECT_EQ(hard, hard_ref) << "frame " << f << ", " << res.iterations << " iterations";
        EXPECT_EQ(0, std::memcmp(ext.data(), ext_ref.data(), ext.size() * sizeof(float)))
            << "frame " << f << ", " << res.iterations << " iterations";
    }
    EXPECT_GT(stopped_early, 0) << "no frame stopped early: the case was not exercised";
}

// Windows (P > 1, the parallel schedule): the outputs keep their meaning.
// The hard bits are decode()'s, the systematic output is decode()'s soft
// output less the channel LLR, the tails are 0, and on a frame every window
// decodes the signs are the codeword's.
TEST(TurboCodedOutput, WindowedScheduleKeepsTheOutputsConsistent)
{
    std::mt19937 rng(53);
    for (int P : { 4, 16 }) {
        const int K = 2048;
        auto cfg = float_cfg(core::turbo::SCALED_MAX_LOG_MAP, 6);
        cfg.subblocks = P;
        core::turbo_decoder_cpu dec(cfg);
        for (double esn0 : { -4.0, 0.0 }) {
            const codeword cw = test::make_codeword(K, esn0, rng);
            std::vector<uint8_t> hard(K), hard_plain(K);
            std::vector<float> ext(3 * K + 12, 99.0f), soft(K);
            dec.decode_coded(cw.llr.data(), K, hard.data(), ext.data());
            dec.decode(cw.llr.data(), K, hard_plain.data(), soft.data());
            EXPECT_EQ(hard, hard_plain) << "P=" << P;
            for (int k = 0; k < K; k++)
                ASSERT_NEAR(ext[3 * k] + cw.llr[3 * k], soft[k], 1e-4 * (1 + std::fabs(soft[k]))) << "P=" << P << " k=" << k;
            for (int i = 3 * K; i < 3 * K + 12; i++)
                ASSERT_EQ(ext[i], 0.0f);
            if (esn0 == 0.0) {
                const auto c = encode(cw);
                for (int i = 0; i < 3 * K; i++)
                    ASSERT_TRUE(c[i] ? ext[i] + cw.llr[i] > 0 : ext[i] + cw.llr[i] < 0) << "P=" << P << " i=" << i;
            }
        }
    }
}

TEST(TurboCodedOutput, CpuFixedPointMaxLogThrows)
{
    std::mt19937 rng(37);
    const codeword cw = test::make_codeword(40, 1.0, rng);
    std::vector<uint8_t> hard(40);
    std::vector<float> ext(3 * 40 + 12);
    for (auto alg : { core::turbo::MAX_LOG_MAP, core::turbo::SCALED_MAX_LOG_MAP }) {
        auto cfg = float_cfg(alg, 2);
        cfg.fixed_point = true;
        ASSERT_TRUE(cfg.uses_fixed_point());
        core::turbo_decoder_cpu dec(cfg);
        EXPECT_THROW(dec.decode_coded(cw.llr.data(), 40, hard.data(), ext.data()), std::invalid_argument)
            << core::turbo::algorithm_name(alg);
    }
}

// ---------------------------------------------------------------------------
// The pipeline kernels' coded output (turbo_config::coded_output)
// ---------------------------------------------------------------------------

core::turbo_config coded_cfg(core::turbo::algorithm a, int P, int iterations, core::turbo::early_stop stop)
{
    auto c = float_cfg(a, iterations);
    c.subblocks = P;
    c.stop = stop;
    c.soft_output = true; // the coded LLRs then follow the soft ones
    c.coded_output = true;
    return c;
}

// A batch of mixed block sizes, noisy (near the waterfall) and clean.
std::vector<codeword> coded_batch(double esn0_db, unsigned seed)
{
    std::mt19937 rng(seed);
    std::vector<codeword> cws;
    const int Ks[] = { 40, 1024, 6144, 512, 3200, 1056 };
    for (int i = 0; i < 18; i++)
        cws.push_back(test::make_codeword(Ks[i % 6], esn0_db, rng));
    return cws;
}

// The CPU pipeline kernel (cpu-float) gives, per frame, exactly what
// decode_coded() gives on its own: hard bits, soft and coded LLRs,
// iterations. Both run turbo_decoder_cpu's one schedule, so bit for bit.
TEST(TurboCodedOutput, CpuKernelGivesDecodeCoded)
{
    for (auto stop : { core::turbo::early_stop::none, core::turbo::early_stop::hard_decision }) {
        auto cfg = coded_cfg(core::turbo::SCALED_MAX_LOG_MAP, 0, 6, stop);
        auto chosen = cfg;
        EXPECT_EQ(core::choose_turbo_implementation(chosen).cpu, "cpu-float");
        for (double esn0 : { -4.0, 1.0 }) {
            const auto cws = coded_batch(esn0, 61);
            const auto got = test::decode_all(cws, cfg, test::cpu_backend(), 7);
            core::turbo_decoder_cpu dec(cfg);
            for (size_t i = 0; i < cws.size(); i++) {
                const int K = cws[i].K;
                std::vector<uint8_t> hard(K);
                std::vector<float> soft(K), coded(3 * K + 12);
                const auto r = dec.decode_coded(cws[i].llr.data(), K, hard.data(), coded.data(), soft.data());
                EXPECT_EQ(got[i].hard, hard) << "frame " << i;
                EXPECT_EQ(got[i].soft, soft) << "frame " << i;
                EXPECT_EQ(got[i].coded, coded) << "frame " << i;
                EXPECT_EQ(got[i].result.iterations, r.iterations) << "frame " << i;
            }
        }
    }
}

// coded_output needs float: a fixed-point max-log configuration is refused
// naming the field, and an implementation without coded output, named, is
// not run (the automatic choice, float, takes over).
TEST(TurboCodedOutput, CodedOutputNeedsFloatImplementations)
{
    auto cfg = coded_cfg(core::turbo::MAX_LOG_MAP, 0, 4, core::turbo::early_stop::none);
    cfg.fixed_point = true;
    try {
        cfg.validate();
        FAIL() << "fixed point with coded_output accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("coded_output"), std::string::npos) << e.what();
    }
    cfg.fixed_point = false;
    cfg.implementation = "cpu-window16-simd";
    const auto choice = core::choose_turbo_implementation(cfg);
    EXPECT_EQ(choice.cpu, "cpu-float");
    EXPECT_FALSE(cfg.uses_fixed_point());
    EXPECT_NE(choice.warning.find("coded_output"), std::string::npos) << choice.warning;
}

// CUDA (cuda-float-window) against the CPU kernel on the same inputs.
// Max-log-MAP variants: bit for bit (hard, soft, coded, iterations): both
// run turbo_trellis.h's arithmetic (parity_extrinsic() included) in the same
// order, and the CUDA code is built with --fmad=false, as the existing
// soft-output agreement (test_turbo_decoder) already requires. log-MAP:
// the GPU's expf/log1pf round differently, so each coded LLR within
// 2e-3 * (1 + |cpu|), on clean frames (+1 dB) where the iterations do not
// amplify the difference (the tolerance of log-MAP against the double
// reference above).
void cuda_coded_agrees(core::turbo::algorithm a, int P, core::turbo::early_stop stop, double esn0)
{
    auto cfg = coded_cfg(a, P, 6, stop);
    auto chosen = cfg;
    const auto choice = core::choose_turbo_implementation(chosen);
    ASSERT_EQ(choice.cuda, "cuda-float-window");
    const auto cws = coded_batch(esn0, 71 + P);
    const auto cpu = test::decode_all(cws, cfg, test::cpu_backend(), 7);
    const auto gpu = test::decode_all(cws, cfg, test::cuda_backend(), 7);
    for (size_t i = 0; i < cws.size(); i++) {
        SCOPED_TRACE("frame " + std::to_string(i) + " K=" + std::to_string(cws[i].K));
        ASSERT_EQ(gpu[i].coded.size(), size_t(3 * cws[i].K + 12));
        for (int t = 3 * cws[i].K; t < 3 * cws[i].K + 12; t++)
            EXPECT_EQ(gpu[i].coded[t], 0.0f) << "tail entry " << t;
        if (a != core::turbo::LOG_MAP) {
            EXPECT_EQ(gpu[i].result.iterations, cpu[i].result.iterations);
            EXPECT_EQ(gpu[i].hard, cpu[i].hard);
            EXPECT_EQ(gpu[i].soft, cpu[i].soft);
            EXPECT_EQ(gpu[i].coded, cpu[i].coded);
        } else {
            std::vector<double> want(cpu[i].coded.begin(), cpu[i].coded.end());
            std::string report;
            EXPECT_EQ(count_mismatches(gpu[i].coded, want, 2e-3, report), 0u) << report;
        }
    }
}

TEST(TurboCodedOutputCuda, AgreesWithCpuScaledAutoP) { cuda_coded_agrees(core::turbo::SCALED_MAX_LOG_MAP, 0, core::turbo::early_stop::none, -4.0); }
TEST(TurboCodedOutputCuda, AgreesWithCpuMaxLogP1) { cuda_coded_agrees(core::turbo::MAX_LOG_MAP, 1, core::turbo::early_stop::none, -4.0); }
TEST(TurboCodedOutputCuda, AgreesWithCpuEarlyStop) { cuda_coded_agrees(core::turbo::SCALED_MAX_LOG_MAP, 0, core::turbo::early_stop::hard_decision, -3.0); }
TEST(TurboCodedOutputCuda, AgreesWithCpuLogMap) { cuda_coded_agrees(core::turbo::LOG_MAP, 0, core::turbo::early_stop::none, 1.0); }

} // namespace

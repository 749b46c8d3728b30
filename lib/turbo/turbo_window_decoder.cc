/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cpu-window16-simd around its decode loop: the build chosen at run time,
// LLRs quantised and laid out in lanes, decisions taken out of lanes and the
// early termination, per codeword.
#include "turbo/turbo_window_decoder.h"
#include "turbo/lte_crc.h"
#include "turbo/turbo_fixed.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#if defined(__x86_64__) || defined(__i386__)
#define GPURX_TURBO_X86 1
#else
#define GPURX_TURBO_X86 0
#endif

namespace gr {
namespace gpurx {
namespace core {

namespace turbo_win {

const char* simd_isa_name(simd_isa isa) { return isa == simd_isa::avx2 ? "avx2" : "generic"; }

simd_isa parse_simd_isa(const std::string& name, const char* what)
{
    for (simd_isa isa : { simd_isa::generic, simd_isa::avx2 })
        if (name == simd_isa_name(isa))
            return isa;
    throw std::invalid_argument(std::string(what) + " must be \"generic\" or \"avx2\", got \"" + name + "\"");
}

bool simd_isa_supported(simd_isa isa)
{
#if GPURX_TURBO_X86
    return isa == simd_isa::generic || __builtin_cpu_supports("avx2");
#else
    return isa == simd_isa::generic;
#endif
}

simd_isa default_simd_isa()
{
    static const simd_isa chosen = [] {
        simd_isa best = simd_isa_supported(simd_isa::avx2) ? simd_isa::avx2 : simd_isa::generic;
        if (const char* cap = std::getenv("GPURX_TURBO_SIMD")) {
            const simd_isa asked = parse_simd_isa(cap, "GPURX_TURBO_SIMD");
            if (int(asked) < int(best))
                best = asked;
        }
        return best;
    }();
    return chosen;
}

#if !GPURX_TURBO_X86
// Never chosen: simd_isa_supported() admits only generic off x86.
const build_fns& avx2_build() { return generic_build(); }
#endif

} // namespace turbo_win

using namespace turbo_win;

struct turbo_window_decoder::group {
    turbo_window_decoder* self;
    const job* jb;
    int n;
    float unit;
    uint8_t* const* hard;
    float* const* soft;
    turbo_decode_result* res;
    bool done[LANES];
};

turbo_window_decoder::turbo_window_decoder(const turbo_config& cfg, simd_isa isa) : d_cfg(cfg), d_isa(isa)
{
    d_cfg.validate();
    if (!simd_isa_supported(isa))
        throw std::invalid_argument(std::string("turbo window decoder: this CPU cannot run the ") +
                                    simd_isa_name(isa) + " build");
}

void turbo_window_decoder::decode(const float* const* llr, int n, int K, uint8_t* const* hard,
                                  float* const* soft, turbo_decode_result* res)
{
    const float scale = d_cfg.fixed_scale;
    const auto quantise_split = build_of(d_isa).quantise_split;
    run([&](int c, int16_t* sys, int16_t* p0, int16_t* p1, int16_t* tail) {
            quantise_split(llr[c], K, scale, sys, p0, p1, tail);
        },
        n, K, 1.0f / scale, hard, soft, res);
}

namespace {
// Integer LLRs (already in steps) split into the three streams and the tail.
template <typename T, class Q>
void split(const T* in, int K, int16_t* sys, int16_t* p0, int16_t* p1, int16_t* tail, Q q)
{
    for (int k = 0; k < K; k++) {
        sys[k] = q(in[3 * k]);
        p0[k] = q(in[3 * k + 1]);
        p1[k] = q(in[3 * k + 2]);
    }
    for (int i = 0; i < 12; i++)
        tail[i] = q(in[3 * K + i]);
}
} // namespace

void turbo_window_decoder::decode_int8(const int8_t* const* llr, int n, int K, float int8_scale,
                                       uint8_t* const* hard, float* const* soft, turbo_decode_result* res)
{
    // quantize(int8 v) = max(v, -LLR_MAX), split into the streams by the
    // build (byte shuffles in the AVX2 one).
    const auto split_int8 = build_of(d_isa).split_int8;
    run([&](int c, int16_t* sys, int16_t* p0, int16_t* p1, int16_t* tail) {
            split_int8(llr[c], K, sys, p0, p1, tail);
        },
        n, K, int8_scale, hard, soft, res);
}

void turbo_window_decoder::decode_quantised(const int* const* q, int n, int K, float soft_unit,
                                            uint8_t* const* hard, float* const* soft, turbo_decode_result* res)
{
    run([&](int c, int16_t* sys, int16_t* p0, int16_t* p1, int16_t* tail) {
            split(q[c], K, sys, p0, p1, tail, [](int v) { return int16_t(v); });
        },
        n, K, soft_unit, hard, soft, res);
}

template <class Split>
void turbo_window_decoder::run(const Split& split_codeword, int n, int K, float soft_unit, uint8_t* const* hard,
                               float* const* soft, turbo_decode_result* res)
{
    const plan& p = plan_for(K);
    if (n < 1 || n > p.C)
        throw std::invalid_argument("turbo window decoder: 1.." + std::to_string(p.C) +
                                    " codewords of K=" + std::to_string(K) + ", got " + std::to_string(n));
    const int W = p.W, P = p.P;
    const size_t row = LANES, rows = size_t(W) * row, edge = 8 * row;
    d_mem.resize(7 * rows + 8 * rows + 6 * edge);
    int16_t* m = d_mem.data();
    job jb{};
    jb.pl = &p;
    jb.iterations = d_cfg.iterations;
    jb.sq = turbo_fx::scale_q(d_cfg.extrinsic_scale());
    jb.every = d_cfg.stop != turbo::early_stop::none;
    for (int d = 0; d < 2; d++) {
        jb.ls[d] = m + (0 + d) * rows;
        jb.lp[d] = m + (2 + d) * rows;
        jb.lu[d] = m + (4 + d) * rows;
        jb.ainit[d] = m + 15 * rows + (0 + d) * edge;
        jb.binit[d] = m + 15 * rows + (2 + d) * edge;
        jb.tail[d] = m + 15 * rows + (4 + d) * edge;
    }
    jb.app = m + 6 * rows;
    jb.alpha = m + 7 * rows;

    // Each codeword's three streams, then into lanes: lane c*P + w takes
    // window w of codeword c. Lanes of codewords not given repeat codeword 0
    // (their results are dropped).
    const build_fns& fns = build_of(d_isa);
    const size_t stride = (3 * size_t(K) + 12 + 31) & ~size_t(31);
    d_stage.resize(stride * n);
    const int16_t* src[3][LANES];
    for (int c = 0; c < n; c++) {
        int16_t* st = d_stage.data() + stride * c;
        split_codeword(c, st, st + K, st + 2 * K, st + 3 * K);
        for (int d = 0; d < 2; d++) {
            int tb[8], tq[6];
            for (int i = 0; i < 6; i++)
                tq[i] = st[3 * K + 6 * d + i];
            turbo_fx::tail_beta<turbo_fx::int_ops>(tq, tb);
            for (int s = 0; s < 8; s++)
                for (int cc = c; cc < (c + 1 < n ? c + 1 : p.C); cc++)
                    for (int w = 0; w < P; w++)
                        jb.tail[d][s * row + cc * P + w] = int16_t(tb[s]);
        }
    }
    // P is a power of two (windows_for): lanes split into codeword and
    // window by shift and mask (divisions by it were 3% of a decode).
    const int lg = __builtin_ctz(unsigned(P));
    for (int t = 0; t < LANES; t++) {
        const int c = (t >> lg) < n ? t >> lg : 0, w = t & (P - 1);
        for (int i = 0; i < 3; i++)
            src[i][t] = d_stage.data() + stride * c + size_t(i) * K + size_t(w) * W;
    }
    fns.to_lanes(src[0], W, jb.ls[0]);
    fns.to_lanes(src[1], W, jb.lp[0]);
    fns.to_lanes(src[2], W, jb.lp[1]);
    // Decoder 1's systematic LLRs: natural rows into interleaved ones.
    fns.permute_rows(jb.ls[0], W, p.int_row.data(), p.to_int.data(), p.to_int_ctl.data(), jb.ls[1]);
    std::copy(jb.ls[0], jb.ls[0] + rows, jb.lu[0]); // no a-priori information yet
    for (int d = 0; d < 2; d++)
        for (int s = 0; s < 8; s++)
            for (int t = 0; t < LANES; t++) {
                const int w = t & (P - 1);
                jb.ainit[d][s * row + t] = w == 0 && s != 0 ? int16_t(turbo_fx::NEG) : int16_t(0);
                jb.binit[d][s * row + t] = w == P - 1 ? jb.tail[d][s * row + t] : int16_t(0);
            }

    group g{ this, &jb, n, soft_unit, hard, soft, res, {} };
    for (int c = 0; c < n; c++)
        res[c] = { 0, -1 };
    if (d_cfg.stop == turbo::early_stop::hard_decision) {
        d_prev.resize(n);
        for (auto& v : d_prev)
            v.resize(K);
    }
    jb.end_iteration = &turbo_window_decoder::end_iteration;
    jb.ctx = &g;
    fns.run(jb);
}

bool turbo_window_decoder::end_iteration(void* ctx, int it)
{
    group& g = *static_cast<group*>(ctx);
    const plan& p = *g.jb->pl;
    const turbo_config& cfg = g.self->d_cfg;
    const int W = p.W, P = p.P;
    // Decisions of every lane at once; lanes of codewords already stopped
    // (or not given) go to scratch, so a stopped codeword keeps its output.
    uint8_t* dst[LANES];
    g.self->d_scratch.resize(size_t(W) * LANES);
    const int lg = __builtin_ctz(unsigned(P)); // P a power of two, as in run()
    for (int t = 0; t < LANES; t++) {
        const int c = t >> lg, w = t & (P - 1);
        dst[t] = c < g.n && !g.done[c] ? g.hard[c] + size_t(w) * W : g.self->d_scratch.data() + size_t(t) * W;
    }
    build_of(g.self->d_isa).hard_from_lanes(g.jb->app, W, dst);
    bool all = true;
    for (int c = 0; c < g.n; c++) {
        if (g.done[c])
            continue;
        uint8_t* hard = g.hard[c];
        if (float* soft = g.soft[c])
            for (int w = 0; w < P; w++) {
                const int16_t* app = g.jb->app + c * P + w;
                float* s = soft + size_t(w) * W;
                for (int r = 0; r < W; r++)
                    s[r] = float(app[r * LANES]) * g.unit;
            }
        turbo_decode_result& res = g.res[c];
        res.iterations = it;
        if (cfg.stop == turbo::early_stop::crc24a || cfg.stop == turbo::early_stop::crc24b) {
            const auto t = cfg.stop == turbo::early_stop::crc24a ? crc24_type::a : crc24_type::b;
            res.check = crc24(hard, p.K, t) == 0 ? 1 : 0;
            g.done[c] = res.check == 1;
        } else if (cfg.stop == turbo::early_stop::hard_decision) {
            auto& prev = g.self->d_prev[c];
            g.done[c] = it > 1 && std::memcmp(prev.data(), hard, p.K) == 0;
            std::memcpy(prev.data(), hard, p.K);
        }
        all = all && g.done[c];
    }
    return all;
}

} // namespace core
} // namespace gpurx
} // namespace gr

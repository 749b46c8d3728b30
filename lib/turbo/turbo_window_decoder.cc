/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// cpu-window16-simd around its decode loop: the build chosen at run time,
// LLRs quantised and laid out in lanes, decisions taken out of lanes and the
// early termination, per codeword.
#include "turbo/turbo_window_decoder.h"
#include "common/lte_crc.h"
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
// Never called: simd_isa_supported() admits only generic off x86.
void run_avx2(const job& j) { run_generic(j); }
void scale_avx2(const int16_t* le, size_t n, int sq, int16_t* out) { scale_generic(le, n, sq, out); }
void quantise_avx2(const float* in, size_t n, float scale, int16_t* out) { quantise_generic(in, n, scale, out); }
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
    const auto quantise = d_isa == simd_isa::avx2 ? quantise_avx2 : quantise_generic;
    run([&](int c, int16_t* q, size_t len) { quantise(llr[c], len, scale, q); },
        n, K, 1.0f / scale, hard, soft, res);
}

void turbo_window_decoder::decode_int8(const int8_t* const* llr, int n, int K, float int8_scale,
                                       uint8_t* const* hard, float* const* soft, turbo_decode_result* res)
{
    run([&](int c, int16_t* q, size_t len) {
            const int8_t* in = llr[c];
            for (size_t i = 0; i < len; i++)
                q[i] = in[i] < -turbo_fx::LLR_MAX ? int16_t(-turbo_fx::LLR_MAX) : int16_t(in[i]);
        },
        n, K, int8_scale, hard, soft, res);
}

void turbo_window_decoder::decode_quantised(const int* const* q_in, int n, int K, float soft_unit,
                                            uint8_t* const* hard, float* const* soft, turbo_decode_result* res)
{
    run([&](int c, int16_t* q, size_t len) {
            for (size_t i = 0; i < len; i++)
                q[i] = int16_t(q_in[c][i]);
        },
        n, K, soft_unit, hard, soft, res);
}

template <class Load>
void turbo_window_decoder::run(const Load& load, int n, int K, float soft_unit, uint8_t* const* hard,
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

    // Lanes of codewords not given decode zeros (results dropped).
    if (n < p.C) {
        std::fill(jb.ls[0], jb.ls[0] + rows, int16_t(0));
        std::fill(jb.lp[0], jb.lp[0] + 2 * rows, int16_t(0));
        std::fill(jb.tail[0], jb.tail[0] + 2 * edge, int16_t(0));
    }
    const size_t len = 3 * size_t(K) + 12;
    d_q.resize(len);
    for (int c = 0; c < n; c++) {
        load(c, d_q.data(), len);
        const int16_t* q = d_q.data();
        for (int w = 0; w < P; w++) {
            const int lane = c * P + w;
            const int16_t* src = q + 3 * size_t(w) * W;
            for (int r = 0; r < W; r++) {
                jb.ls[0][r * row + lane] = src[3 * r];
                jb.lp[0][r * row + lane] = src[3 * r + 1];
                jb.lp[1][r * row + lane] = src[3 * r + 2];
            }
        }
        for (int d = 0; d < 2; d++) {
            int tq[6], tb[8];
            for (int i = 0; i < 6; i++)
                tq[i] = q[3 * size_t(K) + 6 * d + i];
            turbo_fx::tail_beta<turbo_fx::int_ops>(tq, tb);
            for (int s = 0; s < 8; s++)
                for (int w = 0; w < P; w++)
                    jb.tail[d][s * row + c * P + w] = int16_t(tb[s]);
        }
    }
    // Decoder 1's systematic LLRs: natural rows into interleaved ones.
    for (int r = 0; r < W; r++) {
        int16_t* dst = jb.ls[1] + p.int_row[r] * row;
        const uint8_t* idx = &p.to_int[r * row];
        for (size_t t = 0; t < row; t++)
            dst[t] = jb.ls[0][r * row + idx[t]];
    }
    std::copy(jb.ls[0], jb.ls[0] + rows, jb.lu[0]); // no a-priori information yet
    for (int d = 0; d < 2; d++)
        for (int s = 0; s < 8; s++)
            for (int t = 0; t < LANES; t++) {
                const int w = t % P;
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
    if (d_isa == simd_isa::avx2)
        run_avx2(jb);
    else
        run_generic(jb);
}

bool turbo_window_decoder::end_iteration(void* ctx, int it)
{
    group& g = *static_cast<group*>(ctx);
    const plan& p = *g.jb->pl;
    const turbo_config& cfg = g.self->d_cfg;
    const int W = p.W, P = p.P;
    bool all = true;
    for (int c = 0; c < g.n; c++) {
        if (g.done[c])
            continue;
        uint8_t* hard = g.hard[c];
        float* soft = g.soft[c];
        for (int w = 0; w < P; w++) {
            const int16_t* app = g.jb->app + c * P + w;
            uint8_t* h = hard + size_t(w) * W;
            for (int r = 0; r < W; r++)
                h[r] = app[r * LANES] > 0 ? 1 : 0;
            if (soft) {
                float* s = soft + size_t(w) * W;
                for (int r = 0; r < W; r++)
                    s[r] = float(app[r * LANES]) * g.unit;
            }
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

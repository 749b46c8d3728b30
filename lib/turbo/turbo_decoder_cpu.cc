/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// 32-byte vectors pass between functions of this file only (inlined): the ABI
// note GCC gives for them without AVX does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

// An AVX2 build of the SIMD schedule, chosen at run time, on x86 only.
#if defined(__x86_64__) || defined(__i386__)
#define GPURX_X86 1
#else
#define GPURX_X86 0
#endif

#include "turbo/turbo_decoder_cpu.h"
#include "turbo/lte_crc.h"
#include "turbo/turbo_fixed.h"
#include "turbo/turbo_trellis.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace gr {
namespace gpurx {
namespace core {

using namespace turbo;

namespace {

// The per-step arithmetic the window schedule runs with: float (log-MAP or
// max-log-MAP, turbo_trellis.h) or 16-bit fixed point (turbo_fixed.h).
template <bool LOG>
struct float_arith {
    using T = float;
    float scale;
    // Float metrics are normalised on every step.
    void alpha(const T* a, T Lu, T Lp, T* out, bool) const { alpha_step<LOG>(a, Lu, Lp, out); }
    void beta(const T* b, T Lu, T Lp, T* out, bool) const { beta_step<LOG>(b, Lu, Lp, out); }
    T ext(const T* a, const T* b, T Lp) const { return extrinsic<LOG>(a, b, Lp); }
    T parity_ext(const T* a, const T* b, T Lu) const { return parity_extrinsic<LOG>(a, b, Lu); }
    void tail(const T* t, T* out) const { tail_beta<LOG>(t, out); }
    T neg() const { return NEG; }
    T scaled(T le) const { return scale * le; }
    float soft(T app) const { return app; }
};

// Scaled, saturated extrinsic of 16 lanes: widened to 32 bits for the
// product, as turbo_fx::scale_extrinsic does for one.
inline turbo_fx::simd_v scale_extrinsic(turbo_fx::simd_v le, int sq)
{
    typedef int32_t wide __attribute__((vector_size(4 * turbo_fx::SIMD_LANES)));
    wide w = (__builtin_convertvector(le, wide) * sq) >> 8;
    const wide hi = wide{} + turbo_fx::EXT_MAX, lo = wide{} - turbo_fx::EXT_MAX;
    w = w > hi ? hi : w;
    w = w < lo ? lo : w;
    return __builtin_convertvector(w, turbo_fx::simd_v);
}
inline int scale_extrinsic(int le, int sq) { return turbo_fx::scale_extrinsic(le, sq); }

template <class Ops>
struct fixed_arith {
    using T = typename Ops::V;
    int sq;     // extrinsic scale, 1/256 steps
    float unit; // one step in LLR units
    void alpha(const T* a, T Lu, T Lp, T* out, bool norm) const
    {
        turbo_fx::alpha_step<Ops>(a, Lu, Lp, out, norm);
    }
    void beta(const T* b, T Lu, T Lp, T* out, bool norm) const
    {
        turbo_fx::beta_step<Ops>(b, Lu, Lp, out, norm);
    }
    T ext(const T* a, const T* b, T Lp) const { return turbo_fx::extrinsic<Ops>(a, b, Lp); }
    void tail(const T* t, T* out) const { turbo_fx::tail_beta<Ops>(t, out); }
    T neg() const { return Ops::splat(turbo_fx::NEG); }
    T scaled(T le) const { return scale_extrinsic(le, sq); }
    float soft(int app) const { return float(app) * unit; }
};

// Where the decisions of one codeword go, and its early termination.
struct one_sink {
    const turbo_config& cfg;
    uint8_t* hard;
    float* soft;
    std::vector<uint8_t>& prev;
    int K;
    turbo_decode_result res{ 0, -1 };
    //! decode_coded(): the 3K+12 coded bits' extrinsic LLRs, or nullptr.
    float* coded = nullptr;
    static constexpr bool can_code = true;

    template <class Arith, typename T>
    void decide(const Arith& ar, int idx, T app)
    {
        hard[idx] = app > T(0) ? 1 : 0;
        if (soft)
            soft[idx] = ar.soft(app);
    }
    //! After iteration it: true to stop.
    bool end_iteration(int it)
    {
        res.iterations = it;
        if (cfg.stop == turbo::early_stop::crc24a || cfg.stop == turbo::early_stop::crc24b) {
            const auto t = cfg.stop == turbo::early_stop::crc24a ? crc24_type::a : crc24_type::b;
            res.check = crc24(hard, K, t) == 0 ? 1 : 0;
            return res.check == 1;
        }
        if (cfg.stop == turbo::early_stop::hard_decision) {
            const bool same = it > 1 && std::memcmp(prev.data(), hard, K) == 0;
            std::memcpy(prev.data(), hard, K);
            return same;
        }
        return false;
    }
};

// The same for SIMD lanes: one_sink per lane; a lane whose codeword has
// stopped keeps its decisions (the vector goes on for the others).
struct lanes_sink {
    std::vector<one_sink> lane;
    std::vector<bool> done;
    static constexpr bool can_code = false; // fixed point only

    template <class Arith>
    void decide(const Arith& ar, int idx, turbo_fx::simd_v app)
    {
        for (size_t l = 0; l < lane.size(); l++)
            if (!done[l])
                lane[l].decide(ar, idx, int(app[l]));
    }
    bool end_iteration(int it)
    {
        bool all = true;
        for (size_t l = 0; l < lane.size(); l++) {
            if (!done[l])
                done[l] = lane[l].end_iteration(it);
            all = all && done[l];
        }
        return all;
    }
};

} // namespace

struct turbo_decoder_cpu::simd_state {
    buffers<turbo_fx::simd_v> buf;
    avector<turbo_fx::simd_v> llr;
    std::vector<std::vector<uint8_t>> prev;
};

turbo_decoder_cpu::turbo_decoder_cpu(const turbo_config& cfg) : d_cfg(cfg)
{
    d_cfg.validate();
    d_prev.resize(lte_max_K);
}

void turbo_decoder_cpu::set_interleaver(int K)
{
    if (d_pi_K == K)
        return;
    const qpp_params qpp = lte_qpp(K);
    d_pi.resize(K);
    for (int i = 0; i < K; i++)
        d_pi[i] = qpp_index(qpp, i);
    d_pi_K = K;
}

turbo_decode_result
turbo_decoder_cpu::decode(const float* llr, int K, uint8_t* hard, float* soft)
{
    if (d_cfg.uses_fixed_point()) {
        const size_t n = 3 * size_t(K) + 12;
        d_quant.resize(n);
        turbo_fx::quantize_llrs(llr, n, d_cfg.fixed_scale, d_quant.data());
        return decode_fixed<turbo_fx::int_ops>(d_quant.data(), K, 1.0f / d_cfg.fixed_scale, hard, soft);
    }
    return run_float(llr, K, hard, soft, nullptr);
}

turbo_decode_result
turbo_decoder_cpu::run_float(const float* llr, int K, uint8_t* hard, float* soft, float* coded)
{
    if (d_cfg.algorithm == LOG_MAP)
        return run_one(float_arith<true>{ 1.0f }, d_fbuf, llr, K, hard, soft, coded);
    return run_one(float_arith<false>{ d_cfg.extrinsic_scale() }, d_fbuf, llr, K, hard, soft, coded);
}

turbo_decode_result turbo_decoder_cpu::decode_int8(
    const int8_t* llr, int K, float int8_scale, uint8_t* hard, float* soft)
{
    const size_t n = 3 * size_t(K) + 12;
    if (d_cfg.uses_fixed_point()) {
        d_quant.resize(n);
        turbo_fx::quantize_llrs(llr, n, d_quant.data());
        return decode_fixed<turbo_fx::int_ops>(d_quant.data(), K, int8_scale, hard, soft);
    }
    d_convert.resize(n);
    for (size_t i = 0; i < n; i++)
        d_convert[i] = float(llr[i]) * int8_scale; // as the GPU kernels convert
    return decode(d_convert.data(), K, hard, soft);
}

turbo_decode_result
turbo_decoder_cpu::decode_coded(const float* llr, int K, uint8_t* hard, float* coded_ext, float* soft)
{
    if (d_cfg.uses_fixed_point())
        throw std::invalid_argument("decode_coded: the coded bits' extrinsic LLRs need float arithmetic "
                                    "(turbo_config::fixed_point = false, or log-MAP)");
    const auto res = run_float(llr, K, hard, soft, coded_ext);
    // The tails are not fed back: the detector gets no a-priori for them.
    std::fill(coded_ext + 3 * size_t(K), coded_ext + 3 * size_t(K) + 12, 0.0f);
    return res;
}

template <class Ops>
turbo_decode_result turbo_decoder_cpu::decode_fixed(
    const int* q, int K, float soft_unit, uint8_t* hard, float* soft)
{
    const fixed_arith<Ops> ar{ turbo_fx::scale_q(d_cfg.extrinsic_scale()), soft_unit };
    return run_one(ar, d_ibuf, q, K, hard, soft);
}

struct turbo_decoder_cpu::lanes_job {
    fixed_arith<turbo_fx::simd_ops> ar;
    int K;
    lanes_sink& sink;
};

void turbo_decoder_cpu::decode_fixed_lanes(const int* const* q,
                                           int n,
                                           int K,
                                           float soft_unit,
                                           uint8_t* const* hard,
                                           float* const* soft,
                                           turbo_decode_result* res)
{
    constexpr int L = turbo_fx::SIMD_LANES;
    if (n < 1 || n > L)
        throw std::invalid_argument("decode_fixed_lanes: 1.." + std::to_string(L) +
                                    " lanes, got " + std::to_string(n));
    if (!d_simd)
        d_simd = std::make_shared<simd_state>();
    auto& st = *d_simd;
    // Transpose: value i of every lane side by side (unused lanes repeat
    // lane 0; their results are not reported).
    const size_t len = 3 * size_t(K) + 12;
    st.llr.resize(len);
    for (size_t i = 0; i < len; i++)
        for (int l = 0; l < L; l++)
            st.llr[i][l] = int16_t(q[l < n ? l : 0][i]);
    st.prev.resize(n);
    lanes_sink sink;
    for (int l = 0; l < n; l++) {
        st.prev[l].resize(K);
        sink.lane.push_back(one_sink{ d_cfg, hard[l], soft[l], st.prev[l], K });
    }
    sink.done.assign(n, false);
    lanes_job job{ fixed_arith<turbo_fx::simd_ops>{ turbo_fx::scale_q(d_cfg.extrinsic_scale()), soft_unit },
                   K, sink };
    if (use_avx2())
        run_lanes_avx2(job);
    else
        run_lanes_generic(job);
    for (int l = 0; l < n; l++)
        res[l] = sink.lane[l].res;
}

#if GPURX_X86
__attribute__((target("avx2"), flatten)) void turbo_decoder_cpu::run_lanes_avx2(lanes_job& job)
{
    run(job.ar, d_simd->buf, d_simd->llr.data(), job.K, job.sink);
}
#else
void turbo_decoder_cpu::run_lanes_avx2(lanes_job& job) { run_lanes_generic(job); }
#endif
__attribute__((flatten)) void turbo_decoder_cpu::run_lanes_generic(lanes_job& job)
{
    run(job.ar, d_simd->buf, d_simd->llr.data(), job.K, job.sink);
}

namespace {
std::atomic<bool> g_force_baseline{ false };
}

bool turbo_decoder_cpu::use_avx2()
{
#if GPURX_X86
    static const bool avx2 = __builtin_cpu_supports("avx2");
    return avx2 && !g_force_baseline.load(std::memory_order_relaxed);
#else
    return false;
#endif
}

const char* turbo_decoder_cpu::simd_isa()
{
#if GPURX_X86
    return use_avx2() ? "avx2" : "sse2";
#else
    return "generic"; // GCC vector extensions for the target's own SIMD (NEON...)
#endif
}

void turbo_decoder_cpu::force_baseline_simd(bool on) { g_force_baseline = on; }

template <class Arith>
turbo_decode_result turbo_decoder_cpu::run_one(const Arith& ar,
                                               buffers<typename Arith::T>& bf,
                                               const typename Arith::T* llr,
                                               int K,
                                               uint8_t* hard,
                                               float* soft,
                                               float* coded)
{
    one_sink sink{ d_cfg, hard, soft, d_prev, K };
    sink.coded = coded;
    run(ar, bf, llr, K, sink);
    return sink.res;
}

template turbo_decode_result turbo_decoder_cpu::decode_fixed<turbo_fx::int_ops>(
    const int*, int, float, uint8_t*, float*);
template turbo_decode_result turbo_decoder_cpu::decode_fixed<turbo_fx::checked_int_ops>(
    const int*, int, float, uint8_t*, float*);
template turbo_decode_result turbo_decoder_cpu::decode_fixed<turbo_fx::s16x2_lane_ops<0>>(
    const int*, int, float, uint8_t*, float*);
template turbo_decode_result turbo_decoder_cpu::decode_fixed<turbo_fx::s16x2_lane_ops<1>>(
    const int*, int, float, uint8_t*, float*);

template <class Arith, class Sink>
void turbo_decoder_cpu::run(const Arith& ar,
                            buffers<typename Arith::T>& bf,
                            const typename Arith::T* llr,
                            int K,
                            Sink& sink)
{
    using T = typename Arith::T;
    set_interleaver(K);
    const int W = window_length(K, d_cfg.subblocks_for(K));
    const int nwin = window_count(K, d_cfg.subblocks_for(K));
    bf.ext[0].assign(K, T{});
    bf.ext[1].assign(K, T{});
    bf.alpha.resize(size_t(W) * 8);
    // Window-boundary metrics [decoder][window][state], and the snapshot each
    // half-iteration starts from (all windows start from the previous values,
    // as the GPU's windows run at the same time).
    bf.abound.assign(size_t(2) * nwin * 8, T{});
    bf.bbound.assign(size_t(2) * nwin * 8, T{});
    bf.ain.resize(bf.abound.size());
    bf.bin.resize(bf.bbound.size());
    const int guard = d_cfg.guard;
    for (int d = 0; d < 2; d++) {
        T* a0 = &bf.abound[size_t(d) * nwin * 8];
        for (int s = 1; s < 8; s++)
            a0[s] = ar.neg(); // both encoders start in state 0
        ar.tail(llr + 3 * K + 6 * d, &bf.bbound[(size_t(d) * nwin + nwin - 1) * 8]);
    }

    for (int it = 1; it <= d_cfg.iterations; it++) {
        // Decisions are needed after every iteration only to stop early.
        const bool want = d_cfg.stop != turbo::early_stop::none || it == d_cfg.iterations;
        for (int d = 0; d < 2; d++) {
            T* ab = &bf.abound[size_t(d) * nwin * 8];
            T* bb = &bf.bbound[size_t(d) * nwin * 8];
            std::copy(ab, ab + nwin * 8, bf.ain.begin());
            std::copy(bb, bb + nwin * 8, bf.bin.begin());
            const T* La = bf.ext[d].data();
            T* Le = bf.ext[1 - d].data();
            auto Lu_at = [&](int k) {
                const int idx = d ? d_pi[k] : k;
                return llr[3 * idx] + La[idx];
            };
            for (int w = 0; w < nwin; w++) {
                const window_plan wp = plan_window(w, nwin, W, K, guard);
                const int start = wp.start, len = wp.len, gf = wp.gf, gb = wp.gb;
                // Where this window saves metrics for its neighbours' training.
                const int ja = wp.ja; // alpha for window w+1
                const int jb = wp.jb; // beta for window w-1
                T a[8], b[8], t[8];
                std::copy(&bf.ain[w * 8], &bf.ain[w * 8] + 8, a);
                // Fixed point normalises on odd offsets within the window a
                // step belongs to (training steps: the neighbour's).
                for (int k = start - gf; k < start; k++) {
                    ar.alpha(a, Lu_at(k), llr[3 * k + 1 + d], t, (k - start + W) & 1);
                    std::copy(t, t + 8, a);
                }
                for (int j = 0; j < len; j++) {
                    const int k = start + j;
                    std::copy(a, a + 8, &bf.alpha[size_t(j) * 8]);
                    if (j == ja && w + 1 < nwin)
                        std::copy(a, a + 8, ab + (w + 1) * 8);
                    ar.alpha(a, Lu_at(k), llr[3 * k + 1 + d], t, j & 1);
                    std::copy(t, t + 8, a);
                }
                if (ja == len && w + 1 < nwin)
                    std::copy(a, a + 8, ab + (w + 1) * 8);
                std::copy(&bf.bin[w * 8], &bf.bin[w * 8] + 8, b);
                for (int k = start + len + gb - 1; k >= start + len; k--) {
                    ar.beta(b, Lu_at(k), llr[3 * k + 1 + d], t, (k - start - W) & 1);
                    std::copy(t, t + 8, b);
                }
                if (jb == len && w > 0)
                    std::copy(b, b + 8, bb + (w - 1) * 8);
                for (int j = len - 1; j >= 0; j--) {
                    const int k = start + j;
                    const int idx = d ? d_pi[k] : k;
                    const T Lu = llr[3 * idx] + La[idx];
                    const T Lp = llr[3 * k + 1 + d];
                    const T le = ar.ext(&bf.alpha[size_t(j) * 8], b, Lp);
                    if (d == 1 && want)
                        sink.decide(ar, idx, T(Lu + le));
                    if constexpr (Sink::can_code && std::is_same<T, float>::value) {
                        // Every iteration overwrites them, so an early stop
                        // leaves the last iteration's.
                        if (sink.coded) {
                            sink.coded[3 * size_t(k) + 1 + d] = ar.parity_ext(&bf.alpha[size_t(j) * 8], b, Lu);
                            if (d == 1)
                                sink.coded[3 * size_t(idx)] = La[idx] + le; // L_app - Ls
                        }
                    }
                    ar.beta(b, Lu, Lp, t, j & 1);
                    std::copy(t, t + 8, b);
                    Le[idx] = ar.scaled(le);
                    if (j == jb && w > 0)
                        std::copy(b, b + 8, bb + (w - 1) * 8);
                }
            }
        }
        if (sink.end_iteration(it))
            break;
    }
}

} // namespace core
} // namespace gpurx
} // namespace gr

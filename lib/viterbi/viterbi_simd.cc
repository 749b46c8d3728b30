/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// int16 range of the integer path (K <= 9, n <= 4, int8 LLRs: |L| <= 128).
//
//  * A branch metric is a sum of n values +-L: |bm| <= n * 128 = 512.
//  * Spread. From step K-1 on, any state can be reached from any other in
//    exactly K-1 steps. With M the best metric K-1 steps ago, every state
//    now is >= M - 512 (K-1) (the path from M's state) and every state is
//    <= M + 512 (K-1). So the spread is <= 1024 (K-1) = 8192 for K = 9.
//  * Renormalisation subtracts the best metric every renorm_period = 32
//    steps (the first time at step 32 > K-1, when every state is reached),
//    leaving metrics in [-8192, 0]. In the 32 steps to the next one the
//    best moves by <= 512 a step, so metrics stay in
//    [-8192 - 32 * 512, 32 * 512] = [-24576, 16384], inside int16.
//  * Unreached states (the first K-2 steps, or any start state of a
//    tail-biting pass) start at unreachable_int16 = -16384: within those
//    <= 8 steps they move by <= 8 * 512 = 4096, so they stay in
//    [-20480, -12288], below every reached state (>= -4096) and inside
//    int16; their decisions are never traced (the survivor of a reached
//    state only passes reached states).
// Nothing saturates, so every sum, comparison and tie is exactly the
// reference's (doubles of +-L/2 are exact for these integers), doubled.
// The passes use saturating adds anyway: cheaper than proving a future
// change safe.
#include "viterbi/viterbi_simd.h"

#include <cstdlib>
#include <stdexcept>

#if defined(__x86_64__) || defined(__i386__)
#define GPURX_VITERBI_X86 1
#else
#define GPURX_VITERBI_X86 0
#endif

namespace gr {
namespace gpurx {
namespace core {

namespace viterbi {

const char* simd_isa_name(simd_isa isa)
{
    switch (isa) {
    case simd_isa::avx2:
        return "avx2";
    case simd_isa::sse2:
        return "sse2";
    default:
        return "generic";
    }
}

simd_isa parse_simd_isa(const std::string& name, const char* what)
{
    for (simd_isa isa : { simd_isa::generic, simd_isa::sse2, simd_isa::avx2 })
        if (name == simd_isa_name(isa))
            return isa;
    throw std::invalid_argument(std::string(what) + " must be \"generic\", \"sse2\" or \"avx2\", got \"" + name +
                                "\"");
}

bool simd_isa_supported(simd_isa isa)
{
#if GPURX_VITERBI_X86
    switch (isa) {
    case simd_isa::avx2:
        return __builtin_cpu_supports("avx2");
    case simd_isa::sse2:
        return __builtin_cpu_supports("sse2");
    default:
        return true;
    }
#else
    return isa == simd_isa::generic;
#endif
}

simd_isa default_simd_isa()
{
    static const simd_isa chosen = [] {
        simd_isa best = simd_isa_supported(simd_isa::avx2)   ? simd_isa::avx2
                        : simd_isa_supported(simd_isa::sse2) ? simd_isa::sse2
                                                             : simd_isa::generic;
        if (const char* cap = std::getenv("GPURX_VITERBI_SIMD")) {
            const simd_isa asked = parse_simd_isa(cap, "GPURX_VITERBI_SIMD");
            if (int(asked) < int(best))
                best = asked;
        }
        return best;
    }();
    return chosen;
}

} // namespace viterbi

namespace viterbi_simd_detail {

#if !GPURX_VITERBI_X86
// Never called: simd_isa_supported() admits only generic off x86.
const isa_kernels& sse2_kernels() { return generic_kernels(); }
const isa_kernels& avx2_kernels() { return generic_kernels(); }
#endif

namespace {
int reverse_bits(int v, int bits)
{
    int r = 0;
    for (int b = 0; b < bits; b++)
        r |= ((v >> b) & 1) << (bits - 1 - b);
    return r;
}
} // namespace

simd_trellis::simd_trellis(const viterbi_code& code)
    : K(code.K()),
      n(code.n()),
      states(code.states()),
      half(code.states() / 2),
      decision_words(code.states() <= 64 ? 1 : code.states() / 64),
      symmetric(true),
      poly_class{}
{
    const unsigned current = 1u << (K - 1), oldest = 1u;
    for (int i = 0; i < n; i++) {
        const unsigned p = code.polynomials()[i];
        poly_class[i] = (p & current) && (p & oldest) ? 0 : (p & oldest) ? 1 : 2;
        symmetric = symmetric && poly_class[i] == 0;
    }
    negate_mask16.assign(size_t(n) * half, 0);
    sign16.assign(size_t(n) * half, 1);
    sign_mask32.assign(size_t(n) * half, 0);
    negations16.assign(3 * size_t(half), 0);
    for (int b = 0; b < half; b++) {
        const unsigned out = code.outputs(reverse_bits(b, K - 1), 0); // p0 = rev(b), input 0
        for (int i = 0; i < n; i++)
            if (!((out >> i) & 1u)) {
                negate_mask16[size_t(i) * half + b] = -1;
                sign16[size_t(i) * half + b] = -1;
                sign_mask32[size_t(i) * half + b] = 0x80000000u;
                negations16[size_t(poly_class[i]) * half + b]++;
            }
    }
}

} // namespace viterbi_simd_detail

using namespace viterbi_simd_detail;

template <typename Kernel>
viterbi_simd::pass<Kernel>
viterbi_simd::choose(const viterbi_code& code, viterbi::simd_isa widest, Kernel isa_kernels::*which)
{
    using viterbi::simd_isa;
    if (!viterbi::simd_isa_supported(widest))
        throw std::invalid_argument(std::string("isa: this CPU cannot run ") + viterbi::simd_isa_name(widest));
    // Only now touch a set's tables: building the AVX2 ones runs AVX2 code.
    const int half = code.states() / 2;
    simd_isa isa = widest;
    const Kernel* k = nullptr;
    for (;; isa = simd_isa(int(isa) - 1)) {
        const isa_kernels& set = isa == simd_isa::avx2   ? avx2_kernels()
                                 : isa == simd_isa::sse2 ? sse2_kernels()
                                                         : generic_kernels();
        k = &(set.*which);
        if (k->lanes <= half || isa == simd_isa::generic)
            break;
    }
    return { *k, isa };
}

viterbi_simd::viterbi_simd(const viterbi_code& code, viterbi::simd_isa widest)
    : d_code(code),
      d_trellis(code),
      d_lane_of(size_t(code.states())),
      d_int16(choose(code, widest, &isa_kernels::int16)),
      d_float(choose(code, widest, &isa_kernels::float32)),
      d_metric16(size_t(code.states())),
      d_metric32(size_t(code.states()))
{
    for (int s = 0; s < code.states(); s++)
        d_lane_of[s] = reverse_bits(s, code.K() - 1);
}

void viterbi_simd::traceback(int steps, int end_lane, int frame_bits, uint8_t* bits) const
{
    const int top = d_code.K() - 2, words = d_trellis.decision_words;
    const uint64_t* dec = d_decisions.data();
    unsigned r = unsigned(end_lane);
    // Each step depends on the one after it: the chain is a shift, a mask
    // and an OR. Up to 64 states the step's word does not depend on r, so
    // its load stays off the chain.
    if (words == 1) {
        // Rotating the word left by `top` off the chain lets one rotate
        // right by r bring state r's decision to bit `top` directly: a
        // rotate, a mask and an OR per step instead of four operations.
        const unsigned top_bit = 1u << top;
        for (int t = steps - 1; t >= 0; t--) {
            if (t < frame_bits)
                bits[t] = uint8_t(r & 1u); // the input of a step is its new state's newest bit
            const uint64_t w = (dec[t] << top) | (dec[t] >> ((64 - top) & 63));
            const uint64_t at_top = (w >> r) | (w << ((64 - r) & 63));
            r = (r >> 1) | (unsigned(at_top) & top_bit);
        }
        return;
    }
    for (int t = steps - 1; t >= 0; t--) {
        if (t < frame_bits)
            bits[t] = uint8_t(r & 1u);
        const uint64_t word = dec[size_t(t) * words + (r >> 6)];
        r = (r >> 1) | unsigned((word >> (r & 63u)) & 1u) << top;
    }
}

template <typename Kernel, typename Llr, typename Metric>
viterbi_path viterbi_simd::run(const pass<Kernel>& p,
                               const Llr* llr,
                               int frame_bits,
                               uint8_t* bits,
                               std::vector<Metric>& metrics,
                               double unit)
{
    d_code.check_frame_bits(frame_bits);
    const int steps = d_code.steps(frame_bits), S = d_code.states();
    d_decisions.resize(size_t(steps) * size_t(d_trellis.decision_words));
    auto forward = [&](int start_state) {
        return p.kernel.forward(d_trellis, llr, steps, d_lane_of[start_state], metrics.data(), d_decisions.data());
    };
    // The metric of `state` after a pass that returned `offset`, in the
    // offset's type (int64 or double) so that comparisons are exact.
    auto total = [&](int state, decltype(forward(0)) offset) { return metrics[d_lane_of[state]] + offset; };
    switch (d_code.term()) {
    case viterbi::termination::terminated: {
        const auto offset = forward(0);
        traceback(steps, 0, frame_bits, bits);
        return { double(total(0, offset)) * unit, 0 };
    }
    case viterbi::termination::truncated: {
        const auto offset = forward(0);
        int best = 0;
        for (int s = 1; s < S; s++)
            if (total(s, offset) > total(best, offset))
                best = s;
        traceback(steps, d_lane_of[best], frame_bits, bits);
        return { double(total(best, offset)) * unit, best };
    }
    default: {
        // Exact tail-biting as the reference: the best over start states s
        // of the best path from s back to s, the lower s on a tie.
        int best = 0;
        decltype(forward(0)) best_metric = 0;
        for (int s = 0; s < S; s++) {
            const auto m = total(s, forward(s));
            if (s == 0 || m > best_metric) {
                best_metric = m;
                best = s;
            }
        }
        if (best != S - 1) // the last pass's decisions are already there
            forward(best);
        traceback(steps, d_lane_of[best], frame_bits, bits);
        return { double(best_metric) * unit, best };
    }
    }
}

viterbi_path viterbi_simd::decode(const float* llr, int frame_bits, uint8_t* bits)
{
    return run(d_float, llr, frame_bits, bits, d_metric32, 1.0);
}

viterbi_path viterbi_simd::decode_int8(const int8_t* llr, int frame_bits, uint8_t* bits)
{
    return run(d_int16, llr, frame_bits, bits, d_metric16, 0.5); // metrics in units of L, not L/2
}

} // namespace core
} // namespace gpurx
} // namespace gr

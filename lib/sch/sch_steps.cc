/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "sch/sch_steps.h"
#include "common/llr_int8.h"
#include "sch/lte_scrambling.h"
#include "sch/sch_arith.h"
#include "sch/sch_steps_fast.h"
#include "turbo/lte_crc.h"
#include "turbo/turbo_frame.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#define GPURX_SCH_X86 1
#else
#define GPURX_SCH_X86 0
#endif

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

namespace {
// llr_to_int8() without libm calls, so the loop vectorises: clamp (NaN to
// -127, as quantize_llr), then round half to even by the float adder
// (1.5 x 2^23 leaves no fraction bits; the default rounding mode is rint's).
inline int quantize8(float x)
{
    float v = x * int8_llr_steps;
    v = v > -127.0f ? v : -127.0f;
    v = v < 127.0f ? v : 127.0f;
    return int((v + 12582912.0f) - 12582912.0f);
}
} // namespace

// Each byte of scrambling bits as eight sign bytes (0 or -1), lowest bit first.
const uint64_t* sign_bytes()
{
    static const auto table = [] {
        std::array<uint64_t, 256> t{};
        for (int v = 0; v < 256; v++)
            for (int b = 0; b < 8; b++)
                if ((v >> b) & 1)
                    t[size_t(v)] |= uint64_t(0xFF) << (8 * b);
        return t;
    }();
    return table.data();
}

bool avx2_steps()
{
#if GPURX_SCH_X86
    static const bool chosen = [] {
        bool use = __builtin_cpu_supports("avx2");
        if (const char* cap = std::getenv("GPURX_SCH_SIMD")) {
            const std::string c(cap);
            if (c != "generic" && c != "avx2")
                throw std::invalid_argument("GPURX_SCH_SIMD must be \"generic\" or \"avx2\", got \"" + c + "\"");
            use = use && c == "avx2";
        }
        return use;
    }();
    return chosen;
#else
    return false;
#endif
}

#if !GPURX_SCH_X86
// Never called: avx2_steps() is false off x86.
namespace avx2 {
void descramble_float(const float*, size_t, uint32_t, int8_t*) {}
void descramble_int8(const int8_t*, size_t, uint32_t, int8_t*) {}
} // namespace avx2
#endif

void descramble(const frame_params& p, const uint8_t* in, int8_t* out)
{
    if (!avx2_steps())
        return descramble_reference(p, in, out);
    if (p.input == turbo::INPUT_INT8)
        avx2::descramble_int8(reinterpret_cast<const int8_t*>(in), size_t(p.G), p.c_init, out);
    else
        avx2::descramble_float(reinterpret_cast<const float*>(in), size_t(p.G), p.c_init, out);
}

void descramble_reference(const frame_params& p, const uint8_t* in, int8_t* out)
{
    const size_t G = size_t(p.G);
    thread_local std::vector<uint32_t> c;
    thread_local std::vector<int8_t> sign;
    c.resize((G + 31) / 32);
    sign.resize(c.size() * 32);
    gold_words(p.c_init, c.data(), c.size());
    const uint64_t* table = sign_bytes();
    for (size_t w = 0; w < c.size(); w++)
        for (int k = 0; k < 4; k++)
            std::memcpy(sign.data() + 32 * w + 8 * size_t(k), &table[(c[w] >> (8 * k)) & 0xFFu], 8);
    // Quantise, then flip where scrambled: v -> (v ^ s) - s for s = 0 or -1.
    // Restrict-qualified: int8 stores may alias anything, and the loops
    // vectorise only when the compiler knows they do not.
    const int8_t* __restrict sg = sign.data();
    int8_t* __restrict o = out;
    if (p.input == turbo::INPUT_INT8) {
        const int8_t* __restrict q = reinterpret_cast<const int8_t*>(in);
        for (size_t j = 0; j < G; j++) {
            const int8_t v = q[j] < -127 ? int8_t(-127) : q[j];
            o[j] = int8_t((v ^ sg[j]) - sg[j]);
        }
    } else {
        const float* __restrict x = reinterpret_cast<const float*>(in);
        for (size_t j = 0; j < G; j++) {
            const int8_t v = int8_t(quantize8(x[j]));
            o[j] = int8_t((v ^ sg[j]) - sg[j]);
        }
    }
}

void dematch(const frame_params& p, int r, const int8_t* descrambled, const int32_t* order,
             size_t n, const int16_t* soft_in, int16_t* soft_out, int8_t* dec, int32_t* sums)
{
    const int K = cb_K(p, r), L = 3 * K + 12;
    const int E = cb_E(p, r), at = cb_offset(p, r);
    auto rx = [&](int e) {
        return p.channel == ULSCH ? descrambled[transmitted_index(p, at + e)] : descrambled[at + e];
    };
    if (size_t(E) <= n) {
        // No repetition: each position gets at most one LLR, so adding it
        // to the buffer once is the same as adding the sum (one saturation).
        if (!soft_in) {
            std::memset(dec, 0, size_t(L));
            if (p.channel != ULSCH) {
                // The downlink's plain scatter, with restrict-qualified
                // locals: int8 stores may alias anything (p's fields, the
                // table), and without them every step reloads them.
                const int8_t* __restrict src = descrambled + at;
                const int32_t* __restrict idx = order;
                int8_t* __restrict dst = dec;
                int e = 0;
                for (; e + 4 <= E; e += 4) {
                    const int32_t i0 = idx[e], i1 = idx[e + 1], i2 = idx[e + 2], i3 = idx[e + 3];
                    const int8_t v0 = src[e], v1 = src[e + 1], v2 = src[e + 2], v3 = src[e + 3];
                    dst[i0] = v0;
                    dst[i1] = v1;
                    dst[i2] = v2;
                    dst[i3] = v3;
                }
                for (; e < E; e++)
                    dst[idx[e]] = src[e];
            } else {
                for (int e = 0; e < E; e++)
                    dec[order[e]] = rx(e); // |v| <= 127: saturate8 is the identity
            }
        } else {
            if (p.combine)
                std::copy(soft_in, soft_in + L, soft_out);
            else
                std::fill(soft_out, soft_out + L, int16_t(0));
            for (int e = 0; e < E; e++)
                soft_out[order[e]] = saturate16(int32_t(soft_out[order[e]]) + rx(e));
            for (int c = 0; c < L; c++)
                dec[c] = saturate8(soft_out[c]);
        }
    } else {
        std::memset(sums, 0, size_t(L) * sizeof(int32_t));
        size_t k = 0;
        for (int e = 0; e < E; e++) {
            sums[order[k]] += rx(e);
            if (++k == n)
                k = 0;
        }
        for (int c = 0; c < L; c++) {
            const int16_t v = soft_in && p.combine ? saturate16(int32_t(soft_in[c]) + sums[c])
                                                   : saturate16(sums[c]);
            if (soft_in)
                soft_out[c] = v;
            dec[c] = saturate8(v);
        }
    }
    for (int f = 0; f < cb_filler(p, r); f++) {
        dec[3 * f] = CERTAIN_ZERO;
        dec[3 * f + 1] = CERTAIN_ZERO;
    }
}

int nonzero_soft_values(const int8_t* dec, int n)
{
    int count = 0;
    for (int c = 0; c < n; c++)
        count += dec[c] != 0;
    return count;
}

void assemble(const frame_params& p, const uint8_t* blocks, size_t stride, uint8_t* out,
              frame_result& res, const int32_t* checks)
{
    res.C = p.C;
    res.uninformed = 0;
    res.cb_crc = 0;
    const int L = p.C > 1 ? 24 : 0;
    uint32_t tb_reg = 0;
    // The blocks' data bits are the TB's tbs bits, then its CRC24A.
    int written = 0;
    for (int r = 0; r < p.C; r++) {
        const uint8_t* c = blocks + size_t(r) * stride;
        const int K = cb_K(p, r), F = cb_filler(p, r);
        // The early stop ran this block's CRC on these bits after its last
        // iteration; the blocks are out of the cache by now, so a second
        // pass over them was most of what this step cost.
        const bool known = checks && (checks[r] == 0 || checks[r] == 1);
        const bool passed = known ? checks[r] == 1
                                  : crc24_update(0, c, size_t(K), L ? crc24_type::b : crc24_type::a) == 0;
        if (passed)
            res.cb_crc |= uint64_t(1) << r;
        const int data = K - L - F;
        tb_reg = crc24_update(tb_reg, c + F, size_t(data), crc24_type::a);
        const int n = data < p.tbs - written ? data : p.tbs - written;
        std::memcpy(out + written, c + F, size_t(n));
        written += n;
    }
    res.crc_ok = tb_reg == 0;
}

void extrinsic(const frame_params& p, int r, const int8_t* descrambled, const int32_t* order, size_t n,
               const int8_t* dec, const float* coded, float scale, float* out)
{
    const int E = cb_E(p, r), at = cb_offset(p, r);
    const float unit = 1.0f / int8_llr_steps; // exact: the decoder's own conversion
    size_t k = 0;
    for (int e = 0; e < E; e++) {
        const int j = transmitted_index(p, at + e);
        const int c = order[k];
        out[j] = coded[c] * scale + (float(dec[c]) * unit - float(descrambled[j]) * unit);
        if (++k == n)
            k = 0;
    }
}

void scramble_extrinsic(const frame_params& p, float* out)
{
    const size_t G = size_t(p.G);
    thread_local std::vector<uint32_t> c;
    c.resize((G + 31) / 32);
    gold_words(p.c_init, c.data(), c.size());
    for (size_t j = 0; j < G; j++)
        if ((c[j / 32] >> (j % 32)) & 1u)
            out[j] = -out[j];
}

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

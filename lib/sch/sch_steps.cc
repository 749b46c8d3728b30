/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "sch/sch_steps.h"
#include "common/llr_int8.h"
#include "sch/lte_scrambling.h"
#include "sch/sch_arith.h"
#include "turbo/lte_crc.h"
#include "turbo/turbo_frame.h"

#include <array>
#include <cstring>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

namespace {

struct crc_table {
    std::array<uint32_t, 256> t;
    explicit crc_table(uint32_t g)
    {
        for (uint32_t b = 0; b < 256; b++) {
            uint32_t r = b << 16;
            for (int i = 0; i < 8; i++)
                r = ((r << 1) & 0xFFFFFFu) ^ ((r & 0x800000u) ? g : 0u);
            t[b] = r;
        }
    }
};
const crc_table& table_of(uint32_t poly)
{
    static const crc_table a(crc24a_poly), b(crc24b_poly);
    return poly == crc24a_poly ? a : b;
}

} // namespace

uint32_t crc24_update(uint32_t reg, const uint8_t* bits, size_t n, uint32_t poly)
{
    const auto& t = table_of(poly).t;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint32_t byte = 0;
        for (int k = 0; k < 8; k++)
            byte = (byte << 1) | (bits[i + size_t(k)] & 1u);
        reg = ((reg << 8) & 0xFFFFFFu) ^ t[((reg >> 16) ^ byte) & 0xFFu];
    }
    for (; i < n; i++) {
        const uint32_t fb = ((reg >> 23) & 1u) ^ (bits[i] & 1u);
        reg = ((reg << 1) & 0xFFFFFFu) ^ (fb ? poly : 0u);
    }
    return reg;
}

void descramble(const frame_params& p, const uint8_t* in, int8_t* out)
{
    const size_t G = size_t(p.G);
    thread_local std::vector<uint32_t> c;
    c.resize((G + 31) / 32);
    gold_words(p.c_init, c.data(), c.size());
    if (p.input == turbo::INPUT_INT8) {
        const auto* q = reinterpret_cast<const int8_t*>(in);
        for (size_t j = 0; j < G; j++) {
            const int v = q[j] < -127 ? -127 : q[j];
            out[j] = int8_t(((c[j / 32] >> (j % 32)) & 1u) ? -v : v);
        }
    } else {
        const auto* x = reinterpret_cast<const float*>(in);
        for (size_t j = 0; j < G; j++) {
            const int v = quantize_llr(x[j], int8_llr_steps, int8_llr_max);
            out[j] = int8_t(((c[j / 32] >> (j % 32)) & 1u) ? -v : v);
        }
    }
}

void dematch(const frame_params& p, int r, const int8_t* descrambled, const int32_t* order,
             size_t n, const int16_t* soft_in, int16_t* soft_out, int8_t* dec, int32_t* sums)
{
    const int K = cb_K(p, r), L = 3 * K + 12;
    std::memset(sums, 0, size_t(L) * sizeof(int32_t));
    const int E = cb_E(p, r), at = cb_offset(p, r);
    size_t k = 0;
    if (p.channel == ULSCH) {
        for (int e = 0; e < E; e++) {
            sums[order[k]] += descrambled[transmitted_index(p, at + e)];
            if (++k == n)
                k = 0;
        }
    } else {
        for (int e = 0; e < E; e++) {
            sums[order[k]] += descrambled[at + e];
            if (++k == n)
                k = 0;
        }
    }
    for (int c = 0; c < L; c++) {
        const int16_t v = soft_in && p.combine ? saturate16(int32_t(soft_in[c]) + sums[c])
                                               : saturate16(sums[c]);
        if (soft_in)
            soft_out[c] = v;
        dec[c] = saturate8(v);
    }
    for (int f = 0; f < cb_filler(p, r); f++) {
        dec[3 * f] = CERTAIN_ZERO;
        dec[3 * f + 1] = CERTAIN_ZERO;
    }
}

void assemble(const frame_params& p, const uint8_t* blocks, size_t stride, uint8_t* out,
              frame_result& res)
{
    res.C = p.C;
    res.cb_crc = 0;
    const int L = p.C > 1 ? 24 : 0;
    uint32_t tb_reg = 0;
    // The blocks' data bits are the TB's tbs bits, then its CRC24A.
    int written = 0;
    for (int r = 0; r < p.C; r++) {
        const uint8_t* c = blocks + size_t(r) * stride;
        const int K = cb_K(p, r), F = cb_filler(p, r);
        const uint32_t cb = crc24_update(0, c, size_t(K), L ? crc24b_poly : crc24a_poly);
        if (cb == 0)
            res.cb_crc |= uint64_t(1) << r;
        const int data = K - L - F;
        tb_reg = crc24_update(tb_reg, c + F, size_t(data), crc24a_poly);
        const int n = data < p.tbs - written ? data : p.tbs - written;
        std::memcpy(out + written, c + F, size_t(n));
        written += n;
    }
    res.crc_ok = tb_reg == 0;
}

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

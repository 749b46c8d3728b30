/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The shared channel's index arithmetic, one definition for g++ and nvcc:
// where a code block's bits sit in the codeword, where each circular-buffer
// position comes from (36.212 §5.1.4.1.1-2), the uplink channel interleaver
// (§5.2.2.8) and the scrambling sequence (36.211 §7.2), word by word.
//
// The soft-buffer layout is the decoder's: a code block of K is kept as its
// 3K+12 LLRs in the turbo codeword layout c[3k+i] = d(i)_k, in int16 units
// of 1/8 LLR, so HARQ combining adds integers and the CPU and GPU agree bit
// for bit.
#ifndef INCLUDED_GPURX_SCH_SCH_ARITH_H
#define INCLUDED_GPURX_SCH_SCH_ARITH_H

#include "common/host_device.h"
#include "sch/sch_frame.h"
#include "turbo/lte_circular_buffer.h"
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

// The circular buffer's arithmetic lives with the turbo code.
using turbo::circular_length;
using turbo::circular_to_codeword;
using turbo::column_permutation;
using turbo::subblock_rows;
using turbo::SUBBLOCK_COLUMNS;

constexpr int MAX_CODE_BLOCKS = 64;  //!< cb_crc's bits; TBS 391656 needs 64
constexpr int MAX_CB_LLRS = 3 * 6144 + 12;
//! The scrambler's x1/x2 start: c(n) = x1(n + 1600) + x2(n + 1600).
constexpr int GOLD_NC = 1600;

GPURX_HD int cb_K(const frame_params& p, int r) { return r < p.Cm ? p.Km : p.Kp; }
GPURX_HD int cb_filler(const frame_params& p, int r) { return r == 0 ? p.F : 0; }
GPURX_HD int cb_ncb(const frame_params& p, int r) { return r < p.Cm ? p.ncb_m : p.ncb_p; }
GPURX_HD int cb_k0(const frame_params& p, int r) { return r < p.Cm ? p.k0_m : p.k0_p; }
//! Whether code block \p r holds enough information to be decoded at all:
//! \p nonzero of its decoder input's 3K+12 soft values are not zero (the
//! 2F filler positions, certain zeros, among them). A block that received
//! fewer soft values than it has information bits (K - F) has a code rate
//! above 1: its CRC can still pass (an all-zero block has a zero CRC), but
//! by chance, not because the block was decoded. All-zero input, LLRs that
//! quantise to zero, or a retransmission without systematic bits decoded
//! alone are such blocks.
GPURX_HD bool cb_informed(const frame_params& p, int r, int nonzero)
{
    return nonzero - 2 * cb_filler(p, r) >= cb_K(p, r) - cb_filler(p, r);
}
//! How many of the TB's code blocks are not cb_informed(); \p nonzero: each
//! block's count, in order. A TB with any such block is not decoded,
//! whatever its CRC says.
GPURX_HD int tb_uninformed(const frame_params& p, const int32_t* nonzero)
{
    int n = 0;
    for (int r = 0; r < p.C; r++)
        n += cb_informed(p, r, nonzero[r]) ? 0 : 1;
    return n;
}
//! E_r (§5.1.4.1.2): the first C - gamma blocks get E_lo, the rest E_hi.
GPURX_HD int cb_E(const frame_params& p, int r) { return r < p.C - p.gamma ? p.E_lo : p.E_hi; }
//! Where code block r's E bits start in the concatenated codeword (§5.1.5).
GPURX_HD int cb_offset(const frame_params& p, int r)
{
    const int lo = p.C - p.gamma;
    return r <= lo ? r * p.E_lo : lo * p.E_lo + (r - lo) * p.E_hi;
}
//! Where code block r's K bits start among the TB's decoded bits, with
//! block 0's filler bits counted (they are dropped at reassembly).
GPURX_HD int cb_bit_offset(const frame_params& p, int r)
{
    return r <= p.Cm ? r * p.Km : p.Cm * p.Km + (r - p.Cm) * p.Kp;
}

/*!
 * A code block's circular buffer in closed form, for the GPU's dematching:
 * which positions are <NULL>, and each position's rank (the non-<NULL>
 * positions before it) from a 32-entry table per stream, without a scan.
 * In every column of a sub-block interleaver the <NULL>s (dummy bits, and
 * filler bits of d(0), d(1)) are the first rows, as y grows with the row;
 * the one exception is d(2)'s last position (column 31, row R-1), which
 * wraps to y = 0. Positions are named (stream i, column, row), k = column R
 * + row; w = k for i = 0, K_Pi + 2k + i - 1 for the interlaced d(1), d(2).
 */
struct circular_layout {
    int R, Kpi, ND, F, total;
    uint8_t nz[3][SUBBLOCK_COLUMNS];          //!< <NULL> rows at the top of each column
    uint16_t before[3][SUBBLOCK_COLUMNS + 1]; //!< <NULL>s in the columns before

    GPURX_HD void init(int K, int filler)
    {
        R = subblock_rows(K);
        Kpi = R * SUBBLOCK_COLUMNS;
        ND = Kpi - (K + 4);
        F = filler;
        total = 3 * (K + 4) - 2 * F;
        for (int i = 0; i < 3; i++) {
            before[i][0] = 0;
            for (int c = 0; c < SUBBLOCK_COLUMNS; c++) {
                const int first = column_permutation(c) + (i == 2 ? 1 : 0);
                const int limit = i < 2 ? ND + F : ND; // y below it is <NULL>
                int n = limit > first ? (limit - first + SUBBLOCK_COLUMNS - 1) / SUBBLOCK_COLUMNS : 0;
                n = n < R ? n : R;
                nz[i][c] = uint8_t(n);
                before[i][c + 1] = uint16_t(before[i][c] + n);
            }
        }
    }
    //! The codeword position 3d+i at (i, column, row), or -1 for a <NULL>.
    GPURX_HD int codeword(int i, int col, int row) const
    {
        int y = column_permutation(col) + SUBBLOCK_COLUMNS * row;
        if (i == 2 && ++y == Kpi)
            y = 0;
        const int d = y - ND;
        return d < 0 || (i < 2 && d < F) ? -1 : 3 * d + i;
    }
    //! Non-<NULL> positions before (i, column, row).
    GPURX_HD int rank_at(int i, int col, int row) const
    {
        const int k = col * R + row;
        auto nulls = [&](int s) { return before[s][col] + (row < nz[s][col] ? row : nz[s][col]); };
        if (i == 0)
            return k - nulls(0);
        const int n0 = Kpi - before[0][SUBBLOCK_COLUMNS];
        return n0 + (k - nulls(1)) + (k - nulls(2)) + (i == 2 && codeword(1, col, row) >= 0 ? 1 : 0);
    }
    //! Non-<NULL> positions before w, for any w in 0..K_w.
    GPURX_HD int rank(int w) const
    {
        if (w >= 3 * Kpi)
            return total;
        if (w < Kpi)
            return rank_at(0, w / R, w % R);
        const int k = (w - Kpi) >> 1;
        return rank_at(1 + ((w - Kpi) & 1), k / R, k % R);
    }
    //! The circular-buffer position of (i, column, row).
    GPURX_HD int position(int i, int col, int row) const
    {
        const int k = col * R + row;
        return i == 0 ? k : Kpi + 2 * k + i - 1;
    }
};

/*!
 * Where the j-th bit of the concatenated codeword (§5.1.5) is transmitted:
 * j on the downlink; on the uplink the channel interleaver (§5.2.2.8, no
 * UCI) writes Q_m-bit symbols row by row into C_mux = n_symb columns and
 * reads them out column by column.
 */
GPURX_HD int transmitted_index(const frame_params& p, int j)
{
    if (p.channel != ULSCH)
        return j;
    const int symbol = j / p.qm, bit = j - symbol * p.qm;
    const int rows = p.G / (p.qm * p.n_symb);
    const int row = symbol / p.n_symb, column = symbol - row * p.n_symb;
    return (column * rows + row) * p.qm + bit;
}

//! One step of x1 (x1(n+31) = x1(n+3) + x1(n)) on a 31-bit state whose bit
//! t is x1(n+t).
GPURX_HD uint32_t gold_x1_next(uint32_t s) { return ((s ^ (s >> 3)) & 1u); }
//! x2(n+31) = x2(n+3) + x2(n+2) + x2(n+1) + x2(n).
GPURX_HD uint32_t gold_x2_next(uint32_t s) { return ((s ^ (s >> 1) ^ (s >> 2) ^ (s >> 3)) & 1u); }
/*!
 * 32 scrambling bits c(32t) .. c(32t+31) (bit b of the result is c(32t+b))
 * from the two registers' states at n = 32t + Nc: bits 0..30 are the states
 * themselves, bit 31 the next output of each.
 */
GPURX_HD uint32_t gold_word(uint32_t x1, uint32_t x2)
{
    return (x1 ^ x2) | ((gold_x1_next(x1) ^ gold_x2_next(x2)) << 31);
}
//! The register state 32 steps on, 16 new bits at a time: x(n+31+t) needs
//! only bits up to n+30 for t <= 27.
GPURX_HD uint32_t gold_x1_advance32(uint32_t s)
{
    for (int h = 0; h < 2; h++)
        s = (s >> 16) | (((s ^ (s >> 3)) & 0xFFFFu) << 15);
    return s;
}
GPURX_HD uint32_t gold_x2_advance32(uint32_t s)
{
    for (int h = 0; h < 2; h++)
        s = (s >> 16) | (((s ^ (s >> 1) ^ (s >> 2) ^ (s >> 3)) & 0xFFFFu) << 15);
    return s;
}
//! A 31x31 GF(2) matrix (column j = image of state bit j) applied to a state.
GPURX_HD uint32_t gf2_apply(const uint32_t* columns, uint32_t s)
{
    uint32_t y = 0;
    for (int j = 0; j < 31; j++)
        y ^= (0u - ((s >> j) & 1u)) & columns[j];
    return y;
}

//! Saturating int16 soft-buffer arithmetic.
GPURX_HD int16_t saturate16(int32_t v)
{
    return int16_t(v > 32767 ? 32767 : (v < -32767 ? -32767 : v));
}
GPURX_HD int8_t saturate8(int32_t v) { return int8_t(v > 127 ? 127 : (v < -127 ? -127 : v)); }
//! A <NULL> filler bit's decoder input: a certain zero (LLR -127/8).
constexpr int8_t CERTAIN_ZERO = -127;

//! (a * b) mod g over GF(2) for 24-bit a, b (g = the CRC polynomial, x^24 implied).
GPURX_HD uint32_t crc24_mulmod(uint32_t a, uint32_t b, uint32_t g)
{
    uint32_t r = 0;
    for (int i = 23; i >= 0; i--) {
        // r = r * x mod g, then add b's bit i times a.
        const uint32_t top = (r >> 23) & 1u;
        r = ((r << 1) & 0xFFFFFFu) ^ (top ? g : 0u);
        if ((b >> i) & 1u)
            r ^= a;
    }
    return r;
}
//! A 32-bit word (bit 31 first) as a polynomial, mod g.
GPURX_HD uint32_t crc24_word_mod(uint32_t w, uint32_t g)
{
    uint32_t r = 0;
    for (int i = 31; i >= 0; i--) {
        const uint32_t top = (r >> 23) & 1u;
        r = ((r << 1) & 0xFFFFFFu) ^ (top ? g : 0u);
        r ^= (w >> i) & 1u;
    }
    return r;
}

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/pdsch/pdsch_grant.h"

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {

std::string field(const char* name, long v)
{
    return std::string(name) + "=" + std::to_string(v);
}

//! N_RB^RBGsubset(p): PRBs in RBG subset p (36.213 §7.1.6.2).
int rbg_subset_size(int n_prb, int p)
{
    const int P = rbg_size(n_prb);
    const int last = ((n_prb - 1) / P) % P;
    const int base = ((n_prb - 1) / (P * P)) * P;
    if (p < last)
        return base + P;
    if (p == last)
        return base + (n_prb - 1) % P + 1;
    return base;
}

void type0_prbs(const pdsch_grant& g, int n_prb, std::vector<int>& out)
{
    const int P = rbg_size(n_prb), n_rbg = rbg_count(n_prb);
    for (int r = 0; r < n_rbg; r++)
        if ((g.rbg_bitmask >> (n_rbg - 1 - r)) & 1u)
            for (int n = r * P; n < std::min(n_prb, (r + 1) * P); n++)
                out.push_back(n);
}

// 36.213 §7.1.6.2: bit i of subset p's bitmap is VRB
// floor((i + shift) / P) P^2 + p P + (i + shift) mod P.
void type1_prbs(const pdsch_grant& g, int n_prb, std::vector<int>& out)
{
    const int P = rbg_size(n_prb), bits = type1_bitmap_bits(n_prb);
    const int shift = g.type1_shift ? rbg_subset_size(n_prb, g.type1_subset) - bits : 0;
    for (int i = 0; i < bits; i++)
        if ((g.type1_bitmap >> (bits - 1 - i)) & 1u) {
            const int j = i + shift;
            out.push_back((j / P) * P * P + g.type1_subset * P + j % P);
        }
    std::sort(out.begin(), out.end());
}

} // namespace

const char* pdsch_scheme_name(pdsch_scheme s)
{
    switch (s) {
    case pdsch_scheme::single_port:
        return "single_port";
    case pdsch_scheme::transmit_diversity:
        return "transmit_diversity";
    case pdsch_scheme::large_delay_cdd:
        return "large_delay_cdd";
    default:
        return "spatial_multiplexing";
    }
}

int distributed_vrb_to_prb(int n_vrb, int slot_parity, int n_prb, int gap)
{
    const int n_gap = vrb_gap(n_prb, gap);
    const int n_dvrb = distributed_vrb_count(n_prb, gap);
    if (n_vrb < 0 || n_vrb >= n_dvrb)
        throw std::invalid_argument(field("n_vrb", n_vrb) +
                                    " is outside the distributed VRBs 0.." +
                                    std::to_string(n_dvrb - 1));
    // The interleaver works on blocks of N~_VRB VRBs (all of them for gap 1,
    // 2 N_gap for gap 2).
    const int n_tilde = gap == 1 ? n_dvrb : 2 * n_gap;
    const int P = rbg_size(n_prb);
    const int n_row = (n_tilde + 4 * P - 1) / (4 * P) * P;
    const int n_null = 4 * n_row - n_tilde;
    const int block = n_vrb / n_tilde, v = n_vrb % n_tilde;
    // Written row by row: the last N_null/2 rows hold two VRBs each, in
    // columns 0 and 2 (columns 1 and 3 are nulls there).
    const int full_rows = n_row - n_null / 2;
    int row, col;
    if (v < 4 * full_rows) {
        row = v / 4;
        col = v % 4;
    } else {
        row = full_rows + (v - 4 * full_rows) / 2;
        col = 2 * ((v - 4 * full_rows) % 2);
    }
    // Read column by column, skipping the nulls: columns 1 and 3 are
    // N_null/2 shorter.
    static const int shorter_before[4] = { 0, 0, 1, 1 };
    int p = col * n_row - shorter_before[col] * (n_null / 2) + row;
    if (slot_parity)
        p = (p + n_tilde / 2) % n_tilde;
    p += block * n_tilde;
    return p < n_tilde / 2 ? p : p + n_gap - n_tilde / 2;
}

std::string grant_problem(const pdsch_grant& g, const cell& c)
{
    const std::string cp = c.check();
    if (!cp.empty())
        return cp;
    const int n = c.n_prb;
    switch (g.alloc) {
    case resource_allocation::type0: {
        const int n_rbg = rbg_count(n);
        if (g.rbg_bitmask == 0 || (n_rbg < 32 && (g.rbg_bitmask >> n_rbg) != 0))
            return field("rbg_bitmask", g.rbg_bitmask) +
                   " is empty or wider than N_RBG=" + std::to_string(n_rbg);
        break;
    }
    case resource_allocation::type1: {
        const int bits = type1_bitmap_bits(n);
        if (g.type1_subset < 0 || g.type1_subset >= rbg_size(n))
            return field("type1_subset", g.type1_subset) + " is outside 0..P-1";
        if (g.type1_bitmap == 0 || (g.type1_bitmap >> bits) != 0)
            return field("type1_bitmap", g.type1_bitmap) + " is empty or wider than " +
                   std::to_string(bits) + " bits";
        std::vector<int> v;
        type1_prbs(g, n, v);
        if (v.back() >= n)
            return field("type1_bitmap", g.type1_bitmap) + " reaches PRB " +
                   std::to_string(v.back()) + " of a " + std::to_string(n) + "-PRB cell";
        break;
    }
    case resource_allocation::type2: {
        if (g.distributed && g.gap != 1 && g.gap != 2)
            return field("gap", g.gap) + " is not 1 or 2";
        const int n_vrb = g.distributed ? distributed_vrb_count(n, g.gap) : n;
        if (g.rb_len < 1 || g.rb_start < 0 || g.rb_start + g.rb_len > n_vrb)
            return field("rb_start", g.rb_start) + ", " + field("rb_len", g.rb_len) +
                   " do not fit " + std::to_string(n_vrb) + " VRBs";
        break;
    }
    default:
        return field("alloc", long(g.alloc)) + " is not 0, 1 or 2";
    }
    const int ncw = g.n_codewords();
    if (ncw == 0)
        return "no transport block is enabled";
    for (int q = 0; q < 2; q++) {
        const pdsch_tb& t = g.tb[size_t(q)];
        if (!t.enabled)
            continue;
        if (t.qm != 2 && t.qm != 4 && t.qm != 6 && t.qm != 8)
            return "tb[" + std::to_string(q) + "]." + field("qm", t.qm) +
                   " is not 2, 4, 6 or 8";
        if (t.rv < 0 || t.rv > 3)
            return "tb[" + std::to_string(q) + "]." + field("rv", t.rv) +
                   " is outside 0..3";
        if (t.tbs < 16)
            return "tb[" + std::to_string(q) + "]." + field("tbs", t.tbs) +
                   " is below 16";
    }
    switch (g.scheme) {
    case pdsch_scheme::single_port:
        if (ncw != 1 || g.n_layers != 1)
            return "single_port with " + std::to_string(ncw) + " codewords and " +
                   field("n_layers", g.n_layers);
        break;
    case pdsch_scheme::transmit_diversity:
        if (c.ports == 1)
            return "transmit_diversity in a cell of ports=1";
        if (ncw != 1 || g.n_layers != c.ports)
            return "transmit_diversity with " + std::to_string(ncw) + " codewords and " +
                   field("n_layers", g.n_layers) +
                   " (needs 1 codeword on ports=" + std::to_string(c.ports) + " layers)";
        break;
    case pdsch_scheme::large_delay_cdd:
    case pdsch_scheme::spatial_multiplexing:
        if (c.ports != 2)
            return std::string(pdsch_scheme_name(g.scheme)) +
                   " is supported for ports=2 only, not ports=" + std::to_string(c.ports);
        if (g.n_layers < ncw || g.n_layers > 2)
            return field("n_layers", g.n_layers) + " with " + std::to_string(ncw) +
                   " codewords";
        if (g.scheme == pdsch_scheme::large_delay_cdd && g.n_layers != 2)
            return "large_delay_cdd with " + field("n_layers", g.n_layers) +
                   " (one layer is sent with transmit diversity)";
        if (g.scheme == pdsch_scheme::spatial_multiplexing &&
            (g.codebook_index < 0 || g.codebook_index > (g.n_layers == 1 ? 3 : 2)))
            return field("codebook_index", g.codebook_index) +
                   " is not in Table 6.3.4.2.3-1 for " + std::to_string(g.n_layers) +
                   " layers";
        break;
    default:
        return field("scheme", long(g.scheme)) + " is not a PDSCH scheme";
    }
    return {};
}

prb_allocation prbs_of(const pdsch_grant& g, const cell& c)
{
    const std::string why = grant_problem(g, c);
    if (!why.empty())
        throw std::invalid_argument(why);
    prb_allocation a;
    const int n = c.n_prb;
    if (g.alloc == resource_allocation::type0) {
        type0_prbs(g, n, a.slot[0]);
    } else if (g.alloc == resource_allocation::type1) {
        type1_prbs(g, n, a.slot[0]);
    } else if (!g.distributed) {
        for (int v = g.rb_start; v < g.rb_start + g.rb_len; v++)
            a.slot[0].push_back(v);
    } else {
        for (int s = 0; s < 2; s++) {
            for (int v = g.rb_start; v < g.rb_start + g.rb_len; v++)
                a.slot[size_t(s)].push_back(distributed_vrb_to_prb(v, s, n, g.gap));
            std::sort(a.slot[size_t(s)].begin(), a.slot[size_t(s)].end());
        }
        return a;
    }
    a.slot[1] = a.slot[0];
    return a;
}

bool dci2_precoding(int n_codewords, int precoding_info, pdsch_grant& g)
{
    if (n_codewords == 1) {
        if (precoding_info == 0) {
            g.scheme = pdsch_scheme::transmit_diversity;
            g.n_layers = 2;
            g.codebook_index = 0;
            return true;
        }
        if (precoding_info >= 1 && precoding_info <= 4) {
            g.scheme = pdsch_scheme::spatial_multiplexing;
            g.n_layers = 1;
            g.codebook_index = precoding_info - 1;
            return true;
        }
        return false;
    }
    if (n_codewords == 2 && (precoding_info == 0 || precoding_info == 1)) {
        g.scheme = pdsch_scheme::spatial_multiplexing;
        g.n_layers = 2;
        g.codebook_index = precoding_info + 1;
        return true;
    }
    return false;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

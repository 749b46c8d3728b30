/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/control/dci.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {

//! Fields in the order they were sent, MSB first (36.212 §5.3.3.1: the
//! first field's MSB is a_0).
class field_reader
{
public:
    field_reader(const uint8_t* b, int n) : d_b(b), d_n(n) {}
    uint32_t take(int bits)
    {
        uint32_t v = 0;
        for (int i = 0; i < bits; i++) {
            v <<= 1;
            if (d_pos < d_n)
                v |= d_b[d_pos] ? 1u : 0u;
            d_pos++;
        }
        return v;
    }

private:
    const uint8_t* d_b;
    int d_n, d_pos = 0;
};

void fail(dci_message& m, const std::string& why)
{
    if (m.valid) {
        m.valid = false;
        m.error = why;
    }
}

int ceil_log2(int v)
{
    int b = 0;
    while ((1 << b) < v)
        b++;
    return b;
}

//! Type 0 (36.213 §7.1.6.1): RBG i (MSB first) covers PRBs i P .. i P + P - 1,
//! the last RBG what is left of the band.
void type0_rbs(const cell& c, dci_message& m)
{
    const int p = rbg_size(c.n_prb), n_rbg = rbg_count(c.n_prb);
    for (int i = 0; i < n_rbg; i++)
        if ((m.rbg_bitmap >> (n_rbg - 1 - i)) & 1u)
            for (int r = i * p; r < std::min(c.n_prb, (i + 1) * p); r++)
                m.rbs.push_back(r);
    if (m.rbs.empty())
        fail(m, "resource allocation type 0 with no RBG");
}

//! Type 1 (36.213 §7.1.6.2): PRBs of RBG subset p, the bitmap's bit i at
//! floor((i + shift) / P) P^2 + p P + (i + shift) mod P.
void type1_rbs(const cell& c, dci_message& m)
{
    const int n = c.n_prb, P = rbg_size(n);
    const int bitmap_bits = rbg_count(n) - ceil_log2(P) - 1;
    if (m.subset >= P) {
        fail(m, "resource allocation type 1 subset " + std::to_string(m.subset) + " is not below P=" + std::to_string(P));
        return;
    }
    // PRBs in subset p (N_RB^RBGsubset(p)).
    const int last = ((n - 1) / P) % P;
    int in_subset = ((n - 1) / (P * P)) * P;
    if (m.subset < last)
        in_subset += P;
    else if (m.subset == last)
        in_subset += (n - 1) % P + 1;
    const int delta = m.shift ? in_subset - bitmap_bits : 0;
    for (int i = 0; i < bitmap_bits; i++) {
        if (!((m.subset_bitmap >> (bitmap_bits - 1 - i)) & 1u))
            continue;
        const int j = i + delta;
        const int prb = (j / P) * P * P + m.subset * P + j % P;
        if (prb >= n || i + delta >= in_subset) {
            fail(m, "resource allocation type 1 reaches PRB " + std::to_string(prb) + " outside the subset or band");
            continue;
        }
        m.rbs.push_back(prb);
    }
    if (m.rbs.empty())
        fail(m, "resource allocation type 1 with no PRB");
}

//! Type 2 (36.213 §7.1.6.3): RIV over \p n_riv RBs, the allocation within
//! \p n_limit VRBs (the band, or N_VRB^DL when distributed); 1C's in units
//! of \p step.
void type2_rbs(dci_message& m, int n_riv, int n_limit, int step)
{
    int s = 0, l = 0;
    if (!riv_decode(m.riv, n_riv, s, l)) {
        fail(m, "RIV " + std::to_string(m.riv) + " is out of range for " + std::to_string(n_riv) + " RBs");
        return;
    }
    m.rb_start = s * step;
    m.rb_len = l * step;
    if (m.rb_start + m.rb_len > n_limit) {
        fail(m, "type 2 allocation " + std::to_string(m.rb_start) + "+" + std::to_string(m.rb_len) + " exceeds " +
                    std::to_string(n_limit) + " RBs");
        return;
    }
    for (int r = m.rb_start; r < m.rb_start + m.rb_len; r++)
        m.rbs.push_back(r);
}

//! Header and bitmap of formats 1, 2, 2A.
void read_type01(const cell& c, field_reader& f, dci_message& m)
{
    const int n_rbg = rbg_count(c.n_prb);
    m.ra_type = c.n_prb > 10 ? int(f.take(1)) : 0;
    if (m.ra_type == 0) {
        m.rbg_bitmap = f.take(n_rbg);
        type0_rbs(c, m);
    } else {
        const int P = rbg_size(c.n_prb);
        m.subset = int(f.take(ceil_log2(P)));
        m.shift = int(f.take(1));
        m.subset_bitmap = f.take(n_rbg - ceil_log2(P) - 1);
        type1_rbs(c, m);
    }
}

//! Localized/distributed flag and RIV of 1A, 1B, 1D. \p broadcast: a 1A of
//! SI/P/RA-RNTI, whose gap bit (50 PRBs and more) is the NDI field instead.
void read_compact(const cell& c, field_reader& f, dci_message& m, bool broadcast)
{
    m.ra_type = 2;
    m.distributed = f.take(1) != 0;
    const int bits = riv_bits(c.n_prb);
    if (m.distributed && c.n_prb >= 50 && !broadcast) {
        m.gap = 1 + int(f.take(1));
        m.riv = int(f.take(bits - 1));
    } else {
        m.riv = int(f.take(bits));
    }
}

void finish_compact(const cell& c, dci_message& m)
{
    const int limit = m.distributed ? distributed_vrb_count(c.n_prb, m.gap) : c.n_prb;
    type2_rbs(m, c.n_prb, limit, 1);
}

void read_tb(field_reader& f, dci_tb& tb, bool two_tb_format)
{
    tb.mcs = int(f.take(5));
    tb.ndi = int(f.take(1));
    tb.rv = int(f.take(2));
    tb.enabled = !(two_tb_format && tb.mcs == 0 && tb.rv == 1);
}

} // namespace

bool riv_decode(int riv, int n, int& start, int& length)
{
    if (n < 1 || riv < 0 || long(riv) >= long(n) * (n + 1) / 2)
        return false;
    // RIV = n (L - 1) + S when L - 1 <= floor(n / 2), else n (n - L + 1) + n - 1 - S.
    const int a = riv / n, b = riv % n;
    if (a + b < n) {
        length = a + 1;
        start = b;
    } else {
        length = n - a + 1;
        start = n - 1 - b;
    }
    return length >= 1 && start >= 0 && start + length <= n;
}

dci_message parse_dci(const cell& c, dci_format fmt, const uint8_t* bits, int n_bits, uint16_t rnti)
{
    const dci_sizes sizes = dci_payload_sizes(c);
    if (n_bits != sizes.of(fmt) || n_bits <= 0)
        throw std::invalid_argument("n_bits=" + std::to_string(n_bits) + " is not the size of format " +
                                    dci_format_name(fmt) + " (" + std::to_string(sizes.of(fmt)) + ")");
    dci_message m;
    m.format = fmt;
    m.rnti = rnti;
    m.bits.assign(bits, bits + n_bits);
    field_reader f(bits, n_bits);
    const bool broadcast = is_broadcast_rnti(rnti);

    switch (fmt) {
    case dci_format::f0:
    case dci_format::f1a: {
        const bool is_1a = f.take(1) != 0;
        m.format = is_1a ? dci_format::f1a : dci_format::f0;
        if (!is_1a) {
            m.hopping = f.take(1) != 0;
            m.ul_riv = int(f.take(riv_bits(c.n_prb)));
            m.ul_mcs_rv = int(f.take(5));
            m.tb[0].ndi = int(f.take(1));
            m.tpc = int(f.take(2));
            m.cyclic_shift = int(f.take(3));
            m.cqi_request = int(f.take(1));
            int s = 0, l = 0;
            if (!m.hopping && !riv_decode(m.ul_riv, c.n_prb, s, l))
                fail(m, "uplink RIV " + std::to_string(m.ul_riv) + " is out of range");
            break;
        }
        read_compact(c, f, m, broadcast);
        const int riv_field_all_ones = (1 << riv_bits(c.n_prb)) - 1;
        if (!broadcast && !m.distributed && m.riv == riv_field_all_ones) {
            // 36.212 §5.3.3.1.3: a PDCCH order (random access), no grant.
            m.pdcch_order = true;
            m.preamble_index = int(f.take(6));
            m.prach_mask = int(f.take(4));
            m.ra_type = -1;
            break;
        }
        m.tb[0].mcs = int(f.take(5));
        m.harq_pid = int(f.take(3));
        const int ndi = int(f.take(1));
        m.tb[0].rv = int(f.take(2));
        m.tpc = int(f.take(2));
        if (broadcast) {
            // HARQ reserved; NDI is the gap bit with distributed VRBs at 50
            // PRBs and more; the TPC field's LSB picks N_PRB^1A 2 or 3, and
            // the MCS field is the TBS index (36.213 §7.1.7).
            m.harq_pid = 0;
            if (m.distributed && c.n_prb >= 50)
                m.gap = 1 + ndi;
            m.n_prb_1a = (m.tpc & 1) ? 3 : 2;
            m.tbs_index = m.tb[0].mcs;
        } else {
            m.tb[0].ndi = ndi;
        }
        finish_compact(c, m);
        if (broadcast && m.tbs_index > 26)
            fail(m, "TBS index " + std::to_string(m.tbs_index) + " of a broadcast format 1A is above 26");
        break;
    }
    case dci_format::f1:
        read_type01(c, f, m);
        m.tb[0].mcs = int(f.take(5));
        m.harq_pid = int(f.take(3));
        m.tb[0].ndi = int(f.take(1));
        m.tb[0].rv = int(f.take(2));
        m.tpc = int(f.take(2));
        break;
    case dci_format::f1b:
    case dci_format::f1d:
        read_compact(c, f, m, false);
        m.tb[0].mcs = int(f.take(5));
        m.harq_pid = int(f.take(3));
        m.tb[0].ndi = int(f.take(1));
        m.tb[0].rv = int(f.take(2));
        m.tpc = int(f.take(2));
        m.precoding = int(f.take(c.ports == 4 ? 4 : 2));
        if (fmt == dci_format::f1b)
            m.pmi_confirmation = int(f.take(1));
        else
            m.power_offset = int(f.take(1));
        finish_compact(c, m);
        break;
    case dci_format::f1c: {
        m.ra_type = 2;
        m.distributed = true;
        if (c.n_prb >= 50)
            m.gap = 1 + int(f.take(1));
        const int step = format1c_step(c.n_prb);
        const int n_riv = distributed_vrb_count(c.n_prb, 1) / step;
        m.riv = int(f.take(riv_bits(n_riv)));
        m.tbs_index = int(f.take(5));
        const int n_vrb = distributed_vrb_count(c.n_prb, m.gap);
        type2_rbs(m, n_riv, n_vrb, step);
        break;
    }
    case dci_format::f2:
    case dci_format::f2a: {
        read_type01(c, f, m);
        m.tpc = int(f.take(2));
        m.harq_pid = int(f.take(3));
        m.swap = f.take(1) != 0;
        read_tb(f, m.tb[0], true);
        read_tb(f, m.tb[1], true);
        m.n_tb = 2;
        const int prec_bits = fmt == dci_format::f2 ? (c.ports == 4 ? 6 : 3) : (c.ports == 4 ? 2 : 0);
        m.precoding = int(f.take(prec_bits));
        if (!m.tb[0].enabled && !m.tb[1].enabled)
            fail(m, "both transport blocks are disabled (MCS 0 with RV 1)");
        const bool both = m.tb[0].enabled && m.tb[1].enabled;
        m.layers = both ? 2 : 1;
        if (c.ports == 2 && m.valid) {
            if (fmt == dci_format::f2a) {
                m.tx_diversity = !both; // one TB: transmit diversity; two: large-delay CDD
                m.layers = 2;
            } else if (both) {
                // Table 5.3.3.1.5-4, two codewords: 0, 1 the TPMIs of 2 layers, 2 the reported PMI.
                if (m.precoding > 2)
                    fail(m, "precoding information " + std::to_string(m.precoding) + " is reserved for two codewords");
                m.tpmi = m.precoding <= 1 ? m.precoding : -1;
            } else {
                // One codeword: 0 transmit diversity, 1..4 TPMI 0..3, 5 and 6 the reported PMI, 7 reserved.
                if (m.precoding == 7)
                    fail(m, "precoding information 7 is reserved for one codeword");
                m.tx_diversity = m.precoding == 0;
                m.layers = m.tx_diversity ? 2 : 1;
                m.tpmi = (m.precoding >= 1 && m.precoding <= 4) ? m.precoding - 1 : -1;
            }
        }
        break;
    }
    }
    return m;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

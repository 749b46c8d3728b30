/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/receiver/grant_of_dci.h"

#include "lte/tables/tables.h"

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

namespace {

//! The PRBs of \p g's allocation alone (prbs_of() checks the whole grant:
//! a stand-in TB and single-port scheme make it check only the allocation).
int allocated_prbs(const pdsch_grant& g, const cell& c)
{
    pdsch_grant a = g;
    a.tb = {};
    a.tb[0].enabled = true;
    a.tb[0].tbs = 16;
    a.scheme = pdsch_scheme::single_port;
    a.n_layers = 1;
    return int(prbs_of(a, c).slot[0].size());
}

} // namespace

std::string grant_of_dci(const cell& c, const dci_message& m, pdsch_grant& g)
{
    if (!m.valid)
        return "impossible grant: " + m.error;
    if (m.format == dci_format::f0)
        return "an uplink grant (format 0)";
    if (m.pdcch_order)
        return "a PDCCH order (random access), no PDSCH";
    const bool rank1 = m.format == dci_format::f1b || m.format == dci_format::f1d;
    if (rank1) {
        if (c.ports != 2)
            return std::string("format ") + dci_format_name(m.format) + " with " + std::to_string(c.ports) +
                   " ports: only 2-port precoding is received";
        // 36.212 Table 5.3.3.1.3A-2: 1 means the UE's last PUSCH PMI report.
        if (m.format == dci_format::f1b && m.pmi_confirmation != 0)
            return "format 1B PMI confirmation 1: precoded with the UE's PMI report, which the receiver does not see";
        // 36.213 Table 7.1.5-1: field 0 is -3 dB, and the PDSCH step
        // receives every grant at the one P_A it is given.
        if (m.format == dci_format::f1d && m.power_offset == 0)
            return "format 1D downlink power offset -3 dB: only 0 dB (field 1) is received";
    }
    g = pdsch_grant{};
    g.rnti = m.rnti;
    switch (m.ra_type) {
    case 0:
        g.alloc = resource_allocation::type0;
        g.rbg_bitmask = m.rbg_bitmap;
        break;
    case 1:
        g.alloc = resource_allocation::type1;
        g.type1_subset = m.subset;
        g.type1_shift = m.shift != 0;
        g.type1_bitmap = m.subset_bitmap;
        break;
    default:
        g.alloc = resource_allocation::type2;
        g.rb_start = m.rb_start;
        g.rb_len = m.rb_len;
        g.distributed = m.distributed;
        g.gap = m.gap;
        break;
    }
    int n_prb = 0;
    try {
        n_prb = allocated_prbs(g, c);
    } catch (const std::invalid_argument& ex) {
        return std::string("impossible grant: ") + ex.what();
    }

    // Transmission scheme and layers.
    int n_cw = 0;
    for (int i = 0; i < m.n_tb && i < 2; i++)
        n_cw += m.tb[i].enabled ? 1 : 0;
    if (n_cw == 0)
        return "no transport block enabled";
    if (rank1) {
        // 36.213 §7.1.4 (TM6), §7.1.5 (TM5): one layer, closed-loop precoded
        // with the TPMI's entry of 36.211 Table 6.3.4.2.3-1 (36.212 Tables
        // 5.3.3.1.3A-1, 5.3.3.1.4A-1: 2 ports, TPMI 0..3 = codebook index).
        g.scheme = pdsch_scheme::spatial_multiplexing;
        g.n_layers = 1;
        g.codebook_index = m.precoding;
    } else if (m.format == dci_format::f2) {
        if (c.ports != 2)
            return "format 2 with " + std::to_string(c.ports) + " ports: only 2-port precoding is received";
        if (!dci2_precoding(n_cw, m.precoding, g))
            return "format 2 precoding information " + std::to_string(m.precoding) +
                   " refers to the UE's PMI report, which the receiver does not see";
    } else if (m.format == dci_format::f2a) {
        if (m.tx_diversity || n_cw == 1) {
            g.scheme = c.ports == 1 ? pdsch_scheme::single_port : pdsch_scheme::transmit_diversity;
            g.n_layers = c.ports;
        } else {
            if (c.ports != 2)
                return "format 2A with " + std::to_string(c.ports) + " ports: only 2-port CDD is received";
            g.scheme = pdsch_scheme::large_delay_cdd;
            g.n_layers = 2;
        }
    } else {
        g.scheme = c.ports == 1 ? pdsch_scheme::single_port : pdsch_scheme::transmit_diversity;
        g.n_layers = c.ports;
    }
    // Layers each TB's size is read for (§7.1.7.2): one under transmit
    // diversity, else its codeword's share of the layers.
    const bool spatial = g.scheme == pdsch_scheme::large_delay_cdd || g.scheme == pdsch_scheme::spatial_multiplexing;
    const int tbs_layers = spatial ? g.n_layers / n_cw : 1;

    // The codeword each enabled TB travels on (36.212 §5.3.3.1.5): with
    // both enabled, TB 1 on codeword 0 and TB 2 on codeword 1, exchanged by
    // the swap flag (Table 5.3.3.1.5-1); with one disabled the other is on
    // codeword 0 and the flag is reserved (Table 5.3.3.1.5-2).
    int cw_of_tb[2] = { 0, 0 };
    if (n_cw == 2) {
        cw_of_tb[0] = m.swap ? 1 : 0;
        cw_of_tb[1] = m.swap ? 0 : 1;
    }
    for (int i = 0; i < m.n_tb && i < 2; i++) {
        if (!m.tb[i].enabled)
            continue;
        pdsch_tb& t = g.tb[size_t(cw_of_tb[i])];
        t.enabled = true;
        t.tb_index = i;
        t.mcs = m.tb[i].mcs;
        t.rv = m.tb[i].rv;
        t.ndi = m.tb[i].ndi;
        t.harq_process = m.harq_pid;
        try {
            if (m.format == dci_format::f1c) {
                t.qm = 2;
                t.tbs = tbs_format1c(m.tbs_index);
            } else if (m.format == dci_format::f1a && is_broadcast_rnti(m.rnti)) {
                // §7.1.7: QPSK, I_TBS = the MCS field, column N_PRB^1A.
                t.qm = 2;
                t.tbs = tbs_of(m.tbs_index >= 0 ? m.tbs_index : m.tb[i].mcs, m.n_prb_1a);
            } else {
                const auto e = pdsch_mcs(t.mcs);
                t.qm = e.qm;
                t.tbs = e.retransmission_only() ? 0 : tbs_of(e.itbs, n_prb, tbs_layers);
            }
        } catch (const std::invalid_argument& ex) {
            return std::string("no TBS: ") + ex.what();
        }
    }
    // A retransmission-only MCS leaves tbs 0: the caller takes it from the
    // HARQ process before the grant is complete.
    pdsch_grant check = g;
    for (auto& t : check.tb)
        if (t.enabled && t.tbs == 0)
            t.tbs = 16;
    const std::string bad = grant_problem(check, c);
    if (!bad.empty())
        return "impossible grant: " + bad;
    return {};
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

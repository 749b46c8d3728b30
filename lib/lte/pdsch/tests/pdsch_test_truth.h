/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// For the PDSCH tests: lte_dl_gen captures received grant by grant. The
// grant comes from the generator's JSON truth (as the DCI parser would give
// it), the grid from the test OFDM demodulator, the channel from what the
// generator's output mode makes of the ports (-o: each port on its own
// antenna, -S: h = [1 1], -R: the truth's h2x2); every TB is decoded and
// compared with the truth's payload, and the RE count and G with the
// truth's nof_re and G.
#ifndef INCLUDED_GPURX_LTE_PDSCH_TESTS_PDSCH_TEST_TRUTH_H
#define INCLUDED_GPURX_LTE_PDSCH_TESTS_PDSCH_TEST_TRUTH_H

#include "lte/common/tests/lte_capture.h"
#include "lte/pdsch/pdsch_grant.h"
#include "lte/pdsch/pdsch_receiver.h"
#include "lte_test_ofdm.h"
#include "pdsch_test_decode.h"

#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace test {

//! The grant of one entry of the truth's pdsch_list.
inline core::lte::pdsch_grant grant_of_truth(const nlohmann::json& p, int ports)
{
    using namespace core::lte;
    pdsch_grant g;
    g.rnti = p.at("rnti").get<int>();
    const int at = p.at("alloc_type").get<int>();
    if (at == 0) {
        g.alloc = resource_allocation::type0;
        g.rbg_bitmask = p.at("rbg_bitmask").get<uint32_t>();
    } else if (at == 2) {
        g.alloc = resource_allocation::type2;
        g.rb_start = p.at("rb_start").get<int>();
        g.rb_len = p.at("rb_len").get<int>();
        g.distributed = false; // the generator sends localized VRBs only
    } else {
        throw std::runtime_error("alloc_type " + std::to_string(at) + " in the truth");
    }
    for (const auto& t : p.at("tb")) {
        const int cw = t.at("cw").get<int>();
        pdsch_tb& b = g.tb.at(size_t(cw));
        b.enabled = true;
        b.mcs = t.at("mcs").get<int>();
        b.tbs = t.at("tbs").get<int>();
        b.rv = t.at("rv").get<int>();
        b.ndi = t.at("ndi").get<int>();
        b.harq_process = t.at("pid").get<int>();
        b.qm = t.at("qm").get<int>();
    }
    const std::string s = p.at("tx_scheme").get<std::string>();
    const int layers = p.at("nof_layers").get<int>();
    const int pmi = p.at("pmi").get<int>();
    if (s == "p0") {
        g.scheme = pdsch_scheme::single_port;
        g.n_layers = 1;
    } else if (s == "div") {
        g.scheme = pdsch_scheme::transmit_diversity;
        g.n_layers = ports;
    } else if (s == "cdd") {
        g.scheme = pdsch_scheme::large_delay_cdd;
        g.n_layers = layers;
    } else if (s == "mux") {
        g.scheme = pdsch_scheme::spatial_multiplexing;
        g.n_layers = layers;
        // The truth's pmi is DCI 2's precoding information for two layers
        // (0, 1: codebook indices 1, 2) and the codebook index for one.
        g.codebook_index = layers == 2 ? pmi + 1 : pmi;
    } else {
        throw std::runtime_error("tx_scheme " + s + " in the truth");
    }
    return g;
}

struct capture_tally {
    int tbs = 0;           //!< TBs in the truth a UE must decode (code rate <= 0.93)
    int too_high_rate = 0; //!< TBs of code rate (tbs + 24) / G above 0.93: not counted
    int payload_ok = 0;    //!< decoded, CRC good, equal to the truth's payload
    int si_ok = 0;         //!< of payload_ok, SI-RNTI (0xffff) TBs
    int pdschs = 0;        //!< PDSCHs in the truth
    int nof_re_ok = 0;     //!< RE count equal to the truth's nof_re
    int g_ok = 0;          //!< every codeword's G equal to the truth's
    std::vector<std::string> problems;
    std::string summary() const
    {
        std::ostringstream s;
        s << payload_ok << " of " << tbs << " TBs equal to the truth (" << too_high_rate
          << " more of code rate above 0.93; " << si_ok << " SI); nof_re " << nof_re_ok
          << " of " << pdschs << ", G " << g_ok << " of " << pdschs;
        for (size_t i = 0; i < problems.size() && i < 8; i++)
            s << "\n  " << problems[i];
        return s.str();
    }
};

//! A test's own grant for an entry of the truth's pdsch_list, in place of
//! grant_of_truth() (the TBs in codeword order, as pdsch_grant has them).
using truth_grant_fn =
    std::function<core::lte::pdsch_grant(const nlohmann::json& p, const core::lte::cell& c)>;

inline capture_tally receive_capture(const std::string& args,
                                     lte_rx_setup setup,
                                     const core::lte::pdsch_rx_options& opt = {},
                                     const truth_grant_fn& grant_fn = {})
{
    using namespace core::lte;
    const lte_capture cap = generate_lte_capture(args, setup);
    capture_tally tally;
    if (cap.truth.empty())
        return tally;
    const auto& t0 = cap.truth[0];
    cell c;
    c.n_prb = t0.at("nof_prb").get<int>();
    c.cell_id = t0.at("cell_id").get<int>();
    c.ports = t0.at("ports").get<int>();
    const int fft = t0.at("fft").get<int>();
    const int n_rx = int(cap.rx.size());
    // The channel from port p to antenna r, flat.
    std::vector<cf> h(size_t(n_rx) * c.ports, cf(0.0f, 0.0f));
    if (setup == lte_rx_setup::port_files) {
        for (int r = 0; r < n_rx && r < c.ports; r++)
            h[size_t(r) * c.ports + r] = 1.0f;
    } else if (setup == lte_rx_setup::ports_summed) {
        for (int p = 0; p < c.ports; p++)
            h[size_t(p)] = 1.0f;
    } else {
        const auto& m = t0.at("h2x2");
        for (int i = 0; i < 4; i++)
            h[size_t(i)] = cf(m.at(size_t(2 * i)).get<float>(),
                              m.at(size_t(2 * i + 1)).get<float>());
    }
    const float noise_var = t0.contains("snr_db")
                                ? std::pow(10.0f, -t0.at("snr_db").get<float>() / 10.0f)
                                : 0.0f;

    test_ofdm_demod ofdm(fft);
    pdsch_receiver rx(opt);
    subframe_grid grid;
    channel_estimate ch;
    ch.resize(n_rx, c.ports, c.symbols_per_subframe(), c.n_sc());
    ch.noise_var = noise_var;
    const size_t plane = size_t(ch.n_symbols) * ch.n_sc;
    for (int r = 0; r < n_rx; r++)
        for (int p = 0; p < c.ports; p++)
            std::fill(ch.h.begin() + long((size_t(r) * c.ports + p) * plane),
                      ch.h.begin() + long((size_t(r) * c.ports + p + 1) * plane),
                      h[size_t(r) * c.ports + p]);

    std::vector<core::sch::tb_request> reqs;
    std::vector<std::vector<float>> llrs;
    std::vector<std::vector<uint8_t>> want;
    std::vector<std::string> names;
    for (const auto& t : cap.truth) {
        const int sf = t.at("sf_idx").get<int>();
        const size_t off = t.at("sample_offset").get<size_t>();
        grid.resize(n_rx, c.symbols_per_subframe(), c.n_sc());
        grid.time.sfn = t.at("sfn").get<int>();
        grid.time.subframe = sf;
        for (int r = 0; r < n_rx; r++) {
            if (off + size_t(15 * fft) > cap.rx[size_t(r)].size())
                throw std::runtime_error("capture shorter than its truth");
            ofdm.demodulate(c, cap.rx[size_t(r)].data() + off, r, grid);
        }
        const int cfi = t.at("cfi").get<int>();
        for (const auto& p : t.at("pdsch_list")) {
            const pdsch_grant g = grant_fn ? grant_fn(p, c) : grant_of_truth(p, c.ports);
            const std::string where = "sf " + std::to_string(t.at("sf").get<int>()) +
                                      " rnti " + std::to_string(g.rnti) + " " +
                                      p.at("tx_scheme").get<std::string>();
            tally.pdschs++;
            pdsch_llrs out;
            const std::string why = rx.receive(c, cfi, g, grid, ch, out);
            if (!why.empty()) {
                tally.problems.push_back(where + ": " + why);
                continue;
            }
            if (out.n_re == p.at("nof_re").get<int>())
                tally.nof_re_ok++;
            else
                tally.problems.push_back(where + ": nof_re " + std::to_string(out.n_re) +
                                         ", truth " +
                                         std::to_string(p.at("nof_re").get<int>()));
            bool g_ok = true;
            for (int q = 0; q < g.n_codewords(); q++) {
                const auto& tb = p.at("tb").at(size_t(q));
                if (out.g[size_t(q)] != tb.at("G").get<int>())
                    g_ok = false;
                // 36.213 §7.1.7: a UE may skip a TB whose effective code
                // rate is above 0.93 (the generator sends such TBs where
                // PBCH and PSS/SSS take the REs of small cells).
                if (tb.at("cr").get<double>() > 0.93) {
                    tally.too_high_rate++;
                    continue;
                }
                tally.tbs++;
                reqs.push_back(pdsch_tb_request(g, out, q, c.cell_id, sf));
                llrs.push_back(out.llr[size_t(q)]);
                want.push_back(hex_bits(tb.at("payload").get<std::string>(),
                                        tb.at("tbs").get<int>()));
                names.push_back(where + " tb " + std::to_string(q));
            }
            tally.g_ok += g_ok;
        }
    }
    const auto got = decode_tbs(reqs, llrs);
    for (size_t i = 0; i < got.size(); i++) {
        if (got[i].crc_ok && got[i].bits == want[i]) {
            tally.payload_ok++;
            tally.si_ok += reqs[i].rnti == 0xffff;
        } else
            tally.problems.push_back(
                names[i] + (got[i].crc_ok ? ": payload differs" : ": CRC fails"));
    }
    return tally;
}

} // namespace test
} // namespace gpurx
} // namespace gr

#endif

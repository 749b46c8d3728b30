/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/control/pdcch_blind.h"
#include "lte/coding/lte_cc.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

float reencoded_correlation(const uint8_t* bits, int K, const float* llr, int E)
{
    return cc_correlation(bits, K, llr, E);
}

bool cce_power_gate::passes(int ncce, int agg) const
{
    if (power == nullptr || !(sigmas > 0.0f))
        return true;
    float sum = 0.0f;
    for (int n = ncce; n < ncce + agg; n++)
        sum += power[n];
    const float mean = sum / float(agg);
    return mean >= 1.0f + sigmas / std::sqrt(36.0f * float(agg) * float(std::max(1, n_rx)));
}

void pdcch_blind_decoder::run(const float* cce_llr, int n_cce, const std::vector<pdcch_job>& jobs,
                              pdcch_job_results& out, const cce_power_gate& gate)
{
    int max_bits = 0;
    for (const auto& j : jobs)
        max_bits = std::max(max_bits, j.payload_bits + 16);
    out.max_bits = max_bits;
    out.crc_xor.assign(jobs.size(), 0);
    out.correlation.assign(jobs.size(), 0.0f);
    out.bits.assign(jobs.size() * size_t(max_bits), 0);
    for (size_t j = 0; j < jobs.size(); j++) {
        const pdcch_job& job = jobs[j];
        if (job.ncce < 0 || job.agg < 1 || job.ncce + job.agg > n_cce || job.payload_bits < 1)
            continue;
        if (!gate.passes(job.ncce, job.agg)) {
            d_jobs_gated++;
            continue;
        }
        d_jobs_run++;
        const float* llr = cce_llr + size_t(72 * job.ncce);
        const int E = 72 * job.agg, K = job.payload_bits + 16;
        uint8_t* bits = &out.bits[j * size_t(max_bits)];
        const cc_crc16_result r = d_decoder.decode_with_crc16(llr, E, job.payload_bits, bits);
        out.crc_xor[j] = r.crc_xor;
        out.correlation[j] = d_decoder.correlation(bits, K, llr, E);
    }
}

namespace {

bool overlaps(const dci_message& a, const dci_message& b)
{
    return a.ncce < b.ncce + b.agg && b.ncce < a.ncce + a.agg;
}

} // namespace

std::vector<dci_message> drop_overlapping_decodes(std::vector<scored_dci> found)
{
    // A CCE carries one PDCCH (36.211 §6.8.1), so of the decodings on
    // overlapping CCEs one is right. Best first: higher correlation, then,
    // when close, the larger aggregation (a DCI of aggregation 2L decodes
    // as well from its first L CCEs), then the higher correlation.
    std::sort(found.begin(), found.end(), [](const scored_dci& a, const scored_dci& b) {
        if (std::fabs(a.correlation - b.correlation) > 0.05f)
            return a.correlation > b.correlation;
        if (a.msg.agg != b.msg.agg)
            return a.msg.agg > b.msg.agg;
        if (a.correlation != b.correlation)
            return a.correlation > b.correlation;
        return a.msg.ncce < b.msg.ncce;
    });
    std::vector<dci_message> kept;
    for (auto& f : found) {
        bool clash = false;
        for (const auto& k : kept)
            clash |= overlaps(k, f.msg);
        if (!clash)
            kept.push_back(std::move(f.msg));
    }
    std::sort(kept.begin(), kept.end(), [](const dci_message& a, const dci_message& b) { return a.ncce < b.ncce; });
    return kept;
}

std::vector<dci_message> pdcch_blind_decoder::decode(const control_layout& lay, const float* cce_llr,
                                                      int subframe, const blind_config& cfg,
                                                      const cce_power_gate& gate)
{
    const dci_sizes sizes = dci_payload_sizes(lay.c);
    const int size_01a = sizes.of(dci_format::f1a), size_1c = sizes.of(dci_format::f1c);

    // Where each candidate may be, and at which sizes: a job per distinct
    // (CCE, aggregation, size); the spaces that list it are kept with it.
    struct want {
        bool common = false;
        std::vector<uint16_t> ue; // RNTIs whose UE space holds it
    };
    std::map<std::tuple<int, int, int>, want> wanted;
    if (cfg.common_space)
        for (const auto& cand : common_search_space(lay.n_cce))
            for (int s : { size_01a, size_1c })
                wanted[{ cand.ncce, cand.agg, s }].common = true;
    for (uint16_t rnti : cfg.c_rntis)
        for (const auto& cand : ue_search_space(lay.n_cce, rnti, subframe))
            for (dci_format f : cfg.ue_formats) {
                const int s = sizes.of(f);
                if (s > 0)
                    wanted[{ cand.ncce, cand.agg, s }].ue.push_back(rnti);
            }
    std::vector<pdcch_job> jobs;
    std::vector<want> wants;
    for (const auto& w : wanted) {
        jobs.push_back({ std::get<0>(w.first), std::get<1>(w.first), std::get<2>(w.first) });
        wants.push_back(w.second);
    }
    pdcch_job_results res;
    run(cce_llr, lay.n_cce, jobs, res, gate);

    auto format_of_ue_size = [&](int s) {
        for (dci_format f : cfg.ue_formats)
            if (sizes.of(f) == s)
                return f;
        return dci_format::f1a;
    };
    std::vector<scored_dci> found;
    for (size_t j = 0; j < jobs.size(); j++) {
        if (res.correlation[j] < cfg.min_correlation)
            continue;
        const uint16_t x = res.crc_xor[j];
        const pdcch_job& job = jobs[j];
        const bool is_c_rnti = std::find(cfg.c_rntis.begin(), cfg.c_rntis.end(), x) != cfg.c_rntis.end();
        bool accept = false, common = false;
        dci_format fmt = dci_format::f1a;
        const auto& ue = wants[j].ue;
        if (std::find(ue.begin(), ue.end(), x) != ue.end()) {
            accept = true;
            fmt = format_of_ue_size(job.payload_bits);
        } else if (wants[j].common && (is_broadcast_rnti(x) || (is_c_rnti && job.payload_bits == size_01a))) {
            accept = true;
            common = true;
            fmt = job.payload_bits == size_01a ? dci_format::f1a : dci_format::f1c;
        }
        if (!accept)
            continue;
        scored_dci d;
        d.msg = parse_dci(lay.c, fmt, &res.bits[j * size_t(res.max_bits)], job.payload_bits, x);
        d.msg.ncce = job.ncce;
        d.msg.agg = job.agg;
        d.msg.common_space = common;
        d.correlation = res.correlation[j];
        found.push_back(std::move(d));
    }
    return drop_overlapping_decodes(std::move(found));
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

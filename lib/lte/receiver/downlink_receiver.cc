/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/receiver/downlink_receiver.h"

#include "lte/control/control_region.h"
#include "lte/control/rnti_tracker.h"
#include "lte/grid/channel_estimator.h"
#include "lte/grid/ofdm_demod.h"
#include "lte/mac/rar.h"
#include "lte/pdsch/pdsch_receiver.h"
#include "lte/receiver/grant_of_dci.h"
#include "lte/sync/subframe_tracker.h"
#ifdef GPURX_HAVE_CUDA
#include "lte/grid/cuda/grid_gpu.h"
#endif

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

void downlink_options::validate() const
{
    if (n_rx < 1 || n_rx > 2)
        throw std::invalid_argument("n_rx=" + std::to_string(n_rx) + " is not 1 or 2");
    if (fft_size_of_rate(sample_rate) == 0 || fft_size_of_rate(sample_rate) % 128 != 0)
        throw std::invalid_argument("sample_rate=" + std::to_string(sample_rate) +
                                    " is not 15 kHz times a multiple of 128 (1.92, 3.84, 7.68, 15.36, 23.04, "
                                    "30.72 MS/s)");
    for (int r : rntis)
        if (r < 1 || r > 0xFFFF)
            throw std::invalid_argument("rnti=" + std::to_string(r) + " is outside 1..65535");
    if (!every_ue && rntis.empty() && !broadcast)
        throw std::invalid_argument("rntis: none given, and neither every_ue nor broadcast asked for");
    if (batch_subframes < 1 || batch_subframes > 1000)
        throw std::invalid_argument("batch_subframes=" + std::to_string(batch_subframes) + " is outside 1..1000");
    if (front_end != "auto" && front_end != "cpu" && front_end != "cuda")
        throw std::invalid_argument("front_end=" + front_end + " is not auto, cpu or cuda");
    if (!(search_ms >= 10.0 && search_ms <= 1000.0))
        throw std::invalid_argument("search_ms=" + std::to_string(search_ms) + " is outside 10..1000");
    if (tm < 0 || tm > 7)
        throw std::invalid_argument("tm=" + std::to_string(tm) + " is not 0 (unknown) or 1..7");
    if (!(pdcch_gate_sigmas >= 0.0f && pdcch_gate_sigmas <= 100.0f))
        throw std::invalid_argument("pdcch_gate_sigmas=" + std::to_string(pdcch_gate_sigmas) + " is outside 0..100");
}

std::vector<uint16_t> rar_temporary_rntis(const dlsch_result& r, std::string& error)
{
    error.clear();
    std::vector<uint16_t> v;
    if (!r.crc_ok || !is_ra_rnti(uint16_t(r.tb.rnti)))
        return v;
    const rar_pdu p = parse_rar_bits(r.bits.data(), r.bits.size());
    if (!p.ok) {
        error = p.error;
        return v;
    }
    for (const auto& a : p.rars)
        if (is_c_rnti_value(a.tc_rnti))
            v.push_back(a.tc_rnti);
    return v;
}

const char* subframe_outcome_name(subframe_outcome o)
{
    switch (o) {
    case subframe_outcome::decoded: return "decoded";
    case subframe_outcome::no_control: return "no_control";
    default: return "lost";
    }
}

//! Everything that exists once a cell is acquired.
struct downlink_receiver::chain {
    cell c;
    int fft_size;
    long long frame_start; //!< in the tracker's stream
    int sfn0;              //!< SFN of the frame starting there
    double nominal_period;
    subframe_tracker tracker;
    ofdm_demodulator demod;
    channel_estimator estimator;
    pdcch_blind_decoder blind;
    blind_config bcfg;
    std::unique_ptr<rnti_tracker> rntis;
    pdsch_receiver pdsch;
    subframe_grid grid;
    channel_estimate h;
    bool have_first = false;
    long long first_counter = 0, first_abs = 0;
    bool lost_track = false;
#ifdef GPURX_HAVE_CUDA
    // The GPU front end: subframes staged until a batch is full.
    std::unique_ptr<grid_gpu> gpu;          //!< its pinned staging holds [b][rx][15 N]
    std::vector<subframe_report> pending; //!< the staged subframes' reports
    std::vector<subframe_grid> grids;
    std::vector<channel_estimate> ests;
    std::vector<uint8_t> ok;
#endif

    chain(const acquisition_result& a, const downlink_options& o)
        : c(a.c),
          fft_size(a.fft_size),
          frame_start(a.frame_start),
          sfn0(a.sfn),
          nominal_period(o.sample_rate / 1000.0),
          tracker(a.search, o.n_rx, o.sample_rate, 0),
          demod(a.c, a.fft_size, o.n_rx),
          estimator(a.c, o.n_rx),
          pdsch(pdsch_options(o))
    {
        bcfg.common_space = o.broadcast;
        bcfg.ue_formats = ue_formats_of_tm(o.tm);
        if (o.every_ue) {
            rnti_tracker_config rc;
            rc.common_space = o.broadcast;
            rc.ue_formats = bcfg.ue_formats;
            rntis = std::make_unique<rnti_tracker>(rc);
            bcfg.common_space = false; // the tracker searches it
        } else {
            for (int r : o.rntis)
                bcfg.c_rntis.push_back(uint16_t(r));
        }
    }
    static pdsch_rx_options pdsch_options(const downlink_options& o)
    {
        pdsch_rx_options p;
        p.algorithm = o.detector;
        return p;
    }
    //! Subframe number since SFN 0 of the record with tracker counter \p n.
    long long absolute_subframe(const tracked_subframe& t)
    {
        if (!have_first) {
            have_first = true;
            first_counter = t.counter;
            const long long k = std::llround(double(t.start_sample - frame_start) / nominal_period);
            first_abs = (long long)sfn0 * 10 + k;
        }
        return first_abs + (t.counter - first_counter);
    }
};

downlink_receiver::downlink_receiver(const downlink_options& o) : d_o(o)
{
    d_o.validate();
    d_dlsch = std::make_unique<dlsch_decoder>(o.dlsch);
    d_search_buf.assign(size_t(o.n_rx), {});
#ifndef GPURX_HAVE_CUDA
    if (d_o.front_end == "cuda")
        throw std::invalid_argument("front_end=cuda: this build has no CUDA");
#endif
    d_front_line = "front end: CPU";
}

bool downlink_receiver::want_gpu_front_end()
{
#ifdef GPURX_HAVE_CUDA
    if (d_o.front_end == "cpu" || (d_o.front_end == "auto" && !d_dlsch->on_cuda()))
        return false;
    try {
        const int device = d_o.dlsch.devices == "all" ? 0 : std::atoi(d_o.dlsch.devices.c_str());
        d_chain->gpu = std::make_unique<grid_gpu>(d_chain->c, d_chain->fft_size, d_o.n_rx, d_o.batch_subframes, device);
        d_front_line = "front end: CUDA device " + std::to_string(device) + ", batches of " +
                       std::to_string(d_o.batch_subframes) + " subframes";
        return true;
    } catch (const std::exception& e) {
        if (d_o.front_end == "cuda")
            throw;
        d_front_line = std::string("front end: CPU (the CUDA one is not usable: ") + e.what() + ")";
        return false;
    }
#else
    return false;
#endif
}

downlink_receiver::~downlink_receiver() = default;

std::vector<uint16_t> downlink_receiver::active_rntis() const
{
    if (d_chain && d_chain->rntis)
        return d_chain->rntis->active_rntis();
    std::vector<uint16_t> v;
    for (int r : d_o.rntis)
        v.push_back(uint16_t(r));
    return v;
}

void downlink_receiver::feed(const cf* const* rx, size_t n)
{
    d_fed += (long long)n;
    if (!d_chain) {
        for (int a = 0; a < d_o.n_rx; a++)
            d_search_buf[size_t(a)].insert(d_search_buf[size_t(a)].end(), rx[a], rx[a] + n);
        try_acquire();
        return;
    }
    for (const auto& t : d_chain->tracker.feed(rx, n))
        process(t);
    if (d_chain->lost_track) {
        flush_gpu();
        collect(true);
        d_chain.reset();
        d_acq = acquisition_result{};
        d_search_reason = "track lost: searching again";
    }
}

void downlink_receiver::feed_gap(size_t n)
{
    d_fed += (long long)n;
    if (!d_chain) {
        // A search buffer must be contiguous: start it afresh.
        for (auto& b : d_search_buf)
            b.clear();
        return;
    }
    for (const auto& t : d_chain->tracker.feed_gap(n))
        process(t);
}

void downlink_receiver::try_acquire()
{
    const size_t need = size_t(d_o.search_ms * 1e-3 * d_o.sample_rate);
    if (d_search_buf[0].size() < need)
        return;
    std::vector<const cf*> ptr;
    for (auto& b : d_search_buf)
        ptr.push_back(b.data());
    d_acq = acquire_cell(ptr.data(), d_o.n_rx, d_search_buf[0].size(), d_o.sample_rate);
    if (!d_acq.found) {
        d_search_reason = d_acq.reason;
        // Keep the last 10 ms: a cell starting there is found with what follows.
        const size_t keep = size_t(10e-3 * d_o.sample_rate);
        for (auto& b : d_search_buf)
            b.erase(b.begin(), b.end() - std::ptrdiff_t(std::min(keep, b.size())));
        return;
    }
    d_search_reason.clear();
    d_chain = std::make_unique<chain>(d_acq, d_o);
    want_gpu_front_end();
    // The tracker starts at the search buffer's first sample.
    std::vector<std::vector<cf>> buf;
    buf.swap(d_search_buf);
    d_search_buf.assign(size_t(d_o.n_rx), {});
    std::vector<const cf*> p2;
    for (auto& b : buf)
        p2.push_back(b.data());
    for (const auto& t : d_chain->tracker.feed(p2.data(), buf[0].size()))
        process(t);
}

void downlink_receiver::process(const tracked_subframe& t)
{
    chain& ch = *d_chain;
    subframe_report r;
    const long long abs = ch.absolute_subframe(t);
    r.index = t.counter;
    r.sfn = int((abs / 10) % 1024);
    r.subframe = int(abs % 10);
    r.cfo_hz = t.cfo_hz;
    if (t.status != subframe_status::ok) {
        flush_gpu(); // the reports stay in order
        r.outcome = subframe_outcome::lost;
        r.reason = t.reason.empty() ? "no samples" : t.reason;
        if (t.status == subframe_status::track_lost)
            ch.lost_track = true;
        d_reports.push_back(r);
        return;
    }
#ifdef GPURX_HAVE_CUDA
    if (ch.gpu) {
        // Consecutive subframes fill a batch; anything else flushes it first.
        if (!ch.pending.empty() && ch.pending.back().index + 1 != r.index)
            flush_gpu();
        // Straight into the GPU's pinned staging (no batch is in flight
        // between flushes: flush_gpu() collects the one it starts).
        const size_t per = size_t(ch.demod.subframe_samples());
        cf* dst = ch.gpu->staging() + ch.pending.size() * size_t(d_o.n_rx) * per;
        for (int a = 0; a < d_o.n_rx; a++)
            std::copy(t.rx[size_t(a)].begin(), t.rx[size_t(a)].begin() + std::ptrdiff_t(per), dst + size_t(a) * per);
        ch.pending.push_back(r);
        if (int(ch.pending.size()) == d_o.batch_subframes)
            flush_gpu();
        return;
    }
#endif
    std::vector<const cf*> ptr;
    for (const auto& a : t.rx)
        ptr.push_back(a.data());
    ch.demod.demodulate(ptr.data(), subframe_time{ r.sfn, r.subframe }, ch.grid);
    if (!ch.estimator.estimate(ch.grid, ch.h)) {
        r.outcome = subframe_outcome::no_control;
        r.reason = "no channel estimate";
        d_reports.push_back(r);
        return;
    }
    decode(r, ch.grid, ch.h);
}

void downlink_receiver::flush_gpu()
{
#ifdef GPURX_HAVE_CUDA
    if (!d_chain || !d_chain->gpu || d_chain->pending.empty())
        return;
    chain& ch = *d_chain;
    const size_t n = ch.pending.size();
    const size_t per = size_t(d_o.n_rx) * size_t(ch.demod.subframe_samples());
    // A partial batch: the rest zeros, whose estimates fail and are not used.
    cf* staged = ch.gpu->staging();
    std::fill(staged + n * per, staged + size_t(d_o.batch_subframes) * per, cf(0.0f, 0.0f));
    const auto& first = ch.pending.front();
    ch.gpu->submit_staged(subframe_time{ first.sfn, first.subframe });
    ch.gpu->collect(ch.grids, ch.ests, &ch.ok);
    std::vector<subframe_report> batch;
    batch.swap(ch.pending);
    for (size_t i = 0; i < n; i++) {
        if (!ch.ok[i]) {
            batch[i].outcome = subframe_outcome::no_control;
            batch[i].reason = "no channel estimate";
            d_reports.push_back(batch[i]);
            continue;
        }
        decode(batch[i], ch.grids[i], ch.ests[i]);
    }
#endif
}

void downlink_receiver::decode(subframe_report r, const subframe_grid& grid, const channel_estimate& h)
{
    chain& ch = *d_chain;
    r.noise_var = h.noise_var;
    auto cr = decode_control_region(ch.c, grid, h, ch.blind, ch.bcfg, 0.3f, d_o.pdcch_gate_sigmas);
    if (!cr.ok) {
        r.outcome = subframe_outcome::no_control;
        r.reason = cr.reason;
        d_reports.push_back(r);
        return;
    }
    r.cfi = cr.pcfich.cfi;
    std::vector<dci_message> dcis;
    if (ch.rntis) {
        for (auto& td : ch.rntis->process(cr.layout, cr.cce_llr.data(), r.subframe, cr.gate(d_o.pdcch_gate_sigmas)))
            dcis.push_back(std::move(td.msg));
    } else {
        dcis = std::move(cr.dcis);
    }
    for (const auto& m : dcis) {
        if (m.format == dci_format::f0)
            continue; // uplink
        if (!d_o.broadcast && is_broadcast_rnti(m.rnti))
            continue;
        r.dcis++;
        pdsch_grant g;
        std::string why = grant_of_dci(ch.c, m, g);
        for (auto& gt : g.tb)
            if (why.empty() && gt.enabled && gt.tbs == 0) {
                gt.tbs = d_dlsch->process_tbs(ch.c.cell_id, m.rnti, gt.harq_process, gt.tb_index);
                if (gt.tbs == 0)
                    why = "mcs=" + std::to_string(gt.mcs) +
                          " (a retransmission) of a HARQ process without a first transmission";
            }
        pdsch_llrs llrs;
        if (why.empty())
            why = ch.pdsch.receive(ch.c, r.cfi, g, grid, h, llrs);
        if (!why.empty()) {
            if (!m.pdcch_order)
                r.reason += (r.reason.empty() ? "" : "; ") + std::string("rnti ") + std::to_string(m.rnti) +
                            " dropped: " + why;
            continue;
        }
        r.pdschs++;
        for (int q = 0; q < 2; q++) {
            if (llrs.g[size_t(q)] <= 0)
                continue;
            // q is the codeword (the scrambling's); the TB's DCI index names
            // its HARQ buffer (they differ under the swap flag).
            const pdsch_tb& gt = g.tb[size_t(llrs.tb[size_t(q)])];
            dlsch_tb tb;
            tb.cell_id = ch.c.cell_id;
            tb.sfn = r.sfn;
            tb.subframe = r.subframe;
            tb.rnti = m.rnti;
            tb.tb_index = gt.tb_index;
            tb.codeword = q;
            tb.harq_process = gt.harq_process;
            tb.ndi = gt.ndi;
            tb.rv = gt.rv;
            tb.mcs = gt.mcs;
            tb.tbs = gt.tbs;
            tb.qm = gt.qm;
            tb.nl = llrs.nl[size_t(q)];
            tb.dci_format = dci_format_name(m.format);
            tb.llr = std::move(llrs.llr[size_t(q)]);
            downlink_tb meta;
            meta.ncce = m.ncce;
            meta.agg = m.agg;
            meta.common_space = m.common_space;
            d_meta.push_back(meta);
            d_dlsch->submit(std::move(tb));
        }
    }
    d_reports.push_back(r);
    if (++d_since_collect >= d_o.batch_subframes)
        collect(true);
}

void downlink_receiver::collect(bool)
{
    d_since_collect = 0;
    auto results = d_dlsch->take();
    if (results.size() != d_meta.size())
        throw std::logic_error("downlink_receiver: " + std::to_string(results.size()) + " results for " +
                               std::to_string(d_meta.size()) + " TBs");
    for (size_t i = 0; i < results.size(); i++) {
        downlink_tb t = d_meta[i];
        static_cast<dlsch_result&>(t) = std::move(results[i]);
        t.rar_tc_rntis = rar_temporary_rntis(t, t.rar_error);
        if (!t.rar_error.empty())
            d_rar_malformed++;
        if (d_o.every_ue && d_chain && d_chain->rntis)
            for (uint16_t tc : t.rar_tc_rntis) {
                // The RAR passed a 24-bit CRC: its RNTI is real, so it is
                // searched at once (no sightings needed) and its failed TBs
                // are block errors, not false PDCCH decodes.
                if (!d_chain->rntis->is_active(tc))
                    d_rar_learnt++;
                d_chain->rntis->add_rnti(tc);
                d_confirmed.insert(tc);
            }
        if (d_o.every_ue && !is_broadcast_rnti(uint16_t(t.tb.rnti))) {
            if (t.crc_ok)
                d_confirmed.insert(t.tb.rnti);
            else if (!t.duplicate && !d_confirmed.count(t.tb.rnti)) {
                d_unconfirmed_dropped++;
                continue;
            }
        }
        d_tbs.push_back(std::move(t));
    }
    d_meta.clear();
}

void downlink_receiver::finish()
{
    if (!d_chain && !d_search_buf.empty() && !d_search_buf[0].empty()) {
        // A capture shorter than search_ms: search what there is.
        std::vector<const cf*> ptr;
        for (auto& b : d_search_buf)
            ptr.push_back(b.data());
        const size_t n = d_search_buf[0].size();
        if (n >= size_t(6e-3 * d_o.sample_rate)) {
            d_acq = acquire_cell(ptr.data(), d_o.n_rx, n, d_o.sample_rate);
            if (d_acq.found) {
                d_search_reason.clear();
                d_chain = std::make_unique<chain>(d_acq, d_o);
                want_gpu_front_end();
                for (const auto& t : d_chain->tracker.feed(ptr.data(), n))
                    process(t);
            } else {
                d_search_reason = d_acq.reason;
            }
        } else {
            d_search_reason = "the capture is too short to search (" + std::to_string(n) + " samples)";
        }
    }
    flush_gpu();
    collect(true);
}

std::vector<downlink_tb> downlink_receiver::take_tbs()
{
    std::vector<downlink_tb> v;
    v.swap(d_tbs);
    return v;
}

std::vector<subframe_report> downlink_receiver::take_reports()
{
    std::vector<subframe_report> v;
    v.swap(d_reports);
    return v;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.lte_dl_decoder: the GNU Radio face of core::lte::downlink_receiver.
//
// A sink that keeps its last input item until its upstream has finished:
// GNU Radio ends a sink whose input is done and empty without calling it
// again, and messages posted from stop() can reach message blocks that have
// already ended. Holding one item back guarantees one last call in which the
// end of the stream is known, so the last subframes' TBs are posted while
// every block downstream still runs. stop() (a flowgraph stopped mid-stream)
// posts what is left too.
#include "blocks/drivers/stream_end.h"
#include "blocks/lte/lte_dl_messages.h"
#include "blocks/lte/lte_dl_params.h"
#include "blocks/lte/rx_time_gaps.h"
#include "lte/output/mac_pcap.h"
#include "lte/receiver/downlink_receiver.h"
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include "lte_dl_decoder_params.h"
#include <gnuradio/io_signature.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {

namespace {
namespace lte = core::lte;

std::unique_ptr<lte::mac_pcap_writer> open_pcap(const std::string& path)
{
    if (path.empty())
        return nullptr;
    try {
        return std::make_unique<lte::mac_pcap_writer>(path);
    } catch (const std::exception& e) {
        // Its message names pcap and the path already.
        throw std::invalid_argument(e.what());
    }
}

class lte_dl_decoder_impl final : public lte_dl_decoder
{
    const lte::downlink_options d_opt;
    const std::string d_pcap_path;
    std::unique_ptr<lte::downlink_receiver> d_rx;
    std::unique_ptr<lte::mac_pcap_writer> d_pcap;
    rx_time_gaps d_time;
    const pmt::pmt_t d_tbs_port = pmt::mp("tbs"), d_stats_port = pmt::mp("stats"),
                     d_status_port = pmt::mp("status"), d_rx_time = pmt::mp("rx_time"),
                     d_rx_rate = pmt::mp("rx_rate");

    bool d_finished = false;  // the stream ended: finish() called
    bool d_ever_found = false; // since the receiver was made
    bool d_rate_warned = false;
    lte::acquisition_result d_last_cell;
    std::vector<const lte::cf*> d_ptr;

    // Read by other threads (GUI probes, scripts).
    mutable std::mutex d_mutex;
    std::string d_state, d_backend;
    int d_cell_id = -1;
    std::atomic<uint64_t> d_subframes{ 0 }, d_lost{ 0 }, d_no_control{ 0 }, d_tbs{ 0 }, d_tbs_ok{ 0 },
        d_duplicates{ 0 }, d_ok_bits{ 0 }, d_gaps{ 0 }, d_samples_lost{ 0 };

    void post_status(const std::string& state, const std::string& reason)
    {
        lte_dl_status s;
        s.state = state;
        s.reason = reason;
        s.backend = d_rx->backend_line();
        s.sample_rate = d_opt.sample_rate;
        s.n_rx = d_opt.n_rx;
        if (state == "found")
            d_last_cell = d_rx->acquisition();
        s.have_cell = state != "searching";
        s.acq = d_last_cell;
        {
            std::lock_guard<std::mutex> l(d_mutex);
            d_state = state;
            d_cell_id = state == "found" ? d_last_cell.c.cell_id : -1;
        }
        message_port_pub(d_status_port, status_dict(s));
    }

    void update_status()
    {
        const bool found = d_rx->acquired();
        const std::string state = found ? "found" : (d_ever_found ? "lost" : "searching");
        std::string old;
        {
            std::lock_guard<std::mutex> l(d_mutex);
            old = d_state;
        }
        if (state == old)
            return;
        if (found) {
            d_ever_found = true;
            d_logger->info("{}, {:.2f} MS/s, {} rx; {}", cell_line(d_rx->acquisition()), d_opt.sample_rate / 1e6,
                           d_opt.n_rx, d_rx->backend_line());
            post_status(state, "");
        } else if (state == "lost") {
            d_logger->info("cell {} lost ({}): searching again", d_last_cell.c.cell_id, d_rx->search_status());
            post_status(state, d_rx->search_status());
        } else {
            post_status(state, d_rx->search_status());
        }
    }

    // Everything the receiver has finished, onto the ports.
    void drain()
    {
        for (const auto& r : d_rx->take_reports()) {
            d_subframes++;
            if (r.outcome == lte::subframe_outcome::lost) {
                d_lost++;
                d_logger->debug("SFN {} subframe {}: lost ({})", r.sfn, r.subframe, r.reason);
            } else if (r.outcome == lte::subframe_outcome::no_control) {
                d_no_control++;
                d_logger->debug("SFN {} subframe {}: no control region ({})", r.sfn, r.subframe, r.reason);
            } else {
                d_logger->trace("SFN {} subframe {}: CFI {}, {} DCIs, {} PDSCHs", r.sfn, r.subframe, r.cfi, r.dcis,
                                r.pdschs);
            }
            message_port_pub(d_stats_port, subframe_dict(r));
        }
        for (const auto& t : d_rx->take_tbs()) {
            if (t.duplicate) {
                d_duplicates++;
            } else {
                d_tbs++;
                if (t.crc_ok) {
                    d_tbs_ok++;
                    d_ok_bits += uint64_t(t.tb.tbs);
                }
                if (d_pcap && t.decoded)
                    d_pcap->write(t.bits, t.tb.rnti, t.tb.sfn, t.tb.subframe, t.crc_ok,
                                  double(t.tb.sfn * 10 + t.tb.subframe) * 1e-3);
            }
            d_logger->trace("SFN {} subframe {}: RNTI {} TB {} TBS {} crc_ok {}{}", t.tb.sfn, t.tb.subframe,
                            t.tb.rnti, t.tb.tb_index, t.tb.tbs, t.crc_ok, t.duplicate ? " (duplicate)" : "");
            message_port_pub(d_tbs_port, tb_pdu(t));
        }
        update_status();
    }

    void end_stream()
    {
        d_rx->finish();
        drain();
        d_finished = true;
        // The pcap is complete once closed: a stream's end closes it.
        d_pcap.reset();
    }

    // A new stream for a new receiver: cell search again.
    void restart_receiver()
    {
        d_rx = std::make_unique<lte::downlink_receiver>(d_opt);
        d_ever_found = false;
        post_status("searching", "a new stream");
    }

    void feed(const gr_vector_const_void_star& in, uint64_t from, uint64_t n)
    {
        if (n == 0)
            return;
        d_ptr.resize(in.size());
        for (size_t a = 0; a < in.size(); a++)
            d_ptr[a] = static_cast<const lte::cf*>(in[a]) + from;
        d_rx->feed(d_ptr.data(), size_t(n));
        drain();
    }

    void on_rate_tag(const pmt::pmt_t& v)
    {
        if (d_rate_warned || !pmt::is_real(v))
            return;
        const double r = pmt::to_double(v);
        if (std::fabs(r - d_opt.sample_rate) > 1e-6 * d_opt.sample_rate) {
            d_rate_warned = true;
            d_logger->warn("the stream's rx_rate is {} S/s, not sample_rate {} S/s: nothing will be decoded", r,
                           d_opt.sample_rate);
        }
    }

    void on_time_tag(const gr::tag_t& tag)
    {
        double whole = 0.0, frac = 0.0;
        if (!rx_time_gaps::time_of(tag.value, whole, frac)) {
            d_logger->warn("stream item {}: an rx_time tag that is not a time: ignored", tag.offset);
            return;
        }
        const rx_time_event e = d_time.on_tag(tag.offset, whole, frac);
        if (e.kind == rx_time_event::gap) {
            d_gaps++;
            d_samples_lost += e.lost;
            d_logger->warn("rx_time: {}: the subframes it touches are reported lost", e.why);
            d_rx->feed_gap(size_t(e.lost));
            drain();
        } else if (e.kind == rx_time_event::restart) {
            d_gaps++;
            d_logger->warn("rx_time: {}: the receiver starts afresh (cell search)", e.why);
            d_rx->finish();
            drain();
            restart_receiver();
        }
    }

    // True when every input's upstream has finished and the call holds all
    // that is left.
    bool at_end(const gr_vector_int& ninput)
    {
        if (!detail())
            return false;
        for (int i = 0; i < d_opt.n_rx; i++) {
            const auto reader = detail()->input(i);
            if (!reader || !reader->done() || reader->items_available() > ninput[size_t(i)])
                return false;
        }
        return true;
    }

public:
    lte_dl_decoder_impl(const lte::downlink_options& o, const std::string& pcap)
        : gr::block("lte_dl_decoder",
                    gr::io_signature::make(o.n_rx, o.n_rx, sizeof(gr_complex)),
                    gr::io_signature::make(0, 0, 0)),
          d_opt(o),
          d_pcap_path(pcap),
          d_rx(std::make_unique<lte::downlink_receiver>(o)),
          d_pcap(open_pcap(pcap)),
          d_time(o.sample_rate)
    {
        set_tag_propagation_policy(TPP_DONT);
        message_port_register_out(d_tbs_port);
        message_port_register_out(d_stats_port);
        message_port_register_out(d_status_port);
        d_backend = d_rx->backend_line();
    }

    std::string backend() const override
    {
        std::lock_guard<std::mutex> l(d_mutex);
        return d_backend;
    }
    std::string state() const override
    {
        std::lock_guard<std::mutex> l(d_mutex);
        return d_state.empty() ? "searching" : d_state;
    }
    int cell_id() const override
    {
        std::lock_guard<std::mutex> l(d_mutex);
        return d_cell_id;
    }
    uint64_t subframes() const override { return d_subframes.load(); }
    uint64_t subframes_lost() const override { return d_lost.load(); }
    uint64_t subframes_no_control() const override { return d_no_control.load(); }
    uint64_t tbs() const override { return d_tbs.load(); }
    uint64_t tbs_ok() const override { return d_tbs_ok.load(); }
    uint64_t duplicates() const override { return d_duplicates.load(); }
    uint64_t ok_bits() const override { return d_ok_bits.load(); }
    uint64_t gaps() const override { return d_gaps.load(); }
    uint64_t samples_lost() const override { return d_samples_lost.load(); }

    bool start() override
    {
        // A flowgraph run again after its stream ended: a new stream.
        if (d_finished) {
            try {
                d_finished = false;
                d_time.reset();
                {
                    std::lock_guard<std::mutex> l(d_mutex);
                    d_state.clear();
                }
                d_rx = std::make_unique<lte::downlink_receiver>(d_opt);
                d_ever_found = false;
                if (!d_pcap_path.empty())
                    d_logger->info("pcap {} was closed at the end of the previous stream: this run writes none",
                                   d_pcap_path);
            } catch (const std::exception& e) {
                // start() runs in the block's thread: an exception would
                // leave tb.start() waiting (docs/architecture.md).
                d_logger->error("the receiver could not be made again: {}", e.what());
                return false;
            }
        }
        return true;
    }

    bool stop() override
    {
        if (!d_finished)
            end_stream();
        return true;
    }

    void forecast(int noutput_items, gr_vector_int& required) override
    {
        // One item more than used while the upstream runs (see the top).
        for (size_t i = 0; i < required.size(); i++)
            required[i] = noutput_items + (upstream_finished(*this, int(i)) ? 0 : 1);
    }

    int general_work(int,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star&) override
    {
        {
            std::lock_guard<std::mutex> l(d_mutex);
            if (d_state.empty()) {
                d_state = "searching";
                lte_dl_status s;
                s.state = "searching";
                s.reason = "no cell yet";
                s.backend = d_backend;
                s.sample_rate = d_opt.sample_rate;
                s.n_rx = d_opt.n_rx;
                message_port_pub(d_status_port, status_dict(s));
            }
        }
        if (d_finished)
            return WORK_DONE;
        const int n = *std::min_element(ninput_items.begin(), ninput_items.end());
        const bool end = at_end(ninput_items);
        const int use = std::max(0, end ? n : n - 1);
        const uint64_t first = nitems_read(0);
        std::vector<gr::tag_t> tags, rates;
        get_tags_in_range(tags, 0, first, first + uint64_t(use), d_rx_time);
        get_tags_in_range(rates, 0, first, first + uint64_t(use), d_rx_rate);
        for (const auto& t : rates)
            on_rate_tag(t.value);
        std::sort(tags.begin(), tags.end(), gr::tag_t::offset_compare);
        uint64_t pos = first;
        for (const auto& t : tags) {
            feed(input_items, pos - first, t.offset - pos);
            pos = t.offset;
            on_time_tag(t);
        }
        feed(input_items, pos - first, first + uint64_t(use) - pos);
        consume_each(use);
        if (end) {
            end_stream();
            return WORK_DONE;
        }
        return 0;
    }
};

} // namespace

lte_dl_decoder::sptr make_lte_dl_decoder(const lte_dl_decoder_params& p)
{
    const auto o =
        lte_dl_options_of(p);
    return gnuradio::make_block_sptr<lte_dl_decoder_impl>(o, p.pcap);
}

} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.burst_sync: the GNU Radio face of core::link::burst_receiver. Input
// is taken only while no burst waits for output space, so a slow consumer
// holds the stream back instead of growing a queue.
#include "blocks/drivers/stream_end.h"
#include "link/burst_receiver.h"
#include "burst_sync_params.h"
#include <gnuradio/io_signature.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {

namespace {
namespace lk = core::link;

lk::receiver_config make_config(int sps, double threshold, double min_corr)
{
    lk::receiver_config c;
    c.demod.sps = sps;
    c.demod.min_corr = min_corr;
    c.threshold = threshold;
    return c;
}

class burst_sync_impl final : public burst_sync
{
    lk::burst_receiver d_rx;
    std::deque<lk::burst_result> d_queue;
    size_t d_pos = 0; // symbols of the front burst already written
    // Read by other threads (GRC probes, scripts): atomics.
    std::atomic<uint64_t> d_bursts{ 0 }, d_false_alarms{ 0 };
    uint64_t d_non_finite_seen = 0;
    bool d_at_end = false;
    int64_t d_padded = 0; //!< zeros the receiver took at ends of the stream (burst_receiver::finish())
    const pmt::pmt_t d_len_key;
    const pmt::pmt_t d_errors = pmt::mp("errors");

    //! Writes waiting bursts to out[already..space); returns the new count.
    int flush(gr_complex* out, int already, int space)
    {
        int produced = already;
        while (!d_queue.empty() && produced < space) {
            const lk::burst_result& r = d_queue.front();
            if (d_pos == 0) {
                const uint64_t at = nitems_written(0) + uint64_t(produced);
                add_item_tag(0, at, d_len_key, pmt::from_long(long(r.data.size())));
                add_item_tag(0, at, pmt::mp("gain"), pmt::from_double(r.gain));
                add_item_tag(0, at, pmt::mp("n0"), pmt::from_double(r.n0));
                add_item_tag(0, at, pmt::mp("snr_db"), pmt::from_double(r.snr_db));
                add_item_tag(0, at, pmt::mp("cfo"), pmt::from_double(r.cfo));
                add_item_tag(0, at, pmt::mp("corr"), pmt::from_double(r.corr));
                add_item_tag(0, at, pmt::mp("burst_time"), pmt::from_double(r.timing));
            }
            const size_t n = std::min(r.data.size() - d_pos, size_t(space - produced));
            std::copy(r.data.begin() + long(d_pos), r.data.begin() + long(d_pos + n), out + produced);
            produced += int(n);
            d_pos += n;
            if (d_pos == r.data.size()) {
                d_queue.pop_front();
                d_pos = 0;
            }
        }
        return produced;
    }

public:
    burst_sync_impl(int sps, int data_symbols, double threshold, double min_corr, const std::string& len_tag_key)
        : gr::block("burst_sync",
                    gr::io_signature::make(1, 1, sizeof(gr_complex)),
                    gr::io_signature::make(1, 1, sizeof(gr_complex))),
          d_rx(make_config(sps, threshold, min_corr), data_symbols),
          d_len_key(pmt::mp(len_tag_key))
    {
        set_tag_propagation_policy(TPP_DONT);
        message_port_register_out(d_errors);
    }

    uint64_t bursts() const override { return d_bursts.load(std::memory_order_relaxed); }
    uint64_t false_alarms() const override { return d_false_alarms.load(std::memory_order_relaxed); }

    // A flowgraph run again goes on with the same stream: its end comes
    // again.
    bool start() override
    {
        d_at_end = false;
        return true;
    }

    void forecast(int, gr_vector_int& required) override
    {
        // Once the upstream has finished, one more call with no input sees
        // the end and reports a burst it cut.
        const bool tail = !d_at_end && upstream_finished(*this);
        required[0] = (!d_queue.empty() || tail) ? 0 : 1;
    }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        auto* out = static_cast<gr_complex*>(output_items[0]);
        int produced = flush(out, 0, noutput_items);
        const int nin = ninput_items[0];
        int take = 0;
        if (d_queue.empty() && nin > 0) {
            d_rx.push(static_cast<const gr_complex*>(input_items[0]), size_t(nin));
            take = nin;
            lk::burst_result r;
            while (d_rx.pop(r)) {
                r.timing -= double(d_padded); // input items, not the receiver's samples
                d_logger->trace("burst at sample {:.2f}: cfo {:.3g}, snr {:.1f} dB, corr {:.2f}",
                                r.timing, r.cfo, r.snr_db, r.corr);
                d_queue.push_back(std::move(r));
                d_bursts++;
            }
            produced = flush(out, produced, noutput_items);
            d_false_alarms.store(d_rx.false_alarms(), std::memory_order_relaxed);
            if (d_rx.non_finite() != d_non_finite_seen) {
                d_logger->warn("{} input sample(s) NaN, Inf or beyond 1e15 so far, taken as 0",
                               d_rx.non_finite());
                d_non_finite_seen = d_rx.non_finite();
            }
        } else if (nin == 0 && !d_at_end && input_finished(*this, nin)) {
            d_at_end = true;
            // What the receiver looks at past a burst that ends the stream
            // (burst_receiver::finish()): without it a stream's last burst,
            // sent without a gap after it, was lost as cut.
            const int64_t received = d_rx.samples();
            const size_t pad = d_rx.finish();
            lk::burst_result r;
            while (d_rx.pop(r)) {
                r.timing -= double(d_padded);
                d_queue.push_back(std::move(r));
                d_bursts++;
            }
            produced = flush(out, produced, noutput_items);
            if (d_rx.pending()) {
                const int64_t at = std::max<int64_t>(0, d_rx.pending_sample());
                report_cut_at_end(*this, d_logger, uint64_t(std::max<int64_t>(0, at - d_padded)),
                                  "a burst detected here was cut by the end of the stream",
                                  pmt::from_uint64(uint64_t(std::max<int64_t>(0, received - at))));
            }
            // A restart goes on with the stream: the zeros are not input.
            d_padded += int64_t(pad);
        }
        consume(0, take);
        return produced;
    }
};
} // namespace

burst_sync::sptr make_burst_sync(const burst_sync_params& p)
{
    return gnuradio::make_block_sptr<burst_sync_impl>(
        p.sps, p.data_symbols, p.threshold, p.min_corr, p.len_tag_key);
}

} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.mimo_ofdm_sync: the GNU Radio face of core::ofdm::ofdm_frame_receiver.
// Input is taken only while no frame waits for output space.
#include "blocks/drivers/buffer_limits.h"
#include "blocks/drivers/stream_end.h"
#include "ofdm/ofdm_sync.h"
#include "mimo_ofdm_sync_params.h"
#include <gnuradio/io_signature.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {

namespace {
namespace of = core::ofdm;

class mimo_ofdm_sync_impl final : public mimo_ofdm_sync
{
    const of::ofdm_frame_format d_f;
    const int d_nr;
    of::ofdm_frame_receiver d_rx;
    std::deque<of::ofdm_sync_result> d_queue;
    size_t d_pos = 0; // symbols of the front frame written
    // Read by other threads (GRC probes, scripts): atomics.
    std::atomic<uint64_t> d_frames{ 0 };
    std::atomic<double> d_cfo{ 0.0 };
    uint64_t d_non_finite_seen = 0;
    bool d_at_end = false;
    const size_t d_max_in_work; // frames the workers may hold before input waits

    static int threads_for(int threads, int fft_len)
    {
        if (threads < -1 || threads > 16)
            throw std::invalid_argument("threads must be -1 (auto) or 0..16, got " + std::to_string(threads));
        return threads >= 0 ? threads : (fft_len >= 512 ? 2 : 0);
    }

    // The frames found so far, in order, as far as their symbols are ready
    // (wait: the oldest also when its symbols are still being made).
    void collect(bool wait)
    {
        of::ofdm_sync_result r;
        while (d_rx.pop(r, wait)) {
            d_cfo = r.cfo;
            d_frames++;
            d_queue.push_back(std::move(r));
            wait = false;
        }
    }

    int symbols_per_frame() const { return d_f.training_symbols() + d_f.data_symbols; }

    int flush(gr_vector_void_star& out, int already, int space)
    {
        int produced = already;
        const int N = d_f.fft_len;
        while (!d_queue.empty() && produced < space) {
            const of::ofdm_sync_result& r = d_queue.front();
            const size_t n = std::min(size_t(symbols_per_frame()) - d_pos, size_t(space - produced));
            for (size_t s = 0; s < n; s++)
                for (int rr = 0; rr < d_nr; rr++) {
                    const gr_complex* src = r.symbols.data() + ((d_pos + s) * d_nr + size_t(rr)) * N;
                    std::copy(src, src + N, static_cast<gr_complex*>(out[rr]) + size_t(produced + int(s)) * N);
                }
            produced += int(n);
            d_pos += n;
            if (d_pos == size_t(symbols_per_frame())) {
                d_rx.recycle(std::move(d_queue.front().symbols));
                d_queue.pop_front();
                d_pos = 0;
            }
        }
        return produced;
    }

    output_buffer_limits d_buffer_limits;

public:
    // Its buffers hold whole frames on every run, not only the first
    // (buffer_limits.h).
    bool check_topology(int, int noutputs) override
    {
        d_buffer_limits.restore(*this, noutputs);
        return true;
    }

    mimo_ofdm_sync_impl(int nt, int nr, int fft_len, int cp_len, int used, int repeats, int data_symbols,
                        double threshold, int threads)
        : gr::block("mimo_ofdm_sync",
                    gr::io_signature::make(std::max(nr, 1), std::max(nr, 1), sizeof(gr_complex)),
                    gr::io_signature::make(std::max(nr, 1), std::max(nr, 1),
                                           sizeof(gr_complex) * std::max(fft_len, 1))),
          d_f(nt, fft_len, cp_len, used, repeats, data_symbols),
          d_nr(nr),
          d_rx(d_f, nr, threshold, threads_for(threads, fft_len)),
          d_max_in_work(2 * size_t(threads_for(threads, fft_len)) + 2)
    {
        set_tag_propagation_policy(TPP_DONT);
        message_port_register_out(pmt::mp("errors"));
        // Room for four whole frames of symbols: GNU Radio's default buffer
        // holds 4 symbols of 2048 bins (a frame written 4 symbols per call
        // costs a scheduler round trip each), and with room for fewer than
        // a few frames the blocks after it wait on each other.
        set_min_output_buffer(4 * symbols_per_frame());
        // A frame's symbols for a frame's samples: GNU Radio sizes the
        // upstream buffers for two frames of samples from this (its
        // default, 8192 samples, hands over a 20 MHz frame in a dozen
        // pieces, each a wake-up of this block's thread). Output in whole
        // frames.
        set_relative_rate(uint64_t(symbols_per_frame()), uint64_t(d_f.frame_len()));
        set_output_multiple(symbols_per_frame());
    }

    uint64_t frames() const override { return d_frames.load(std::memory_order_relaxed); }
    double cfo() const override { return d_cfo.load(std::memory_order_relaxed); }

    // A flowgraph run again goes on with the same stream: its end comes
    // again.
    bool start() override
    {
        d_at_end = false;
        return true;
    }

    void forecast(int, gr_vector_int& required) override
    {
        const bool tail = !d_at_end && upstream_finished(*this);
        // Frames with the workers come out without more input.
        for (auto& r : required)
            r = (!d_queue.empty() || tail || d_rx.in_work() > 0) ? 0 : 1;
    }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        int produced = flush(output_items, 0, noutput_items);
        int nin = ninput_items[0];
        for (int r = 1; r < d_nr; r++)
            nin = std::min(nin, ninput_items[r]);
        int take = 0;
        if (d_queue.empty() && (nin > 0 || d_rx.in_work() > 0)) {
            if (nin > 0 && d_rx.in_work() < d_max_in_work) {
                std::vector<const gr_complex*> p(static_cast<size_t>(d_nr));
                for (int r = 0; r < d_nr; r++)
                    p[r] = static_cast<const gr_complex*>(input_items[r]);
                d_rx.push(p.data(), size_t(nin));
                take = nin;
            }
            // Detection goes on while the workers transform; without new
            // input (or with the workers full) wait for the oldest frame.
            collect(take == 0);
            produced = flush(output_items, produced, noutput_items);
            if (d_rx.non_finite() != d_non_finite_seen) {
                d_logger->warn("{} input sample(s) NaN, Inf or beyond 1e15 so far, taken as 0",
                               d_rx.non_finite());
                d_non_finite_seen = d_rx.non_finite();
            }
        } else if (nin == 0 && !d_at_end && input_finished(*this, nin)) {
            d_at_end = true;
            const int64_t last = d_rx.samples();
            for (const int64_t at : d_rx.finish())
                report_cut_at_end(*this, d_logger, uint64_t(std::max<int64_t>(0, at)),
                                  "a frame detected here was cut by the end of the stream",
                                  pmt::from_uint64(uint64_t(last - std::max<int64_t>(0, at))));
            collect(true);
            while (d_rx.in_work() > 0)
                collect(true);
            produced = flush(output_items, produced, noutput_items);
        }
        consume_each(take);
        return produced;
    }
};
} // namespace

mimo_ofdm_sync::sptr make_mimo_ofdm_sync(const mimo_ofdm_sync_params& p)
{
    return gnuradio::make_block_sptr<mimo_ofdm_sync_impl>(p.nt, p.nr, p.fft_len, p.cp_len, p.used, p.repeats,
                                                          p.data_symbols, p.threshold, p.threads);
}

} // namespace gpurx
} // namespace gr

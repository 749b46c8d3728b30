/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.viterbi_stream_decoder: an unbounded stream through the framer
// (viterbi_stream_framer.h) into the batch pipeline, bits out in order.
//
// Input is consumed as it arrives (the framer keeps what later windows
// need), up to a bound that gives back-pressure when the pipeline is full.
// A frame goes into the pipeline as soon as one window is complete, so the
// delay is the window's plus flush_us. A frame's bits may leave over several
// calls (the output buffer's room). forecast() asks for no input while
// frames are in the pipeline, or while steps remain after the upstream has
// finished: that keeps general_work() called until the tail is decoded.
#include "blocks/drivers/llr_staging.h"
#include "blocks/drivers/pipeline_holder.h"
#include "blocks/drivers/stream_driver.h"
#include "blocks/viterbi/viterbi_adapter.h"
#include "blocks/viterbi/viterbi_stream_adapter.h"
#include "viterbi/viterbi_stream_framer.h"
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/gpurx/viterbi_stream_decoder.h>
#include <gnuradio/io_signature.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gr {
namespace gpurx {

namespace {

class viterbi_stream_decoder_impl final : public viterbi_stream_decoder
{
public:
    viterbi_stream_decoder_impl(viterbi_stream_adapter adapter, const pipeline_options& options)
        : gr::block("viterbi_stream_decoder",
                    gr::io_signature::make(1, 1, int(adapter.in_item_bytes())),
                    gr::io_signature::make(1, 1, 1)),
          d_adapter(std::move(adapter)),
          d_holder(d_adapter, options, this->d_logger),
          d_framer(d_adapter.config(), d_adapter.input()),
          // Two frames' input waiting in the framer is enough to keep the
          // pipeline fed; beyond that, input stays upstream.
          d_max_held(2 * d_adapter.max_in_items())
    {
        // Output bits per input item: steps per period / kept items per period.
        const auto code = d_adapter.config().code();
        const size_t period = code.puncture().size() / size_t(code.n());
        set_relative_rate(uint64_t(period), uint64_t(core::stream_coded_items(code, 0, long(period))));
        // Output positions have no fixed relation to input ones.
        set_tag_propagation_policy(TPP_DONT);
        message_port_register_out(d_errors_port);
    }

    // The pipeline is made in tb.start()'s thread (see driver_blocks.h).
    bool check_topology(int, int) override
    {
        d_holder.prepare();
        return true;
    }
    bool start() override
    {
        d_holder.start();
        return gr::block::start();
    }
    bool stop() override
    {
        // The framer's steps and the undelivered bits stay: a restart
        // continues the same stream.
        d_holder.stop();
        return gr::block::stop();
    }
    std::string backend() const override { return d_holder.backend_name(); }
    uint64_t nonfinite_llrs() const override { return d_nonfinite; }

    void forecast(int, gr_vector_int& required) override
    {
        const auto* p = d_holder.pipe();
        // Once the upstream has finished, general_work() runs until it has
        // seen the end (d_at_end): GNU Radio would otherwise end the block
        // without a call when nothing is pending, and a step cut short by
        // the end (a whole stream of one item) would go unreported.
        const bool tail = upstream_done() &&
                          (!d_at_end || d_framer.steps_complete() > d_framer.steps_emitted());
        required[0] = ((p && p->pending() > 0) || tail) ? 0 : 1;
    }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        if (!d_holder.pipe()) {
            d_logger->error("not running ({}): the stream ends here", d_holder.failure());
            return WORK_DONE;
        }
        d_holder.resume_if_restarted(); // what the last stop held goes out first
        auto& pipe = *d_holder.pipe();
        auto* out = static_cast<uint8_t*>(output_items[0]);
        const int nin = ninput_items[0];
        int produced = emit(pipe, out, noutput_items);

        size_t take = 0;
        if (nin > 0 && d_framer.items_held() < d_max_held) {
            take = std::min(size_t(nin), d_max_held - d_framer.items_held());
            append(static_cast<const uint8_t*>(input_items[0]), take);
        }
        if (nin == 0 && !d_at_end && input_finished(*this, nin)) {
            d_at_end = true;
            if (d_framer.partial_step_items() > 0)
                report_partial_step();
        }
        submit_ready(pipe);
        if (d_at_end && !d_framer_has_more())
            pipe.flush(); // nothing more will fill the partial batch
        pipe.launch_due();
        produced += emit(pipe, out + produced, noutput_items - produced);

        if (produced == 0 && take == 0 && pipe.pending() > 0) {
            pipeline_idle_wait(pipe);
            produced += emit(pipe, out + produced, noutput_items - produced);
        }
        consume_each(int(take));
        return produced;
    }

private:
    bool upstream_done()
    {
        if (!detail())
            return false;
        const auto reader = detail()->input(0);
        return reader && reader->done();
    }

    bool d_framer_has_more() const { return d_framer.steps_complete() > d_framer.steps_emitted(); }

    // The last items make no whole trellis step (n coded items, fewer where
    // punctured): logged and posted on "errors" (reason, offset of the
    // step's first item, dropped items).
    void report_partial_step()
    {
        const size_t n = d_framer.partial_step_items();
        const uint64_t at = d_framer.items_received() - n;
        const std::string why = "the stream ended " + std::to_string(n) +
                                " item(s) into a trellis step: those items are dropped, not decoded";
        d_logger->warn("input item {}: {}", at, why);
        pmt::pmt_t d = pmt::make_dict();
        d = pmt::dict_add(d, pmt::mp("reason"), pmt::mp(why));
        d = pmt::dict_add(d, pmt::mp("offset"), pmt::from_uint64(at));
        d = pmt::dict_add(d, pmt::mp("dropped"), pmt::from_uint64(n));
        message_port_pub(d_errors_port, d);
    }

    // Soft LLRs are checked and clamped on arrival, once: the windows'
    // overlap is then copied without a second look.
    void append(const uint8_t* in, size_t n)
    {
        if (d_adapter.input() != core::viterbi::INPUT_SOFT) {
            d_framer.append(in, n);
            return;
        }
        const auto* x = reinterpret_cast<const float*>(in);
        d_clean.resize(n);
        if (!stage_finite_llrs(x, n, d_clean.data())) {
            for (size_t i = 0; i < n; i++)
                if (!std::isfinite(x[i])) {
                    if (d_nonfinite == 0)
                        d_logger->warn("LLR {} of the stream is NaN or Inf: such LLRs are decoded as 0 "
                                       "(no information); later ones are counted (nonfinite_llrs()), "
                                       "not logged",
                                       d_framer.items_received() + i);
                    d_clean[i] = 0.0f;
                    d_nonfinite++;
                }
        }
        d_framer.append(reinterpret_cast<const uint8_t*>(d_clean.data()), n);
    }

    void submit_ready(core::batch_pipeline& pipe)
    {
        core::viterbi_stream_framer::frame f;
        while (pipe.can_accept() && d_framer.next(d_at_end, f)) {
            pipe.submit(f.data, f.bytes, size_t(f.params.payload), &f.params);
            d_framer.advance();
        }
    }

    // Copies completed bits, a frame possibly over several calls.
    int emit(core::batch_pipeline& pipe, uint8_t* out, int room)
    {
        int n = 0;
        while (n < room) {
            const core::completed_frame* f = pipe.front(false);
            if (!f)
                break;
            if (d_front_sent == 0 &&
                (f->rejected ||
                 f->result_as<core::viterbi::stream_frame_result>()->status != core::viterbi::FRAME_DECODED))
                d_logger->error("a segment of {} steps was rejected by the decoder (a bug): its bits are zeros",
                                f->out_bytes);
            const size_t k = std::min(f->out_bytes - d_front_sent, size_t(room - n));
            std::memcpy(out + n, f->data + d_front_sent, k);
            d_front_sent += k;
            n += int(k);
            if (d_front_sent == f->out_bytes) {
                pipe.pop();
                d_front_sent = 0;
            }
        }
        return n;
    }

    viterbi_stream_adapter d_adapter;
    pipeline_holder d_holder;
    core::viterbi_stream_framer d_framer;
    const size_t d_max_held;
    std::vector<float> d_clean;
    size_t d_front_sent = 0; // bits of the front frame already delivered
    bool d_at_end = false;
    uint64_t d_nonfinite = 0;
    const pmt::pmt_t d_errors_port = pmt::mp("errors");
};

} // namespace

viterbi_stream_decoder::sptr viterbi_stream_decoder::make(int K,
                                                          const std::vector<int>& polys,
                                                          int traceback,
                                                          int chunk,
                                                          bool gr_fec_order,
                                                          const std::vector<int>& puncture,
                                                          const std::string& input,
                                                          const pipeline_options& options)
{
    const auto cfg = make_viterbi_stream_config(K, polys, traceback, chunk, gr_fec_order, puncture);
    return gnuradio::make_block_sptr<viterbi_stream_decoder_impl>(
        viterbi_stream_adapter(cfg, parse_viterbi_input(input)), options);
}

} // namespace gpurx
} // namespace gr

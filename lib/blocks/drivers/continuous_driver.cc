/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/drivers/continuous_driver.h"
#include "blocks/drivers/stream_end.h"

#include <algorithm>
#include <cstring>

namespace gr {
namespace gpurx {

continuous_driver::continuous_driver(gr::block& block,
                                     block_tags&,
                                     continuous_adapter& adapter,
                                     pipeline_holder& holder,
                                     size_t frames_held)
    : d_block(block),
      d_adapter(adapter),
      d_holder(holder),
      d_max_held(frames_held * adapter.max_in_items()),
      d_out_item_bytes(adapter.out_item_bytes())
{
}

void continuous_driver::setup()
{
    uint64_t num = 1, den = 1;
    d_adapter.relative_rate(num, den);
    d_block.set_relative_rate(num, den);
    d_block.set_tag_propagation_policy(gr::block::TPP_DONT);
    d_block.message_port_register_out(pmt::mp("errors"));
}

void continuous_driver::forecast(int, gr_vector_int& required) const
{
    const auto* p = d_holder.pipe();
    // Once the upstream has finished, general_work() runs until it has seen
    // the end (d_at_end) and cut the tail: GNU Radio would otherwise end the
    // block without a call when nothing is pending, and input cut short by
    // the end (a whole stream of one item) would go unreported.
    const bool tail = upstream_finished(d_block) && (!d_at_end || d_adapter.more_at_end());
    required[0] = ((p && p->pending() > 0) || tail) ? 0 : 1;
}

int continuous_driver::general_work(int noutput_items,
                                    gr_vector_int& ninput_items,
                                    gr_vector_const_void_star& input_items,
                                    gr_vector_void_star& output_items)
{
    core::batch_pipeline* running = d_holder.pipe_for_work();
    if (!running)
        return gr::block::WORK_DONE;
    auto& pipe = *running;
    auto* out = static_cast<uint8_t*>(output_items[0]);
    const int nin = ninput_items[0];
    int produced = emit(pipe, out, noutput_items);

    size_t take = 0;
    if (nin > 0 && d_adapter.items_held() < d_max_held) {
        take = std::min(size_t(nin), d_max_held - d_adapter.items_held());
        d_adapter.append(static_cast<const uint8_t*>(input_items[0]), take, d_holder.logger());
    }
    if (nin == 0 && !d_at_end && input_finished(d_block, nin)) {
        d_at_end = true;
        if (const size_t n = d_adapter.items_cut_at_end())
            report_cut_at_end(d_block, d_holder.logger(), d_adapter.items_received() - n,
                              d_adapter.cut_at_end_reason(n), pmt::from_uint64(n));
    }
    submit_ready(pipe);
    if (d_at_end && !d_adapter.more_at_end())
        pipe.flush(); // nothing more will fill the partial batch
    pipe.launch_due();
    produced += emit(pipe, out + size_t(produced) * d_out_item_bytes, noutput_items - produced);

    if (produced == 0 && take == 0 && pipe.pending() > 0) {
        pipeline_idle_wait(pipe);
        produced += emit(pipe, out + size_t(produced) * d_out_item_bytes, noutput_items - produced);
    }
    d_block.consume(0, int(take));
    return produced;
}

void continuous_driver::submit_ready(core::batch_pipeline& pipe)
{
    continuous_adapter::frame f;
    while (pipe.can_accept() && d_adapter.next(d_at_end, f)) {
        pipe.submit(f.data, f.bytes, f.out_bytes, f.params);
        d_adapter.advance();
    }
}

int continuous_driver::emit(core::batch_pipeline& pipe, uint8_t* out, int room)
{
    const size_t room_bytes = size_t(room) * d_out_item_bytes;
    size_t n = 0;
    while (n < room_bytes) {
        const core::completed_frame* f = pipe.front(false);
        if (!f)
            break;
        if (d_front_sent == 0 && (f->rejected || !d_adapter.decoded(*f)))
            d_holder.logger()->error("a segment of {} output items was rejected by the decoder (a bug): "
                                     "its output is zeros",
                                     f->out_bytes / d_out_item_bytes);
        const size_t k = std::min(f->out_bytes - d_front_sent, room_bytes - n);
        std::memcpy(out + n, f->data + d_front_sent, k);
        d_front_sent += k;
        n += k;
        if (d_front_sent == f->out_bytes) {
            pipe.pop();
            d_front_sent = 0;
        }
    }
    return int(n / d_out_item_bytes);
}

} // namespace gpurx
} // namespace gr

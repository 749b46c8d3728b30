/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/stream_driver.h"
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace gr {
namespace gpurx {

namespace {
// Longest sleep while waiting for a partial batch to fall due; short enough
// that new input is picked up promptly, long enough not to spin a core.
constexpr auto max_idle_sleep = std::chrono::microseconds(200);
} // namespace

bool input_finished(gr::block& block, int ninput_items)
{
    if (ninput_items > 0 || !block.detail())
        return false;
    const auto reader = block.detail()->input(0);
    return reader && reader->done() && reader->items_available() == 0;
}

void pipeline_idle_wait(core::batch_pipeline& pipe)
{
    if (pipe.front_in_flight()) {
        pipe.front(true);
        return;
    }
    const auto now = core::batch_pipeline::clock::now();
    const auto due = pipe.next_deadline();
    if (due > now)
        std::this_thread::sleep_for(
            std::min<core::batch_pipeline::clock::duration>(due - now, max_idle_sleep));
    pipe.launch_due();
}

stream_driver::stream_driver(gr::block& block,
                             block_tags& tags,
                             const frame_adapter& adapter,
                             pipeline_holder& holder,
                             size_t in_items)
    : d_block(block), d_tags(tags), d_adapter(adapter), d_holder(holder), d_in_item_bytes(adapter.in_item_bytes())
{
    std::string why;
    if (!adapter.shape(in_items, d_shape, why))
        throw std::invalid_argument(why);
}

void stream_driver::forecast(int noutput_items, gr_vector_int& required) const
{
    const auto* p = d_holder.pipe();
    required[0] = (p && p->pending() > 0) ? 0 : noutput_items;
}

void stream_driver::submit(const uint8_t* item, uint64_t index)
{
    auto& pipe = *d_holder.pipe();
    const size_t in_bytes = d_shape.in_items * d_in_item_bytes;
    uint8_t* dst = pipe.begin_frame(in_bytes, d_shape.out_bytes, d_shape.params.data(), index);
    std::string why;
    if (d_adapter.stage(d_shape, item, 0, d_shape.in_items, dst, why)) {
        pipe.commit_frame();
        return;
    }
    pipe.abort_frame();
    d_holder.logger()->warn("input vector {} not processed: {}; its output is zeros, tagged gpurx_error",
                           index, why);
    d_reasons.push_back(why);
    pipe.submit_rejected(d_shape.out_bytes, index);
}

int stream_driver::general_work(int noutput_items,
                                gr_vector_int& ninput_items,
                                gr_vector_const_void_star& input_items,
                                gr_vector_void_star& output_items)
{
    auto& pipe = *d_holder.pipe();
    const int nin = ninput_items[0];
    const auto* in = static_cast<const uint8_t*>(input_items[0]);
    auto* out = static_cast<uint8_t*>(output_items[0]);
    const size_t in_bytes = d_shape.in_items * d_in_item_bytes;
    const size_t out_bytes = d_shape.out_bytes;
    const uint64_t first_in = d_block.nitems_read(0);
    int consumed = 0, produced = 0;

    auto emit_ready = [&](bool block) {
        bool any = false;
        while (produced < noutput_items) {
            const core::completed_frame* f = pipe.front(block);
            if (!f)
                break;
            std::memcpy(out + size_t(produced) * out_bytes, f->data, out_bytes);
            const uint64_t at = d_block.nitems_written(0) + produced;
            if (f->rejected) {
                d_tags.add_tag(at, d_error_key, pmt::mp(d_reasons.front()));
                d_reasons.pop_front();
            } else {
                frame_meta meta;
                d_adapter.describe(*f, meta);
                for (const auto& kv : meta)
                    d_tags.add_tag(at, kv.first, kv.second);
            }
            pipe.pop();
            produced++;
            any = true;
            block = false; // wait for at most one batch per call
        }
        return any;
    };

    for (;;) {
        bool progress = emit_ready(false);
        while (consumed < nin && pipe.can_accept()) {
            submit(in + size_t(consumed) * in_bytes, first_in + consumed);
            consumed++;
            progress = true;
        }
        pipe.launch_due();
        if (consumed == nin) {
            emit_ready(false);
            break;
        }
        if (!progress) {
            // Input is waiting but every slot is busy: wait for the oldest
            // batch if there is room for its output, else return.
            if (produced < noutput_items && pipe.front_in_flight()) {
                emit_ready(true);
                continue;
            }
            break;
        }
    }

    if (produced == 0 && consumed == 0 && pipe.pending() > 0) {
        // No new input: the upstream is idle, or finished - then nothing
        // more will fill the partial batch, so it goes now.
        if (input_finished(d_block, nin))
            pipe.flush();
        pipeline_idle_wait(pipe);
        emit_ready(false);
    }
    d_block.consume_each(consumed);
    return produced;
}

} // namespace gpurx
} // namespace gr

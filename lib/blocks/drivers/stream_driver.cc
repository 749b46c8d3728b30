/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/drivers/stream_driver.h"
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace gr {
namespace gpurx {

stream_driver::stream_driver(gr::block& block,
                             block_tags& tags,
                             const frame_adapter& adapter,
                             pipeline_holder& holder,
                             size_t in_items)
    : d_block(block), d_tags(tags), d_adapter(adapter), d_holder(holder)
{
    std::string why;
    if (!adapter.shape(in_items, d_shape, why))
        throw std::invalid_argument(why);
    d_layout = adapter.stream_ports(d_shape);
    d_out_item_bytes = d_shape.out_bytes / d_layout.out_items_per_frame;
    d_ports.resize(d_layout.inputs.size());
}

void stream_driver::setup()
{
    if (!(d_layout.inputs.size() == 1 && d_layout.inputs[0].items_per_frame == 1))
        d_block.message_port_register_out(d_errors_port); // a frame can be cut short
    if (d_layout.out_items_per_frame > 1)
        d_block.set_output_multiple(int(d_layout.out_items_per_frame));
    if (d_layout.inputs.size() > 1)
        // Ports run at different rates (a channel matrix per frame, vectors
        // per frame), which GNU Radio's policies cannot express; port 0's
        // tags are carried over by general_work() when its items map one to
        // one onto output items, and the other ports' are dropped.
        d_block.set_tag_propagation_policy(gr::block::TPP_CUSTOM);
}

void stream_driver::forecast(int noutput_items, gr_vector_int& required) const
{
    const auto* p = d_holder.pipe();
    // No input needed while frames are pending, nor when the stream has
    // ended inside a frame: general_work() must run to report it (GNU Radio
    // would end the block without a call).
    // One frame is enough to go on, whatever the room for output: asking for
    // as many frames as fit the output makes the block wait until the
    // upstream buffer is full, and the two blocks take turns instead of
    // running at once (the pipeline batches frames across calls anyway).
    const bool pending = (p && p->pending() > 0) || partial_frame_at_end();
    (void)noutput_items;
    for (size_t i = 0; i < required.size() && i < d_layout.inputs.size(); i++)
        required[i] = pending ? 0 : int(d_layout.inputs[i].items_per_frame);
}

int stream_driver::frames_available(const gr_vector_int& nin) const
{
    int frames = INT32_MAX;
    for (size_t i = 0; i < d_layout.inputs.size(); i++)
        frames = std::min(frames, int(size_t(nin[i]) / d_layout.inputs[i].items_per_frame));
    return frames;
}

bool stream_driver::inputs_finished(const gr_vector_int& nin) const
{
    if (d_layout.inputs.size() == 1 && d_layout.inputs[0].items_per_frame == 1)
        return input_finished(d_block, nin[0]);
    if (!d_block.detail())
        return false;
    // A port whose upstream has finished with less than a frame left ends
    // the stream: no further frame can be completed.
    for (size_t i = 0; i < d_layout.inputs.size(); i++) {
        const auto reader = d_block.detail()->input(int(i));
        if (reader && reader->done() &&
            size_t(reader->items_available()) < d_layout.inputs[i].items_per_frame)
            return true;
    }
    return false;
}

bool stream_driver::partial_frame_at_end(bool* all_done) const
{
    if (d_layout.inputs.size() == 1 && d_layout.inputs[0].items_per_frame == 1)
        return false; // a frame is one item: never cut short
    if (!d_block.detail())
        return false;
    bool ended = false, left = false, done = true;
    for (size_t i = 0; i < d_layout.inputs.size(); i++) {
        const auto reader = d_block.detail()->input(int(i));
        if (!reader)
            return false;
        const size_t avail = size_t(reader->items_available());
        if (reader->done() && avail < d_layout.inputs[i].items_per_frame)
            ended = true;
        done = done && reader->done();
        left = left || avail > 0;
    }
    if (all_done)
        *all_done = done;
    return ended && left;
}

int stream_driver::drop_partial_frame(const gr_vector_int& nin)
{
    // The other ports' upstreams may still be delivering their last items
    // (a source of H that has not run yet): wait for them, briefly, so the
    // report counts what the stream really held.
    bool all_done = false;
    partial_frame_at_end(&all_done);
    const auto now = std::chrono::steady_clock::now();
    if (d_partial_seen == std::chrono::steady_clock::time_point{})
        d_partial_seen = now;
    if (!all_done && now - d_partial_seen < std::chrono::seconds(1)) {
        std::this_thread::sleep_for(max_idle_sleep);
        return 0;
    }
    for (size_t i = 0; i < d_layout.inputs.size(); i++)
        if (d_block.detail()->input(int(i))->items_available() > nin[i])
            return 0; // items came in after this call's counts: count them next call
    std::string counts;
    std::vector<int64_t> dropped;
    for (size_t i = 0; i < d_layout.inputs.size(); i++) {
        dropped.push_back(nin[i]);
        counts += (i ? ", " : "") + std::to_string(nin[i]) + " of the " +
                  std::to_string(d_layout.inputs[i].items_per_frame) + " items of input " +
                  std::to_string(i);
    }
    const std::string why = "the stream ended inside a frame (" + counts +
                            "): those items are dropped, not processed";
    report_cut_at_end(d_block, d_holder.logger(), d_block.nitems_read(0), why,
                      pmt::init_s64vector(dropped.size(), dropped));
    for (size_t i = 0; i < d_layout.inputs.size(); i++)
        d_block.consume(int(i), nin[i]);
    return gr::block::WORK_DONE;
}

void stream_driver::submit(const uint8_t* const* ports, uint64_t index)
{
    auto& pipe = *d_holder.pipe();
    const size_t in_bytes = d_shape.in_items * d_adapter.in_item_bytes();
    std::string why;
    frame_shape& shape = d_frame; // copy-assigned: its vectors keep their room, no allocation per frame
    shape = d_shape;
    if (d_adapter.stream_frame(ports, shape, why)) {
        uint8_t* dst = pipe.begin_frame(in_bytes, shape.out_bytes, shape.params.data(), index);
        if (d_adapter.stage_stream(shape, ports, dst, why)) {
            pipe.commit_frame();
            return;
        }
        pipe.abort_frame();
    }
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
    core::batch_pipeline* running = d_holder.pipe_for_work();
    if (!running)
        return gr::block::WORK_DONE;
    auto& pipe = *running;
    const int nin = frames_available(ninput_items);
    auto* out = static_cast<uint8_t*>(output_items[0]);
    const size_t out_bytes = d_shape.out_bytes;
    const int out_per_frame = int(d_layout.out_items_per_frame);
    const size_t nports = d_layout.inputs.size();
    // Frames are counted in port 0's items, as the log and tags name them.
    const uint64_t first_in = d_block.nitems_read(0);
    const uint64_t in0_per_frame = d_layout.inputs[0].items_per_frame;
    int consumed = 0, produced = 0; // frames, output items

    // Completed frames a batch's run at a time (front_many): one question to
    // the engine per run rather than per frame (on CUDA a driver call).
    auto emit_ready = [&](bool block) {
        bool any = false;
        while (produced + out_per_frame <= noutput_items) {
            const size_t room = size_t((noutput_items - produced) / out_per_frame);
            const core::completed_run run = pipe.front_many(block, room);
            if (run.empty())
                break;
            const uint64_t written = d_block.nitems_written(0);
            for (size_t i = 0; i < run.size(); i++) {
                const core::completed_frame f = run[i];
                std::memcpy(out + size_t(produced) * d_out_item_bytes, f.data, out_bytes);
                const uint64_t at = written + produced;
                if (f.rejected) {
                    d_tags.add_tag(at, d_error_key, pmt::mp(d_reasons.front()));
                    d_reasons.pop_front();
                } else {
                    frame_meta meta;
                    d_adapter.describe(f, meta);
                    for (const auto& kv : meta)
                        d_tags.add_tag(at, kv.first, kv.second);
                }
                produced += out_per_frame;
            }
            pipe.pop_many(run.size());
            any = true;
            block = false; // wait for at most one batch per call
        }
        return any;
    };

    for (;;) {
        bool progress = emit_ready(false);
        while (consumed < nin && pipe.can_accept()) {
            for (size_t i = 0; i < nports; i++)
                d_ports[i] = static_cast<const uint8_t*>(input_items[i]) +
                             size_t(consumed) * d_layout.inputs[i].items_per_frame *
                                 d_layout.inputs[i].item_bytes;
            submit(d_ports.data(), first_in + uint64_t(consumed) * in0_per_frame);
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
            if (produced + out_per_frame <= noutput_items && pipe.front_in_flight()) {
                emit_ready(true);
                continue;
            }
            break;
        }
    }

    if (produced == 0 && consumed == 0 && pipe.pending() == 0 && partial_frame_at_end())
        return drop_partial_frame(ninput_items); // every whole frame has left
    if (produced == 0 && consumed == 0 && pipe.pending() > 0) {
        // No new input: the upstream is idle, or finished - then nothing
        // more will fill the partial batch, so it goes now.
        if (inputs_finished(ninput_items))
            pipe.flush();
        pipeline_idle_wait(pipe);
        emit_ready(false);
    }
    if (nports > 1 && consumed > 0 && in0_per_frame == uint64_t(out_per_frame)) {
        // Same offsets: item k of port 0 becomes output item k.
        std::vector<gr::tag_t> tags;
        d_tags.all_tags_in_window(tags, 0, 0, uint64_t(consumed) * in0_per_frame);
        for (const auto& t : tags)
            d_tags.add_tag(t.offset, t.key, t.value);
    }
    for (size_t i = 0; i < nports; i++)
        d_block.consume(int(i), consumed * int(d_layout.inputs[i].items_per_frame));
    return produced;
}

} // namespace gpurx
} // namespace gr

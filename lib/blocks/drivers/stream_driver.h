/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The stream deployment, shared by every family: one input vector per frame,
// one output vector per frame, in order. A family may instead declare several
// input ports with their items per frame, and several output items per frame
// (frame_adapter::stream_ports()); the driver then takes whole frames, the
// same number from every port, and emits whole frames (the output multiple is
// the frame's output items), so a rejected frame's zeros and tag cover
// exactly its own output items.
//
// Frames are consumed when they are copied into the pipeline and produced when
// their batch completes, so output lags input by up to slots x max_batch
// items. forecast() asks for no input while frames are pending; that keeps
// the scheduler calling general_work() after the upstream block has finished,
// and the driver then launches the partial batch at once (it does not wait
// out flush_us) and drains the pipeline, so the end of a stream loses nothing.
// Waiting is bounded: on a completed batch, or at most until the partial
// batch's flush deadline.
//
// A malformed frame is not processed: its output vector is zeros, tagged
// "gpurx_error" with the reason, and the log says which input vector it was.
//
// With several ports a stream can end inside a frame (7 y vectors at 4 per
// channel): those items are not processed, and the driver says so - a
// warning and an "errors" message (a dict: "reason", "offset" of the
// partial frame's first item of port 0, "dropped": the items of each port)
// - once every whole frame has left, then ends its stream.
#ifndef INCLUDED_GPURX_BLOCKS_STREAM_DRIVER_H
#define INCLUDED_GPURX_BLOCKS_STREAM_DRIVER_H

#include "blocks/drivers/block_tags.h"
#include "blocks/drivers/frame_adapter.h"
#include "blocks/drivers/pipeline_holder.h"
#include "blocks/drivers/stream_end.h"
#include <gnuradio/block.h>

#include <chrono>
#include <deque>

namespace gr {
namespace gpurx {

class stream_driver
{
public:
    //! \p in_items input items per frame (the vector length).
    stream_driver(gr::block& block,
                  block_tags& tags,
                  const frame_adapter& adapter,
                  pipeline_holder& holder,
                  size_t in_items);

    //! Call from the block's constructor: output multiple, tag policy.
    void setup();
    void stop() {}

    void forecast(int noutput_items, gr_vector_int& required) const;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items);

private:
    void submit(const uint8_t* const* ports, uint64_t index);
    //! Frames whole on every port among this call's input.
    int frames_available(const gr_vector_int& ninput_items) const;
    //! The upstream of some port finished with less than a frame left.
    bool inputs_finished(const gr_vector_int& ninput_items) const;
    //! inputs_finished() with items left on some port: a frame cut short
    //! by the end of the stream (ports of several items per frame only).
    //! \p all_done: every port's upstream has finished (the counts are final).
    bool partial_frame_at_end(bool* all_done = nullptr) const;
    //! Reports and consumes the items of that frame, once the other ports'
    //! upstreams have finished too (or a second has passed); returns
    //! WORK_DONE then, 0 while it waits.
    int drop_partial_frame(const gr_vector_int& ninput_items);

    gr::block& d_block;
    block_tags& d_tags;
    const frame_adapter& d_adapter;
    pipeline_holder& d_holder;
    frame_shape d_shape;
    frame_shape d_frame; //!< submit()'s working copy of d_shape
    stream_layout d_layout;
    size_t d_out_item_bytes;
    std::vector<const uint8_t*> d_ports; // a frame's items, per port (scratch)
    std::deque<std::string> d_reasons; // of the rejected frames in the pipeline, in order
    //! When a frame cut short by the end was first seen (drop_partial_frame()).
    std::chrono::steady_clock::time_point d_partial_seen{};
    const pmt::pmt_t d_error_key = pmt::mp("gpurx_error");
    const pmt::pmt_t d_errors_port = pmt::mp("errors");
};

} // namespace gpurx
} // namespace gr

#endif

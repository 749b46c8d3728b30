/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The continuous (stream) deployment, shared by every family that decodes
// one unbounded stream rather than frames of a known size: the family cuts
// the stream into pipeline frames itself (a continuous_adapter), the driver
// feeds them through the pipeline and emits their output in order, with the
// stream driver's end-of-stream, stop/restart and error handling.
//
// Input is consumed as it arrives (the adapter keeps what later frames
// need), up to a bound that gives back-pressure when the pipeline is full.
// A frame goes into the pipeline as soon as the adapter has cut one, so the
// delay is a frame's input plus flush_us. A frame's output may leave over
// several calls (the output buffer's room); output positions have no fixed
// relation to input ones, so no tag is carried over.
//
// forecast() asks for no input while frames are in the pipeline, or while
// the upstream has finished and the end has not been handled: that keeps
// general_work() called until the tail is cut and delivered; the partial
// batch then goes at once (it does not wait out flush_us). Input at the end
// that makes no whole unit of the family (a trellis step) is reported as the
// stream driver reports a frame cut short: a warning and an "errors" message
// (a dict: "reason", "offset" of its first item, "dropped": the items).
#ifndef INCLUDED_GPURX_BLOCKS_CONTINUOUS_DRIVER_H
#define INCLUDED_GPURX_BLOCKS_CONTINUOUS_DRIVER_H

#include "blocks/drivers/block_tags.h"
#include "blocks/drivers/frame_adapter.h"
#include "blocks/drivers/pipeline_holder.h"
#include <gnuradio/block.h>

namespace gr {
namespace gpurx {

/*!
 * A family's face to the continuous driver: the frame_adapter that
 * pipeline_holder reads (records, kernels, bounds) plus the cutter of the
 * stream into frames, which holds the stream's state. The per-frame hooks
 * (shape, stage, PDUs) are the framed drivers' and may refuse.
 */
class continuous_adapter : public frame_adapter
{
public:
    struct frame {
        const uint8_t* data;  //!< its input, valid until advance() or append()
        size_t bytes;         //!< input bytes
        size_t out_bytes;     //!< output bytes
        const void* params;   //!< its parameter record
    };
    //! Output items per input item, as num / den (GNU Radio's relative rate).
    virtual void relative_rate(uint64_t& num, uint64_t& den) const = 0;
    //! Appends \p n input items; rejects or repairs what it cannot decode
    //! (logging through \p logger). Items it holds count in items_held().
    virtual void append(const uint8_t* items, size_t n, const gr::logger_ptr& logger) = 0;
    //! Input items held (not yet cut, or kept for later frames).
    virtual size_t items_held() const = 0;
    //! The next frame, if one is complete; \p at_end: the stream has ended,
    //! cut what remains. Repeated calls return the same frame until advance().
    virtual bool next(bool at_end, frame& f) = 0;
    virtual void advance() = 0;
    //! After the end: frames still to cut.
    virtual bool more_at_end() const = 0;
    //! After the end: the items that make no whole unit, not decoded; and
    //! why, for the report.
    virtual size_t items_cut_at_end() const = 0;
    virtual std::string cut_at_end_reason(size_t items) const = 0;
    //! Input items received so far.
    virtual uint64_t items_received() const = 0;
    //! False when the kernel refused a frame the adapter cut (a bug).
    virtual bool decoded(const core::completed_frame& f) const = 0;
};

class continuous_driver
{
public:
    //! Lets the adapter hold at most \p frames_held frames' input
    //! (max_in_items() each).
    continuous_driver(gr::block& block,
                      block_tags& tags,
                      continuous_adapter& adapter,
                      pipeline_holder& holder,
                      size_t frames_held);

    //! Call from the block's constructor: relative rate, tag policy, ports.
    void setup();
    //! What the adapter holds and the undelivered output stay: a restart
    //! continues the same stream.
    void stop() {}

    void forecast(int noutput_items, gr_vector_int& required) const;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items);

private:
    void submit_ready(core::batch_pipeline& pipe);
    //! Copies completed output, a frame possibly over several calls.
    int emit(core::batch_pipeline& pipe, uint8_t* out, int room);

    gr::block& d_block;
    continuous_adapter& d_adapter;
    pipeline_holder& d_holder;
    const size_t d_max_held;
    size_t d_out_item_bytes;
    size_t d_front_sent = 0; // bytes of the front frame already delivered
    bool d_at_end = false;   // the end of the input has been handled
};

} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The tagged-stream deployment, shared by every family. A length tag
// (packet_len by default) starts each packet; each packet is one frame, and
// each frame's output leaves as one packet with its length tag and the
// family's tags, in order.
//
// It is a gr::block, not a gr::tagged_stream_block: that hands work() one
// packet per call and needs the whole packet in the input buffer, while
// batching needs many packets per call, and a packet may be larger than
// GNU Radio's default buffers. So a packet is copied into the pipeline's
// staging piece by piece as it arrives: any packet the family allows decodes
// with default buffers, and nothing waits for more input than the buffer can
// hold.
//
// Malformed input never stops the stream. Each of these is logged and
// published on the "errors" port as a dict (reason, offset, length where
// known, and action: "dropped" for items not processed, "processed" for a
// packet still decoded, as the last one below and a HARQ contradiction), and
// the stream resynchronises on the next length tag:
//  - a length tag whose value is not an integer, or is <= 0, or fits no frame;
//  - items that no length tag covers;
//  - a packet cut short by the next length tag or by the end of the stream;
//  - a packet whose items are malformed (e.g. NaN LLRs): not processed;
//  - several length tags of different values at one item: the first (in
//    the order they were added) is used, and the report names the values.
//
// A family that shapes frames from their metadata (frame_adapter::
// uses_frame_metadata()) gets the tags on each packet's first item as a
// dict, and those tags go on to the packet's output; one whose frames
// depend on earlier ones has them admitted in order (frame_admission.h).
#ifndef INCLUDED_GPURX_BLOCKS_TAGGED_DRIVER_H
#define INCLUDED_GPURX_BLOCKS_TAGGED_DRIVER_H

#include "blocks/drivers/block_tags.h"
#include "blocks/drivers/frame_adapter.h"
#include "blocks/drivers/pipeline_holder.h"
#include <gnuradio/block.h>

#include <deque>

namespace gr {
namespace gpurx {

class tagged_driver
{
public:
    tagged_driver(gr::block& block,
                  block_tags& tags,
                  const frame_adapter& adapter,
                  pipeline_holder& holder,
                  const std::string& len_tag_key);

    //! Call from the block's constructor: port, tag policy, output room.
    void setup();
    void forecast(int noutput_items, gr_vector_int& required) const;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items);
    //! Call from stop(): a packet still arriving is reported and withdrawn.
    void stop();

private:
    struct open_packet {
        bool open = false;
        uint64_t start = 0;  // absolute input offset of its first item
        uint64_t staged = 0; // items copied so far
        uint8_t* dst = nullptr;
        bool bad = false;
        std::string why;
        frame_shape shape;
        pmt::pmt_t meta; // the packet's tags (uses_frame_metadata())
    };
    //! \p action: "dropped" (items skipped) or "processed" (the packet is
    //! still decoded; error_dict()).
    void report(uint64_t offset, const std::string& why, long long length = -1, const char* action = "dropped");
    void close_truncated(const std::string& where);
    //! Length tags of different values at one item: warns, and posts on
    //! "errors", naming the values and the one used (the first).
    void report_conflict(uint64_t offset, const std::string& values, const pmt::pmt_t& used);
    // A length tag's value as a length, or -1 with the reason.
    long long tag_length(const pmt::pmt_t& value, std::string& why) const;
    //! The tags on input item \p rel (relative to this call's first) but
    //! the length tag, as a dict: a frame's metadata.
    pmt::pmt_t frame_tags(uint64_t rel) const;
    //! Commits the open packet: admitted first (frame_admission), its tags
    //! kept for its output packet.
    void commit(core::batch_pipeline& pipe);

    gr::block& d_block;
    block_tags& d_tags;
    const frame_adapter& d_adapter;
    pipeline_holder& d_holder;
    const pmt::pmt_t d_len_key;
    const pmt::pmt_t d_errors_port = pmt::mp("errors");
    open_packet d_packet;
    bool d_skipping = false; // dropping items until the next tag (already reported)
    uint64_t d_conflict_reported = UINT64_MAX; // item of the last conflict reported
    std::deque<pmt::pmt_t> d_frame_meta; // tags of the frames in the pipeline, in order
};

//! What a pmt value is, for messages: "the symbol (string) \"12\"", "the
//! double 12", "nil (PMT_NIL)", ...
std::string pmt_description(const pmt::pmt_t& v);

} // namespace gpurx
} // namespace gr

#endif

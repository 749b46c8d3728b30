/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Cuts an unbounded stream of coded items, arriving in pieces of any size,
// into the pipeline frames of viterbi_stream.h: each frame the payload of
// up to frame_windows whole windows and the traceback steps on either side,
// so that a frame's windows are exactly the stream's windows. Keeps the
// items a later frame still needs (the overlap) and nothing more.
// GNU Radio-free: the block and the tests share it.
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_STREAM_FRAMER_H
#define INCLUDED_GPURX_VITERBI_VITERBI_STREAM_FRAMER_H

#include "viterbi/viterbi_stream.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

class viterbi_stream_framer
{
public:
    //! Throws std::invalid_argument (naming the field) for an invalid cfg.
    viterbi_stream_framer(const viterbi_stream_config& cfg, viterbi::input_kind input);

    //! Append \p n items (item_bytes() each: float LLRs or bytes), already checked.
    void append(const uint8_t* items, size_t n);

    struct frame {
        viterbi::stream_frame_params params;
        const uint8_t* data; //!< its input, valid until advance() or append()
        size_t bytes;
    };
    /*!
     * The next frame, if one is ready: the windows complete so far (their
     * steps up to the payload's end + traceback have arrived), at most
     * frame_windows of them. With \p at_end the stream has ended: the
     * remaining complete steps are a frame too (the last windows end at
     * the last step). Repeated calls return the same frame until advance().
     */
    bool next(bool at_end, frame& f);
    //! The stream moves past the payload of the frame next() returned.
    void advance();

    size_t item_bytes() const { return d_item_bytes; }
    uint64_t items_received() const { return d_items; }
    //! Steps whose kept coded items have all arrived.
    uint64_t steps_complete() const;
    //! Steps handed out as payload (the output bits so far).
    uint64_t steps_emitted() const { return d_next; }
    //! Items held (the overlap and what is not yet in a frame).
    size_t items_held() const { return d_buf.size() / d_item_bytes; }
    //! Items after the last complete step: at the end, a step cut short.
    uint64_t partial_step_items() const { return d_items - items_before(steps_complete()); }

private:
    uint64_t items_before(uint64_t step) const; // kept items of the steps before `step`
    void drop_unneeded();

    viterbi_stream_config d_cfg;
    viterbi_code d_code;
    viterbi::input_kind d_input;
    size_t d_item_bytes;
    int d_period;
    std::vector<uint64_t> d_kept_before; // kept items of the first r steps of a period, r = 0..period
    std::vector<uint8_t> d_buf;           // items from d_base on
    uint64_t d_base = 0;                  // item index of d_buf[0]
    uint64_t d_items = 0;                 // items received
    uint64_t d_next = 0;                  // first step not yet emitted as payload (a multiple of chunk)
    uint64_t d_pending_end = 0;           // payload end of the frame next() returned
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

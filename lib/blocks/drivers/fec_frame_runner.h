/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// One frame at a time through a family's batching pipeline, for the gr-fec
// decoder objects. gr-fec calls generic_work() with a single frame and reads
// the output when the call returns, so each frame is submitted, launched at
// once and waited for: a batch of one. That keeps the objects on the same
// implementations and backends as the blocks (CPU or CUDA), at the cost of
// the blocks' throughput, which comes from batching.
#ifndef INCLUDED_GPURX_BLOCKS_FEC_FRAME_RUNNER_H
#define INCLUDED_GPURX_BLOCKS_FEC_FRAME_RUNNER_H

#include "blocks/drivers/frame_adapter.h"
#include "blocks/drivers/pipeline_holder.h"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {

//! Throws std::invalid_argument naming llr_scale unless it is finite and > 0.
void check_llr_scale(float llr_scale);

/*!
 * The frame sizes gr-fec's packet deployments ask of a decoder object with
 * set_frame_size(), and what an object does with one it cannot decode.
 *
 * gr-fec derives the size from a packet of n values as n x rate() - tail,
 * rounded down (the async decoder) or to nearest (newer tagged decoders),
 * where tail = rate() x get_input_size() - get_output_size() comes from
 * the object's own sizes; GNU Radio 3.10.5's tagged decoder asks for
 * round(n x rate()) and never reads get_input_size(). Whether the tail was
 * taken off is therefore known from whether both sizes were read since the
 * last frame (begin_request()).
 *
 * The object never learns n itself: a packet up to 1/rate() - 1 values
 * longer than a codeword (2 for the turbo code, n - 1 for a rate-1/n
 * convolutional code) arrives as that codeword's size, and gr-fec hands the
 * object only the codeword's values.
 *
 * A packet shorter than the tail gives a negative size, which arrives
 * wrapped to unsigned (4294967293 for -3): the object answers false, and
 * gr-fec's async decoder then emits an empty PDU for an empty one and ends
 * its thread on any other ("bad block multiple in!").
 *
 * Any other size that is no codeword of the code (a packet of two
 * codewords, one with extra values, a frame larger than the largest) is
 * refused without reinterpreting it: the object answers true (gr-fec cannot
 * be told to drop a packet, and on false its async decoder splits the packet
 * into codewords of the previous size or ends its thread), reports that size
 * from get_output_size() until the next set_frame_size(), and each frame
 * decoded meanwhile comes out as that many zero bits with a warning.
 */
class fec_frame_request
{
public:
    //! Called from get_input_size() and get_output_size().
    void input_size_read() { d_input_read = true; }
    void output_size_read() { d_output_read = true; }
    //! At set_frame_size(): true when the caller took the tail off (it read
    //! both sizes since the last frame, as gr-fec does to compute the tail).
    //! Resets that, and any rejection.
    bool begin_request()
    {
        const bool asked = d_input_read && d_output_read;
        d_input_read = d_output_read = false;
        d_rejected = false;
        return asked;
    }
    //! Called from generic_work(): a new frame.
    void frame_done() { d_input_read = d_output_read = false; }

    //! set_frame_size()'s argument as gr-fec computed it (negative when the
    //! packet was shorter than the tail).
    static long long signed_size(unsigned int frame_size)
    {
        return frame_size > 0x7fffffffu ? (long long)frame_size - (1LL << 32) : (long long)frame_size;
    }
    //! "4294967293 (-3: ...)" for a wrapped size, else the number.
    static std::string describe(unsigned int frame_size);

    /*!
     * Refuses the size \p bits (>= 0) for \p why: frames come out as
     * min(bits, \p max_reported) zero bits until the next request.
     * max_reported keeps the sizes the object reports from overflowing an
     * int.
     */
    void reject(long long bits, long long max_reported, std::string why)
    {
        d_rejected = true;
        d_bits = int(std::min(bits, max_reported));
        d_why = std::move(why);
    }
    bool rejected() const { return d_rejected; }
    int rejected_bits() const { return d_bits; }
    const std::string& why() const { return d_why; }

private:
    bool d_input_read = false, d_output_read = false;
    bool d_rejected = false;
    int d_bits = 0;
    std::string d_why;
};

class fec_frame_runner
{
public:
    using on_frame = std::function<void(const core::completed_frame&)>;

    //! \p adapter must outlive the runner. Validates \p backend and resolves
    //! it (one log line), as the blocks do; the pipeline is made on the first
    //! frame, so objects that are made but never used cost no worker.
    fec_frame_runner(const frame_adapter& adapter, const std::string& backend, gr::logger_ptr logger);

    /*!
     * Decode one frame of \p n float values, each multiplied by \p scale,
     * into \p out (the frame's out_bytes). \p done sees the completed frame.
     * A malformed frame (a length the family does not take, NaN or Inf) is
     * not decoded: its output is zeros, the reason is logged, and false is
     * returned. Finiteness is checked before the scale, and a product beyond
     * float's range is clamped (finite inputs are never called NaN/Inf).
     */
    bool run(const float* in, size_t n, float scale, uint8_t* out, size_t out_bytes, const on_frame& done = {});

    //! A frame refused by fec_frame_request: \p out_bytes zeros, a warning.
    void reject_frame(const std::string& why, uint8_t* out, size_t out_bytes)
    {
        reject(why, out, out_bytes);
    }
    const gr::logger_ptr& logger() const { return d_holder.logger(); }

    std::string backend_name() const { return d_holder.backend_name(); }

private:
    void reject(const std::string& why, uint8_t* out, size_t out_bytes);

    const frame_adapter& d_adapter;
    pipeline_holder d_holder;
    std::vector<float> d_scaled;
};

} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Continuous (unbounded stream) Viterbi decoding by overlapped windows: the
// definition every stream implementation computes, bit for bit.
//
// The stream is a sequence of trellis steps t = 0, 1, 2, ... (the n coded
// bits of each step, punctured with the pattern's phase counted from step 0
// of the stream). The encoder starts in state 0 at step 0 and never
// terminates. With payload length L (chunk) and traceback depth D:
//
//   window c decodes the payload steps [c L, min((c+1) L, T)) by a Viterbi
//   run over the steps [max(0, c L - D), min((c+1) L + D, T)):
//     - when the run starts at step 0, from state 0 (every other state
//       unreachable); otherwise from every state with metric 0;
//     - metric: correlation (sum of +-LLR/2, maximised), ties in
//       add-compare-select keep the even (lower) predecessor
//       (viterbi_decoder.h);
//     - traced back from the state of best metric at the run's end, the
//       lowest state on ties;
//   T is infinite while the stream runs; at its end T is the number of
//   complete steps received, so the last windows trace back from the best
//   state after the last step (nothing is lost, the tail is decoded as a
//   truncated code).
//
// Output delay: bit t goes out once the steps up to (floor(t/L) + 1) L + D
// have arrived (its window is complete), plus the batching latency.
//
// The pipeline carries the stream in frames ("segments"): a frame holds the
// input steps [f0, f1) and the payload [p0, p1) of whole windows, p0 a
// multiple of L, f0 = max(0, p0 - D), f1 = min(p1 + D, T). The windows of a
// frame, in its own step numbering, are window_of(); the framer
// (viterbi_stream_framer.h) cuts the stream so that they are the windows
// above. Frames overlap by 2D steps; windows decode in parallel.
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_STREAM_H
#define INCLUDED_GPURX_VITERBI_VITERBI_STREAM_H

#include "common/host_device.h"
#include "pipeline/frame.h"
#include "viterbi/viterbi_code.h"
#include "viterbi/viterbi_frame.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

struct viterbi_stream_config {
    int K = 7; //!< constraint length, 3..9
    //! One per coded bit, octal in the standards' order (viterbi_code.h)
    //! unless gr_fec_order.
    std::vector<unsigned> polynomials{ 0133, 0171 };
    bool gr_fec_order = false;
    std::vector<int> puncture; //!< keep/drop flags, phase counted from the stream's step 0
    int traceback = 96;        //!< D: acquisition and traceback steps, 0..max_traceback
    int chunk = 512;           //!< L: payload steps per window, 1..max_chunk
    //! Windows per pipeline frame (segment), 1..max_frame_windows: a frame
    //! carries frame_windows x chunk payload steps plus 2 x traceback.
    int frame_windows = 128;
    //! The implementation by registry name (viterbi_stream_implementations.h), or "auto".
    std::string implementation = "auto";

    static constexpr int max_traceback = 16384;
    static constexpr int max_chunk = 65536;
    static constexpr int max_frame_windows = 65536;
    //! A frame's trellis steps are bounded by this (2^24, like max_frame_bits).
    static constexpr long max_frame_steps_limit = 1L << 24;

    //! The code (never terminated: a stream has no end state).
    viterbi_code code() const;
    //! Throws std::invalid_argument naming the bad field and its value.
    void validate() const;
    //! The most trellis steps of one frame: frame_windows x chunk + 2 traceback.
    int max_frame_steps() const { return frame_windows * chunk + 2 * traceback; }
};

namespace viterbi {

//! One frame (segment) of a stream, in the frame's own step numbering.
struct stream_frame_params {
    int32_t steps;         //!< input trellis steps in the frame (f1 - f0)
    int32_t payload_begin; //!< first payload step (p0 - f0): D, or less at the stream's start
    int32_t payload;       //!< payload steps (p1 - p0) = output bits
    int32_t phase;         //!< puncture phase of the frame's step 0: f0 mod period (steps)
    int32_t input;         //!< input_kind
    int32_t stream_start;  //!< 1 when f0 = 0: the encoder is in state 0 there
};

struct stream_frame_result {
    int32_t status;  //!< frame_status
    int32_t windows; //!< windows decoded
};

inline frame_types stream_frame_types_of()
{
    return frame_types::of<stream_frame_params, stream_frame_result>();
}

//! One window, in the frame's step numbering: run [first, last), payload
//! [begin, end), from state 0 when known_start, else from every state.
struct stream_window {
    int first, begin, end, last;
    bool known_start;
};

GPURX_HD int stream_windows_of(const stream_frame_params& p, int chunk)
{
    return p.payload > 0 ? (p.payload + chunk - 1) / chunk : 0;
}

GPURX_HD stream_window stream_window_of(const stream_frame_params& p, int chunk, int traceback, int j)
{
    stream_window w;
    w.begin = p.payload_begin + j * chunk;
    const int payload_end = p.payload_begin + p.payload;
    w.end = w.begin + chunk < payload_end ? w.begin + chunk : payload_end;
    w.first = w.begin - traceback > 0 ? w.begin - traceback : 0;
    w.last = w.end + traceback < p.steps ? w.end + traceback : p.steps;
    w.known_start = p.stream_start != 0 && w.first == 0;
    return w;
}

} // namespace viterbi

//! Input items (kept coded bits) of \p steps steps starting at puncture phase \p phase.
size_t stream_coded_items(const viterbi_code& code, int phase, long steps);

/*!
 * Why a frame cannot be decoded ("" when it can): its geometry disagrees
 * with the configuration or its sizes with its parameters. The kernels
 * reject such a frame (zeros out) instead of reading out of bounds.
 */
std::string stream_frame_problem(const viterbi_stream_config& cfg,
                                 const viterbi_code& code,
                                 const viterbi::stream_frame_params& p,
                                 const frame_desc& fd);

//! Bytes of one input item of \p input (4 for float LLRs, else 1).
inline size_t stream_item_bytes(viterbi::input_kind input)
{
    return input == viterbi::INPUT_SOFT ? sizeof(float) : 1;
}

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

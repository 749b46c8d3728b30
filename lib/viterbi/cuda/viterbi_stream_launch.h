/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Host entry points of the CUDA stream decoders (viterbi_stream_*.cu),
// called only by their pipeline kernels (viterbi_stream_cuda_kernel.cc).
//
// Working memory of a batch: the first window of every frame (a prefix sum
// the window-map kernel writes), then the windows' decisions from their
// payload on: at most chunk + traceback steps of S/32 words each.
#ifndef INCLUDED_GPURX_VITERBI_CUDA_VITERBI_STREAM_LAUNCH_H
#define INCLUDED_GPURX_VITERBI_CUDA_VITERBI_STREAM_LAUNCH_H

#include "common/host_device.h"
#include "pipeline/batch_kernel.h"
#include "viterbi/cuda/viterbi_launch.h"

#include <cstddef>

namespace gr {
namespace gpurx {
namespace core {

class viterbi_code;

//! The stream configuration as the kernels read it (passed by value).
struct viterbi_stream_gpu {
    viterbi_gpu_code code;
    unsigned polys[4]; //!< standards' order: which register kernel, if any
    int chunk, traceback, frame_windows, max_frame_steps;
};

//! Decision words of one window: (chunk + traceback) steps x ceil(S/32).
GPURX_HD size_t stream_window_decision_words(const viterbi_stream_gpu& g)
{
    return size_t(g.chunk + g.traceback) * size_t((g.code.S + 31) / 32);
}

//! Byte offset of the decisions in the scratch of a batch of \p nframes frames.
inline size_t stream_decisions_offset(size_t nframes) { return ((nframes + 1) * sizeof(int) + 255) & ~size_t(255); }

inline size_t viterbi_stream_scratch_bytes(const viterbi_stream_gpu& g, size_t max_frames)
{
    return stream_decisions_offset(max_frames) +
           max_frames * size_t(g.frame_windows) * stream_window_decision_words(g) * sizeof(uint32_t);
}

/*!
 * Enqueue the window map: checks every frame (a frame that disagrees with
 * the configuration is rejected: zeros out), writes the results and each
 * frame's first window. Must precede either decoder.
 */
void cuda_viterbi_stream_map(const batch_view& dev, const viterbi_stream_gpu& g, void* stream);

//! True when viterbi_stream_regs.cu has \p code compiled in.
bool viterbi_stream_regs_supports(const viterbi_code& code);

/*!
 * One thread per window (the metrics in registers), for the codes compiled
 * in. \p windows bounds the batch's windows (sizes the grid and the
 * decisions' stride): the sum over frames of min(windows, frame_windows).
 */
void cuda_viterbi_stream_regs(const batch_view& dev, const viterbi_stream_gpu& g, int windows, void* stream);

//! One warp per window (metrics in shared memory): any code.
void cuda_viterbi_stream_warp(const batch_view& dev, const viterbi_stream_gpu& g, int windows, void* stream);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

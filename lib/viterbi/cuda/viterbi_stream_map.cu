/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The window map of a batch for the stream decoders: frame checks, results,
// and each frame's first window (a prefix sum over the frames). One thread:
// a batch has at most max_batch frames, and this runs once per batch.
#include "cuda/launch.cuh"
#include "viterbi/cuda/viterbi_stream_device.cuh"

namespace gr {
namespace gpurx {
namespace core {

namespace {

struct map_args {
    viterbi_stream_gpu g;
    const frame_desc* frames;
    const viterbi::stream_frame_params* params;
    uint8_t* out;
    viterbi::stream_frame_result* results;
    int* starts; // nframes + 1
    int nframes;
};

__global__ void stream_window_map(map_args a)
{
    int sum = 0;
    for (int f = 0; f < a.nframes; f++) {
        a.starts[f] = sum;
        const frame_desc fd = a.frames[f];
        if (stream_frame_ok(a.g, a.params[f], fd)) {
            const int nw = viterbi::stream_windows_of(a.params[f], a.g.chunk);
            a.results[f] = { viterbi::FRAME_DECODED, nw };
            sum += nw;
        } else {
            for (uint32_t i = 0; i < fd.out_bytes; i++) // rare: a malformed frame
                a.out[fd.out_offset + i] = 0;
            a.results[f] = { viterbi::FRAME_REJECTED, 0 };
        }
    }
    a.starts[a.nframes] = sum;
}

} // namespace

void cuda_viterbi_stream_map(const batch_view& dev, const viterbi_stream_gpu& g, void* stream)
{
    map_args a{ g,
                dev.frames,
                dev.params_as<viterbi::stream_frame_params>(),
                dev.out,
                dev.results_as<viterbi::stream_frame_result>(),
                reinterpret_cast<int*>(dev.scratch),
                int(dev.nframes) };
    launch_checked(&stream_window_map, "viterbi stream_window_map", 1, 1, 0, static_cast<cudaStream_t>(stream),
                   a);
}

} // namespace core
} // namespace gpurx
} // namespace gr

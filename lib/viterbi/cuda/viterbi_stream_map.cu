/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The window map of a batch for the stream decoders: frame checks, results,
// and each frame's first window (a prefix sum over the frames). One block:
// each thread checks a run of consecutive frames (a serial loop of
// dependent global loads would cost ~1 us per frame, a third of a 1024-frame
// batch's decoding), then the runs' counts are scanned in shared memory.
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

constexpr int map_threads = 1024;

__global__ void __launch_bounds__(map_threads) stream_window_map(map_args a)
{
    __shared__ int part[map_threads];
    const int tid = threadIdx.x;
    const int per = (a.nframes + map_threads - 1) / map_threads;
    const int f0 = min(a.nframes, tid * per), f1 = min(a.nframes, f0 + per);
    int mine = 0;
    for (int f = f0; f < f1; f++) {
        const frame_desc fd = a.frames[f];
        int nw = 0;
        if (stream_frame_ok(a.g, a.params[f], fd)) {
            nw = viterbi::stream_windows_of(a.params[f], a.g.chunk);
            a.results[f] = { viterbi::FRAME_DECODED, nw };
        } else {
            for (uint32_t i = 0; i < fd.out_bytes; i++) // rare: a malformed frame
                a.out[fd.out_offset + i] = 0;
            a.results[f] = { viterbi::FRAME_REJECTED, 0 };
        }
        a.starts[f] = nw; // the count for now; the first window below
        mine += nw;
    }
    part[tid] = mine;
    __syncthreads();
    for (int off = 1; off < map_threads; off <<= 1) { // inclusive scan (Hillis-Steele)
        const int v = tid >= off ? part[tid - off] : 0;
        __syncthreads();
        part[tid] += v;
        __syncthreads();
    }
    int first = part[tid] - mine;
    for (int f = f0; f < f1; f++) {
        const int nw = a.starts[f];
        a.starts[f] = first;
        first += nw;
    }
    if (tid == map_threads - 1)
        a.starts[a.nframes] = part[tid];
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
    launch_checked(&stream_window_map, "viterbi stream_window_map", 1, map_threads, 0, static_cast<cudaStream_t>(stream),
                   a);
}

} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// bench_pipeline: host-to-host throughput of the batch_copy pipeline against
// the pinned PCIe bandwidth measured in the same run.
//
// For each batch size (1 KiB .. 64 MiB) and slot count (1..4) it streams
// batches through the CUDA pipeline: frames are written straight into the
// pinned staging (begin_frame), copied in, scaled, copied out, and read back
// from pinned staging. With several slots, one batch's copy-in, another's
// kernel and a third's copy-out run at once, so the ceiling is the
// bidirectional PCIe rate (H2D and D2H concurrently), measured here first.
//
// Checked (bench_checks.h) before a figure is printed: every frame came out,
// in order, scaled by 2: the warm-up's frames are written whole and checked
// whole, the timed ones carry their number in their first and last float and
// are checked there. The figure must not be above the PCIe bound for the
// bytes each frame moves (its descriptor and data in, its data out) at the
// rates measured first. A failed check prints an error and exits with
// status 1.
//
//   bench_pipeline [--quick] [--markdown]
#include "bench_checks.h"
#include "copy/copy_kernel.h"
#include "pipeline/batch_pipeline.h"
#include "cuda/cuda_probe.h"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gr::gpurx;
using clk = std::chrono::steady_clock;

namespace {

// The value a frame's float i holds: whole frames (the warm-up) i's own,
// the timed ones their number at both ends (exact in a float below 2^24).
float pattern(size_t frame, size_t i) { return float((frame * 7 + i) % 4096); }
float stamp(size_t frame) { return float(frame % (size_t(1) << 23)); }

struct figure {
    double gbs = 0, bound = 0; // GB/s each way, and its bound
};

// GB/s of input (= of output) through the pipeline, checked.
figure run_pipeline(size_t batch_bytes, size_t slots, bool quick, const bench::link_rates& link)
{
    const size_t frame_bytes = std::min<size_t>(batch_bytes, size_t(1) << 20);
    const size_t frames_per_batch = batch_bytes / frame_bytes;
    const size_t nf = frame_bytes / sizeof(float);
    core::copy_config copy;
    copy.vlen = nf;
    copy.scale = 2.0f; // out = 2 x in: a frame that was not processed shows
    core::pipeline_config cfg;
    cfg.slots = slots;
    cfg.max_batch = frames_per_batch;
    cfg.max_in_bytes = cfg.max_out_bytes = frame_bytes;
    cfg.flush_timeout = std::chrono::microseconds(1000000);
    auto pipe = core::make_pipeline(core::copy_kernel_factories(copy), { core::backend_kind::cuda, { 0 }, "" }, cfg);

    const size_t target = quick ? (size_t(1) << 30) : (size_t(4) << 30);
    size_t nbatches = std::max<size_t>(target / batch_bytes, 3 * slots + 8);
    nbatches = std::min<size_t>(nbatches, 200000);
    const size_t warm = std::min<size_t>(nbatches / 10 + slots, 50);
    const std::string what = std::to_string(batch_bytes) + "-byte batches, " + std::to_string(slots) + " slot(s)";
    size_t out_frames = 0, bad = 0, checked_whole = 0;
    clk::time_point t0;
    const size_t total_frames = nbatches * frames_per_batch;
    const size_t warm_frames = warm * frames_per_batch;
    auto consume = [&](bool block) {
        while (const auto* f = pipe->front(block)) {
            const size_t n = f->user;
            const float* o = reinterpret_cast<const float*>(f->data);
            if (f->rejected || f->out_bytes != frame_bytes || n != out_frames)
                bad++;
            else if (n < warm_frames) {
                for (size_t i = 0; i < nf; i++)
                    bad += o[i] != 2.0f * pattern(n, i);
                checked_whole++;
            } else {
                bad += o[0] != 2.0f * stamp(n) || o[nf - 1] != 2.0f * stamp(n);
            }
            pipe->pop();
            out_frames++;
            block = false;
        }
    };
    size_t in_frames = 0;
    while (in_frames < total_frames) {
        if (in_frames == warm_frames) {
            pipe->drain();
            consume(false);
            t0 = clk::now();
        }
        if (pipe->can_accept()) {
            // The payload is written in place by the producer: whole in the
            // warm-up, its two ends after.
            auto* p = reinterpret_cast<float*>(pipe->begin_frame(frame_bytes, frame_bytes, nullptr, in_frames));
            if (in_frames < warm_frames) {
                for (size_t i = 0; i < nf; i++)
                    p[i] = pattern(in_frames, i);
            } else {
                p[0] = p[nf - 1] = stamp(in_frames);
            }
            pipe->commit_frame();
            in_frames++;
        } else {
            consume(true);
        }
        consume(false);
    }
    pipe->drain();
    consume(false);
    const double secs = std::chrono::duration<double>(clk::now() - t0).count();
    if (out_frames != total_frames)
        bench::fail(what + ": " + std::to_string(total_frames) + " frames in, " + std::to_string(out_frames) +
                    " out: no figure");
    if (bad)
        bench::fail(what + ": " + std::to_string(bad) + " values (or frames) not 2 x their input: no figure");
    if (checked_whole != warm_frames)
        bench::fail(what + ": the warm-up's frames were not all checked");
    figure r;
    const auto b = bench::pipeline_frame_bytes(core::frame_types{}, frame_bytes, frame_bytes);
    // GB/s of frame data: bytes per ns per frame of frame_bytes.
    r.bound = bench::link_bound_gbps({ link }, double(frame_bytes), b);
    r.gbs = bench::check_bound(what, double(total_frames - warm_frames) * frame_bytes / secs / 1e9, r.bound, "GB/s",
                               bench::link_why(b));
    return r;
}

} // namespace

int main(int argc, char** argv)
{
    bool quick = false, markdown = false;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        else if (!std::strcmp(argv[i], "--markdown"))
            markdown = true;
        else {
            std::fprintf(stderr, "usage: bench_pipeline [--quick] [--markdown]\n");
            return std::strcmp(argv[i], "--help") && std::strcmp(argv[i], "-h") ? 2 : 0;
        }
    }
    const auto& probe = core::probe_cuda();
    if (probe.devices.empty() || !probe.devices[0].usable) {
        std::printf("bench_pipeline: no usable CUDA device (%s); nothing to measure\n",
                    probe.problem.empty() && !probe.devices.empty()
                        ? probe.devices[0].problem.c_str()
                        : probe.problem.c_str());
        return 0;
    }
    std::printf("device: %s\n", probe.devices[0].name.c_str());
    const bench::link_rates ref = bench::measure_link(0);
    std::printf("pinned PCIe, same run: H2D %.1f GB/s, D2H %.1f GB/s, both at once %.1f GB/s total\n",
                ref.h2d, ref.d2h, ref.both);
    std::printf("checked: every frame out, in order, 2 x its input (warm-up frames whole, timed ones at both "
                "ends); each figure not above its PCIe bound (bytes per frame at these rates)\n");
    std::printf("\nbatch_copy pipeline, host->device->host; figure = GB/s each way "
                "(ratio = 2 x figure / bidirectional PCIe)\n");
    const std::vector<size_t> sizes = { 1 << 10, 16 << 10, 256 << 10, 1 << 20, 4 << 20,
                                        16 << 20, 64 << 20 };
    if (markdown)
        std::printf("\n| batch | 1 slot | 2 slots | 3 slots | 4 slots |\n|---|---|---|---|---|\n");
    else
        std::printf("%10s %16s %16s %16s %16s\n", "batch", "1 slot", "2 slots", "3 slots", "4 slots");
    for (size_t b : sizes) {
        char label[32];
        if (b >= (1 << 20))
            std::snprintf(label, sizeof label, "%zu MiB", b >> 20);
        else
            std::snprintf(label, sizeof label, "%zu KiB", b >> 10);
        std::printf(markdown ? "| %s |" : "%10s", label);
        for (size_t slots = 1; slots <= 4; slots++) {
            const auto f = run_pipeline(b, slots, quick, ref);
            std::printf(markdown ? " %.1f GB/s (%.0f%%) |" : " %7.1f (%4.0f%%)", f.gbs, 100.0 * 2 * f.gbs / ref.both);
            std::fflush(stdout);
        }
        std::printf("\n");
    }
    return 0;
}

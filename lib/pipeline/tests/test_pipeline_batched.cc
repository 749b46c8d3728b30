/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The batched calls of the pipeline on the CPU backend: begin_frames() /
// commit_frames() / abort_frames() and front_many() / pop_many(). They book
// and take out whole runs of frames for one caller feeding several GPUs;
// every frame must still come out once, in submission order, with its own
// sequence number, user tag and data, mixed with the frame-by-frame calls,
// in partial batches and partial runs, and across a stop in mid-stream.
#include "copy/copy_kernel.h"
#include "cuda/cuda_probe.h"
#include "pipeline/batch_pipeline.h"
#include "pipeline/worker_pool.h"
#include "test_util.h"
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <random>
#include <vector>

using namespace gr::gpurx;

namespace {

core::pipeline_config make_cfg(size_t slots, size_t max_batch, int flush_us, size_t vlen)
{
    core::pipeline_config cfg;
    cfg.slots = slots;
    cfg.max_batch = max_batch;
    cfg.max_in_bytes = cfg.max_out_bytes = vlen * sizeof(float);
    cfg.flush_timeout = std::chrono::microseconds(flush_us);
    cfg.cpu_threads = 2;
    return cfg;
}

core::kernel_factories copy_kernels(size_t vlen)
{
    core::copy_config c;
    c.vlen = vlen;
    return core::copy_kernel_factories(c);
}

// Frame i's float j.
float value(size_t i, size_t j) { return float((i * 31 + j) % 100003); }

void fill(uint8_t* dst, size_t i, size_t vlen)
{
    for (size_t j = 0; j < vlen; j++) {
        const float v = value(i, j);
        std::memcpy(dst + 4 * j, &v, 4);
    }
}

// Streams frames through the pipeline in runs of random length (begin_frames,
// sometimes withdrawn and booked again), with single frames and rejected
// ones among them, and takes them out in runs of random length, popped in
// random parts, sometimes frame by frame. Checks order, tags and data.
void batched_stream(const core::backend_choice& where,
                    size_t device_threads,
                    size_t slots,
                    size_t batch,
                    int flush_us,
                    uint32_t seed)
{
    const size_t vlen = 37; // 148 bytes: a stride of 160, padding between frames
    const size_t bytes = vlen * sizeof(float);
    auto cfg = make_cfg(slots, batch, flush_us, vlen);
    cfg.device_threads = device_threads;
    auto pipe = core::make_pipeline(copy_kernels(vlen), where, cfg);
    std::mt19937 rng(seed);
    const size_t nframes = 4 * batch * slots + 29;
    size_t next_in = 0, next_out = 0;
    auto check = [&](const core::completed_frame& f) {
        ASSERT_LT(next_out, nframes);
        ASSERT_EQ(f.seq, next_out) << "frames left out of order";
        ASSERT_EQ(f.user, 1000 + next_out);
        ASSERT_EQ(f.out_bytes, bytes);
        const float* y = reinterpret_cast<const float*>(f.data);
        if (next_out % 11 == 5) {
            ASSERT_TRUE(f.rejected);
            ASSERT_EQ(f.result, nullptr);
            for (size_t j = 0; j < vlen; j++)
                ASSERT_EQ(y[j], 0.0f);
        } else {
            ASSERT_FALSE(f.rejected);
            for (size_t j = 0; j < vlen; j++)
                ASSERT_EQ(y[j], value(next_out, j)) << "frame " << next_out;
        }
        next_out++;
    };
    auto take = [&](bool block) {
        for (;;) {
            if (rng() % 5 == 0) { // frame by frame, as a block does
                const auto* f = pipe->front(block);
                if (!f)
                    return;
                check(*f);
                pipe->pop();
                block = false;
                continue;
            }
            const size_t max = rng() % 3 == 0 ? 1 + rng() % (batch + 2) : SIZE_MAX;
            const core::completed_run r = pipe->front_many(block, max);
            if (r.empty())
                return;
            ASSERT_LE(r.size(), max);
            ASSERT_LE(r.size(), batch) << "a run is one batch's frames";
            // Pop a part of it, or all: what is left comes again.
            const size_t k = rng() % 2 ? r.size() : 1 + rng() % r.size();
            for (size_t i = 0; i < k; i++) {
                const core::completed_frame f = r[i];
                ASSERT_EQ(f.data, r.data(i));
                ASSERT_EQ(f.seq, r.seq(i));
                ASSERT_EQ(f.user, r.user(i));
                ASSERT_EQ(f.rejected, r.rejected(i));
                check(f);
                if (::testing::Test::HasFatalFailure())
                    return;
            }
            pipe->pop_many(k);
            block = false;
        }
    };
    while (next_in < nframes) {
        if (!pipe->can_accept()) {
            ASSERT_TRUE(pipe->front_in_flight()) << "pipeline cannot accept and has nothing in flight";
            take(true);
            ASSERT_FALSE(::testing::Test::HasFatalFailure());
            continue;
        }
        if (next_in % 11 == 5) {
            pipe->submit_rejected(bytes, 1000 + next_in);
            next_in++;
        } else if (rng() % 4 == 0) {
            fill(pipe->begin_frame(bytes, bytes, nullptr, 1000 + next_in), next_in, vlen);
            EXPECT_EQ(pipe->commit_frame(), next_in);
            next_in++;
        } else {
            // A run up to the next rejected frame.
            size_t want = 1 + rng() % (2 * batch + 3);
            want = std::min(want, nframes - next_in);
            for (size_t i = next_in; i < next_in + want; i++)
                if (i % 11 == 5) {
                    want = i - next_in;
                    break;
                }
            if (want == 0)
                continue;
            if (rng() % 6 == 0) { // booked, written, withdrawn: leaves no trace
                const core::frame_run junk = pipe->begin_frames(want, bytes, bytes, nullptr, 7, 0);
                ASSERT_GT(junk.count, 0u);
                for (size_t i = 0; i < junk.count; i++)
                    std::memset(junk.frame(i), 0x7f, bytes);
                pipe->abort_frames();
                ASSERT_FALSE(pipe->frame_open());
                ASSERT_TRUE(pipe->can_accept());
            }
            const core::frame_run r = pipe->begin_frames(want, bytes, bytes, nullptr, 1000 + next_in, 1);
            ASSERT_GT(r.count, 0u);
            ASSERT_LE(r.count, want);
            ASSERT_EQ(r.stride, (bytes + 15) & ~size_t(15));
            ASSERT_TRUE(pipe->frame_open());
            for (size_t i = 0; i < r.count; i++)
                fill(r.frame(i), next_in + i, vlen);
            EXPECT_EQ(pipe->commit_frames(), next_in);
            next_in += r.count;
        }
        pipe->launch_due();
        if (rng() % 3 == 0)
            take(false);
        ASSERT_FALSE(::testing::Test::HasFatalFailure());
    }
    pipe->drain();
    take(false);
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
    EXPECT_EQ(next_out, nframes);
    EXPECT_EQ(pipe->pending(), 0u);
    EXPECT_TRUE(pipe->front_many(false).empty());
}

void batched_all(const core::backend_choice& where, size_t device_threads)
{
    uint32_t seed = 7;
    for (size_t slots : { 1, 2, 3 })
        for (size_t batch : { 1, 7, 64 })
            for (int flush : { 0, 100, 10000 }) {
                SCOPED_TRACE("slots=" + std::to_string(slots) + " max_batch=" + std::to_string(batch) +
                             " flush_us=" + std::to_string(flush) +
                             " device_threads=" + std::to_string(device_threads));
                batched_stream(where, device_threads, slots, batch, flush, seed++);
                if (::testing::Test::HasFatalFailure())
                    return;
            }
}

} // namespace

TEST(PipelineBatched, CpuEveryFrameOnceInOrderUnchanged) { batched_all(test::cpu_backend(), 0); }
// Batches launched by the device's thread: front_many() waits for the launch.
TEST(PipelineBatched, CpuDeviceThreadsKeepOrder) { batched_all(test::cpu_backend(), 1); }
TEST(PipelineBatchedCuda, EveryFrameOnceInOrderUnchanged) { batched_all(test::cuda_backend(), 0); }
TEST(PipelineBatchedCuda, DeviceThreadsKeepOrder) { batched_all(test::cuda_backend(), 1); }
// Every GPU of the machine in one pipeline (the multi-GPU feed the batched
// calls are for), the caller or a thread per GPU launching.
TEST(PipelineBatchedCuda, SeveralDevicesKeepOrder)
{
    std::vector<int> all;
    for (const auto& d : core::probe_cuda().devices)
        if (d.usable)
            all.push_back(d.ordinal);
    std::printf("devices in the pipeline: %zu\n", all.size());
    for (size_t device_threads : { 0, 1 }) {
        batched_all(test::cuda_backend(all), device_threads);
        if (::testing::Test::HasFatalFailure())
            return;
    }
}

// begin_frames() books what the filling slot has room for; a full slot
// launches on commit; a run of front_many() is one batch, taken in parts.
TEST(PipelineBatched, CpuPartialRunsAndBatches)
{
    const size_t vlen = 4, bytes = 16, batch = 8;
    auto pipe = core::make_pipeline(copy_kernels(vlen), test::cpu_backend(), make_cfg(2, batch, 1000000, vlen));
    uint64_t next = 0;
    auto book = [&](size_t n) {
        const core::frame_run r = pipe->begin_frames(n, bytes, bytes, nullptr, 500 + next, 1);
        for (size_t i = 0; i < r.count; i++)
            fill(r.frame(i), next + i, vlen);
        if (r.count) {
            EXPECT_EQ(pipe->commit_frames(), next);
        }
        next += r.count;
        return r.count;
    };
    EXPECT_EQ(book(5), 5u);
    EXPECT_TRUE(pipe->has_unlaunched()) << "a partial batch waits for its flush timeout";
    EXPECT_TRUE(pipe->front_many(false).empty()) << "nothing completes before launch";
    EXPECT_EQ(book(10), 3u) << "the rest of the filling slot, not more";
    EXPECT_FALSE(pipe->has_unlaunched()) << "a full slot launches on commit";
    EXPECT_EQ(book(20), batch);
    EXPECT_FALSE(pipe->can_accept());
    EXPECT_EQ(book(1), 0u) << "no slot free: nothing booked";
    EXPECT_FALSE(pipe->frame_open());
    EXPECT_EQ(pipe->pending(), 2 * batch);

    core::completed_run r = pipe->front_many(false, 2);
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r.seq(0), 0u);
    EXPECT_EQ(r.user(1), 501u);
    EXPECT_THROW(pipe->pop_many(batch + 1), std::logic_error) << "beyond the batch's frames";
    pipe->pop_many(2);
    pipe->pop_many(0); // nothing
    r = pipe->front_many(true);
    ASSERT_EQ(r.size(), batch - 2) << "the rest of the first batch, not the second's";
    EXPECT_EQ(r.seq(0), 2u);
    for (size_t i = 0; i < r.size(); i++) {
        float y;
        std::memcpy(&y, r.data(i) + 4 * (vlen - 1), 4);
        EXPECT_EQ(y, value(2 + i, vlen - 1));
    }
    pipe->pop_many(r.size());
    EXPECT_TRUE(pipe->can_accept()) << "the first slot is free again";
    r = pipe->front_many(false);
    ASSERT_EQ(r.size(), batch);
    EXPECT_EQ(r.seq(0), batch);
    pipe->pop_many(batch);
    EXPECT_EQ(pipe->pending(), 0u);
    EXPECT_TRUE(pipe->front_many(true).empty());
    EXPECT_THROW(pipe->pop_many(1), std::logic_error);
}

// While frames are open no batch launches and nothing else may be submitted;
// commit_frame() commits a run as commit_frames() does.
TEST(PipelineBatched, CpuOpenRunHoldsTheSlot)
{
    const size_t vlen = 4, bytes = 16;
    auto pipe = core::make_pipeline(copy_kernels(vlen), test::cpu_backend(), make_cfg(2, 8, 0, vlen));
    const core::frame_run r = pipe->begin_frames(3, bytes, bytes, nullptr, 40, 2);
    ASSERT_EQ(r.count, 3u);
    for (size_t i = 0; i < 3; i++)
        fill(r.frame(i), i, vlen);
    pipe->launch_due(core::batch_pipeline::clock::now() + std::chrono::hours(1));
    pipe->flush();
    EXPECT_TRUE(pipe->has_unlaunched()) << "launched under open frames";
    std::vector<float> x(vlen);
    EXPECT_THROW(pipe->submit(x.data(), bytes, bytes, nullptr), std::logic_error);
    EXPECT_THROW(pipe->begin_frame(bytes, bytes, nullptr), std::logic_error);
    EXPECT_THROW(pipe->begin_frames(2, bytes, bytes, nullptr), std::logic_error);
    EXPECT_THROW(pipe->submit_rejected(bytes), std::logic_error);
    EXPECT_THROW(pipe->submit_many(x.data(), bytes, bytes, bytes, nullptr, 1), std::logic_error);
    EXPECT_THROW(pipe->open_frame_params(), std::logic_error) << "several frames open";
    EXPECT_THROW(pipe->begin_frames(1, bytes + 4, bytes, nullptr), std::logic_error);
    EXPECT_EQ(pipe->commit_frame(), 0u); // flush_us 0: launches at once
    EXPECT_FALSE(pipe->frame_open());
    EXPECT_FALSE(pipe->has_unlaunched());
    EXPECT_EQ(pipe->commit_frames(), 3u) << "nothing open: nothing committed, the next sequence number";
    EXPECT_THROW(pipe->begin_frames(1, bytes + 4, bytes, nullptr), std::length_error);
    const core::completed_run out = pipe->front_many(true);
    ASSERT_EQ(out.size(), 3u);
    for (size_t i = 0; i < 3; i++) {
        EXPECT_EQ(out.user(i), 40 + 2 * i);
        float y;
        std::memcpy(&y, out.data(i), 4);
        EXPECT_EQ(y, value(i, 0));
    }
    pipe->pop_many(3);
}

// abort_frames() withdraws a run: the frames around it come out with
// consecutive sequence numbers and their own data; a run that was its
// slot's only frames leaves the slot free (no empty batch launched); drain()
// withdraws an open run.
TEST(PipelineBatched, CpuAbortFramesLeavesNoTrace)
{
    const size_t vlen = 4, bytes = 16, batch = 4;
    auto pipe = core::make_pipeline(copy_kernels(vlen), test::cpu_backend(), make_cfg(2, batch, 1000, vlen));
    for (int round = 0; round < 3; round++) {
        core::frame_run r = pipe->begin_frames(3, bytes, bytes, nullptr, 99, 0);
        ASSERT_EQ(r.count, 3u);
        pipe->abort_frames();
        EXPECT_FALSE(pipe->has_unlaunched()) << "round " << round;
        EXPECT_EQ(pipe->next_deadline(), core::batch_pipeline::clock::time_point::max());
        pipe->launch_due(core::batch_pipeline::clock::now() + std::chrono::hours(1));
        EXPECT_TRUE(pipe->front_many(false).empty());
        EXPECT_EQ(pipe->pending(), 0u);
    }
    std::vector<float> a(vlen);
    fill(reinterpret_cast<uint8_t*>(a.data()), 0, vlen);
    pipe->submit(a.data(), bytes, bytes, nullptr, 0);
    core::frame_run r = pipe->begin_frames(2, bytes, bytes, nullptr, 77, 0);
    ASSERT_EQ(r.count, 2u);
    std::memset(r.data, 0x55, 2 * r.stride);
    uint8_t* const withdrawn = r.data;
    pipe->abort_frame(); // the single-frame call withdraws the run too
    r = pipe->begin_frames(5, bytes, bytes, nullptr, 1, 1);
    ASSERT_EQ(r.count, 3u) << "the withdrawn frames' room is free again";
    EXPECT_EQ(r.data, withdrawn) << "the staging goes back to where it was before the withdrawn run";
    for (size_t i = 0; i < r.count; i++)
        fill(r.frame(i), 1 + i, vlen);
    EXPECT_EQ(pipe->commit_frames(), 1u);
    r = pipe->begin_frames(2, bytes, bytes, nullptr, 4, 1);
    ASSERT_EQ(r.count, 2u);
    fill(r.frame(0), 4, vlen);
    fill(r.frame(1), 5, vlen);
    pipe->drain(); // withdraws the open run
    EXPECT_FALSE(pipe->frame_open());
    uint64_t next = 0;
    for (;;) {
        const core::completed_run out = pipe->front_many(false);
        if (out.empty())
            break;
        for (size_t i = 0; i < out.size(); i++, next++) {
            EXPECT_EQ(out.seq(i), next);
            EXPECT_EQ(out.user(i), next);
            float y;
            std::memcpy(&y, out.data(i) + 4 * (vlen - 1), 4);
            EXPECT_EQ(y, value(next, vlen - 1));
        }
        pipe->pop_many(out.size());
    }
    EXPECT_EQ(next, 4u);
    EXPECT_EQ(pipe->pending(), 0u);
}

namespace {

// Copies each frame in its own work item; raises *stop after stop_after items
// (a block stopped by GNU Radio in mid-batch).
struct counting_copy_kernel final : core::cpu_kernel {
    std::atomic<int>* items_run;
    std::atomic<bool>* stop;
    int stop_after;
    const char* name() const override { return "test-counting-copy"; }
    void run(const core::batch_view& b, core::worker_pool& pool) override
    {
        pool.parallel_for(b.nframes, [&](size_t f, size_t) {
            const auto& fd = b.frames[f];
            std::memcpy(b.out + fd.out_offset, b.in + fd.in_offset, fd.out_bytes);
            if (++*items_run == stop_after)
                stop->store(true);
        });
    }
};

} // namespace

// A stop in mid-stream: the batch a run filled is cancelled and held; the
// held pipeline books nothing; after resume() every frame comes out once, in
// order, whole.
TEST(PipelineBatched, CpuStopMidStream)
{
    const size_t vlen = 5, bytes = 20, batch = 8;
    std::atomic<int> items_run{ 0 };
    std::atomic<bool> stop{ false };
    core::kernel_factories k;
    k.cpu = [&] {
        auto kern = std::make_unique<counting_copy_kernel>();
        kern->items_run = &items_run;
        kern->stop = &stop;
        kern->stop_after = 3;
        return std::unique_ptr<core::cpu_kernel>(std::move(kern));
    };
    auto cfg = make_cfg(3, batch, 1000000, vlen);
    cfg.cpu_threads = 1; // the caller runs every item: the cancel lands after item 3
    auto pipe = core::make_pipeline(k, test::cpu_backend(), cfg);
    pipe->set_cancel_check([&] { return stop.load(); });
    const size_t total = 2 * batch + 5;
    size_t next_in = 0;
    auto book = [&](size_t n) {
        const core::frame_run r = pipe->begin_frames(n, bytes, bytes, nullptr, next_in, 1);
        for (size_t i = 0; i < r.count; i++)
            fill(r.frame(i), next_in + i, vlen);
        pipe->commit_frames();
        next_in += r.count;
        return r.count;
    };
    EXPECT_EQ(book(batch + 2), batch); // fills and launches the first batch, which is cancelled
    EXPECT_EQ(items_run.load(), 3);
    EXPECT_TRUE(pipe->held());
    EXPECT_EQ(book(2), 0u) << "a held pipeline books no frame";
    EXPECT_FALSE(pipe->frame_open());
    EXPECT_TRUE(pipe->front_many(false).empty()) << "a cancelled batch has no completed frame";
    EXPECT_EQ(pipe->unfinished(), batch);

    stop = false;
    items_run = -1000;
    EXPECT_TRUE(pipe->resume());
    EXPECT_EQ(items_run.load(), -1000 + int(batch)) << "the batch ran again, whole";
    size_t next_out = 0;
    auto take_all = [&] {
        for (;;) {
            const core::completed_run r = pipe->front_many(false);
            if (r.empty())
                return;
            for (size_t i = 0; i < r.size(); i++, next_out++) {
                ASSERT_EQ(r.seq(i), next_out);
                ASSERT_EQ(r.user(i), next_out);
                ASSERT_FALSE(r.rejected(i));
                float y;
                std::memcpy(&y, r.data(i) + 4 * (vlen - 1), 4);
                ASSERT_EQ(y, value(next_out, vlen - 1)) << "frame " << next_out;
            }
            pipe->pop_many(r.size());
        }
    };
    take_all();
    while (next_in < total) {
        ASSERT_GT(book(total - next_in), 0u);
        take_all();
    }
    pipe->drain();
    take_all();
    EXPECT_EQ(next_out, total);
    EXPECT_EQ(pipe->pending(), 0u);
}

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The batching pipeline on both backends: every frame out once, in order and
// unchanged, for slots 1..4, batch sizes 1..1000 and flush timeouts 0..10 ms.
#include "copy/copy_kernel.h"
#include "pipeline/batch_pipeline.h"
#include "cuda/host_pinning.h"
#include "pipeline/worker_pool.h"
#include "test_util.h"
#include <gtest/gtest.h>

#include <cstring>

#include "cuda/cuda_probe.h"
#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>
#include <thread>
#include <vector>

using namespace gr::gpurx;
using core::batch_pipeline;

namespace {

struct pipeline_case {
    size_t slots, max_batch;
    int flush_us;
};

core::pipeline_config make_cfg(const pipeline_case& c, size_t vlen)
{
    core::pipeline_config cfg;
    cfg.slots = c.slots;
    cfg.max_batch = c.max_batch;
    cfg.max_in_bytes = cfg.max_out_bytes = vlen * sizeof(float);
    cfg.flush_timeout = std::chrono::microseconds(c.flush_us);
    cfg.cpu_threads = 2;
    return cfg;
}

core::kernel_factories copy_kernels(size_t vlen, float scale)
{
    core::copy_config c;
    c.vlen = vlen;
    c.scale = scale;
    return core::copy_kernel_factories(c);
}

// Streams nframes random frames through a pipeline the way a block does:
// submit while a slot accepts, take completed frames (sometimes blocking),
// let partial batches fall due, and drain at the end. Every ~7th frame is
// "malformed" and submitted as rejected. Checks order, count and content.
void run_stream(const core::backend_choice& where, const pipeline_case& c, uint32_t seed)
{
    const size_t vlen = 37; // odd on purpose: exercises padding and tails
    const float scale = 1.0f;
    auto pipe = core::make_pipeline(copy_kernels(vlen, scale), where, make_cfg(c, vlen));
    std::mt19937 rng(seed);
    std::normal_distribution<float> gauss;
    const size_t nframes = 3 * c.max_batch * c.slots + 17;
    std::vector<std::vector<float>> frames(nframes, std::vector<float>(vlen));
    for (auto& f : frames)
        for (auto& x : f)
            x = gauss(rng);

    size_t next_in = 0, next_out = 0;
    auto take = [&](bool block) {
        while (const auto* f = pipe->front(block)) {
            ASSERT_LT(next_out, nframes);
            ASSERT_EQ(f->seq, next_out) << "frames left out of order";
            ASSERT_EQ(f->user, next_out);
            ASSERT_EQ(f->out_bytes, vlen * sizeof(float));
            const float* y = reinterpret_cast<const float*>(f->data);
            if (next_out % 7 == 3) {
                EXPECT_TRUE(f->rejected);
                for (size_t i = 0; i < vlen; i++)
                    ASSERT_EQ(y[i], 0.0f);
            } else {
                EXPECT_FALSE(f->rejected);
                for (size_t i = 0; i < vlen; i++)
                    ASSERT_EQ(y[i], frames[next_out][i] * scale) << "frame " << next_out;
            }
            pipe->pop();
            next_out++;
            block = false;
        }
    };
    std::uniform_int_distribution<int> burst(1, int(2 * c.max_batch + 3));
    while (next_in < nframes) {
        int n = burst(rng);
        while (n-- > 0 && next_in < nframes && pipe->can_accept()) {
            if (next_in % 7 == 3)
                pipe->submit_rejected(vlen * sizeof(float), next_in);
            else
                pipe->submit(frames[next_in].data(), vlen * sizeof(float), vlen * sizeof(float), nullptr, next_in);
            next_in++;
        }
        pipe->launch_due();
        take(!pipe->can_accept() && pipe->front_in_flight());
        if (!pipe->can_accept() && !pipe->front_in_flight())
            FAIL() << "pipeline cannot accept and has nothing in flight";
    }
    pipe->drain();
    take(false);
    EXPECT_EQ(next_out, nframes);
    EXPECT_EQ(pipe->pending(), 0u);
}

std::vector<pipeline_case> all_cases()
{
    std::vector<pipeline_case> v;
    for (size_t slots : { 1, 2, 3, 4 })
        for (size_t batch : { 1, 7, 64, 1000 })
            for (int flush : { 0, 100, 10000 })
                v.push_back({ slots, batch, flush });
    return v;
}

void run_all(const core::backend_choice& where)
{
    uint32_t seed = 1;
    for (const auto& c : all_cases()) {
        SCOPED_TRACE("slots=" + std::to_string(c.slots) + " max_batch=" +
                     std::to_string(c.max_batch) + " flush_us=" + std::to_string(c.flush_us));
        run_stream(where, c, seed++);
        if (::testing::Test::HasFatalFailure())
            return;
    }
}

// A partial batch is launched once flush_timeout has passed, not before.
void check_flush_timeout(const core::backend_choice& where)
{
    const size_t vlen = 8;
    const auto kernel = copy_kernels(vlen, 2.0f);
    auto pipe = core::make_pipeline(kernel, where, make_cfg({ 2, 100, 5000 }, vlen));
    std::vector<float> x(vlen, 1.5f);
    pipe->submit(x.data(), vlen * 4, vlen * 4, nullptr);
    pipe->launch_due();
    EXPECT_TRUE(pipe->has_unlaunched()) << "launched before the flush timeout";
    EXPECT_EQ(pipe->front(true), nullptr) << "a partial batch completed before launch";
    std::this_thread::sleep_until(pipe->next_deadline());
    pipe->launch_due();
    EXPECT_FALSE(pipe->has_unlaunched());
    const auto* f = pipe->front(true);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(reinterpret_cast<const float*>(f->data)[vlen - 1], 3.0f);
    pipe->pop();
}

} // namespace

TEST(Pipeline, CpuEveryFrameOnceInOrderUnchanged) { run_all(test::cpu_backend()); }
TEST(PipelineCuda, EveryFrameOnceInOrderUnchanged) { run_all(test::cuda_backend()); }
TEST(Pipeline, CpuFlushTimeoutBoundsLatency) { check_flush_timeout(test::cpu_backend()); }
TEST(PipelineCuda, FlushTimeoutBoundsLatency) { check_flush_timeout(test::cuda_backend()); }

TEST(Pipeline, RejectsOversizedFrame)
{
    const auto kernel = copy_kernels(16, 1.0f);
    auto pipe = core::make_pipeline(kernel, test::cpu_backend(), make_cfg({ 2, 4, 0 }, 16));
    std::vector<float> x(17);
    try {
        pipe->submit(x.data(), x.size() * 4, 64, nullptr);
        FAIL() << "no exception";
    } catch (const std::length_error& e) {
        EXPECT_NE(std::string(e.what()).find("68 bytes"), std::string::npos) << e.what();
    }
    EXPECT_EQ(pipe->pending(), 0u) << "a rejected submit must leave no trace";
}

// A frame withdrawn after begin_frame() leaves no trace: the frames around it
// come out in order, with consecutive sequence numbers and their own data.
void abort_leaves_no_trace(const core::backend_choice& where)
{
    const size_t vlen = 16;
    const auto kernel = copy_kernels(vlen, 1.0f);
    auto pipe = core::make_pipeline(kernel, where, make_cfg({ 2, 4, 0 }, vlen));
    std::vector<float> a(vlen, 1.0f), b(vlen, 2.0f);
    pipe->submit(a.data(), vlen * 4, vlen * 4, nullptr, 10);
    auto* dst = reinterpret_cast<float*>(pipe->begin_frame(vlen * 4, vlen * 4, nullptr, 99));
    std::fill(dst, dst + vlen, 7.0f);
    pipe->abort_frame();
    EXPECT_THROW(pipe->abort_frame(), std::logic_error);
    pipe->submit(b.data(), vlen * 4, vlen * 4, nullptr, 11);
    pipe->drain();
    for (uint64_t i = 0; i < 2; i++) {
        const auto* f = pipe->front(true);
        ASSERT_NE(f, nullptr);
        EXPECT_EQ(f->seq, i);
        EXPECT_EQ(f->user, 10 + i);
        const auto* v = reinterpret_cast<const float*>(f->data);
        EXPECT_EQ(v[0], i ? 2.0f : 1.0f);
        EXPECT_EQ(v[vlen - 1], i ? 2.0f : 1.0f);
        pipe->pop();
    }
    EXPECT_EQ(pipe->front(false), nullptr);
}
TEST(Pipeline, CpuAbortFrameLeavesNoTrace) { abort_leaves_no_trace(test::cpu_backend()); }

// The withdrawn frame was the only one of its slot: the slot is free again,
// not a partial batch of no frame. What the PDU driver's poller did between
// a malformed PDU and the next one (launch_due() once flush_us had passed)
// launched that empty slot; it came back "done" with no frame, so front()
// never reached it (or read past its entries) and pop() never freed it, and
// once the ring came round to it can_accept() stayed false for good: the
// PDU block's take() spun in its "wait for a slot" loop holding the driver's
// lock, the poller waiting for that lock (qa_lte_sch, qa_drivers hangs).
void abort_of_only_frame_frees_the_slot(const core::backend_choice& where, bool flush)
{
    const size_t vlen = 8, slots = 2, batch = 2;
    const size_t bytes = vlen * sizeof(float);
    auto pipe = core::make_pipeline(copy_kernels(vlen, 1.0f), where, make_cfg({ slots, batch, 1000 }, vlen));
    std::vector<float> x(vlen);
    uint64_t seq = 0;
    for (int round = 0; round < 3; round++) {
        // A frame withdrawn while it is the only one of the filling slot,
        // then the slot's deadline passes (or a flush/drain) before the next
        // frame comes.
        pipe->begin_frame(bytes, bytes, nullptr, 999);
        pipe->abort_frame();
        EXPECT_FALSE(pipe->has_unlaunched()) << "round " << round;
        EXPECT_EQ(pipe->next_deadline(), core::batch_pipeline::clock::time_point::max());
        if (flush)
            pipe->drain();
        else
            pipe->launch_due(core::batch_pipeline::clock::now() + std::chrono::hours(1));
        EXPECT_EQ(pipe->front(false), nullptr);
        EXPECT_EQ(pipe->pending(), 0u);
        // Every slot of the ring is used again, several times over.
        for (size_t i = 0; i < 2 * slots * batch + 1; i++, seq++) {
            ASSERT_TRUE(pipe->can_accept()) << "round " << round << ", frame " << i;
            std::fill(x.begin(), x.end(), float(seq));
            pipe->submit(x.data(), bytes, bytes, nullptr, seq);
            pipe->flush();
            const auto* f = pipe->front(true);
            ASSERT_NE(f, nullptr) << "round " << round << ", frame " << i;
            EXPECT_EQ(f->seq, seq);
            EXPECT_EQ(f->user, seq);
            EXPECT_EQ(reinterpret_cast<const float*>(f->data)[vlen - 1], float(seq));
            pipe->pop();
        }
        EXPECT_EQ(pipe->pending(), 0u);
    }
}
TEST(Pipeline, CpuAbortOfOnlyFrameFreesTheSlot)
{
    abort_of_only_frame_frees_the_slot(test::cpu_backend(), false);
    abort_of_only_frame_frees_the_slot(test::cpu_backend(), true);
}

// open_frame_params(): a record amended between begin_frame() and
// commit_frame() is the one the kernel reads (the shared channel decides a
// frame's HARQ buffer only once its input has proved well-formed).
struct param_echo_kernel final : core::cpu_kernel {
    const char* name() const override { return "test-param-echo"; }
    void run(const core::batch_view& b, core::worker_pool&) override
    {
        for (size_t i = 0; i < b.nframes; i++)
            std::memcpy(b.out + b.frames[i].out_offset, b.params_as<int32_t>() + i, 4);
    }
};

TEST(Pipeline, CpuOpenFrameParamsAmendTheRecord)
{
    core::kernel_factories k;
    k.cpu = [] { return std::make_unique<param_echo_kernel>(); };
    auto cfg = make_cfg({ 2, 4, 100000 }, 1);
    cfg.types = core::frame_types::of<int32_t, int32_t>();
    auto pipe = core::make_pipeline(k, test::cpu_backend(), cfg);
    EXPECT_THROW(pipe->open_frame_params(), std::logic_error);
    const int32_t first = 1, second = 2, amended = 42;
    const float x = 0.0f;
    pipe->submit(&x, 4, 4, &first);
    std::memcpy(pipe->begin_frame(4, 4, &second), &x, 4);
    std::memcpy(pipe->open_frame_params(), &amended, 4);
    pipe->commit_frame();
    pipe->drain();
    for (int32_t want : { first, amended }) {
        const auto* f = pipe->front(true);
        ASSERT_NE(f, nullptr);
        int32_t got;
        std::memcpy(&got, f->data, 4);
        EXPECT_EQ(got, want);
        pipe->pop();
    }
}

// batch_view::capacity: the CPU engine tells a kernel how many frames its
// slot holds, whatever the batch's size, so the kernel can put a frame's
// working memory at the same place in every batch (no new pages touched by
// a batch smaller than the largest before it).
struct capacity_probe_kernel final : core::cpu_kernel {
    std::vector<std::pair<size_t, size_t>>* seen; // (nframes, capacity) per batch
    explicit capacity_probe_kernel(std::vector<std::pair<size_t, size_t>>* s) : seen(s) {}
    const char* name() const override { return "test-capacity-probe"; }
    void run(const core::batch_view& b, core::worker_pool&) override
    {
        seen->emplace_back(b.nframes, b.capacity);
        for (size_t i = 0; i < b.nframes; i++)
            std::memset(b.out + b.frames[i].out_offset, 0, 4);
    }
};

TEST(Pipeline, CpuKernelIsToldTheSlotsCapacity)
{
    std::vector<std::pair<size_t, size_t>> seen;
    core::kernel_factories k;
    k.cpu = [&seen] { return std::make_unique<capacity_probe_kernel>(&seen); };
    auto cfg = make_cfg({ 2, 4, 100000 }, 1);
    auto pipe = core::make_pipeline(k, test::cpu_backend(), cfg);
    const float x = 0.0f;
    for (size_t batch : { size_t(1), size_t(3), size_t(4), size_t(2) }) {
        for (size_t i = 0; i < batch; i++)
            pipe->submit(&x, 4, 4, nullptr);
        pipe->flush();
        pipe->drain();
        while (pipe->front(false))
            pipe->pop();
    }
    const std::vector<std::pair<size_t, size_t>> want = { { 1, 4 }, { 3, 4 }, { 4, 4 }, { 2, 4 } };
    EXPECT_EQ(seen, want);
}

// submit_many(): frames of one shape taken in runs as large as the filling
// slot allows, copied by several staging threads (runs over 1 MiB) or the
// caller; every frame comes out once, in order, unchanged, with its seq and
// user tag, mixed with single submissions. vlen 1021 (4084 bytes): the
// staging stride (16-aligned) differs from the source's, a copy per frame;
// 1024: the strides agree, one copy per run.
void submit_many_keeps_every_frame(const core::backend_choice& where, size_t vlen)
{
    auto cfg = make_cfg({ 3, 512, 1000 }, vlen);
    cfg.staging_threads = 4;
    auto pipe = core::make_pipeline(copy_kernels(vlen, 1.0f), where, cfg);
    const size_t nframes = 2000;
    std::vector<float> src(nframes * vlen);
    for (size_t i = 0; i < src.size(); i++)
        src[i] = float(i % 100003);
    size_t next = 0, out = 0;
    auto take = [&](bool block) {
        while (const auto* f = pipe->front(block)) {
            ASSERT_EQ(f->seq, out);
            EXPECT_EQ(f->user, out == 700 ? 7u : 5u);
            EXPECT_EQ(std::memcmp(f->data, &src[out * vlen], vlen * 4), 0) << "frame " << out;
            pipe->pop();
            out++;
            block = false;
        }
    };
    while (next < nframes) {
        if (!pipe->can_accept()) {
            take(true);
            continue;
        }
        if (next == 700) { // one frame on its own in the middle
            pipe->submit(&src[next * vlen], vlen * 4, vlen * 4, nullptr, 7);
            next++;
            continue;
        }
        const size_t want = std::min<size_t>(next < 700 ? 700 - next : nframes - next, 900);
        next += pipe->submit_many(&src[next * vlen], vlen * 4, vlen * 4, vlen * 4, nullptr, want, 5);
        take(false);
    }
    pipe->drain();
    take(false);
    EXPECT_EQ(out, nframes);
}
TEST(Pipeline, CpuSubmitManyKeepsEveryFrame)
{
    for (size_t vlen : { 1021, 1024 })
        submit_many_keeps_every_frame(test::cpu_backend(), vlen);
}
TEST(PipelineCuda, SubmitManyKeepsEveryFrame)
{
    for (size_t vlen : { 1021, 1024 })
        submit_many_keeps_every_frame(test::cuda_backend(), vlen);
}
// submit_many_in_place(): a stream of frames left in the caller's memory
// (pinned on CUDA) and read from there at launch. Each source has the
// staging's stride (4096 bytes) and ends with the last frame's data (no
// padding after it: a read past it is out of bounds, for ASan); vlen 1021
// leaves 12 bytes of padding (-1) between frames, which merged runs carry
// into the staging's padding. Calls alternate between two sources whose
// frames differ (b = a + 0.5), so that runs contiguous in the staging but not
// in memory must stay apart, and runs of 1..300 frames make several calls per slot, merged or
// not. A lone submit() late in the stream is staged between runs, in a slot
// used before; each frame's source is overwritten once the frame is out, so
// runs left over from a slot's previous batch would show.
void submit_in_place_keeps_every_frame(const core::backend_choice& where, size_t vlen)
{
    auto cfg = make_cfg({ 3, 512, 1000 }, vlen);
    auto pipe = core::make_pipeline(copy_kernels(vlen, 1.0f), where, cfg);
    const size_t nframes = 2000, stride = 1024, lone = 1800; // stride in floats: align16(vlen * 4)
    auto value = [&](size_t f, size_t i) { return float((f * 7919 + i) % 100003); };
    std::vector<float> a((nframes - 1) * stride + vlen, -1.0f);
    for (size_t f = 0; f < nframes; f++)
        for (size_t i = 0; i < vlen; i++)
            a[f * stride + i] = value(f, i);
    std::vector<float> b = a;
    for (size_t f = 0; f < nframes; f++)
        for (size_t i = 0; i < vlen; i++)
            b[f * stride + i] += 0.5f;
    std::vector<uint8_t> from_b(nframes, 0);
    core::pinned_host_region pin_a(a.data(), a.size() * sizeof(float)),
        pin_b(b.data(), b.size() * sizeof(float));
    if (where.kind == core::backend_kind::cuda) {
        EXPECT_TRUE(pin_a.pinned() && pin_b.pinned());
    }
    size_t next = 0, out = 0, calls = 0;
    bool lost = false; // a frame out of order: stop (a fatal assertion in take() would loop)
    auto take = [&](bool block) {
        while (const auto* f = pipe->front(block)) {
            if (f->seq != out) {
                ADD_FAILURE() << "frame " << f->seq << " came out in place of " << out;
                lost = true;
                return;
            }
            EXPECT_EQ(f->user, out == lone ? 7u : 5u);
            size_t wrong = 0;
            for (size_t i = 0; i < vlen; i++)
                wrong += reinterpret_cast<const float*>(f->data)[i] != value(out, i) + (from_b[out] ? 0.5f : 0.0f);
            EXPECT_EQ(wrong, 0u) << "items of frame " << out << " (from " << (from_b[out] ? "b" : "a") << ")";
            pipe->pop();
            std::fill_n(&a[out * stride], vlen, 12345.0f); // out: the source is free again
            std::fill_n(&b[out * stride], vlen, 12345.0f);
            out++;
            block = false;
        }
    };
    while (next < nframes && !lost) {
        if (!pipe->can_accept()) {
            take(true);
            continue;
        }
        if (next == lone) {
            pipe->submit(&a[next * stride], vlen * 4, vlen * 4, nullptr, 7);
            next++;
            continue;
        }
        const size_t want = std::min<size_t>(next < lone ? lone - next : nframes - next, 1 + next % 300);
        const bool use_b = calls++ % 2;
        const float* src = (use_b ? b : a).data() + next * stride;
        const size_t took = pipe->submit_many_in_place(src, vlen * 4, vlen * 4, nullptr, want, 5);
        std::fill_n(&from_b[next], took, uint8_t(use_b));
        next += took;
        take(false);
    }
    if (lost)
        return;
    pipe->drain();
    take(false);
    EXPECT_EQ(out, nframes);
}
TEST(Pipeline, CpuSubmitInPlaceKeepsEveryFrame)
{
    for (size_t vlen : { 1021, 1024 })
        submit_in_place_keeps_every_frame(test::cpu_backend(), vlen);
}
TEST(PipelineCuda, SubmitInPlaceKeepsEveryFrame)
{
    for (size_t vlen : { 1021, 1024 })
        submit_in_place_keeps_every_frame(test::cuda_backend(), vlen);
}

// The input is read when the batch launches, not when it is submitted: a
// change made in between is what the kernel sees.
void in_place_reads_at_launch(const core::backend_choice& where)
{
    const size_t vlen = 64;
    auto pipe = core::make_pipeline(copy_kernels(vlen, 1.0f), where, make_cfg({ 2, 8, 10000000 }, vlen));
    std::vector<float> src(4 * vlen, 1.0f);
    core::pinned_host_region pin(src.data(), src.size() * sizeof(float));
    ASSERT_EQ(pipe->submit_many_in_place(src.data(), vlen * 4, vlen * 4, nullptr, 4), 4u);
    ASSERT_TRUE(pipe->has_unlaunched()); // 4 of 8 frames, flush_us 10 s: still filling
    std::fill(src.begin(), src.end(), 2.0f);
    pipe->flush();
    for (size_t f = 0; f < 4; f++) {
        const auto* c = pipe->front(true);
        ASSERT_NE(c, nullptr);
        for (size_t i = 0; i < vlen; i++)
            ASSERT_EQ(reinterpret_cast<const float*>(c->data)[i], 2.0f) << "frame " << f;
        pipe->pop();
    }
}
TEST(Pipeline, CpuInPlaceReadsAtLaunch) { in_place_reads_at_launch(test::cpu_backend()); }
TEST(PipelineCuda, InPlaceReadsAtLaunch) { in_place_reads_at_launch(test::cuda_backend()); }

TEST(PipelineCuda, AbortFrameLeavesNoTrace) { abort_leaves_no_trace(test::cuda_backend()); }
TEST(PipelineCuda, AbortOfOnlyFrameFreesTheSlot)
{
    abort_of_only_frame_frees_the_slot(test::cuda_backend(), false);
    abort_of_only_frame_frees_the_slot(test::cuda_backend(), true);
}

TEST(Pipeline, ConfigErrorsNameTheParameter)
{
    auto expect_names = [](core::pipeline_config c, const char* name) {
        try {
            c.validate();
            FAIL() << "no exception for " << name;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    };
    core::pipeline_config ok;
    ok.max_in_bytes = ok.max_out_bytes = 4;
    ok.validate();
    auto c = ok;
    c.slots = 0;
    expect_names(c, "slots");
    c = ok;
    c.max_batch = 0;
    expect_names(c, "max_batch");
    c = ok;
    c.flush_timeout = std::chrono::microseconds(-1);
    expect_names(c, "flush_us");
    EXPECT_THROW(copy_kernels(0, 1.0f), std::invalid_argument);
    EXPECT_THROW(copy_kernels(4, std::nanf("")), std::invalid_argument);
}

TEST(PipelineCuda, ScaleIsApplied)
{
    const size_t vlen = 1024;
    const auto kernel = copy_kernels(vlen, -0.5f);
    auto pipe = core::make_pipeline(kernel, test::cuda_backend(), make_cfg({ 3, 16, 0 }, vlen));
    std::vector<float> x(vlen);
    for (size_t i = 0; i < vlen; i++)
        x[i] = float(i) - 100.25f;
    pipe->submit(x.data(), vlen * 4, vlen * 4, nullptr);
    pipe->drain();
    const auto* f = pipe->front(true);
    ASSERT_NE(f, nullptr);
    for (size_t i = 0; i < vlen; i++)
        ASSERT_EQ(reinterpret_cast<const float*>(f->data)[i], x[i] * -0.5f);
}

#ifdef GPURX_HAVE_CUDA
#include "cuda/device_context.h"

// A flowgraph that stops and starts again must not allocate again: pipelines
// lease their streams and pinned/device buffers from the device's persistent
// context, and give them back to its pools.
TEST(PipelineCuda, RestartReusesPooledResources)
{
    auto ctx = core::device_context::acquire(0);
    EXPECT_EQ(ctx.get(), core::device_context::acquire(0).get()) << "one context per device";
    const auto kernel = copy_kernels(256, 1.0f);
    const auto cfg = make_cfg({ 3, 32, 0 }, 256);
    { auto warm = core::make_pipeline(kernel, test::cuda_backend(), cfg); }
    const size_t streams = ctx->streams_created(), buffers = ctx->buffers_created();
    for (int restart = 0; restart < 5; restart++) {
        auto pipe = core::make_pipeline(kernel, test::cuda_backend(), cfg);
        std::vector<float> x(256, float(restart));
        pipe->submit(x.data(), x.size() * 4, x.size() * 4, nullptr);
        pipe->drain();
        ASSERT_NE(pipe->front(true), nullptr);
    }
    EXPECT_EQ(ctx->streams_created(), streams) << "streams created again on restart";
    EXPECT_EQ(ctx->buffers_created(), buffers) << "buffers allocated again on restart";
}
#endif

std::vector<int> usable_devices()
{
    std::vector<int> all;
    for (const auto& d : core::probe_cuda().devices)
        if (d.usable)
            all.push_back(d.ordinal);
    return all;
}

// Several GPUs per pipeline: batches alternate between devices, frames leave
// in submission order, and the output equals the one-GPU output. Runs on
// every device the machine has (on one GPU, devices {0, 0} is refused and the
// test checks the list it can).
TEST(PipelineCuda, SeveralDevicesKeepOrder)
{
    const std::vector<int> all = usable_devices();
    std::printf("devices in the pipeline: %zu\n", all.size());
    for (const auto& c : std::vector<pipeline_case>{ { 1, 1, 0 }, { 2, 7, 100 }, { 3, 64, 0 }, { 2, 1000, 10000 } }) {
        SCOPED_TRACE("slots=" + std::to_string(c.slots) + " max_batch=" + std::to_string(c.max_batch));
        run_stream(test::cuda_backend(all), c, 77);
    }
}

// A stop in the middle of a stream: the pipeline is drained with frames still
// pending, then destroyed; every frame taken before is correct and in order.
TEST(PipelineCuda, SeveralDevicesStopMidStream)
{
    const std::vector<int> all = usable_devices();
    const size_t vlen = 64;
    auto pipe = core::make_pipeline(copy_kernels(vlen, 3.0f), test::cuda_backend(all), make_cfg({ 2, 5, 0 }, vlen));
    std::vector<float> x(vlen);
    size_t out = 0;
    for (size_t i = 0; i < 37; i++) {
        std::fill(x.begin(), x.end(), float(i));
        while (!pipe->can_accept()) {
            const auto* f = pipe->front(true);
            ASSERT_NE(f, nullptr);
            ASSERT_EQ(f->seq, out);
            ASSERT_EQ(reinterpret_cast<const float*>(f->data)[vlen - 1], 3.0f * float(out));
            pipe->pop();
            out++;
        }
        pipe->submit(x.data(), vlen * 4, vlen * 4, nullptr);
    }
    pipe->drain();
    EXPECT_EQ(pipe->pending() + out, 37u);
}

// Staging that cannot fit the machine is refused before anything is
// allocated, naming max_batch and the memory it would take.
TEST(Pipeline, OversizedStagingNamesMaxBatch)
{
    core::pipeline_config c;
    c.max_batch = size_t(1) << 20;
    c.slots = 64;
    c.max_in_bytes = 18444 * 4;
    c.max_out_bytes = 6144;
    try {
        core::make_pipeline(copy_kernels(18444, 1.0f), test::cpu_backend(), c);
        FAIL() << "accepted " << c.slot_bytes() * c.slots << " bytes of staging";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("max_batch=1048576"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("GiB"), std::string::npos) << e.what();
    }
}

namespace {

// A CPU kernel that copies each frame in its own work item and can be told
// to raise the cancel check after a number of items: what a block's batch
// sees when GNU Radio stops the block mid-batch.
struct counting_copy_kernel final : core::cpu_kernel {
    std::atomic<int>* items_run;
    std::atomic<bool>* stop;
    int stop_after; // raise *stop once this many items have run (-1: never)
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

//! CPU kernels of counting_copy_kernel, raising \p stop after \p stop_after items.
core::kernel_factories counting_copy_kernels(std::atomic<int>& items_run, std::atomic<bool>& stop, int stop_after)
{
    core::kernel_factories k;
    k.cpu = [&items_run, &stop, stop_after] {
        auto kern = std::make_unique<counting_copy_kernel>();
        kern->items_run = &items_run;
        kern->stop = &stop;
        kern->stop_after = stop_after;
        return std::unique_ptr<core::cpu_kernel>(std::move(kern));
    };
    return k;
}

} // namespace

TEST(Pipeline, CpuCancelledBatchIsHeldAndRunsAgainOnResume)
{
    const size_t vlen = 5, batch = 8;
    std::atomic<int> items_run{ 0 };
    std::atomic<bool> stop{ false };
    const auto k = counting_copy_kernels(items_run, stop, 3);
    auto cfg = make_cfg({ 3, batch, 1000000 }, vlen);
    cfg.cpu_threads = 1; // the caller runs every item: the cancel lands after item 3
    auto pipe = core::make_pipeline(k, test::cpu_backend(), cfg);
    pipe->set_cancel_check([&] { return stop.load(); });

    std::vector<std::vector<float>> frames(batch + 3, std::vector<float>(vlen));
    for (size_t i = 0; i < frames.size(); i++)
        for (size_t j = 0; j < vlen; j++)
            frames[i][j] = float(i * 100 + j);
    const size_t bytes = vlen * sizeof(float);
    for (size_t i = 0; i < batch; i++) // the 8th launches the batch, which is cancelled
        pipe->submit(frames[i].data(), bytes, bytes, nullptr, i);
    EXPECT_EQ(items_run.load(), 3);
    EXPECT_TRUE(pipe->held());
    EXPECT_FALSE(pipe->can_accept()) << "a held pipeline takes no frame";
    EXPECT_EQ(pipe->front(false), nullptr) << "a cancelled batch has no completed frame";
    EXPECT_FALSE(pipe->front_in_flight());
    EXPECT_EQ(pipe->pending(), batch);
    EXPECT_EQ(pipe->unfinished(), batch);
    pipe->flush();
    pipe->launch_due(core::batch_pipeline::clock::now() + std::chrono::hours(1));
    pipe->wait_in_flight();
    EXPECT_EQ(items_run.load(), 3) << "nothing runs while the pipeline holds";

    // The restart: the check says go on, and the batch runs again, whole.
    stop = false;
    items_run = -1000; // never reaches stop_after again
    EXPECT_TRUE(pipe->resume());
    EXPECT_FALSE(pipe->held());
    EXPECT_EQ(items_run.load(), -1000 + int(batch));
    for (size_t i = batch; i < frames.size(); i++)
        pipe->submit(frames[i].data(), bytes, bytes, nullptr, i);
    pipe->drain();
    size_t next = 0;
    while (const auto* f = pipe->front(false)) {
        ASSERT_EQ(f->seq, next);
        ASSERT_FALSE(f->rejected);
        ASSERT_EQ(std::memcmp(f->data, frames[next].data(), bytes), 0) << "frame " << next;
        pipe->pop();
        next++;
    }
    EXPECT_EQ(next, frames.size());
}

TEST(Pipeline, CpuDrainResumesAHeldPipeline)
{
    const size_t vlen = 3, batch = 4;
    std::atomic<int> items_run{ 0 };
    std::atomic<bool> stop{ false };
    const auto k = counting_copy_kernels(items_run, stop, 1);
    auto cfg = make_cfg({ 2, batch, 1000000 }, vlen);
    // One thread, the caller's: item 0 sets stop and the check before item 1
    // cancels. With two, the second thread could take items 1..3 before
    // item 0 set it, and the batch ran whole (seen once on a loaded 16-core host).
    cfg.cpu_threads = 1;
    auto pipe = core::make_pipeline(k, test::cpu_backend(), cfg);
    std::atomic<bool> asked{ false };
    pipe->set_cancel_check([&] {
        asked = true;
        return stop.load();
    });
    std::vector<float> x(vlen, 1.5f);
    for (size_t i = 0; i < batch; i++)
        pipe->submit(x.data(), vlen * sizeof(float), vlen * sizeof(float), nullptr, i);
    EXPECT_TRUE(asked) << "the cancel check is asked while the batch runs";
    ASSERT_TRUE(pipe->held());
    stop = false;
    items_run = -1000;
    pipe->drain();
    EXPECT_FALSE(pipe->held());
    size_t n = 0;
    while (pipe->front(false)) {
        pipe->pop();
        n++;
    }
    EXPECT_EQ(n, batch);
}

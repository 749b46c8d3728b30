/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Device threads (pipeline_config::device_threads): each device's batches
// staged and launched by threads of its own while the caller books frames.
// On the CPU: an engine that plays several devices, each completing its
// batches late and at its own pace, so batches complete out of order across
// devices; frames must still leave strictly in submission order, unchanged.
// With CUDA: the same over every GPU, equal to the caller-launched output.
#include "copy/copy_kernel.h"
#include "pipeline/batch_pipeline.h"
#include "pipeline/host_topology.h"
#include "pipeline/worker_pool.h"
#include "test_util.h"
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace gr::gpurx;

namespace {

using clk = std::chrono::steady_clock;

// An engine of `ndev` pretend devices: slot i is on device i % ndev. A
// launch copies each frame's input to its output plus 1 (byte-wise), after
// a pause, and the batch then completes after a delay of its device's own
// (device d: d+1 times the base), so a later device's batch completes
// before an earlier one's. Records which threads launched each device's
// batches, and how many launches ran at once.
class fake_devices_engine final : public core::batch_engine
{
public:
    struct shared {
        std::mutex m;
        std::map<size_t, std::set<std::thread::id>> launchers; // device -> threads
        std::atomic<int> running{ 0 }, most_running{ 0 };
        std::atomic<int> launches{ 0 };
        int fail_slot = -1; // the first launch of this slot throws
        std::atomic<bool> failed{ false };
    };

    fake_devices_engine(size_t nslots, size_t ndev, const core::slot_geometry& g, std::chrono::microseconds base,
                        shared& sh)
        : d_ndev(ndev), d_base(base), d_sh(sh), d_slots(nslots)
    {
        for (auto& s : d_slots) {
            s.frames.resize(g.max_frames);
            s.in.resize(g.in_capacity);
            s.out.resize(g.out_capacity);
        }
    }
    size_t nslots() const override { return d_slots.size(); }
    core::frame_desc* frames(size_t i) override { return d_slots[i].frames.data(); }
    uint8_t* params(size_t) override { return nullptr; }
    uint8_t* in_data(size_t i) override { return d_slots[i].in.data(); }
    const uint8_t* results(size_t) override { return nullptr; }
    const uint8_t* out_data(size_t i) override { return d_slots[i].out.data(); }
    void launch(size_t i, size_t nframes, size_t, size_t, const core::input_run* runs, size_t nruns) override
    {
        d_sh.launches++;
        if (int(i) == d_sh.fail_slot && !d_sh.failed.exchange(true))
            throw std::runtime_error("pretend device failure");
        {
            std::lock_guard<std::mutex> lock(d_sh.m);
            d_sh.launchers[device_of(i)].insert(std::this_thread::get_id());
        }
        const int now = ++d_sh.running;
        int seen = d_sh.most_running.load();
        while (now > seen && !d_sh.most_running.compare_exchange_weak(seen, now)) {
        }
        auto& s = d_slots[i];
        for (size_t r = 0; r < nruns; r++)
            std::memcpy(s.in.data() + runs[r].offset, runs[r].src, runs[r].bytes);
        // The launch takes host time (a GPU's enqueue does too).
        std::this_thread::sleep_for(d_base / 4);
        for (size_t f = 0; f < nframes; f++) {
            const auto& fd = s.frames[f];
            for (size_t b = 0; b < fd.out_bytes; b++)
                s.out[fd.out_offset + b] = uint8_t(s.in[fd.in_offset + b] + 1);
        }
        --d_sh.running;
        s.ready_at = clk::now() + d_base * int(device_of(i) + 1);
        s.in_flight = true;
    }
    bool done(size_t i) override
    {
        auto& s = d_slots[i];
        if (s.in_flight && clk::now() < s.ready_at)
            return false;
        s.in_flight = false;
        return true;
    }
    void wait(size_t i) override
    {
        auto& s = d_slots[i];
        if (s.in_flight)
            std::this_thread::sleep_until(s.ready_at);
        s.in_flight = false;
    }
    std::string name() const override { return "fake devices"; }
    size_t ndevices() const override { return d_ndev; }
    size_t device_of(size_t i) const override { return i % d_ndev; }
    std::string device_label(size_t d) const override { return "fake " + std::to_string(d); }

private:
    struct slot {
        std::vector<core::frame_desc> frames;
        std::vector<uint8_t> in, out;
        clk::time_point ready_at{};
        bool in_flight = false;
    };
    size_t d_ndev;
    std::chrono::microseconds d_base;
    shared& d_sh;
    std::vector<slot> d_slots;
};

core::pipeline_config fake_cfg(size_t max_batch, size_t frame_bytes, size_t device_threads, int flush_us = 1000)
{
    core::pipeline_config c;
    c.slots = 2;
    c.max_batch = max_batch;
    c.max_in_bytes = c.max_out_bytes = frame_bytes;
    c.flush_timeout = std::chrono::microseconds(flush_us);
    c.device_threads = device_threads;
    return c;
}

std::unique_ptr<core::batch_pipeline> fake_pipeline(const core::pipeline_config& c, size_t ndev,
                                                    fake_devices_engine::shared& sh,
                                                    std::chrono::microseconds base = std::chrono::microseconds(800))
{
    const size_t nslots = c.slots * ndev;
    return std::make_unique<core::batch_pipeline>(
        std::make_unique<fake_devices_engine>(nslots, ndev, c.geometry(), base, sh), c);
}

uint8_t frame_byte(size_t frame, size_t b) { return uint8_t(frame * 31 + b * 7); }

// Streams `total` frames through `pipe`: submit_many() runs of random length
// from one source buffer (alive throughout: device threads read it at
// launch), single submit()s and rejected frames in between, taking frames out
// as it goes (blocking only when full). Checks order, tags and content.
void stream_and_check(core::batch_pipeline& pipe, size_t frame_bytes, size_t total, uint32_t seed)
{
    const size_t stride = frame_bytes + 5; // a stride unlike the staging's
    std::vector<uint8_t> src(total * stride);
    for (size_t f = 0; f < total; f++)
        for (size_t b = 0; b < frame_bytes; b++)
            src[f * stride + b] = frame_byte(f, b);
    std::mt19937 rng(seed);
    std::vector<uint64_t> tag(total);
    size_t in = 0, out = 0;
    auto take = [&](bool block) {
        while (const auto* f = pipe.front(block)) {
            ASSERT_EQ(f->seq, out) << "frames left out of order";
            ASSERT_EQ(f->user, tag[out]);
            if (out % 11 == 5) {
                ASSERT_TRUE(f->rejected);
            } else {
                ASSERT_FALSE(f->rejected) << "frame " << out;
                for (size_t b = 0; b < frame_bytes; b++)
                    ASSERT_EQ(f->data[b], uint8_t(frame_byte(out, b) + 1)) << "frame " << out << " byte " << b;
            }
            pipe.pop();
            out++;
            block = false;
        }
    };
    while (in < total) {
        if (!pipe.can_accept()) {
            take(true);
            if (::testing::Test::HasFatalFailure())
                return;
            continue;
        }
        if (in % 11 == 5) {
            tag[in] = in;
            pipe.submit_rejected(frame_bytes, in);
            in++;
        } else if (rng() % 3 == 0) {
            tag[in] = in;
            pipe.submit(&src[in * stride], frame_bytes, frame_bytes, nullptr, in);
            in++;
        } else {
            // A run of 1..10 frames, up to the next rejected one (the run's
            // tag: its first frame).
            const size_t to_rejected = (5 + 11 - in % 11) % 11;
            const size_t n = std::min<size_t>({ 1 + rng() % 10, to_rejected, total - in });
            const size_t took = pipe.submit_many(&src[in * stride], stride, frame_bytes, frame_bytes, nullptr, n, in);
            std::fill_n(&tag[in], took, uint64_t(in));
            in += took;
        }
        pipe.launch_due();
        take(false);
        if (::testing::Test::HasFatalFailure())
            return;
    }
    pipe.drain();
    take(false);
    EXPECT_EQ(out, total);
    EXPECT_EQ(pipe.pending(), 0u);
}

} // namespace

// Several pretend devices completing out of order, one or several threads
// each: frames leave in submission order, each device's batches launched by
// one thread of its own, and launches of different devices overlap.
TEST(PipelineDevices, CpuOutOfOrderCompletionsLeaveInOrder)
{
    for (size_t ndev : { 1, 3, 4 })
        for (size_t threads : { 1, 3 })
            for (size_t batch : { 1, 5, 64 }) {
                SCOPED_TRACE("devices " + std::to_string(ndev) + ", threads " + std::to_string(threads) +
                             ", max_batch " + std::to_string(batch));
                fake_devices_engine::shared sh;
                auto pipe = fake_pipeline(fake_cfg(batch, 37, threads), ndev, sh);
                stream_and_check(*pipe, 37, 600, uint32_t(ndev * 100 + threads * 10 + batch));
                if (HasFatalFailure())
                    return;
                std::set<std::thread::id> all;
                for (const auto& kv : sh.launchers) {
                    EXPECT_EQ(kv.second.size(), 1u) << "device " << kv.first << " launched from several threads";
                    all.insert(kv.second.begin(), kv.second.end());
                }
                EXPECT_EQ(sh.launchers.size(), ndev);
                EXPECT_EQ(all.size(), ndev) << "devices share a launching thread";
                EXPECT_EQ(all.count(std::this_thread::get_id()), 0u) << "the caller launched";
                const auto st = pipe->stats();
                ASSERT_EQ(st.size(), ndev);
                uint64_t frames = 0;
                for (const auto& d : st)
                    frames += d.frames;
                EXPECT_EQ(frames, 600u - 600u / 11 - (600 % 11 > 5)) << "frames booked by the device threads";
            }
}

// The launches of different devices run at once (each device's thread
// launches while the others do): with a launch taking 1 ms, four devices
// and full batches, at least two overlap.
TEST(PipelineDevices, CpuDevicesLaunchAtOnce)
{
    fake_devices_engine::shared sh;
    auto pipe = fake_pipeline(fake_cfg(8, 16, 1), 4, sh, std::chrono::microseconds(4000));
    std::vector<uint8_t> src(16 * 8 * 64, 0);
    size_t in = 0;
    while (in < 8 * 64) {
        while (!pipe->can_accept()) {
            ASSERT_NE(pipe->front(true), nullptr);
            pipe->pop();
        }
        in += pipe->submit_many(src.data(), 16, 16, 16, nullptr, 8);
    }
    pipe->drain();
    while (pipe->front(false))
        pipe->pop();
    EXPECT_GE(sh.most_running.load(), 2) << "the devices' launches never overlapped";
}

// Large submit_many() runs (over 1 MiB, cut between a device's copy
// threads), the strides equal (one copy per piece) or not.
TEST(PipelineDevices, CpuLargeRunsCopiedByDeviceThreads)
{
    for (size_t extra : { 0, 4 }) {
        const size_t frame_bytes = 4096, stride = frame_bytes + extra, batch = 600, total = 3000;
        fake_devices_engine::shared sh;
        auto pipe = fake_pipeline(fake_cfg(batch, frame_bytes, 4), 2, sh, std::chrono::microseconds(200));
        std::vector<uint8_t> src(total * stride);
        for (size_t f = 0; f < total; f++)
            for (size_t b = 0; b < frame_bytes; b++)
                src[f * stride + b] = frame_byte(f, b);
        size_t in = 0, out = 0;
        auto take = [&](bool block) {
            while (const auto* f = pipe->front(block)) {
                ASSERT_EQ(f->seq, out);
                for (size_t b = 0; b < frame_bytes; b += 97)
                    ASSERT_EQ(f->data[b], uint8_t(frame_byte(out, b) + 1)) << "frame " << out;
                pipe->pop();
                out++;
                block = false;
            }
        };
        while (in < total) {
            if (!pipe->can_accept()) {
                take(true);
                if (HasFatalFailure())
                    return;
                continue;
            }
            in += pipe->submit_many(&src[in * stride], stride, frame_bytes, frame_bytes, nullptr,
                                    std::min<size_t>(total - in, 1000));
        }
        pipe->drain();
        take(false);
        EXPECT_EQ(out, total);
        double staged = 0;
        for (const auto& d : pipe->stats())
            staged += d.staged_bytes;
        EXPECT_EQ(staged, double(total * frame_bytes)) << "bytes copied by the device threads";
    }
}

// A stop in the middle of a stream: wait_in_flight() with batches queued
// for the device threads, more frames, then the pipeline destroyed with
// batches still queued and in flight (no drain): no hang, and what came out
// was in order and right.
TEST(PipelineDevices, CpuStopMidStream)
{
    for (int round = 0; round < 20; round++) {
        fake_devices_engine::shared sh;
        auto pipe = fake_pipeline(fake_cfg(3, 8, 2, 0), 3, sh, std::chrono::microseconds(300));
        std::vector<uint8_t> src(8 * 200);
        for (size_t f = 0; f < 200; f++)
            for (size_t b = 0; b < 8; b++)
                src[f * 8 + b] = frame_byte(f, b);
        size_t in = 0, out = 0;
        auto take_one = [&] {
            const auto* f = pipe->front(true);
            ASSERT_NE(f, nullptr);
            ASSERT_EQ(f->seq, out);
            ASSERT_EQ(f->data[3], uint8_t(frame_byte(out, 3) + 1));
            pipe->pop();
            out++;
        };
        const size_t stop_at = 40 + round * 5, end_at = stop_at + 30 + round;
        while (in < end_at) {
            if (in == stop_at) {
                pipe->wait_in_flight(); // the stop: everything launched has run
                EXPECT_EQ(pipe->unfinished(), 0u);
                EXPECT_TRUE(pipe->front_in_flight());
            }
            if (!pipe->can_accept()) {
                take_one();
                if (HasFatalFailure())
                    return;
                continue;
            }
            in += pipe->submit_many(&src[in * 8], 8, 8, 8, nullptr, 1);
        }
        EXPECT_LE(out, in);
        pipe.reset(); // batches queued and in flight: dropped without a hang
    }
}

// A launch that fails on its device thread: front() rethrows it, the batch
// is held (its frames never come out as output), and resume() runs it again.
TEST(PipelineDevices, CpuFailedLaunchIsHeldAndResumed)
{
    fake_devices_engine::shared sh;
    sh.fail_slot = 2; // device 0's second batch
    auto pipe = fake_pipeline(fake_cfg(4, 8, 1), 2, sh, std::chrono::microseconds(100));
    std::vector<uint8_t> src(8 * 16);
    for (size_t f = 0; f < 16; f++)
        for (size_t b = 0; b < 8; b++)
            src[f * 8 + b] = frame_byte(f, b);
    ASSERT_EQ(pipe->submit_many(src.data(), 8, 8, 8, nullptr, 4), 4u);
    ASSERT_EQ(pipe->submit_many(&src[32], 8, 8, 8, nullptr, 4), 4u);
    ASSERT_EQ(pipe->submit_many(&src[64], 8, 8, 8, nullptr, 4), 4u); // launch 2: fails
    size_t out = 0;
    bool threw = false;
    while (!threw && out < 12) {
        try {
            const auto* f = pipe->front(true);
            ASSERT_NE(f, nullptr);
            ASSERT_EQ(f->seq, out);
            pipe->pop();
            out++;
        } catch (const std::runtime_error& e) {
            EXPECT_NE(std::string(e.what()).find("pretend device failure"), std::string::npos);
            threw = true;
        }
    }
    ASSERT_TRUE(threw);
    EXPECT_EQ(out, 8u);
    EXPECT_TRUE(pipe->held());
    EXPECT_FALSE(pipe->can_accept());
    EXPECT_TRUE(pipe->resume());
    pipe->drain();
    while (const auto* f = pipe->front(false)) {
        ASSERT_EQ(f->seq, out);
        ASSERT_EQ(f->data[0], uint8_t(frame_byte(out, 0) + 1));
        pipe->pop();
        out++;
    }
    EXPECT_EQ(out, 12u);
}

// A CPU kernel that copies frame by frame through the pool, so the pool asks
// the cancel check before each frame.
struct pool_copy_kernel final : core::cpu_kernel {
    const char* name() const override { return "test-pool-copy"; }
    void run(const core::batch_view& b, core::worker_pool& pool) override
    {
        pool.parallel_for(b.nframes, [&](size_t f, size_t) {
            const auto& fd = b.frames[f];
            std::memcpy(b.out + fd.out_offset, b.in + fd.in_offset, fd.out_bytes);
        });
    }
};

// With a cancel check set, the caller launches (the check can only be asked
// from its thread): the CPU engine's cancel still stops a batch and holds it.
TEST(PipelineDevices, CpuCancelCheckLaunchesFromTheCaller)
{
    core::kernel_factories k;
    k.cpu = [] { return std::unique_ptr<core::cpu_kernel>(new pool_copy_kernel); };
    core::pipeline_config c;
    c.slots = 2;
    c.max_batch = 4;
    c.max_in_bytes = c.max_out_bytes = 16;
    c.cpu_threads = 1;
    c.device_threads = 2;
    auto pipe = core::make_pipeline(k, test::cpu_backend(), c);
    std::thread::id asked_from;
    pipe->set_cancel_check([&] {
        asked_from = std::this_thread::get_id();
        return true;
    });
    std::vector<float> x(4, 2.0f);
    for (int i = 0; i < 4; i++)
        pipe->submit(x.data(), 16, 16, nullptr);
    EXPECT_EQ(asked_from, std::this_thread::get_id());
    EXPECT_TRUE(pipe->held());
    pipe->set_cancel_check(nullptr); // back to the device threads
    EXPECT_TRUE(pipe->resume());
    pipe->drain();
    size_t n = 0;
    while (const auto* f = pipe->front(false)) {
        EXPECT_EQ(reinterpret_cast<const float*>(f->data)[3], 2.0f);
        pipe->pop();
        n++;
    }
    EXPECT_EQ(n, 4u);
}

// The copy pipeline on the CPU backend with device threads, every shape of
// the stream test: the same frames as without.
TEST(PipelineDevices, CpuCopyFamilyWithDeviceThreads)
{
    core::copy_config cc;
    cc.vlen = 37;
    cc.scale = 2.0f;
    for (size_t batch : { 1, 7, 64 }) {
        core::pipeline_config c;
        c.slots = 3;
        c.max_batch = batch;
        c.max_in_bytes = c.max_out_bytes = 37 * 4;
        c.cpu_threads = 2;
        c.device_threads = 2;
        auto pipe = core::make_pipeline(core::copy_kernel_factories(cc), test::cpu_backend(), c);
        std::vector<float> src(500 * 37);
        for (size_t i = 0; i < src.size(); i++)
            src[i] = float(i % 1009);
        size_t in = 0, out = 0;
        while (out < 500) {
            if (in < 500 && pipe->can_accept()) {
                in += pipe->submit_many(&src[in * 37], 37 * 4, 37 * 4, 37 * 4, nullptr, std::min<size_t>(500 - in, 50));
                continue;
            }
            if (in == 500)
                pipe->drain();
            const auto* f = pipe->front(true);
            ASSERT_NE(f, nullptr);
            ASSERT_EQ(f->seq, out);
            const float* y = reinterpret_cast<const float*>(f->data);
            for (size_t i = 0; i < 37; i++)
                ASSERT_EQ(y[i], 2.0f * src[out * 37 + i]) << "frame " << out;
            pipe->pop();
            out++;
        }
    }
}

TEST(HostTopology, Cpulists)
{
    EXPECT_EQ(core::parse_cpulist("0-3,8,10-11\n"), (std::vector<int>{ 0, 1, 2, 3, 8, 10, 11 }));
    EXPECT_EQ(core::parse_cpulist("5"), (std::vector<int>{ 5 }));
    EXPECT_TRUE(core::parse_cpulist("").empty());
    EXPECT_TRUE(core::parse_cpulist("3-1").empty());
    EXPECT_TRUE(core::parse_cpulist("a-b").empty());
    EXPECT_TRUE(core::parse_cpulist("1x").empty());
    EXPECT_EQ(core::format_cpulist({ 0, 1, 2, 3, 8, 10, 11 }), "0-3,8,10-11");
    EXPECT_GE(core::numa_node_count(), 1);
    EXPECT_EQ(core::pci_numa_node("0000:ff:1f.7-not-a-device"), -1);
    const auto mine = core::thread_cpus();
    ASSERT_FALSE(mine.empty());
    {
        core::scoped_thread_pin pin({ mine.front() });
        EXPECT_EQ(core::thread_cpus(), (std::vector<int>{ mine.front() }));
    }
    EXPECT_EQ(core::thread_cpus(), mine);
}

// Every GPU, device threads against the caller launching: the same output,
// in order (the multi-GPU QA's check, at the pipeline).
TEST(PipelineDevicesCuda, DeviceThreadsEqualCallerLaunched)
{
    std::vector<int> all;
    for (const auto& d : core::probe_cuda().devices)
        if (d.usable)
            all.push_back(d.ordinal);
    core::copy_config cc;
    cc.vlen = 1021;
    cc.scale = 3.0f;
    const size_t vlen = cc.vlen, total = 5000;
    std::vector<float> src(total * vlen);
    for (size_t i = 0; i < src.size(); i++)
        src[i] = float(i % 100003);
    for (size_t threads : { 0, 1, 4 }) {
        core::pipeline_config c;
        c.slots = 3;
        c.max_batch = 97;
        c.max_in_bytes = c.max_out_bytes = vlen * 4;
        c.device_threads = threads;
        c.profile = true;
        auto pipe = core::make_pipeline(core::copy_kernel_factories(cc), test::cuda_backend(all), c);
        size_t in = 0, out = 0;
        while (out < total) {
            if (in < total && pipe->can_accept()) {
                in += pipe->submit_many(&src[in * vlen], vlen * 4, vlen * 4, vlen * 4, nullptr,
                                        std::min<size_t>(total - in, 300));
                continue;
            }
            if (in == total)
                pipe->drain();
            const auto* f = pipe->front(true);
            ASSERT_NE(f, nullptr);
            ASSERT_EQ(f->seq, out);
            const float* y = reinterpret_cast<const float*>(f->data);
            for (size_t i = 0; i < vlen; i += 13)
                ASSERT_EQ(y[i], 3.0f * src[out * vlen + i]) << "frame " << out << ", device threads " << threads;
            pipe->pop();
            out++;
        }
        const auto st = pipe->stats();
        ASSERT_EQ(st.size(), all.size());
        for (const auto& d : st) {
            EXPECT_GT(d.batches, 0u) << d.label;
            EXPECT_EQ(d.device.batches, d.batches) << d.label << ": every batch timed";
            EXPECT_GT(d.device.kernel_s, 0.0) << d.label;
        }
    }
}

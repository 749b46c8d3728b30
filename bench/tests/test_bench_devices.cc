/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The benchmarks' --devices helpers (bench/bench_devices.h): which GPU counts
// a run measures, the options, the ratios and tables, how launches on
// several GPUs are timed, and the in-place producer every end-to-end figure
// rests on: a frame written once, at the warm-up, into a staging position
// must come out of every later frame booked at that position (the CUDA
// cases check that on one pipeline over all the GPUs present, the caller
// launching and a thread per GPU launching).
#include "bench/bench_checks.h"
#include "bench/bench_devices.h"
#include "copy/copy_kernel.h"
#include "test_util.h"
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace gr::gpurx;

namespace {

TEST(BenchDevices, CountsArePowersOfTwoThenAll)
{
    EXPECT_EQ(bench::device_counts(0), std::vector<size_t>{});
    EXPECT_EQ(bench::device_counts(1), (std::vector<size_t>{ 1 }));
    EXPECT_EQ(bench::device_counts(2), (std::vector<size_t>{ 1, 2 }));
    EXPECT_EQ(bench::device_counts(3), (std::vector<size_t>{ 1, 2, 3 }));
    EXPECT_EQ(bench::device_counts(4), (std::vector<size_t>{ 1, 2, 4 }));
    EXPECT_EQ(bench::device_counts(6), (std::vector<size_t>{ 1, 2, 4, 6 }));
    EXPECT_EQ(bench::device_counts(8), (std::vector<size_t>{ 1, 2, 4, 8 }));
    EXPECT_EQ(bench::device_counts(16), (std::vector<size_t>{ 1, 2, 4, 8, 16 }));
}

TEST(BenchDevices, UsableDevicesAndWhyNone)
{
    core::cuda_probe_result p;
    EXPECT_EQ(bench::no_devices_reason(p), "built without CUDA");
    p.compiled_in = true;
    p.problem = "no CUDA driver found";
    EXPECT_EQ(bench::no_devices_reason(p), "no usable CUDA device (no CUDA driver found)");
    p.problem.clear();
    core::cuda_device_info a, b, c;
    a.ordinal = 0;
    a.usable = false;
    a.problem = "probe kernel failed";
    p.devices = { a };
    EXPECT_EQ(bench::no_devices_reason(p), "no usable CUDA device (probe kernel failed)");
    EXPECT_TRUE(bench::usable_devices(p).empty());
    b.ordinal = 1;
    b.usable = true;
    c.ordinal = 2;
    c.usable = true;
    p.devices = { a, b, c };
    EXPECT_EQ(bench::usable_devices(p), (std::vector<int>{ 1, 2 }));
    EXPECT_EQ(bench::no_devices_reason(p), "");
}

// argv as the benchmarks get it.
struct args {
    std::vector<std::string> s;
    std::vector<char*> v;
    explicit args(std::vector<std::string> a) : s(std::move(a))
    {
        for (auto& x : s)
            v.push_back(&x[0]);
    }
    int argc() const { return int(v.size()); }
    char** argv() { return v.data(); }
};

TEST(BenchDevices, ParsesTheOptions)
{
    args a({ "bench", "--quick", "--devices", "--device-threads", "4", "--device-threads=3", "--other" });
    bench::devices_options o;
    int i = 1;
    EXPECT_FALSE(o.parse(a.argc(), a.argv(), i)); // --quick: not ours
    EXPECT_EQ(i, 1);
    i = 2;
    EXPECT_TRUE(o.parse(a.argc(), a.argv(), i));
    EXPECT_TRUE(o.on);
    EXPECT_EQ(i, 2);
    i = 3;
    EXPECT_TRUE(o.parse(a.argc(), a.argv(), i));
    EXPECT_EQ(o.device_threads, 4);
    EXPECT_EQ(i, 4); // on the value
    i = 5;
    EXPECT_TRUE(o.parse(a.argc(), a.argv(), i));
    EXPECT_EQ(o.device_threads, 3);
    i = 6;
    EXPECT_FALSE(o.parse(a.argc(), a.argv(), i));
}

TEST(BenchDevices, RejectsBadThreadCountsNamingOptionAndValue)
{
    for (const std::vector<std::string>& bad :
         { std::vector<std::string>{ "bench", "--device-threads", "0" },
           std::vector<std::string>{ "bench", "--device-threads", "65" },
           std::vector<std::string>{ "bench", "--device-threads", "2x" },
           std::vector<std::string>{ "bench", "--device-threads=" },
           std::vector<std::string>{ "bench", "--device-threads=-1" } }) {
        args a(bad);
        bench::devices_options o;
        int i = 1;
        try {
            o.parse(a.argc(), a.argv(), i);
            ADD_FAILURE() << "accepted " << bad.back();
        } catch (const std::invalid_argument& e) {
            const std::string m = e.what();
            EXPECT_NE(m.find("--device-threads"), std::string::npos) << m;
            const std::string value = bad.size() == 3 ? bad[2] : bad[1].substr(std::strlen("--device-threads="));
            EXPECT_NE(m.find(value), std::string::npos) << m;
        }
    }
    args missing({ "bench", "--device-threads" });
    bench::devices_options o;
    int i = 1;
    EXPECT_THROW(o.parse(missing.argc(), missing.argv(), i), std::invalid_argument);
}

TEST(BenchDevices, RatiosToLinear)
{
    EXPECT_DOUBLE_EQ(bench::of_linear(40, 10, 4), 1.0);
    EXPECT_DOUBLE_EQ(bench::of_linear(30, 10, 4), 0.75);
    EXPECT_DOUBLE_EQ(bench::of_linear(30, 0, 4), 0.0);
    // Linear would be 40; the host allows 32: 30 is 0.9375 of what it can reach.
    EXPECT_DOUBLE_EQ(bench::of_linear_or_bound(30, 10, 4, 32), 0.9375);
    EXPECT_DOUBLE_EQ(bench::of_linear_or_bound(30, 10, 4, 100), 0.75);
    EXPECT_DOUBLE_EQ(bench::of_linear_or_bound(30, 10, 4, 0), 0.75); // no bound
}

TEST(BenchDevices, RepsFillTheTargetTime)
{
    EXPECT_EQ(bench::reps_for(0.001), 500); // 1 ms launches over 0.5 s
    EXPECT_EQ(bench::reps_for(0.3), 5);     // at least 5
    EXPECT_EQ(bench::reps_for(1e-7), 2000); // at most 2000
    EXPECT_EQ(bench::reps_for(0.0), 5);
    EXPECT_EQ(bench::reps_for(0.01, 1.0, 1, 50), 50);
}

TEST(BenchDevices, TimedLaunchesGoRoundTheDevicesThenWait)
{
    std::string order;
    const double secs = bench::timed_launches(
        3, 2, [&](size_t i) { order += "L" + std::to_string(i); }, [&](size_t i) { order += "F" + std::to_string(i); });
    EXPECT_EQ(order, "L0L1L2L0L1L2F0F1F2");
    EXPECT_GE(secs, 0.0);
}

TEST(BenchDevices, TimedLaunchesGiveTheHostTimeOfEachDevicesLaunches)
{
    // Device i's launch takes (i + 1) ms of the host.
    std::vector<double> host;
    bench::timed_launches(
        2, 3, [&](size_t i) { std::this_thread::sleep_for(std::chrono::milliseconds(i + 1)); }, [](size_t) {},
        &host);
    ASSERT_EQ(host.size(), 2u);
    EXPECT_GE(host[0], 3 * 1e-3);
    EXPECT_GE(host[1], 3 * 2e-3);
}

TEST(BenchDevices, TimedLaunchesThreadedDriveEachDeviceFromItsOwnThread)
{
    constexpr size_t ndev = 4;
    constexpr int reps = 5;
    std::mutex m;
    std::vector<std::string> order(ndev);
    std::vector<std::thread::id> launcher(ndev), finisher(ndev);
    std::vector<int> launches(ndev, 0);
    bool same_thread = true;
    std::vector<double> host;
    const double secs = bench::timed_launches_threaded(
        ndev, reps,
        [&](size_t i) {
            {
                std::lock_guard<std::mutex> lock(m);
                if (launches[i]++ == 0)
                    launcher[i] = std::this_thread::get_id();
                same_thread = same_thread && launcher[i] == std::this_thread::get_id();
                order[i] += "L";
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        },
        [&](size_t i) {
            std::lock_guard<std::mutex> lock(m);
            finisher[i] = std::this_thread::get_id();
            order[i] += "F";
        },
        &host);
    EXPECT_TRUE(same_thread);
    ASSERT_EQ(host.size(), ndev);
    double host_sum = 0;
    for (size_t i = 0; i < ndev; i++) {
        EXPECT_EQ(order[i], "LLLLLF") << "device " << i; // its launches, then its finish
        EXPECT_EQ(finisher[i], launcher[i]) << "device " << i;
        EXPECT_NE(launcher[i], std::this_thread::get_id()) << "device " << i;
        for (size_t j = 0; j < i; j++)
            EXPECT_NE(launcher[i], launcher[j]) << "devices " << j << " and " << i;
        EXPECT_GE(host[i], reps * 2e-3) << "device " << i;
        host_sum += host[i];
    }
    // The devices' launches overlap: the wall time is below their sum (80 ms
    // of sleeps in all, 10 ms a device).
    EXPECT_LT(secs, host_sum);
}

TEST(BenchDevices, ScalingTableHasRatiosToTheFirstRow)
{
    const std::string t = bench::scaling_table(
        { 1, 2, 4 }, { { "kernel", { 10, 19, 40 } }, { "bound", { 50, 90, 120 }, false, 1 } });
    const std::string want = "| GPUs | kernel (of linear) | bound |\n"
                             "|---|---|---|\n"
                             "| 1 | 10.00 (1.00) | 50.0 |\n"
                             "| 2 | 19.00 (0.95) | 90.0 |\n"
                             "| 4 | 40.00 (1.00) | 120.0 |\n";
    EXPECT_EQ(t, want);
}

TEST(BenchDevices, TargetLinesJudgeEachCount)
{
    // 2 GPUs: kernel 1.9 of 2 (0.95, met), e2e 14 of min(20, 16) = 0.875
    // (met); 4 GPUs: kernel 3.6 of 4 (0.90, missed), e2e 16 of min(40, 30)
    // = 0.53 (missed).
    const std::string t =
        bench::target_lines({ 1, 2, 4 }, { 10, 19, 36 }, { { "e2e", { 10, 14, 16 } } }, { 12, 16, 30 });
    EXPECT_NE(t.find("2 GPUs: kernel-bound 0.95 of linear (target 0.95: met); e2e 0.88 of min(linear, host bound "
                     "16.0) (target 0.80: met)"),
              std::string::npos)
        << t;
    EXPECT_NE(t.find("4 GPUs: kernel-bound 0.90 of linear (target 0.95: MISSED); e2e 0.53 of min(linear, host "
                     "bound 30.0) (target 0.80: MISSED)"),
              std::string::npos)
        << t;
    EXPECT_EQ(t.find("1 GPUs"), std::string::npos); // the reference row is not judged
}

// Float j of the frame at staging position pos.
float value(size_t pos, size_t j) { return float(pos * 1000 + j); }

/*!
 * The copy family (output = input) through a pipeline on \p where, fed by
 * submit_in_place() under timed_pipeline: every frame must come out with
 * its staging position as user tag (its number mod the warm-up) and the
 * data written there. With \p always_write false the timed frames are not
 * written: what comes out is what the warm-up left in the staging.
 */
void in_place_stream(const core::backend_choice& where, size_t device_threads, bool always_write)
{
    const size_t vlen = 37, bytes = vlen * sizeof(float); // a stride of 160: padding between frames
    const size_t max_batch = 8;
    core::copy_config cc;
    cc.vlen = vlen;
    core::pipeline_config pc;
    pc.slots = 2;
    pc.max_batch = max_batch;
    pc.max_in_bytes = pc.max_out_bytes = bytes;
    pc.flush_timeout = std::chrono::microseconds(1000000);
    pc.cpu_threads = 2;
    pc.device_threads = device_threads;
    auto pipe = core::make_pipeline(core::copy_kernel_factories(cc), where, pc);
    const size_t warm = pipe->config().slots * max_batch;
    const size_t total = 5 * warm;
    size_t writes = 0, calls = 0, out = 0;
    bench::timed_pipeline(
        *pipe, warm, total, max_batch,
        [&](core::batch_pipeline& p, size_t in, size_t n) -> size_t {
            calls++;
            const size_t got = bench::submit_in_place(
                p, in, n, warm, max_batch, bytes, bytes, nullptr,
                [&](uint8_t* dst, size_t pos) {
                    writes++;
                    for (size_t j = 0; j < vlen; j++) {
                        const float v = value(pos, j);
                        std::memcpy(dst + 4 * j, &v, 4);
                    }
                },
                always_write);
            // Whole batches: a run never crosses a multiple of max_batch.
            EXPECT_LE(in % max_batch + got, max_batch);
            return got;
        },
        [&](const core::completed_frame& f, size_t number, bool) {
            out++;
            ASSERT_EQ(f.seq, number);
            ASSERT_EQ(f.user, number % warm) << "a frame's tag is its staging position";
            ASSERT_EQ(f.out_bytes, bytes);
            for (size_t j = 0; j < vlen; j++) {
                float v;
                std::memcpy(&v, f.data + 4 * j, 4);
                ASSERT_EQ(v, value(f.user, j)) << "frame " << number << ", float " << j;
            }
        });
    EXPECT_EQ(out, warm + total);
    EXPECT_EQ(writes, always_write ? warm + total : warm);
    EXPECT_GE(calls, (warm + total) / max_batch);
}

TEST(BenchDevices, InPlaceProducerOnTheCpuWritesEveryFrame)
{
    // The CPU engine's staging is written every time (bench_turbo's CPU row).
    in_place_stream(test::cpu_backend(), 0, true);
}

std::vector<int> all_usable() { return bench::usable_devices(core::probe_cuda()); }

TEST(BenchDevicesCuda, InPlaceProducerReusesTheStagingOnAllGpusCallerLaunches)
{
    in_place_stream(test::cuda_backend(all_usable()), 0, false);
}

TEST(BenchDevicesCuda, InPlaceProducerReusesTheStagingOnAllGpusThreadsLaunch)
{
    in_place_stream(test::cuda_backend(all_usable()), 1, false);
}

} // namespace

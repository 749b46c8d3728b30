/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// bench_caller: the caller thread's bookkeeping per frame, on the CPU, with
// no GPU and no real kernel.
//
// On a multi-GPU host one caller thread books every frame into the staging
// in place, commits it, takes it out and checks it (bench_turbo --devices):
// at ~300 ns per frame that thread, not the GPUs, bounded 4 H100s to about
// 20 Gbit/s of K=6144 codewords. This program times that same loop on the
// CPU engine with a kernel that only writes each frame's result record and
// the first bytes of its output (what the caller reads back), so the figure
// is the pipeline's and the loop's own cost per frame:
//
//   caller ns/frame = (wall time - time inside the engine's launch) / frames
//
// Shapes are bench_turbo's: K=6144 int8 codewords (18444 bytes in, 6144
// out, 16-byte parameter and 8-byte result records), batches of 528, 12
// slots (3 per GPU of 4). The inputs are written once, at the warm-up, as
// bench_turbo does on CUDA (a producer writing in place); the timed frames
// reuse them.
//
// The CPU engine runs a batch inside launch(); a GPU batch completes some
// time later, and until then every front() asks the engine (on CUDA a
// cudaEventQuery, a driver call) whether it has. So batches here complete
// --latency-us after their launch (default 500, about a K=6144 batch of 528
// on an H100 through PCIe), each done() query reads the clock (a stand-in,
// cheaper than cudaEventQuery), and the queries per frame are counted:
// multiply by the driver call's cost on the GPU host. With --cold the kernel
// evicts what it wrote from the caches (clflush), as a GPU's DMA into host
// memory leaves it: the caller's reads of results then miss.
//
// Feeds:
//   frame: begin_frame()/commit_frame() per frame, front()/pop() after each
//          (bench_turbo's in-place feed before the batched calls)
//   batch: begin_frames()/commit_frames() of the rest of the batch at once,
//          front_many()/pop_many() after each run
// Both check every frame as bench_turbo does (its result record says it
// ran; one in 61 has its output compared; its user tag names its input).
//
//   bench_caller [--rounds N] [--frames N] [--batch N] [--slots N] [--feed frame|batch|both]
//                [--latency-us N] [--cold]
#include "bench_checks.h"
#include "bench_devices.h"
#include "mimo/mimo_frame.h"
#include "pipeline/batch_pipeline.h"
#include "pipeline/worker_pool.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define BENCH_CALLER_CLFLUSH 1
#endif

#include <algorithm>
#include <chrono>
#include <random>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace gr::gpurx;
using clk = std::chrono::steady_clock;

namespace {

struct params_rec {
    int32_t K, f1, f2, input;
};
struct result_rec {
    int32_t iterations, check;
};
constexpr int32_t kIterations = 6;
constexpr size_t kDistinct = 64; // distinct staged inputs, as bench_turbo's 64 codewords

void evict(const void* p, size_t bytes)
{
#ifdef BENCH_CALLER_CLFLUSH
    const auto* c = static_cast<const char*>(p);
    for (size_t at = 0; at < bytes; at += 64)
        _mm_clflush(c + at);
#else
    (void)p;
    (void)bytes;
#endif
}

// Writes what the caller reads back: the result record, and the output's
// first byte (the frame's index in its batch) and last byte.
class null_kernel final : public core::cpu_kernel
{
public:
    explicit null_kernel(bool cold) : d_cold(cold) {}
    const char* name() const override { return "null"; }
    void run(const core::batch_view& b, core::worker_pool&) override
    {
        auto* r = b.results_as<result_rec>();
        for (size_t i = 0; i < b.nframes; i++) {
            r[i] = { kIterations, 1 };
            uint8_t* out = b.out + b.frames[i].out_offset;
            out[0] = uint8_t(i);
            out[b.frames[i].out_bytes - 1] = uint8_t(i * 3);
            if (d_cold) {
                evict(out, 1);
                evict(out + b.frames[i].out_bytes - 1, 1);
            }
        }
        if (d_cold)
            evict(r, b.nframes * sizeof(result_rec));
    }

private:
    bool d_cold;
};

// The CPU engine, with a GPU's asynchrony: a batch counts as complete
// \p latency after its launch (the kernel has run inside launch()), done()
// reads the clock each time it is asked and counts the queries.
class async_engine final : public core::batch_engine
{
public:
    async_engine(std::unique_ptr<core::batch_engine> inner, std::chrono::microseconds latency)
        : d_inner(std::move(inner)), d_latency(latency), d_launched(d_inner->nslots())
    {
    }
    size_t nslots() const override { return d_inner->nslots(); }
    core::frame_desc* frames(size_t i) override { return d_inner->frames(i); }
    uint8_t* params(size_t i) override { return d_inner->params(i); }
    uint8_t* in_data(size_t i) override { return d_inner->in_data(i); }
    const uint8_t* results(size_t i) override { return d_inner->results(i); }
    const uint8_t* out_data(size_t i) override { return d_inner->out_data(i); }
    void launch(size_t i, size_t n, size_t in, size_t out, const core::input_run* runs, size_t nruns) override
    {
        d_inner->launch(i, n, in, out, runs, nruns);
        d_launched[i] = clk::now();
    }
    bool done(size_t i) override
    {
        queries++;
        return clk::now() - d_launched[i] >= d_latency;
    }
    void wait(size_t i) override
    {
        while (clk::now() - d_launched[i] < d_latency)
            std::this_thread::yield();
    }
    std::string name() const override { return d_inner->name(); }
    uint64_t queries = 0;

private:
    std::unique_ptr<core::batch_engine> d_inner;
    std::chrono::microseconds d_latency;
    std::vector<clk::time_point> d_launched;
};

struct options {
    // frames, batch and latency_us: 0 until given, then the shape's default
    size_t rounds = 7, frames = 0, batch = 0, slots = 12, latency_us = 0;
    bool latency_given = false;
    bool cold = false;
    std::string feed = "both";
    std::string shape = "turbo";
};

struct round_result {
    double wall_ns = 0, launch_ns = 0, wait_ns = 0, caller_ns = 0; // per frame
    double queries = 0;                                              // done() per frame
};

// The checks bench_turbo makes per frame (frame_check::add and its out
// callback), minus the comparison with a reference decoder.
struct checker {
    size_t batch, warm;
    uint64_t frames = 0, failed = 0, compared = 0, differing = 0, bad_tags = 0;
    void add(uint64_t number, uint64_t staged, const uint8_t* data, size_t bytes, const void* result)
    {
        frames++;
        if (!result || static_cast<const result_rec*>(result)->iterations != kIterations) {
            failed++;
            return;
        }
        if (number % bench::sample_every != 0)
            return;
        compared++;
        const size_t i = number % batch;
        differing += data[0] != uint8_t(i) || data[bytes - 1] != uint8_t(i * 3);
        bad_tags += staged != (number % warm) % kDistinct;
    }
};

round_result run_round(const options& o, bool batched)
{
    const size_t in_bytes = 3 * 6144 + 12, out_bytes = 6144;
    core::pipeline_config pc;
    pc.types = core::frame_types::of<params_rec, result_rec>();
    pc.slots = o.slots;
    pc.max_batch = o.batch;
    pc.max_in_bytes = in_bytes;
    pc.max_out_bytes = out_bytes;
    pc.flush_timeout = std::chrono::microseconds(1000000);
    pc.cpu_threads = 1; // the kernel runs on the caller, inside launch (timed apart)
    auto engine = std::make_unique<async_engine>(
        core::make_cpu_engine(std::make_unique<null_kernel>(o.cold), pc.slots, pc.geometry(), 1),
        std::chrono::microseconds(o.latency_us));
    async_engine& eng = *engine;
    core::batch_pipeline pipe(std::move(engine), pc);
    const params_rec params{ 6144, 263, 480, 1 };
    const size_t warm = pc.slots * pc.max_batch;
    const size_t total = std::max((o.frames + o.batch - 1) / o.batch * o.batch, 2 * warm);
    std::vector<uint8_t> src(in_bytes, 0x5a);
    checker check{ pc.max_batch, warm };

    size_t in = 0, done = 0;
    // Frame by frame: bench_turbo's in-place feed through timed_pipeline
    // with collect_every 1, as it was.
    auto take_one = [&](bool block) {
        while (const auto* f = pipe.front(block)) {
            check.add(done, f->user, f->data, f->out_bytes, f->result);
            pipe.pop();
            done++;
            block = false;
        }
    };
    // A run at a time: one call into the pipeline per batch's worth.
    auto take_many = [&](bool block) {
        for (;;) {
            const core::completed_run r = pipe.front_many(block);
            if (r.empty())
                return;
            for (size_t i = 0; i < r.size(); i++)
                check.add(done + i, r.user(i) % kDistinct, r.data(i), r.out_bytes(i), r.result(i));
            pipe.pop_many(r.size());
            done += r.size();
            block = false;
        }
    };
    auto feed = [&](size_t until) {
        while (in < until) {
            if (!pipe.can_accept()) {
                batched ? take_many(true) : take_one(true);
                continue;
            }
            if (batched) {
                // The rest of the batch at once; the user tag is the staging
                // position (the checker reduces it mod the distinct inputs).
                const size_t n = std::min(until - in, pc.max_batch - in % pc.max_batch);
                const core::frame_run r = pipe.begin_frames(n, in_bytes, out_bytes, &params, in % warm, 1);
                if (r.count == 0)
                    bench::fail("the pipeline took no frame although it accepts");
                if (in < warm)
                    for (size_t i = 0; i < r.count; i++)
                        std::memcpy(r.frame(i), src.data(), in_bytes);
                pipe.commit_frames();
                in += r.count;
                take_many(false);
            } else {
                const size_t s = (in % warm) % kDistinct;
                uint8_t* dst = pipe.begin_frame(in_bytes, out_bytes, &params, s);
                if (in < warm)
                    std::memcpy(dst, src.data(), in_bytes);
                pipe.commit_frame();
                in++;
                take_one(false);
            }
        }
        pipe.drain();
        batched ? take_many(false) : take_one(false);
    };
    feed(warm);
    if (done != warm)
        bench::fail("warm-up: " + std::to_string(warm) + " frames in, " + std::to_string(done) + " out");
    pipe.reset_stats();
    eng.queries = 0;
    const auto t0 = clk::now();
    feed(warm + total);
    const double secs = std::chrono::duration<double>(clk::now() - t0).count();
    if (done != warm + total || check.frames != done || check.failed || check.differing || check.bad_tags ||
        !check.compared)
        bench::fail(std::string(batched ? "batch" : "frame") + " feed: " + std::to_string(done) + " of " +
                    std::to_string(warm + total) + " frames out, " + std::to_string(check.failed) + " not run, " +
                    std::to_string(check.differing) + " of " + std::to_string(check.compared) +
                    " compared outputs differ, " + std::to_string(check.bad_tags) + " wrong user tags");
    double launch_s = 0, wait_s = 0;
    for (const auto& st : pipe.stats()) {
        launch_s += st.launch_s;
        wait_s += st.wait_s;
    }
    round_result r;
    r.wall_ns = secs * 1e9 / double(total);
    r.launch_ns = launch_s * 1e9 / double(total);
    r.wait_ns = wait_s * 1e9 / double(total);
    r.caller_ns = r.wall_ns - r.launch_ns - r.wait_ns;
    r.queries = double(eng.queries) / double(total);
    return r;
}

// ------------------------------------------------ bench_mimo --devices' loop

// bench_mimo --devices' end-to-end shape: frames of 64 channels of 4x4
// 16-QAM, 12 vectors each, float LLRs out (32 KB in, 48 KB out), batches of
// 1024 frames (65536 channels), 3 slots per GPU of 4.
constexpr int kMimoChannels = 64, kMimoVectors = 12;
constexpr size_t kMimoSources = 64; // distinct staged inputs, as bench_mimo's 4096 channels in frames of 64

// Writes each frame's result record (detected) and output: the expected
// output of the source frame whose number the input's first word holds, so
// that frame_check's comparison passes only when the pipeline hands each
// frame's own output back.
class mimo_null_kernel final : public core::cpu_kernel
{
public:
    mimo_null_kernel(const bench::expected_outputs& e, bool cold) : d_exp(e), d_cold(cold) {}
    const char* name() const override { return "null (MIMO shape)"; }
    void run(const core::batch_view& b, core::worker_pool&) override
    {
        auto* r = b.results_as<core::mimo::frame_result>();
        for (size_t i = 0; i < b.nframes; i++) {
            uint32_t src;
            std::memcpy(&src, b.in + b.frames[i].in_offset, sizeof src);
            const auto& o = d_exp.out[src % d_exp.out.size()];
            uint8_t* out = b.out + b.frames[i].out_offset;
            std::memcpy(out, o.data(), std::min<size_t>(o.size(), b.frames[i].out_bytes));
            r[i] = { core::mimo::STATUS_OK, 4 };
            if (d_cold)
                evict(out, b.frames[i].out_bytes);
        }
        if (d_cold)
            evict(r, b.nframes * sizeof(core::mimo::frame_result));
    }

private:
    const bench::expected_outputs& d_exp;
    bool d_cold;
};

// The expected float LLRs of the source frames: Gaussian, seeded (their
// signs are what frame_check compares).
bench::expected_outputs mimo_expected(size_t out_bytes)
{
    bench::expected_outputs e;
    e.reference = "the null kernel's copy";
    e.exact = false;
    e.kind = bench::compare_kind::sign_f32;
    e.tolerance = 0.01; // bench_mimo's
    std::mt19937 g(7);
    std::normal_distribution<float> d(0.0f, 4.0f);
    e.out.resize(kMimoSources);
    for (auto& o : e.out) {
        std::vector<float> v(out_bytes / sizeof(float));
        for (auto& x : v)
            x = d(g);
        o.resize(out_bytes);
        std::memcpy(o.data(), v.data(), out_bytes);
    }
    return e;
}

/*!
 * One round of bench_mimo --devices' end-to-end loop (multi_e2e_gbps), on
 * the CPU engine with the null kernel: bench::timed_pipeline,
 * bench::submit_in_place (the warm-up writes every staging position, the
 * timed frames reuse it) and, per frame out, bench_mimo's order check and
 * frame_check::add (status from the result record; one frame in
 * bench::sample_every has its LLR signs compared).
 */
round_result run_mimo_round(const options& o)
{
    core::mimo_config cfg;
    cfg.nt = cfg.nr = 4;
    cfg.modulation = core::qam::modulation::qam16;
    cfg.max_channels = kMimoChannels;
    const core::mimo::frame_params p = core::mimo::frame_params_for(cfg, kMimoVectors, -1.0f, kMimoChannels);
    core::pipeline_config pc;
    pc.types = core::mimo::frame_types_of();
    pc.slots = o.slots;
    pc.max_batch = o.batch;
    pc.max_in_bytes = core::mimo::frame_in_bytes(p);
    pc.max_out_bytes = core::mimo::frame_out_bytes(p, core::mimo::llr_format::float32);
    pc.flush_timeout = std::chrono::microseconds(1000000);
    pc.cpu_threads = 1;
    static const bench::expected_outputs expected = mimo_expected(pc.max_out_bytes);
    const size_t in_bytes = pc.max_in_bytes, nsrc = kMimoSources;
    std::vector<uint8_t> src(nsrc * in_bytes, 0);
    for (size_t i = 0; i < nsrc; i++) {
        const auto w = uint32_t(i);
        std::memcpy(&src[i * in_bytes], &w, sizeof w);
    }
    auto engine = std::make_unique<async_engine>(
        core::make_cpu_engine(std::make_unique<mimo_null_kernel>(expected, o.cold), pc.slots, pc.geometry(), 1),
        std::chrono::microseconds(o.latency_us));
    async_engine& eng = *engine;
    core::batch_pipeline pipe(std::move(engine), pc);
    const size_t warm = pc.slots * pc.max_batch;
    const size_t total = std::max((o.frames + o.batch - 1) / o.batch * o.batch, 2 * warm);
    const std::string what = "MIMO feed";
    bench::frame_check check(what, &expected);
    const double secs = bench::timed_pipeline(
        pipe, warm, total, pc.max_batch,
        [&](core::batch_pipeline& pp, size_t in, size_t left) -> size_t {
            if (in == warm)
                eng.queries = 0;
            return bench::submit_in_place(pp, in, left, warm, pc.max_batch, in_bytes, pc.max_out_bytes, &p,
                                          [&](uint8_t* dst, size_t pos) {
                                              std::memcpy(dst, &src[(pos % nsrc) * in_bytes], in_bytes);
                                          });
        },
        [&](const core::completed_frame& f, size_t number, bool timed) {
            if (f.seq != number)
                bench::fail(what + ": frame " + std::to_string(f.seq) + " came out as number " +
                            std::to_string(number));
            // bench_mimo's detected()
            const int32_t st = f.rejected ? -1 : f.result_as<core::mimo::frame_result>()->status;
            const bool detected = st == core::mimo::STATUS_OK || st == core::mimo::STATUS_RANK_DEFICIENT;
            check.add(size_t(f.user) % nsrc, f.data, f.out_bytes, detected,
                      !timed || number % bench::sample_every == 0);
        });
    check.require(warm + total);
    if (check.differing)
        bench::fail(what + ": " + std::to_string(check.differing_frames) + " of " + std::to_string(check.compared) +
                    " compared frames differ from their source's output");
    double launch_s = 0, wait_s = 0;
    for (const auto& st : pipe.stats()) {
        launch_s += st.launch_s;
        wait_s += st.wait_s;
    }
    round_result r;
    r.wall_ns = secs * 1e9 / double(total);
    r.launch_ns = launch_s * 1e9 / double(total);
    r.wait_ns = wait_s * 1e9 / double(total);
    r.caller_ns = r.wall_ns - r.launch_ns - r.wait_ns;
    r.queries = double(eng.queries) / double(total);
    return r;
}

size_t parse_size(const char* flag, const char* v, bool zero = false)
{
    char* end = nullptr;
    const unsigned long long x = std::strtoull(v ? v : "", &end, 10);
    if (!v || !*v || *end || (x == 0 && !zero))
        bench::fail(std::string(flag) + (zero ? " needs an integer >= 0" : " needs a positive integer"));
    return size_t(x);
}

} // namespace

int main(int argc, char** argv)
{
    options o;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (a == "--rounds")
            o.rounds = parse_size("--rounds", v), i++;
        else if (a == "--frames")
            o.frames = parse_size("--frames", v), i++;
        else if (a == "--batch")
            o.batch = parse_size("--batch", v), i++;
        else if (a == "--slots")
            o.slots = parse_size("--slots", v), i++;
        else if (a == "--latency-us")
            o.latency_us = parse_size("--latency-us", v, true), o.latency_given = true, i++;
        else if (a == "--shape" && v && (std::string(v) == "turbo" || std::string(v) == "mimo"))
            o.shape = v, i++;
        else if (a == "--cold")
            o.cold = true;
        else if (a == "--feed" && v && (std::string(v) == "frame" || std::string(v) == "batch" ||
                                        std::string(v) == "both"))
            o.feed = v, i++;
        else {
            std::fprintf(stderr,
                         "usage: bench_caller [--shape turbo|mimo] [--rounds N] [--frames N] [--batch N] [--slots N] "
                         "[--feed frame|batch|both] [--latency-us N] [--cold]\n");
            return 2;
        }
    }
    const bool mimo = o.shape == "mimo";
    // The shape's defaults: a batch as bench_turbo's or bench_mimo's, about
    // as long on an H100 as theirs (the MIMO batch's kernel and copies).
    if (!o.frames)
        o.frames = mimo ? 60000 : 400000;
    if (!o.batch)
        o.batch = mimo ? 1024 : 528;
    if (!o.latency_given)
        o.latency_us = mimo ? 1300 : 500;
    std::printf("caller bookkeeping per frame, CPU engine, null kernel: %s, batches of %zu, %zu "
                "slots, %zu frames a round, %zu rounds; batches complete %zu us after launch%s\n",
                mimo ? "bench_mimo --devices' shape (64 channels of 4x4 16-QAM a frame, float LLRs) and loop"
                     : "K=6144 int8 shapes",
                o.batch, o.slots, o.frames, o.rounds, o.latency_us,
                o.cold ? "; results and outputs evicted from the caches (as DMA leaves them)" : "");
    std::printf("caller ns/frame = (wall - engine launch - waiting for completion) / frames; launch: the null "
                "kernel and the engine's call; queries: completion queries (done(), on CUDA cudaEventQuery) per "
                "frame\n\n");
    std::printf("| feed | round | wall ns/frame | launch ns/frame | wait ns/frame | caller ns/frame | queries/frame "
                "|\n|---|---|---|---|---|---|---|\n");
    std::vector<std::pair<std::string, bool>> feeds;
    if (mimo)
        feeds.push_back({ "mimo (bench_mimo --devices: begin_frames, front_many/pop_many, frame_check)", true });
    if (!mimo && o.feed != "batch")
        feeds.push_back({ "frame (begin_frame, front/pop)", false });
    if (!mimo && o.feed != "frame")
        feeds.push_back({ "batch (begin_frames, front_many/pop_many)", true });
    std::vector<std::vector<double>> caller(feeds.size()), queries(feeds.size());
    // Rounds interleaved between the feeds: the machine's load drifts.
    for (size_t r = 0; r < o.rounds; r++)
        for (size_t f = 0; f < feeds.size(); f++) {
            const auto x = mimo ? run_mimo_round(o) : run_round(o, feeds[f].second);
            caller[f].push_back(x.caller_ns);
            queries[f].push_back(x.queries);
            std::printf("| %s | %zu | %.1f | %.1f | %.1f | %.1f | %.4f |\n", feeds[f].first.c_str(), r + 1,
                        x.wall_ns, x.launch_ns, x.wait_ns, x.caller_ns, x.queries);
            std::fflush(stdout);
        }
    std::printf("\n| feed | caller ns/frame, median | min | max | queries/frame, median |\n|---|---|---|---|---|\n");
    for (size_t f = 0; f < feeds.size(); f++) {
        auto v = caller[f], q = queries[f];
        std::sort(v.begin(), v.end());
        std::sort(q.begin(), q.end());
        std::printf("| %s | %.1f | %.1f | %.1f | %.4f |\n", feeds[f].first.c_str(), v[v.size() / 2], v.front(),
                    v.back(), q[q.size() / 2]);
    }
    return 0;
}

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo_ber_point.h"

#include "mimo/mimo_frame.h"
#include "mimo/mimo_implementations.h"
#include "pipeline/batch_pipeline.h"
#include "turbo/turbo_frame.h"
#include "turbo/turbo_implementations.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

namespace {

using clk = std::chrono::steady_clock;

bool on_cuda(const core::backend_choice& w) { return w.kind == core::backend_kind::cuda; }

} // namespace

core::pipeline_config detector_pipeline_config(const mimo_ber_context& ctx)
{
    core::pipeline_config pc;
    pc.types = core::mimo::frame_types_of();
    pc.slots = 3;
    // 4096 frames of 12 vectors: ~50k vectors per launch fill an H100 (as
    // bench_mimo's e2e rows); on the CPU a few frames per worker suffice.
    pc.max_batch = on_cuda(ctx.where) ? 4096 : 64;
    pc.max_in_bytes = ctx.geometry.full_frame_in_bytes(ctx.detector.apriori);
    pc.max_out_bytes = ctx.geometry.full_frame_out_bytes();
    pc.flush_timeout = std::chrono::microseconds(1000000); // the point drains at its end
    pc.cpu_threads = ctx.o.threads;
    return pc;
}

namespace {

core::pipeline_config decoder_pipeline(const mimo_ber_context& ctx)
{
    core::pipeline_config pc;
    pc.types = core::turbo::frame_types_of();
    pc.slots = 3;
    pc.max_batch = on_cuda(ctx.where) ? 528 : 64; // gpurx-turbo-ber's batches
    pc.max_in_bytes = size_t(ctx.geometry.coded_bits) * sizeof(float);
    pc.max_out_bytes = size_t(ctx.geometry.K);
    pc.flush_timeout = std::chrono::microseconds(1000000);
    pc.cpu_threads = ctx.o.threads;
    return pc;
}

} // namespace

unsigned worker_count(const mimo_ber_options& o)
{
    return o.threads ? unsigned(o.threads) : std::max(1u, std::thread::hardware_concurrency());
}

void check_detected(const core::completed_frame& f)
{
    const auto* r = f.result_as<core::mimo::frame_result>();
    if (f.rejected || !r || (r->status != core::mimo::STATUS_OK && r->status != core::mimo::STATUS_RANK_DEFICIENT))
        throw std::runtime_error("the detector could not detect frame " + std::to_string(f.seq) + " (status " +
                                 std::to_string(r ? r->status : -1) + ")");
}

void print_point_progress(const std::string& label, double ebn0, const ber_point& p, double secs, bool final)
{
    std::fprintf(stderr, "\r  %-14s Eb/N0 %5.2f dB  blocks %8llu  block errors %6llu  BER %.2e  %7.1f blocks/s%s",
                 label.c_str(), ebn0, (unsigned long long)p.frames, (unsigned long long)p.frame_errors, p.ber(),
                 secs > 0 ? double(p.frames) / secs : 0.0, final ? "\n" : "   ");
}

double esn0_of(const mimo_link_geometry& g, double ebn0)
{
    return ebn0 + 10 * std::log10(g.rate() * g.bits_per_symbol);
}

ber_point run_mimo_ber_point(const mimo_ber_context& ctx, int point, double ebn0)
{
    const auto& o = ctx.o;
    const auto& g = ctx.geometry;
    const float n0 = float(std::pow(10.0, -esn0_of(g, ebn0) / 10));
    const auto mpc = detector_pipeline_config(ctx), tpc = decoder_pipeline(ctx);
    auto detect = core::make_pipeline(core::mimo_kernel_factories(ctx.detector, ctx.detector_choice), ctx.where, mpc);
    auto decode = core::make_pipeline(core::turbo_kernel_factories(ctx.decoder, ctx.decoder_choice), ctx.where, tpc);
    const auto tparams = core::turbo::frame_params_for(g.K);
    std::vector<core::mimo::frame_params> mparams(size_t(g.frames));
    for (int f = 0; f < g.frames; f++)
        mparams[size_t(f)] = g.frame_params(f, n0);

    const unsigned nthreads = worker_count(o);
    // Blocks made per round: enough to fill the pipelines' batches.
    const size_t chunk = on_cuda(ctx.where) ? 512 : std::max<size_t>(16, 2 * nthreads);
    // A block's bits and LLRs stay in the ring until its decoded bits are
    // counted. At most chunk blocks are being made, and the pipelines hold at
    // most slots x max_batch frames each (a detector's frames span at most
    // that / frames-per-block + 2 blocks), so the ring never overwrites a
    // block still in flight.
    const size_t ring = chunk + mpc.slots * mpc.max_batch / size_t(g.frames) + 2 + tpc.slots * tpc.max_batch;
    const size_t llrs = size_t(g.vectors) * g.bits_per_vector;
    std::vector<std::vector<uint8_t>> sent(ring, std::vector<uint8_t>(size_t(g.K)));
    std::vector<std::vector<float>> llr(ring, std::vector<float>(llrs));
    std::vector<std::vector<uint8_t>> in(chunk, std::vector<uint8_t>(g.codeword_in_bytes()));
    std::vector<mimo_block_source> sources;
    for (unsigned t = 0; t < nthreads; t++)
        sources.emplace_back(g, ctx.detector.modulation, o.rate_matching);
    const core::lte_rate_match rate_match(g.K, g.sent_bits);
    std::vector<float> dematched(size_t(g.coded_bits));

    ber_point p;
    p.ebn0 = ebn0;
    uint64_t submitted = 0;
    const auto t0 = clk::now();
    auto last_print = t0;

    auto collect_decoded = [&](bool block) {
        while (const auto* f = decode->front(block)) {
            const auto& ref = sent[f->seq % ring];
            uint64_t e = 0;
            for (int k = 0; k < g.K; k++)
                e += f->data[k] != ref[size_t(k)];
            p.add_frame(uint64_t(g.K), e);
            decode->pop();
            block = false;
        }
    };
    // The codeword's LLRs, rate matching undone, values as they are: detector
    // and decoder both take L = ln P(1)/P(0) in natural units, the decoder's
    // fixed point quantises them at turbo_config::fixed_scale steps per unit
    // (saturating at 127 steps); the padding's LLRs are not passed on.
    auto submit_decoder = [&](uint64_t block) {
        while (!decode->can_accept())
            collect_decoded(true);
        const float* codeword_llr = llr[block % ring].data();
        if (o.rate_matching) {
            rate_match.dematch(codeword_llr, dematched.data());
            codeword_llr = dematched.data();
        }
        decode->submit(codeword_llr, size_t(g.coded_bits) * sizeof(float), size_t(g.K), &tparams);
        collect_decoded(false);
    };
    auto collect_detected = [&](bool block) {
        while (const auto* f = detect->front(block)) {
            check_detected(*f);
            const uint64_t block_index = f->seq / uint64_t(g.frames);
            const int frame = int(f->seq % uint64_t(g.frames));
            std::memcpy(reinterpret_cast<uint8_t*>(llr[block_index % ring].data()) + size_t(frame) * g.full_frame_out_bytes(),
                        f->data, f->out_bytes);
            detect->pop();
            if (frame == g.frames - 1)
                submit_decoder(block_index);
            block = false;
        }
    };
    auto progress = [&](bool final) {
        print_point_progress(ctx.label, ebn0, p, std::chrono::duration<double>(clk::now() - t0).count(), final);
    };

    while (p.frame_errors < o.min_block_errors && submitted < o.max_blocks) {
        const size_t now_blocks = size_t(std::min<uint64_t>(chunk, o.max_blocks - submitted));
        std::vector<std::thread> th;
        for (unsigned t = 0; t < nthreads; t++)
            th.emplace_back([&, t] {
                for (size_t i = t; i < now_blocks; i += nthreads) {
                    const uint64_t b = submitted + i;
                    sources[t].make(block_seed(o.seed, point, b), n0, sent[b % ring].data(), in[i].data());
                }
            });
        for (auto& x : th)
            x.join();
        for (size_t i = 0; i < now_blocks; i++) {
            for (int f = 0; f < g.frames; f++) {
                while (!detect->can_accept())
                    collect_detected(true);
                const auto& mp = mparams[size_t(f)];
                detect->submit(in[i].data() + g.frame_in_offset(f), core::mimo::frame_in_bytes(mp),
                               core::mimo::frame_out_bytes(mp, core::mimo::llr_format::float32), &mp);
            }
            collect_detected(false);
        }
        submitted += now_blocks;
        if (!o.quiet && clk::now() - last_print > std::chrono::milliseconds(500)) {
            progress(false);
            last_print = clk::now();
        }
    }
    detect->drain();
    collect_detected(false);
    decode->drain();
    collect_decoded(false);
    if (p.frames != submitted)
        throw std::runtime_error("internal: " + std::to_string(submitted) + " blocks sent, " +
                                 std::to_string(p.frames) + " decoded");
    if (!o.quiet)
        progress(true);
    return p;
}

} // namespace apps
} // namespace gpurx
} // namespace gr

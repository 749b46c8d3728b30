/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo_idd_point.h"

#include "mimo/mimo_frame.h"
#include "mimo/mimo_implementations.h"
#include "pipeline/batch_pipeline.h"
#include "turbo/turbo_decoder_cpu.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <thread>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

namespace {

using clk = std::chrono::steady_clock;

// Runs f(thread, item) for items 0..n-1 spread over nthreads threads; the
// first exception a thread throws is thrown here once all have joined.
template <class F>
void parallel_for(unsigned nthreads, size_t n, F f)
{
    std::vector<std::thread> th;
    std::vector<std::exception_ptr> err(nthreads);
    for (unsigned t = 0; t < nthreads; t++)
        th.emplace_back([&, t] {
            try {
                for (size_t i = t; i < n; i += nthreads)
                    f(t, i);
            } catch (...) {
                err[t] = std::current_exception();
            }
        });
    for (auto& x : th)
        x.join();
    for (auto& e : err)
        if (e)
            std::rethrow_exception(e);
}

} // namespace

ber_point run_mimo_idd_point(const mimo_ber_context& ctx, int point, double ebn0)
{
    const auto& o = ctx.o;
    const auto& g = ctx.geometry;
    if (!ctx.detector.apriori || ctx.detector.output != core::mimo::llr_output::extrinsic)
        throw std::logic_error("run_mimo_idd_point: the detector must take a-priori and give extrinsic LLRs");
    if (ctx.decoder.uses_fixed_point())
        throw std::logic_error("run_mimo_idd_point: the decoder must run in float (coded-bit LLRs)");
    const float n0 = float(std::pow(10.0, -esn0_of(g, ebn0) / 10));
    const auto mpc = detector_pipeline_config(ctx);
    auto detect = core::make_pipeline(core::mimo_kernel_factories(ctx.detector, ctx.detector_choice), ctx.where, mpc);

    // A block's detector input, frame after frame: H, the received vectors,
    // then the a-priori LLRs of the frame's bits (zeros on the first pass).
    const size_t B = size_t(g.bits_per_vector), n = size_t(g.coded_bits), E = size_t(g.sent_bits);
    std::vector<core::mimo::frame_params> mparams(size_t(g.frames));
    std::vector<size_t> fin_at(size_t(g.frames) + 1, 0), prior_at(size_t(g.frames));
    for (int f = 0; f < g.frames; f++) {
        auto& mp = mparams[size_t(f)];
        mp = g.frame_params(f, n0);
        mp.apriori = 1;
        const size_t bytes = core::mimo::frame_in_bytes(mp);
        prior_at[size_t(f)] = fin_at[size_t(f)] + bytes - size_t(mp.vectors) * B * sizeof(float);
        fin_at[size_t(f) + 1] = fin_at[size_t(f)] + bytes;
    }
    // Where bit e of the block (e < V B, in the order sent) has its a-priori
    // LLR, as a float index into the block's input.
    auto prior_index = [&](size_t e) {
        const size_t v = e / B, f = v / size_t(g.vectors_per_channel);
        return prior_at[f] / sizeof(float) + (v % size_t(g.vectors_per_channel)) * B + e % B;
    };
    const core::lte_rate_match rate_match(g.K, g.sent_bits);
    const unsigned nthreads = worker_count(o);
    const bool cuda = ctx.where.kind == core::backend_kind::cuda;
    const size_t chunk = cuda ? 256 : std::max<size_t>(16, 2 * nthreads);
    std::vector<std::vector<uint8_t>> sent(chunk, std::vector<uint8_t>(size_t(g.K)));
    std::vector<std::vector<uint8_t>> decided(chunk, std::vector<uint8_t>(size_t(g.K)));
    std::vector<std::vector<uint8_t>> in(chunk, std::vector<uint8_t>(g.codeword_in_bytes()));
    // float storage keeps the a-priori LLRs aligned (every part of a frame
    // is a whole number of floats).
    std::vector<std::vector<float>> fin(chunk, std::vector<float>(fin_at.back() / sizeof(float)));
    std::vector<std::vector<float>> llr(chunk, std::vector<float>(size_t(g.vectors) * B));
    std::vector<mimo_block_source> sources;
    std::vector<core::turbo_decoder_cpu> decoders;
    std::vector<std::vector<float>> chan(nthreads, std::vector<float>(n)), ext(nthreads, std::vector<float>(n)),
        prior(nthreads, std::vector<float>(E));
    for (unsigned t = 0; t < nthreads; t++) {
        sources.emplace_back(g, ctx.detector.modulation, o.rate_matching);
        decoders.emplace_back(ctx.decoder);
    }

    ber_point p;
    p.ebn0 = ebn0;
    uint64_t submitted = 0, frames_in = 0;
    const auto t0 = clk::now();
    auto last_print = t0;
    auto progress = [&](bool final) {
        print_point_progress(ctx.label, ebn0, p, std::chrono::duration<double>(clk::now() - t0).count(), final);
    };

    while (p.frame_errors < o.min_block_errors && submitted < o.max_blocks) {
        const size_t now_blocks = size_t(std::min<uint64_t>(chunk, o.max_blocks - submitted));
        parallel_for(nthreads, now_blocks, [&](unsigned t, size_t i) {
            sources[t].make(block_seed(o.seed, point, submitted + i), n0, sent[i].data(), in[i].data());
            // H and y once; the a-priori LLRs start at 0.
            float* dst = fin[i].data();
            std::fill(fin[i].begin(), fin[i].end(), 0.0f);
            for (int f = 0; f < g.frames; f++)
                std::memcpy(reinterpret_cast<uint8_t*>(dst) + fin_at[size_t(f)], in[i].data() + g.frame_in_offset(f),
                            prior_at[size_t(f)] - fin_at[size_t(f)]);
        });
        for (int pass = 1; pass <= o.idd_passes; pass++) {
            const uint64_t base = frames_in;
            uint64_t frames_out = 0;
            auto collect = [&](bool block) {
                while (const auto* f = detect->front(block)) {
                    check_detected(*f);
                    frames_out++;
                    const uint64_t idx = f->seq - base;
                    const size_t i = size_t(idx / uint64_t(g.frames)), frame = size_t(idx % uint64_t(g.frames));
                    std::memcpy(reinterpret_cast<uint8_t*>(llr[i].data()) + frame * g.full_frame_out_bytes(),
                                f->data, f->out_bytes);
                    detect->pop();
                    block = false;
                }
            };
            for (size_t i = 0; i < now_blocks; i++)
                for (int f = 0; f < g.frames; f++) {
                    while (!detect->can_accept())
                        collect(true);
                    const auto& mp = mparams[size_t(f)];
                    detect->submit(reinterpret_cast<const uint8_t*>(fin[i].data()) + fin_at[size_t(f)],
                                   core::mimo::frame_in_bytes(mp),
                                   core::mimo::frame_out_bytes(mp, core::mimo::llr_format::float32), &mp);
                    frames_in++;
                    collect(false);
                }
            detect->drain();
            collect(false);
            // A frame missing would leave the previous pass's LLRs in place.
            if (frames_out != frames_in - base)
                throw std::runtime_error("internal: " + std::to_string(frames_in - base) + " frames sent, " +
                                         std::to_string(frames_out) + " detected");
            // Decode; before another pass, each bit sent gets as a-priori LLR
            // what is known of its codeword bit without it: the decoder's
            // extrinsic LLR, damped by --idd-scale, plus a repeated bit's
            // other copies (lte_rate_match::feedback). The padding stays 0.
            const bool last = pass == o.idd_passes;
            parallel_for(nthreads, now_blocks, [&](unsigned t, size_t i) {
                float* ch = chan[t].data();
                if (o.rate_matching)
                    rate_match.dematch(llr[i].data(), ch);
                else
                    std::copy(llr[i].begin(), llr[i].begin() + std::ptrdiff_t(n), ch);
                float* x = ext[t].data();
                decoders[t].decode_coded(ch, g.K, decided[i].data(), x);
                if (last)
                    return;
                for (size_t c = 0; c < n; c++)
                    x[c] *= o.idd_scale;
                float* pr = prior[t].data();
                if (o.rate_matching)
                    rate_match.feedback(x, llr[i].data(), pr, ch);
                else // sent in the codeword's order, each bit once
                    std::copy(x, x + n, pr);
                float* in_prior = fin[i].data();
                for (size_t e = 0; e < E; e++)
                    in_prior[prior_index(e)] = pr[e];
            });
        }
        for (size_t i = 0; i < now_blocks; i++) {
            uint64_t e = 0;
            for (int k = 0; k < g.K; k++)
                e += decided[i][size_t(k)] != sent[i][size_t(k)];
            p.add_frame(uint64_t(g.K), e);
        }
        submitted += now_blocks;
        if (!o.quiet && clk::now() - last_print > std::chrono::milliseconds(500)) {
            progress(false);
            last_print = clk::now();
        }
    }
    if (!o.quiet)
        progress(true);
    return p;
}

} // namespace apps
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx-viterbi-ber: BER/FER curves of the Viterbi decoders, BPSK over AWGN,
// through the batching pipeline on either backend, without a flowgraph.
// `gpurx-viterbi-ber --help` documents every option (viterbi_ber_options.cc).
//
// Channel: Es = 1, Es/N0 = R * Eb/N0 with R the rate after puncturing (the
// energy of a terminated frame's tail is not charged unless --charge-tail),
// LLR = 4 Es/N0 * y (core::awgn_llr_source), the scale at which the soft
// correlation metric is the path's log-likelihood.
#include "ber_point.h"
#include "viterbi_ber_companions.h"
#include "viterbi_ber_options.h"

#include "common/awgn_llr.h"
#include "pipeline/batch_pipeline.h"
#include "viterbi/viterbi_encoder.h"
#include "viterbi/viterbi_implementations.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace gr::gpurx;
using apps::ber_point;

namespace {

using clk = std::chrono::steady_clock;

struct run_context {
    const apps::viterbi_ber_options& o;
    core::viterbi_code code;
    core::backend_choice where;
    core::implementation_choice choice;
    double rate;          //!< information bits per transmitted coded bit
    std::string label;
};

// The information rate that Eb is charged at.
double charged_rate(const apps::viterbi_ber_options& o, const core::viterbi_code& code)
{
    return o.charge_tail ? double(o.frame_bits) / double(code.coded_bits(o.frame_bits))
                         : apps::nominal_rate(code);
}

// One frame's channel input as the decoder takes it: float LLRs, or int8 /
// hard bytes made from the received amplitude y = L / (4 Es/N0).
void to_input(const std::vector<float>& llr, double esn0_db, const apps::viterbi_ber_options& o,
              std::vector<uint8_t>& out)
{
    const size_t n = llr.size();
    if (o.input == core::viterbi::INPUT_SOFT) {
        out.resize(n * sizeof(float));
        std::copy_n(reinterpret_cast<const uint8_t*>(llr.data()), out.size(), out.data());
        return;
    }
    out.resize(n);
    if (o.input == core::viterbi::INPUT_HARD) {
        for (size_t i = 0; i < n; i++)
            out[i] = llr[i] > 0;
        return;
    }
    const double to_y = 1.0 / (4.0 * std::pow(10.0, esn0_db / 10.0));
    for (size_t i = 0; i < n; i++) {
        const double q = std::round(double(llr[i]) * to_y * o.int8_scale);
        out[i] = uint8_t(int8_t(std::max(-127.0, std::min(127.0, q))));
    }
}

// One Eb/N0 point: noisy frames made on every core while the pipeline decodes
// the previous chunk; errors counted in submission order.
ber_point run_point(const run_context& ctx, double ebn0)
{
    const auto& o = ctx.o;
    const int K = o.frame_bits;
    const size_t ncoded = ctx.code.coded_bits(K);
    const double esn0 = ebn0 + 10 * std::log10(ctx.rate);
    core::pipeline_config pc;
    pc.types = core::viterbi::frame_types_of();
    pc.slots = 3;
    // Enough frames per batch to fill a GPU (one warp each); on the CPU a
    // few per worker keeps every worker busy.
    pc.max_batch = ctx.where.kind == core::backend_kind::cuda ? 2048 : 64;
    pc.max_in_bytes = core::viterbi_in_bytes(ctx.code, K, o.input);
    pc.max_out_bytes = size_t(K);
    pc.flush_timeout = std::chrono::microseconds(1000000);
    pc.cpu_threads = o.cpu_threads;
    auto pipe = core::make_pipeline(core::viterbi_kernel_factories(o.cfg, ctx.choice), ctx.where, pc);
    const core::viterbi::frame_params params{ K, o.input };

    const unsigned nthreads = std::max(1u, std::thread::hardware_concurrency());
    const size_t chunk = pc.max_batch;
    std::vector<std::vector<uint8_t>> bits(chunk, std::vector<uint8_t>(K)), input(chunk);
    // Bits of frames in flight, by sequence number modulo the ring.
    const size_t ring = pc.slots * pc.max_batch + chunk;
    std::vector<std::vector<uint8_t>> sent(ring, std::vector<uint8_t>(K));
    ber_point p;
    p.ebn0 = ebn0;
    uint64_t submitted = 0;
    // Reproducible per point and seed, independent of the other points.
    uint64_t seed = (o.seed * 1000003ull) ^ (uint64_t(std::llround((ebn0 + 100) * 1000)) * 7919ull);
    const auto t0 = clk::now();
    auto last_print = t0;
    auto collect = [&](bool block) {
        while (const auto* f = pipe->front(block)) {
            const auto& ref = sent[f->seq % ring];
            uint64_t e = 0;
            for (int k = 0; k < K; k++)
                e += f->data[k] != ref[k];
            p.add_frame(uint64_t(K), e);
            pipe->pop();
            block = false;
        }
    };
    auto progress = [&](bool final) {
        const double secs = std::chrono::duration<double>(clk::now() - t0).count();
        std::fprintf(stderr, "\r  %-22s Eb/N0 %5.2f dB  frames %9llu  frame errors %6llu  BER %.2e  %6.2f Mbit/s%s",
                     ctx.label.c_str(), ebn0, (unsigned long long)p.frames, (unsigned long long)p.frame_errors,
                     p.ber(), secs > 0 ? double(p.bits) / secs / 1e6 : 0.0, final ? "\n" : "   ");
    };
    while (p.frame_errors < o.min_frame_errors && submitted < o.max_frames) {
        const size_t now_frames = size_t(std::min<uint64_t>(chunk, o.max_frames - submitted));
        std::vector<std::thread> th;
        for (unsigned t = 0; t < nthreads; t++)
            th.emplace_back([&, t] {
                core::awgn_llr_source rng(seed * 1000003 + t);
                std::vector<float> llr(ncoded);
                for (size_t i = t; i < now_frames; i += nthreads) {
                    for (int k = 0; k < K; k++)
                        bits[i][k] = rng.next() >> 31;
                    const auto c = core::viterbi_encode(ctx.code, bits[i].data(), K);
                    rng.llrs(c.data(), ncoded, esn0, llr.data());
                    to_input(llr, esn0, o, input[i]);
                }
            });
        for (auto& x : th)
            x.join();
        seed++;
        for (size_t i = 0; i < now_frames; i++) {
            while (!pipe->can_accept())
                collect(true);
            sent[submitted % ring] = bits[i];
            pipe->submit(input[i].data(), input[i].size(), size_t(K), &params);
            submitted++;
        }
        collect(false);
        if (!o.quiet && clk::now() - last_print > std::chrono::milliseconds(500)) {
            progress(false);
            last_print = clk::now();
        }
    }
    pipe->drain();
    collect(false);
    if (!o.quiet)
        progress(true);
    return p;
}

void print_table(const run_context& ctx, const std::vector<ber_point>& pts)
{
    std::printf("\n%s: K=%d (%s) rate %.4g, %s, puncture %s, %s input, %d-bit frames, %s (%s)\n\n",
                ctx.label.c_str(), ctx.code.K(), apps::polys_text(ctx.code).c_str(), ctx.rate,
                core::viterbi::termination_name(ctx.code.term()), apps::puncture_text(ctx.code).c_str(),
                apps::input_name(ctx.o.input), ctx.o.frame_bits, core::backend_name(ctx.where.kind),
                (ctx.where.kind == core::backend_kind::cuda ? ctx.choice.cuda : ctx.choice.cpu).c_str());
    apps::print_ber_table(pts, "not bracketed by the measured points");
}

} // namespace

int main(int argc, char** argv)
{
    apps::viterbi_ber_options o;
    try {
        bool help = false;
        o = apps::parse_viterbi_ber_options(argc, argv, help);
        if (help) {
            std::fputs(apps::viterbi_ber_help(), stdout);
            return 0;
        }
    } catch (const apps::usage_error& e) {
        std::fprintf(stderr, "gpurx-viterbi-ber: %s\n(gpurx-viterbi-ber --help lists the options)\n", e.what());
        return 2;
    }
    try {
        run_context ctx{ o, o.cfg.code(), core::select_backend(o.backend, o.devices),
                         core::choose_viterbi_implementation(o.cfg), 0.0, o.label };
        ctx.rate = charged_rate(o, ctx.code);
        if (ctx.label.empty())
            ctx.label = o.code_name + "/" + apps::input_name(o.input);
        std::fprintf(stderr, "%s\n", ctx.where.reason.c_str());
        if (!ctx.choice.note.empty())
            std::fprintf(stderr, "%s\n", ctx.choice.note.c_str());
        apps::csv_writer csv(o.csv); // throws naming the path when it cannot be written
        std::vector<ber_point> pts;
        const auto xs = apps::db_range{ o.e0, o.e1, o.estep }.points();
        for (size_t i = 0; i < xs.size(); i++) {
            pts.push_back(run_point(ctx, xs[i]));
            csv.row(ctx.label, o, ctx.code, ctx.rate,
                    ctx.where.kind == core::backend_kind::cuda ? ctx.choice.cuda : ctx.choice.cpu,
                    core::backend_name(ctx.where.kind), pts.back());
            if (apps::sweep_stops_after(pts.back(), o.keep_going, i + 1 < xs.size()))
                break;
        }
        csv.close();
        print_table(ctx, pts);
        int status = 0;
        std::vector<std::string> csvs;
        if (!o.csv.empty())
            csvs.push_back(o.csv);
        if (o.grfec) {
            const std::string g = apps::grfec_csv_path(o.csv);
            if (apps::run_grfec_companion(o, argv[0], g) != 0)
                status = 1;
            else
                csvs.push_back(g);
        }
        if (!csvs.empty() && apps::plot(o, argv[0], csvs) != 0)
            status = 1;
        return status;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpurx-viterbi-ber: %s\n", e.what());
        return 1;
    }
}

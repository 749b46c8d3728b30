/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx-turbo-ber: BER/FER curves of the LTE turbo decoder, BPSK over AWGN,
// through the batching pipeline on either backend, without a flowgraph.
// `gpurx-turbo-ber --help` documents every option (turbo_ber_options.cc).
//
// Channel: Es = 1, Eb/N0 = Es/N0 - 10 log10(K / (3K + 12)), LLR = 4 y / N0
// (core::awgn_llr_source), the scale the blocks take.
#include "app_output.h"
#include "ber_point.h"
#include "turbo_ber_options.h"

#include "common/awgn_llr.h"
#include "pipeline/batch_pipeline.h"
#include "turbo/lte_turbo_encoder.h"
#include "turbo/turbo_frame.h"
#include "turbo/turbo_implementations.h"
#include "turbo/turbo_window_plan.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

using namespace gr::gpurx;
using apps::ber_point;

namespace {

using clk = std::chrono::steady_clock;

struct curve_run {
    const apps::turbo_ber_options& o;
    core::turbo_config cfg;
    core::backend_choice where;
    std::string label;
};

// The windows a curve really runs with: cpu-window16-simd chooses its own
// (guard 0), every other implementation takes cfg.subblocks and cfg.guard.
bool runs_window16(core::turbo_config cfg, const core::backend_choice& where)
{
    const auto choice = core::choose_turbo_implementation(cfg);
    return where.kind == core::backend_kind::cpu && choice.cpu == "cpu-window16-simd";
}
int windows_of(const core::turbo_config& cfg, int K, const core::backend_choice& where)
{
    return runs_window16(cfg, where) ? core::turbo_win::windows_for(K) : cfg.subblocks_for(K);
}

// One Eb/N0 point: noisy codewords made on every core while the pipeline
// decodes the previous chunk; errors counted in submission order.
ber_point run_point(const curve_run& r, double ebn0)
{
    const auto& o = r.o;
    const int K = o.K;
    const int n = 3 * K + 12;
    const double esn0 = ebn0 + 10 * std::log10(double(K) / n);
    core::turbo_config c = r.cfg;
    const auto choice = core::choose_turbo_implementation(c);
    core::pipeline_config pc;
    pc.types = core::turbo::frame_types_of();
    pc.slots = 3;
    pc.max_batch = r.where.kind == core::backend_kind::cuda ? 528 : 64;
    pc.max_in_bytes = n * sizeof(float);
    pc.max_out_bytes = K;
    pc.flush_timeout = std::chrono::microseconds(1000000);
    auto pipe = core::make_pipeline(core::turbo_kernel_factories(c, choice), r.where, pc);
    const auto params = core::turbo::frame_params_for(K);

    const unsigned nthreads = std::max(1u, std::thread::hardware_concurrency());
    const size_t chunk = pc.max_batch;
    std::vector<std::vector<uint8_t>> bits(chunk, std::vector<uint8_t>(K));
    std::vector<std::vector<float>> llr(chunk, std::vector<float>(n));
    // Bits of frames in flight, by sequence number modulo the ring.
    const size_t ring = pc.slots * pc.max_batch + chunk;
    std::vector<std::vector<uint8_t>> sent(ring, std::vector<uint8_t>(K));
    ber_point p;
    p.ebn0 = ebn0;
    uint64_t submitted = 0;
    // Reproducible per point, independent of the other points of the sweep.
    uint64_t seed = uint64_t(std::llround((ebn0 + 100) * 1000)) * 7919 + 17;
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
        std::fprintf(stderr, "\r  %-34s Eb/N0 %5.2f dB  frames %8llu  frame errors %6llu  BER %.2e  (%.1f s)%s",
                     r.label.c_str(), ebn0, (unsigned long long)p.frames, (unsigned long long)p.frame_errors,
                     p.ber(), secs, final ? "\n" : "   ");
    };
    while (p.frame_errors < o.min_frame_errors && submitted < o.max_frames) {
        const size_t now_frames = size_t(std::min<uint64_t>(chunk, o.max_frames - submitted));
        std::vector<std::thread> th;
        for (unsigned t = 0; t < nthreads; t++)
            th.emplace_back([&, t] {
                core::awgn_llr_source rng(seed * 1000003 + t);
                core::lte_turbo_encoder enc(K);
                std::vector<uint8_t> cw(n);
                for (size_t i = t; i < now_frames; i += nthreads) {
                    for (int k = 0; k < K; k++)
                        bits[i][k] = rng.next() >> 31;
                    enc.encode(bits[i].data(), cw.data());
                    rng.llrs(cw.data(), n, esn0, llr[i].data());
                }
            });
        for (auto& x : th)
            x.join();
        seed++;
        for (size_t i = 0; i < now_frames; i++) {
            while (!pipe->can_accept())
                collect(true);
            sent[submitted % ring] = bits[i];
            pipe->submit(llr[i].data(), n * sizeof(float), K, &params);
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

// The points of one curve, each written to the CSV as it completes. Stops
// after the first point without errors unless --keep-going, and says so.
std::vector<ber_point> run_curve(const curve_run& r, const apps::db_range& range, apps::csv_file& csv)
{
    std::vector<ber_point> pts;
    const auto xs = range.points();
    for (size_t i = 0; i < xs.size(); i++) {
        pts.push_back(run_point(r, xs[i]));
        const ber_point& p = pts.back();
        csv.row("%s,%d,%d,%s,%s,%d,%s,%.3f,%llu,%llu,%llu,%llu,%.6e,%.3e,%.6e", r.label.c_str(), r.o.K,
                windows_of(r.cfg, r.o.K, r.where), core::turbo::algorithm_name(r.cfg.algorithm),
                r.cfg.uses_fixed_point() ? "int16" : "float", r.cfg.iterations,
                core::backend_name(r.where.kind), p.ebn0, (unsigned long long)p.frames,
                (unsigned long long)p.frame_errors, (unsigned long long)p.bits,
                (unsigned long long)p.bit_errors, p.ber(), p.ber_stderr(), p.fer());
        if (apps::sweep_stops_after(p, r.o.keep_going, i + 1 < xs.size()))
            break;
    }
    return pts;
}

void print_curve(const curve_run& r, const std::vector<ber_point>& pts)
{
    std::printf("\n%s: K=%d, P=%d, %s, %s, %d iterations, %s backend\n\n", r.label.c_str(), r.o.K,
                windows_of(r.cfg, r.o.K, r.where), core::turbo::algorithm_name(r.cfg.algorithm),
                r.cfg.uses_fixed_point() ? "int16" : "float", r.cfg.iterations, core::backend_name(r.where.kind));
    apps::print_ber_table(pts, "not bracketed by two measured points with errors");
}

core::turbo_config make_config(const apps::turbo_ber_options& o, const std::string& alg, int iterations, int P)
{
    core::turbo_config cfg;
    cfg.implementation = o.implementation;
    cfg.algorithm = core::turbo::parse_algorithm(alg);
    cfg.iterations = iterations;
    cfg.subblocks = P;
    cfg.guard = o.guard;
    cfg.fixed_point = o.fixed_point;
    return cfg;
}

std::string default_label(core::turbo_config cfg, int K, const core::backend_choice& where)
{
    const bool w16 = runs_window16(cfg, where);
    (void)core::choose_turbo_implementation(cfg); // a named implementation fixes the arithmetic
    const int P = windows_of(cfg, K, where);
    char b[128];
    std::snprintf(b, sizeof b, "%s/%s/%d it/P=%d/g=%d%s", core::turbo::algorithm_name(cfg.algorithm),
                  cfg.uses_fixed_point() ? "int16" : "float", cfg.iterations, P, P > 1 && !w16 ? cfg.guard : 0,
                  w16 ? "/cpu-window16-simd" : "");
    return b;
}

// The reference set of docs/turbo_ber.md: where each curve crosses BER 1e-5,
// against published values (P = 1) and against P = 1 (windowed).
void run_table(const apps::turbo_ber_options& o, const core::backend_choice& where, apps::csv_file& csv)
{
    struct curve {
        const char* alg;
        int iters;
        double ref;
    };
    // Built in place: assigning an initializer list to a vector of this
    // local type trips GCC 12's -Wnonnull on the empty vector's memmove.
    const std::vector<curve> curves =
        o.max_log_only ? std::vector<curve>{ { "scaled-max-log-map", 6, 0.68 }, { "max-log-map", 6, 0.90 } }
                       : std::vector<curve>{ { "log-map", 6, 0.56 },
                                             { "log-map", 8, 0.44 },
                                             { "scaled-max-log-map", 6, 0.68 },
                                             { "max-log-map", 6, 0.90 } };
    const std::vector<int> Ps = o.no_p1 ? std::vector<int>{ o.table_P } : std::vector<int>{ 1, o.table_P };
    std::vector<std::string> rows;
    for (const auto& c : curves) {
        double at_p1 = NAN;
        for (int P : Ps) {
            const auto cfg = make_config(o, c.alg, c.iters, P);
            const curve_run r{ o, cfg, where, default_label(cfg, o.K, where) };
            apps::db_range range{ std::round((c.ref - 0.2) * 10) / 10, c.ref + 0.35, o.ebn0.step };
            const auto pts = run_curve(r, range, csv);
            const auto x = apps::find_crossing(pts, 1e-5);
            if (P == 1)
                at_p1 = x.ebn0;
            char ref[64] = "-", diff[64] = "-", line[256];
            if (P == 1) {
                std::snprintf(ref, sizeof ref, "%.2f dB", c.ref);
                std::snprintf(diff, sizeof diff, "%+.3f dB", x.ebn0 - c.ref);
            } else if (!std::isnan(at_p1)) {
                std::snprintf(ref, sizeof ref, "P=1: %.3f dB", at_p1);
                std::snprintf(diff, sizeof diff, "%+.3f dB", x.ebn0 - at_p1);
            }
            std::snprintf(line, sizeof line, "| %s, %s | %d | %d | %.3f dB | %s | %s |", c.alg,
                          cfg.uses_fixed_point() ? "int16" : "float", c.iters, P, x.ebn0, ref, diff);
            rows.push_back(line);
        }
    }
    std::printf("| decoder | iterations | P | Eb/N0 at BER 1e-5 | reference | difference |\n");
    std::printf("|---|---|---|---|---|---|\n");
    for (const auto& l : rows)
        std::printf("%s\n", l.c_str());
}

} // namespace

int main(int argc, char** argv)
{
    apps::turbo_ber_options o;
    try {
        bool help = false;
        o = apps::parse_turbo_ber_options(argc, argv, help);
        if (help) {
            std::fputs(apps::turbo_ber_help(), stdout);
            return 0;
        }
    } catch (const apps::usage_error& e) {
        std::fprintf(stderr, "gpurx-turbo-ber: %s\n(gpurx-turbo-ber --help lists the options)\n", e.what());
        return 2;
    }
    try {
        const auto where = core::select_backend(o.backend, o.devices);
        std::fprintf(stderr, "%s\n", where.reason.c_str());
        // Opened before any decoding: an unwritable path fails at once.
        apps::csv_file csv("--csv", o.csv,
                           "curve,K,P,algorithm,arithmetic,iterations,backend,ebn0_db,frames,frame_errors,"
                           "bits,bit_errors,ber,ber_stderr,fer");
        if (o.table) {
            run_table(o, where, csv);
        } else {
            const auto cfg = make_config(o, o.algorithm, o.iterations, o.P);
            const curve_run r{ o, cfg, where, o.label.empty() ? default_label(cfg, o.K, where) : o.label };
            print_curve(r, run_curve(r, o.ebn0, csv));
        }
        csv.close();
        if (!o.csv.empty()) {
            const std::string title = "LTE turbo decoder, K=" + std::to_string(o.K) + ", rate 1/3, BPSK/AWGN";
            if (apps::plot_csvs("gpurx-turbo-ber", argv[0], title, { o.csv }, o.png) != 0)
                return 1;
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpurx-turbo-ber: %s\n", e.what());
        return 1;
    }
}

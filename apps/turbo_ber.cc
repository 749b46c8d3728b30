/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx-turbo-ber: BER/FER curves of the LTE turbo decoder, BPSK over AWGN,
// on either backend, without a flowgraph.
//
//   gpurx-turbo-ber [--backend auto|cuda|cpu] [--K 6144] [--P 1]
//                   [--algorithm scaled-max-log-map] [--iterations 6]
//                   [--ebn0 0.2:1.2:0.1] [--min-frame-errors 100]
//                   [--max-frames 20000] [--guard 16] [--csv FILE] [--table]
//                   [--table-P 128] [--arithmetic fixed|float] [--max-log-only]
//
// --arithmetic float runs max-log-MAP in float (the default is 16-bit fixed
// point, as in the blocks; log-MAP is always float); --max-log-only leaves
// the log-MAP curves out of the table.
// --table runs the reference set (log-MAP 6 and 8 iterations, scaled
// max-log-MAP 6, max-log-MAP 6; P = 1 and P = 128) and prints the Eb/N0 where
// each curve crosses BER 1e-5, for docs/turbo_ber.md.
// Eb/N0 = Es/N0 - 10 log10(K / (3K + 12)). A progress line goes to stderr.
#include "common/awgn_llr.h"
#include "pipeline/batch_pipeline.h"
#include "turbo/lte_turbo_encoder.h"
#include "turbo/turbo_frame.h"
#include "turbo/turbo_implementations.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace gr::gpurx;

namespace {

struct point {
    double ebn0;
    uint64_t frames = 0, frame_errors = 0, bits = 0, bit_errors = 0;
    double ber() const { return bits ? double(bit_errors) / bits : 0; }
    double fer() const { return frames ? double(frame_errors) / frames : 0; }
};

struct options {
    std::string backend = "auto";
    int K = 6144, P = 1, iterations = 6, guard = 16;
    std::string algorithm = "scaled-max-log-map";
    double e0 = 0.2, e1 = 1.2, estep = 0.1;
    uint64_t min_frame_errors = 100, max_frames = 20000;
    std::string csv;
    bool table = false;
    int table_P = 128; //!< the windowed decoder the table compares with P = 1
    bool no_p1 = false; //!< table without its P = 1 curves (they do not depend on guard)
    bool fixed_point = true; //!< 16-bit fixed point for the max-log-MAP variants
    bool max_log_only = false; //!< table without the log-MAP curves (always float)
};

// One Eb/N0 point: encode random frames, add noise on worker threads while
// the previous batch decodes, count errors.
point run_point(const options& o, const core::turbo_config& cfg, const core::backend_choice& where,
                double ebn0, const char* label)
{
    const int K = o.K;
    const int n = 3 * K + 12;
    const double esn0 = ebn0 + 10 * std::log10(double(K) / n);
    core::turbo_config c = cfg;
    const auto choice = core::choose_turbo_implementation(c);
    if (!choice.note.empty())
        std::fprintf(stderr, "%s\n", choice.note.c_str());
    core::pipeline_config pc;
    pc.types = core::turbo::frame_types_of();
    pc.slots = 3;
    pc.max_batch = where.kind == core::backend_kind::cuda ? 528 : 64;
    pc.max_in_bytes = n * sizeof(float);
    pc.max_out_bytes = K;
    pc.flush_timeout = std::chrono::microseconds(1000000);
    auto pipe = core::make_pipeline(core::turbo_kernel_factories(c, choice), where, pc);
    const auto params = core::turbo::frame_params_for(K);

    const unsigned nthreads = std::max(1u, std::thread::hardware_concurrency());
    const size_t chunk = pc.max_batch;
    std::vector<std::vector<uint8_t>> bits(chunk, std::vector<uint8_t>(K));
    std::vector<std::vector<float>> llr(chunk, std::vector<float>(n));
    // Bits of frames in flight, by sequence number modulo the ring.
    const size_t ring = pc.slots * pc.max_batch + chunk;
    std::vector<std::vector<uint8_t>> sent(ring, std::vector<uint8_t>(K));
    point p;
    p.ebn0 = ebn0;
    uint64_t submitted = 0, seed = uint64_t(ebn0 * 1000) * 7919 + 17;
    auto t0 = std::chrono::steady_clock::now();
    auto last_print = t0;
    auto collect = [&](bool block) {
        while (const auto* f = pipe->front(block)) {
            const auto& ref = sent[f->seq % ring];
            uint64_t e = 0;
            for (int k = 0; k < K; k++)
                e += f->data[k] != ref[k];
            p.frames++;
            p.bits += K;
            p.bit_errors += e;
            p.frame_errors += e > 0;
            pipe->pop();
            block = false;
        }
    };
    while (p.frame_errors < o.min_frame_errors && submitted < o.max_frames) {
        // Make a chunk of noisy codewords in parallel.
        std::vector<std::thread> th;
        for (unsigned t = 0; t < nthreads; t++)
            th.emplace_back([&, t] {
                core::awgn_llr_source rng(seed * 1000003 + t);
                core::lte_turbo_encoder enc(K);
                std::vector<uint8_t> c(n);
                for (size_t i = t; i < chunk; i += nthreads) {
                    for (int k = 0; k < K; k++)
                        bits[i][k] = rng.next() >> 31;
                    enc.encode(bits[i].data(), c.data());
                    rng.llrs(c.data(), n, esn0, llr[i].data());
                }
            });
        for (auto& x : th)
            x.join();
        seed++;
        for (size_t i = 0; i < chunk; i++) {
            while (!pipe->can_accept())
                collect(true);
            sent[submitted % ring] = bits[i];
            pipe->submit(llr[i].data(), n * sizeof(float), K, &params);
            submitted++;
        }
        collect(false);
        const auto now = std::chrono::steady_clock::now();
        if (now - last_print > std::chrono::milliseconds(500)) {
            std::fprintf(stderr, "\r  %-28s Eb/N0 %.2f dB  frames %8llu  frame errors %6llu  BER %.2e   ",
                         label, ebn0, (unsigned long long)p.frames,
                         (unsigned long long)p.frame_errors, p.ber());
            last_print = now;
        }
    }
    pipe->drain();
    collect(false);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "\r  %-28s Eb/N0 %.2f dB  frames %8llu  frame errors %6llu  BER %.2e  (%.1f s)\n",
                 label, ebn0, (unsigned long long)p.frames, (unsigned long long)p.frame_errors,
                 p.ber(), secs);
    return p;
}

// Eb/N0 where log10(BER) crosses log10(target), by linear interpolation.
double crossing(const std::vector<point>& pts, double target)
{
    for (size_t i = 1; i < pts.size(); i++) {
        const double b0 = pts[i - 1].ber(), b1 = pts[i].ber();
        if (b0 >= target && b1 < target) {
            const double l0 = std::log10(b0);
            const double l1 = b1 > 0 ? std::log10(b1) : std::log10(0.5 / double(pts[i].bits));
            return pts[i - 1].ebn0 + (std::log10(target) - l0) / (l1 - l0) * (pts[i].ebn0 - pts[i - 1].ebn0);
        }
    }
    return NAN;
}

std::vector<point> run_curve(const options& o, core::turbo_config cfg, const core::backend_choice& where,
                             FILE* csv, const char* label)
{
    std::vector<point> pts;
    for (double e = o.e0; e <= o.e1 + 1e-9; e += o.estep) {
        pts.push_back(run_point(o, cfg, where, e, label));
        const point& p = pts.back();
        if (csv)
            std::fprintf(csv, "%s,%d,%d,%s,%d,%.3f,%llu,%llu,%llu,%llu,%.6e,%.6e\n", label, o.K,
                         cfg.subblocks, core::turbo::algorithm_name(cfg.algorithm), cfg.iterations, p.ebn0,
                         (unsigned long long)p.frames, (unsigned long long)p.frame_errors,
                         (unsigned long long)p.bits, (unsigned long long)p.bit_errors, p.ber(), p.fer());
        if (csv)
            std::fflush(csv);
        if (p.bit_errors == 0 || p.ber() < 1e-7)
            break; // below what this many frames resolves: the curve is done
    }
    return pts;
}

void usage()
{
    std::fprintf(stderr, "usage: gpurx-turbo-ber [--backend B] [--K K] [--P P] [--algorithm A] "
                         "[--iterations N] [--ebn0 start:stop:step] [--min-frame-errors N] "
                         "[--max-frames N] [--guard G] [--csv FILE] [--table] [--table-P P] "
                         "[--arithmetic fixed|float] [--max-log-only]\n");
}

} // namespace

int main(int argc, char** argv)
{
    options o;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        auto val = [&]() -> std::string {
            if (i + 1 >= argc) {
                usage();
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--backend") o.backend = val();
        else if (a == "--K") o.K = std::stoi(val());
        else if (a == "--P") o.P = std::stoi(val());
        else if (a == "--algorithm") o.algorithm = val();
        else if (a == "--iterations") o.iterations = std::stoi(val());
        else if (a == "--guard") o.guard = std::stoi(val());
        else if (a == "--table-P") o.table_P = std::stoi(val());
        else if (a == "--no-p1") o.no_p1 = true;
        else if (a == "--ebn0") {
            const std::string v = val();
            if (std::sscanf(v.c_str(), "%lf:%lf:%lf", &o.e0, &o.e1, &o.estep) != 3 || o.estep <= 0) {
                std::fprintf(stderr, "--ebn0 wants start:stop:step, got %s\n", v.c_str());
                return 2;
            }
        } else if (a == "--min-frame-errors") o.min_frame_errors = std::stoull(val());
        else if (a == "--max-frames") o.max_frames = std::stoull(val());
        else if (a == "--csv") o.csv = val();
        else if (a == "--table") o.table = true;
        else if (a == "--max-log-only") o.max_log_only = true;
        else if (a == "--arithmetic") {
            const std::string v = val();
            if (v != "fixed" && v != "float") {
                std::fprintf(stderr, "--arithmetic wants fixed or float, got %s\n", v.c_str());
                return 2;
            }
            o.fixed_point = v == "fixed";
        } else {
            usage();
            return 2;
        }
    }
    try {
        core::lte_qpp(o.K);
        const auto where = core::select_backend(o.backend, "0");
        std::fprintf(stderr, "%s\n", where.reason.c_str());
        FILE* csv = o.csv.empty() ? nullptr : std::fopen(o.csv.c_str(), "w");
        if (csv)
            std::fprintf(csv, "curve,K,P,algorithm,iterations,ebn0_db,frames,frame_errors,bits,bit_errors,ber,fer\n");
        struct curve { const char* alg; int iters; double ref; };
        std::vector<curve> curves;
        if (o.table && o.max_log_only)
            curves = { { "scaled-max-log-map", 6, 0.68 }, { "max-log-map", 6, 0.90 } };
        else if (o.table)
            curves = { { "log-map", 6, 0.56 }, { "log-map", 8, 0.44 },
                       { "scaled-max-log-map", 6, 0.68 }, { "max-log-map", 6, 0.90 } };
        else
            curves = { { o.algorithm.c_str(), o.iterations, NAN } };
        std::vector<int> Ps = o.table ? (o.no_p1 ? std::vector<int>{ o.table_P } : std::vector<int>{ 1, o.table_P })
                                      : std::vector<int>{ o.P };
        std::printf("| decoder | iterations | P | Eb/N0 at BER 1e-5 | reference | difference |\n");
        std::printf("|---|---|---|---|---|---|\n");
        for (const auto& c : curves) {
            double at_p1 = NAN;
            for (int P : Ps) {
                core::turbo_config cfg;
                cfg.algorithm = core::turbo::parse_algorithm(c.alg);
                cfg.iterations = c.iters;
                cfg.subblocks = P;
                cfg.guard = o.guard;
                cfg.fixed_point = o.fixed_point;
                const char* arith = cfg.uses_fixed_point() ? "int16" : "float";
                char label[80];
                std::snprintf(label, sizeof label, "%s/%s/%d it/P=%d/g=%d", c.alg, arith, c.iters, P,
                              P > 1 ? o.guard : 0);
                options oc = o;
                if (o.table) { // a window around each reference value
                    oc.e0 = std::round((c.ref - 0.2) * 10) / 10;
                    oc.e1 = c.ref + 0.35;
                }
                const auto pts = run_curve(oc, cfg, where, csv, label);
                const double x = crossing(pts, 1e-5);
                if (P == 1)
                    at_p1 = x;
                char ref[64] = "-", diff[64] = "-";
                if (!std::isnan(c.ref) && P == 1) {
                    std::snprintf(ref, sizeof ref, "%.2f dB", c.ref);
                    std::snprintf(diff, sizeof diff, "%+.3f dB", x - c.ref);
                } else if (P != 1 && !std::isnan(at_p1)) {
                    std::snprintf(ref, sizeof ref, "P=1: %.3f dB", at_p1);
                    std::snprintf(diff, sizeof diff, "%+.3f dB", x - at_p1);
                }
                std::printf("| %s, %s | %d | %d | %.3f dB | %s | %s |\n", c.alg, arith, c.iters, P, x, ref,
                            diff);
                std::fflush(stdout);
            }
        }
        if (csv)
            std::fclose(csv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpurx-turbo-ber: %s\n", e.what());
        return 1;
    }
    return 0;
}

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx-mimo-ber: coded BER/FER of the soft MIMO detectors followed by the
// LTE turbo decoder, over i.i.d. Rayleigh channels, through the batching
// pipelines on either backend, without a flowgraph. `gpurx-mimo-ber --help`
// documents every option and the SNR convention (mimo_ber_options.cc); the
// link is mimo_link.h, one point mimo_ber_point.h, the output
// mimo_ber_output.h. docs/mimo-coded-ber.md has the curves.
#include "app_output.h"
#include "mimo_ber_options.h"
#include "mimo_ber_output.h"
#include "mimo_ber_point.h"
#include "mimo_idd_point.h"

#include "mimo/mimo_implementations.h"
#include "turbo/turbo_implementations.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace gr::gpurx;

namespace {

// The dB of the sweep as Eb/N0, whichever axis it was given on.
double ebn0_of(const apps::mimo_ber_options& o, const apps::mimo_link_geometry& g, double x)
{
    return o.snr_axis ? x - 10 * std::log10(double(g.nt) * g.rate() * g.bits_per_symbol) : x;
}

apps::mimo_curve run_curve(const apps::mimo_ber_options& o, core::mimo::algorithm alg,
                           const core::backend_choice& where, apps::mimo_csv_writer& csv)
{
    core::mimo_config m = o.mimo;
    m.algorithm = alg;
    core::turbo_config t = o.turbo;
    const bool idd = o.idd_passes > 1;
    if (idd) { // the detector takes the decoder's LLRs and gives its own part
        m.apriori = true;
        m.output = core::mimo::llr_output::extrinsic;
    }
    // The choices normalise the configurations (a named implementation fixes
    // the algorithm or the arithmetic): made before the context copies them.
    auto detector_choice = core::choose_mimo_implementation(m);
    auto decoder_choice = core::choose_turbo_implementation(t);
    apps::mimo_ber_context ctx{ o, apps::mimo_link_geometry(m, o.K, o.vectors_per_channel, o.sent_bits()),
                                m, detector_choice, t, decoder_choice, where, "" };
    ctx.label = apps::curve_name(m) + (idd ? "/idd" + std::to_string(o.idd_passes) : "");
    const bool cuda = where.kind == core::backend_kind::cuda;
    for (const auto* note : { &ctx.detector_choice.note, &ctx.decoder_choice.note })
        if (!note->empty())
            std::fprintf(stderr, "%s\n", note->c_str());

    apps::mimo_curve c;
    c.name = ctx.label;
    c.cfg = m;
    // A CUDA choice left empty means this algorithm detects on the CPU
    // (the registry's note above says why).
    c.detector = cuda && !ctx.detector_choice.cuda.empty() ? ctx.detector_choice.cuda : ctx.detector_choice.cpu;
    c.decoder = cuda && !ctx.decoder_choice.cuda.empty() && !idd ? ctx.decoder_choice.cuda : ctx.decoder_choice.cpu;
    c.backend = core::backend_name(where.kind);
    c.rate = ctx.geometry.rate();
    c.snr_minus_ebn0 = 10 * std::log10(double(m.nt) * c.rate * ctx.geometry.bits_per_symbol);
    const auto xs = o.sweep.points();
    for (size_t i = 0; i < xs.size(); i++) {
        const double ebn0 = ebn0_of(o, ctx.geometry, xs[i]);
        c.pts.push_back(idd ? apps::run_mimo_idd_point(ctx, int(i), ebn0)
                            : apps::run_mimo_ber_point(ctx, int(i), ebn0));
        csv.row(o, c);
        if (apps::sweep_stops_after(c.pts.back(), o.keep_going, i + 1 < xs.size(), c.name, "curve"))
            break;
    }
    return c;
}

} // namespace

int main(int argc, char** argv)
{
    apps::mimo_ber_options o;
    try {
        bool help = false;
        o = apps::parse_mimo_ber_options(argc, argv, help);
        if (help) {
            std::fputs(apps::mimo_ber_help(), stdout);
            return 0;
        }
    } catch (const apps::usage_error& e) {
        std::fprintf(stderr, "gpurx-mimo-ber: %s\n(gpurx-mimo-ber --help lists the options)\n", e.what());
        return 2;
    }
    try {
        const auto where = core::select_backend(o.backend, o.devices);
        std::fprintf(stderr, "%s\n", where.reason.c_str());
        apps::mimo_csv_writer csv(o.csv); // throws naming the path when it cannot be written
        std::vector<apps::mimo_curve> curves;
        for (auto alg : o.algorithms) {
            curves.push_back(run_curve(o, alg, where, csv));
            apps::print_curve(o, curves.back());
        }
        csv.close();
        if (curves.size() > 1)
            apps::print_summary(o, curves);
        if (o.csv.empty())
            return 0;
        char target[32];
        std::snprintf(target, sizeof target, " --target-ber %g", o.target_ber);
        return apps::plot_csvs("gpurx-mimo-ber", argv[0], apps::link_title(o), { o.csv }, o.png, target) != 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpurx-mimo-ber: %s\n", e.what());
        return 1;
    }
}

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx-lte-ber: BLER and throughput of LTE DL-SCH transport blocks with
// HARQ over AWGN, against Es/N0, through the transport-block decoder's
// pipeline on either backend, without a flowgraph. `gpurx-lte-ber --help`
// documents every option and the SNR convention (lte_ber_options.cc); the
// 36.213 tables are lte_ber_tables.h, the channel lte_ber_channel.h, one
// curve's points lte_ber_point.h, the output lte_ber_output.h.
// docs/lte-transport-channels-bler.md has the curves.
#include "app_output.h"
#include "lte_ber_options.h"
#include "lte_ber_output.h"
#include "lte_ber_point.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace gr::gpurx;

namespace {

apps::bler_curve run_curve(const apps::lte_ber_options& o, const apps::lte_link& link, apps::harq_mode harq,
                           const core::backend_choice& where, apps::bler_csv_writer& csv)
{
    apps::bler_curve c;
    c.link = link;
    c.harq = harq;
    c.name = (o.label.empty() ? "" : o.label + "/") + link.name() + "/" + apps::harq_name(harq) +
             (o.exact_llr ? "/exact" : "");
    c.backend = core::backend_name(where.kind);
    const apps::bler_curve_setup setup{ o, link, harq, where, c.name };
    apps::bler_curve_runner runner(setup);
    c.decoder = runner.decoder();
    const auto xs = o.esn0.points();
    for (size_t i = 0; i < xs.size(); i++) {
        c.pts.push_back(runner.run(xs[i]));
        csv.row(o, c);
        const auto& p = c.pts.back();
        // Above the first point where every TB decoded at once, the curve
        // would need far more TBs to show anything.
        if (p.failed[0] == 0 && !o.keep_going && i + 1 < xs.size()) {
            std::fprintf(stderr,
                         "  %s: Es/N0 %.2f dB: every one of %llu TBs decoded at its first transmission "
                         "(BLER < %.1e at 95%%); the curve stops here (--keep-going runs the rest)\n",
                         c.name.c_str(), p.esn0, (unsigned long long)p.blocks, 3.0 / double(p.blocks));
            break;
        }
    }
    return c;
}

} // namespace

int main(int argc, char** argv)
{
    apps::lte_ber_options o;
    try {
        bool help = false;
        o = apps::parse_lte_ber_options(argc, argv, help);
        if (help) {
            std::fputs(apps::lte_ber_help(), stdout);
            return 0;
        }
    } catch (const apps::usage_error& e) {
        std::fprintf(stderr, "gpurx-lte-ber: %s\n(gpurx-lte-ber --help lists the options)\n", e.what());
        return 2;
    }
    try {
        const auto where = core::select_backend(o.backend, o.devices);
        std::fprintf(stderr, "%s\n", where.reason.c_str());
        apps::bler_csv_writer csv(o.csv); // throws naming the path when it cannot be written
        for (const auto& link : o.links)
            for (auto harq : o.harqs)
                apps::print_bler_curve(o, run_curve(o, link, harq, where, csv));
        csv.close();
        if (o.csv.empty())
            return 0;
        return apps::plot_csvs_with("gpurx-lte-ber", argv[0], "plot_bler.py", apps::bler_title(o), { o.csv },
                                    o.png) != 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpurx-lte-ber: %s\n", e.what());
        return 1;
    }
}

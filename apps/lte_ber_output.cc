/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte_ber_output.h"
#include "turbo/turbo_config.h"

#include <cmath>
#include <cstdio>

namespace gr {
namespace gpurx {
namespace apps {

namespace {

const char* mod_name(int qm)
{
    switch (qm) {
    case 2:
        return "QPSK";
    case 4:
        return "16QAM";
    case 6:
        return "64QAM";
    default:
        return "256QAM";
    }
}

// An empty CSV field for transmissions beyond --max-tx.
std::string bler_field(const bler_point& p, size_t n)
{
    if (n > p.failed.size())
        return "";
    char b[32];
    std::snprintf(b, sizeof b, "%.6e", p.bler(n));
    return b;
}

} // namespace

double esn0_minus_ebn0(const lte_link& l) { return 10 * std::log10(double(l.qm) * l.tbs / l.g); }

std::string bler_title(const lte_ber_options& o)
{
    char b[200];
    std::snprintf(b, sizeof b, "LTE DL-SCH, AWGN, %s LLRs, %s %d it.%s, up to %d transmissions",
                  o.exact_llr ? "exact" : "max-log", core::turbo::algorithm_name(o.sch.turbo.algorithm),
                  o.sch.turbo.iterations, o.sch.early_termination ? " (CRC stop)" : "", o.max_tx);
    return b;
}

bler_csv_writer::bler_csv_writer(const std::string& path)
    : d_file("--csv",
             path,
             "curve,link,harq,max_tx,tbs,qm,g,code_rate,mcs,prb,demapper,algorithm,iterations,early_termination,backend,"
             "decoder,snr_definition,esn0_db,ebn0_db,blocks,transmissions,bler_tx1,bler_tx2,bler_tx3,bler_tx4,"
             "residual_bler,residual_errors,undetected,throughput,throughput_mbps,mean_transmissions,"
             "mean_iterations")
{
}

void bler_csv_writer::row(const lte_ber_options& o, const bler_curve& c)
{
    if (!d_file.enabled() || c.pts.empty())
        return;
    const bler_point& p = c.pts.back();
    const auto& l = c.link;
    // Throughput in Mbit/s: one transmission per 1 ms subframe, so TB bits
    // per transmission / 1 ms.
    d_file.row("%s,%s,%s,%d,%d,%d,%d,%.6f,%d,%d,%s,%s,%d,%d,%s,%s,Es/N0,%.3f,%.4f,%llu,%llu,%s,%s,%s,%s,%.6e,%llu,%llu,"
               "%.6f,%.4f,%.4f,%.3f",
               c.name.c_str(), l.name().c_str(), harq_name(c.harq), o.max_tx, l.tbs, l.qm, l.g, l.code_rate(), l.mcs,
               l.prb, o.exact_llr ? "exact" : "max-log", core::turbo::algorithm_name(o.sch.turbo.algorithm), o.sch.turbo.iterations,
               o.sch.early_termination ? 1 : 0, c.backend.c_str(), c.decoder.c_str(), p.esn0,
               p.esn0 - esn0_minus_ebn0(l), (unsigned long long)p.blocks, (unsigned long long)p.transmissions,
               bler_field(p, 1).c_str(), bler_field(p, 2).c_str(), bler_field(p, 3).c_str(), bler_field(p, 4).c_str(),
               p.residual(), (unsigned long long)p.failed.back(), (unsigned long long)p.undetected, p.throughput(),
               p.throughput() * l.tbs / 1000.0, p.mean_transmissions(), p.mean_iterations());
}

void bler_csv_writer::close() { d_file.close(); }

double bler_crossing(const std::vector<bler_point>& pts, size_t n, double target)
{
    for (size_t i = 1; i < pts.size(); i++) {
        const double a = pts[i - 1].bler(n), b = pts[i].bler(n);
        if (!(a >= target && b < target))
            continue;
        if (b <= 0) // no errors at the lower point: no log to interpolate
            return NAN;
        const double u = (std::log10(target) - std::log10(a)) / (std::log10(b) - std::log10(a));
        return pts[i - 1].esn0 + u * (pts[i].esn0 - pts[i - 1].esn0);
    }
    return NAN;
}

void print_bler_curve(const lte_ber_options& o, const bler_curve& c)
{
    const auto& l = c.link;
    std::printf("\n%s: TBS %d, %s, G %d (code rate %.3f), %s HARQ, up to %d transmissions; %s, %s backend;\n"
                "Es/N0 - Eb/N0 = %.2f dB (10 log10 of information bits per symbol)\n\n",
                c.name.c_str(), l.tbs, mod_name(l.qm), l.g, l.code_rate(), c.harq == harq_mode::ir ? "IR" : "chase",
                o.max_tx, c.decoder.c_str(), c.backend.c_str(), esn0_minus_ebn0(l));
    std::printf("| Es/N0 (dB) | TBs |");
    for (int n = 1; n <= o.max_tx; n++)
        std::printf(" BLER after %d |", n);
    std::printf(" undetected | throughput (x TBS) | Mbit/s | transmissions per TB |\n|---|---|");
    for (int n = 1; n <= o.max_tx; n++)
        std::printf("---|");
    std::printf("---|---|---|---|\n");
    for (const auto& p : c.pts) {
        std::printf("| %.2f | %llu |", p.esn0, (unsigned long long)p.blocks);
        for (int n = 1; n <= o.max_tx; n++)
            std::printf(" %.3e |", p.bler(size_t(n)));
        std::printf(" %llu | %.4f | %.3f | %.3f |\n", (unsigned long long)p.undetected, p.throughput(),
                    p.throughput() * l.tbs / 1000.0, p.mean_transmissions());
    }
    for (size_t n = 1; n <= size_t(o.max_tx); n++) {
        const double x = bler_crossing(c.pts, n, 0.1);
        if (std::isnan(x))
            std::printf("\nBLER 10%% after %zu transmission%s: not bracketed by two measured points with errors\n", n,
                        n > 1 ? "s" : "");
        else
            std::printf("\nBLER 10%% after %zu transmission%s at Es/N0 %.2f dB\n", n, n > 1 ? "s" : "", x);
    }
    std::fflush(stdout);
}

} // namespace apps
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo_ber_output.h"

#include <cmath>
#include <cstdio>

namespace gr {
namespace gpurx {
namespace apps {

namespace {

const char* arithmetic(const core::turbo_config& t) { return t.uses_fixed_point() ? "fixed16" : "float"; }

// "+-0.031 dB (95%, statistical)" or "" when the crossing was not found.
std::string crossing_text(const ber_crossing& x)
{
    char b[160];
    int n = std::snprintf(b, sizeof b, "%.3f dB +-%.3f", x.ebn0, 1.96 * x.stat_sigma);
    if (!std::isnan(x.interp_error))
        std::snprintf(b + n, sizeof b - size_t(n), " (interp. +-%.3f)", x.interp_error);
    return b;
}

} // namespace

std::string link_title(const mimo_ber_options& o)
{
    char b[240], rate[64];
    if (o.code_rate > 0)
        std::snprintf(rate, sizeof rate, "rate %d/%d", o.K, o.sent_bits());
    else
        std::snprintf(rate, sizeof rate, "rate 1/3");
    std::snprintf(b, sizeof b, "%dx%d %s, LTE turbo K=%d %s, %d it., %s, i.i.d. Rayleigh (N=%d)",
                  o.mimo.nt, o.mimo.nr, core::qam::modulation_name(o.mimo.modulation), o.K, rate,
                  o.turbo.iterations, o.rate_matching ? "rate-matched" : "no interleaver",
                  o.vectors_per_channel);
    if (o.idd_passes > 1) {
        char idd[64];
        std::snprintf(idd, sizeof idd, ", IDD %d passes (scale %g)", o.idd_passes, o.idd_scale);
        return std::string(b) + idd;
    }
    return b;
}

mimo_csv_writer::mimo_csv_writer(const std::string& path)
    : d_file("--csv",
             path,
             "curve,algorithm,k,clip,sorted_qr,detector,decoder,backend,nt,nr,modulation,"
             "vectors_per_channel,K,iterations,arithmetic,rate,ebn0_db,esn0_db,snr_db,n0,"
             "frames,frame_errors,bits,bit_errors,ber,ber_stderr,fer,rate_matching,idd_passes,idd_scale")
{
}

void mimo_csv_writer::row(const mimo_ber_options& o, const mimo_curve& c)
{
    if (!d_file.enabled() || c.pts.empty())
        return;
    const ber_point& p = c.pts.back();
    const double snr = p.ebn0 + c.snr_minus_ebn0;
    const double esn0 = snr - 10 * std::log10(double(c.cfg.nt));
    // "frames" are blocks (codewords): the column names plot_ber.py and the
    // other BER programs share.
    d_file.row("%s,%s,%d,%g,%d,%s,%s,%s,%d,%d,%s,%d,%d,%d,%s,%.6f,%.3f,%.4f,%.4f,%.6e,%llu,%llu,%llu,%llu,"
               "%.6e,%.3e,%.6e,%d,%d,%g",
               c.name.c_str(), core::mimo::algorithm_name(c.cfg.algorithm), c.cfg.k, double(c.cfg.clip),
               c.cfg.sorted_qr ? 1 : 0, c.detector.c_str(), c.decoder.c_str(), c.backend.c_str(), c.cfg.nt,
               c.cfg.nr, core::qam::modulation_name(c.cfg.modulation), o.vectors_per_channel, o.K,
               o.turbo.iterations, arithmetic(o.turbo), c.rate, p.ebn0, esn0, snr, std::pow(10.0, -esn0 / 10),
               (unsigned long long)p.frames, (unsigned long long)p.frame_errors, (unsigned long long)p.bits,
               (unsigned long long)p.bit_errors, p.ber(), p.ber_stderr(), p.fer(), o.rate_matching ? 1 : 0, o.idd_passes, o.idd_scale);
}

void mimo_csv_writer::close() { d_file.close(); }

void print_curve(const mimo_ber_options& o, const mimo_curve& c)
{
    std::printf("\n%s: %s; detector %s, decoder %s (%s, P=%d), %s; rate %.4f, SNR = Eb/N0 + %.2f dB\n\n",
                c.name.c_str(), link_title(o).c_str(), c.detector.c_str(), c.decoder.c_str(),
                arithmetic(o.turbo), o.turbo.subblocks, c.backend.c_str(), c.rate, c.snr_minus_ebn0);
    std::printf("| Eb/N0 (dB) | SNR (dB) | BER | BER std. error | FER | block errors | bit errors | blocks |\n");
    std::printf("|---|---|---|---|---|---|---|---|\n");
    for (const auto& p : c.pts)
        std::printf("| %.2f | %.2f | %.3e | %.1e | %.3e | %llu | %llu | %llu |\n", p.ebn0, p.ebn0 + c.snr_minus_ebn0,
                    p.ber(), p.ber_stderr(), p.fer(), (unsigned long long)p.frame_errors,
                    (unsigned long long)p.bit_errors, (unsigned long long)p.frames);
    const auto x = find_crossing(c.pts, o.target_ber);
    if (x.found())
        std::printf("\nBER %.0e at Eb/N0 %s dB (95%%, statistical)\n", o.target_ber, crossing_text(x).c_str());
    else
        std::printf("\nBER %.0e: not bracketed by the measured points\n", o.target_ber);
    std::fflush(stdout);
}

void print_summary(const mimo_ber_options& o, const std::vector<mimo_curve>& curves)
{
    if (curves.empty())
        return;
    std::printf("\n## Summary: %s, BER %.0e\n\n", link_title(o).c_str(), o.target_ber);
    std::printf("| detector | Eb/N0 at BER %.0e | SNR at BER %.0e | vs %s |\n", o.target_ber, o.target_ber,
                curves[0].name.c_str());
    std::printf("|---|---|---|---|\n");
    const auto first = find_crossing(curves[0].pts, o.target_ber);
    for (const auto& c : curves) {
        const auto x = find_crossing(c.pts, o.target_ber);
        if (!x.found()) {
            std::printf("| %s | not bracketed | - | - |\n", c.name.c_str());
            continue;
        }
        char diff[96] = "-";
        if (first.found() && &c != &curves[0])
            std::snprintf(diff, sizeof diff, "%+.3f dB +-%.3f", x.ebn0 - first.ebn0,
                          1.96 * std::hypot(x.stat_sigma, first.stat_sigma));
        std::printf("| %s | %s | %.2f dB | %s |\n", c.name.c_str(), crossing_text(x).c_str(),
                    x.ebn0 + c.snr_minus_ebn0, diff);
    }
    std::printf("\n(+-: 95%% statistical; \"interp.\": linear vs quadratic interpolation of log BER)\n");
    std::fflush(stdout);
}

} // namespace apps
} // namespace gpurx
} // namespace gr

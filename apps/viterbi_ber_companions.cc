/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi_ber_companions.h"
#include "app_output.h"

#include <cmath>
#include <cstdio>

namespace gr {
namespace gpurx {
namespace apps {

namespace {

std::string fmt(const char* f, double x)
{
    char b[64];
    std::snprintf(b, sizeof b, f, x);
    return b;
}

} // namespace

csv_writer::csv_writer(const std::string& path)
    : d_file("--csv",
             path,
             "curve,K,polys,termination,puncture,rate,input,implementation,backend,frame_bits,"
             "ebn0_db,esn0_db,frames,frame_errors,bits,bit_errors,ber,ber_stderr,fer")
{
}

void csv_writer::row(const std::string& curve, const viterbi_ber_options& o, const core::viterbi_code& code,
                     double rate, const std::string& implementation, const char* backend, const ber_point& p)
{
    if (!d_file.enabled())
        return;
    std::string polys = polys_text(code);
    for (auto& c : polys)
        c = c == ',' ? ' ' : c; // one CSV field
    d_file.row("%s,%d,%s,%s,%s,%.6f,%s,%s,%s,%d,%.3f,%.4f,%llu,%llu,%llu,%llu,%.6e,%.3e,%.6e",
               curve.c_str(), code.K(), polys.c_str(), core::viterbi::termination_name(code.term()),
               puncture_text(code).c_str(), rate, input_name(o.input), implementation.c_str(), backend,
               o.frame_bits, p.ebn0, p.ebn0 + 10 * std::log10(rate), (unsigned long long)p.frames,
               (unsigned long long)p.frame_errors, (unsigned long long)p.bits,
               (unsigned long long)p.bit_errors, p.ber(), p.ber_stderr(), p.fer());
}

void csv_writer::close() { d_file.close(); }

std::string grfec_csv_path(const std::string& csv)
{
    const auto slash = csv.rfind('/');
    const auto dot = csv.rfind('.');
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash))
        return csv.substr(0, dot) + "-grfec" + csv.substr(dot);
    return csv + "-grfec.csv";
}

int run_grfec_companion(const viterbi_ber_options& o, const char* argv0, const std::string& out_csv)
{
    const auto code = o.cfg.code();
    std::string cmd = shell_quote(python()) + " " + shell_quote(find_script(argv0, "gpurx_viterbi_ber_grfec.py", "apps")) +
                      " --K " + std::to_string(code.K()) + " --polys " + polys_text(code) + " --termination " +
                      core::viterbi::termination_name(code.term()) + " --puncture " + puncture_text(code) +
                      " --frame-bits " + std::to_string(o.frame_bits) + " --ebn0 " + fmt("%g", o.e0) + ":" +
                      fmt("%g", o.e1) + ":" + fmt("%g", o.estep) + " --min-frame-errors " +
                      std::to_string(o.min_frame_errors) + " --max-frames " + std::to_string(o.max_frames) +
                      " --seed " + std::to_string(o.seed) + " --csv " + shell_quote(out_csv) +
                      (o.charge_tail ? " --charge-tail" : "") + (o.keep_going ? " --keep-going" : "") +
                      (o.quiet ? " --quiet" : "");
    std::fprintf(stderr, "gr-fec comparison: %s\n", cmd.c_str());
    const int rc = run_command(cmd);
    if (rc != 0)
        std::fprintf(stderr, "gpurx-viterbi-ber: the gr-fec companion failed (exit %d)\n", rc);
    return rc;
}

int plot(const viterbi_ber_options& o, const char* argv0, const std::vector<std::string>& csvs)
{
    return plot_csvs("gpurx-viterbi-ber", argv0,
                     "Viterbi decoding, BPSK/AWGN, " + std::to_string(o.frame_bits) + "-bit frames", csvs, o.png);
}

} // namespace apps
} // namespace gpurx
} // namespace gr

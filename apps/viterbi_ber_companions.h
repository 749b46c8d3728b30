/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What gpurx-viterbi-ber writes and runs besides its own simulation: the CSV
// (the columns gpurx_viterbi_ber_grfec.py writes too, and plot_ber.py reads),
// the gr-fec companion (--grfec) and the plot (--png).
//
// The two scripts are found and run as app_output.h says.
#ifndef INCLUDED_GPURX_APPS_VITERBI_BER_COMPANIONS_H
#define INCLUDED_GPURX_APPS_VITERBI_BER_COMPANIONS_H

#include "app_output.h"
#include "ber_point.h"
#include "viterbi_ber_options.h"

#include <cstdio>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

//! The CSV of a sweep, flushed after every point so a long sweep can be
//! plotted while it runs. An empty path writes nothing.
class csv_writer
{
public:
    //! Throws std::runtime_error naming the path when it cannot be written.
    explicit csv_writer(const std::string& path);
    void row(const std::string& curve, const viterbi_ber_options& o, const core::viterbi_code& code,
             double rate, const std::string& implementation, const char* backend, const ber_point& p);
    //! Throws naming the path when a write failed (a full disk, say).
    void close();

private:
    csv_file d_file;
};

//! "a/k7.csv" -> "a/k7-grfec.csv".
std::string grfec_csv_path(const std::string& csv);

//! Runs gpurx_viterbi_ber_grfec.py with the same code, frames, Eb/N0 points
//! and stopping rule, writing \p out_csv; returns its exit status (printing
//! the command when it could not run).
int run_grfec_companion(const viterbi_ber_options& o, const char* argv0, const std::string& out_csv);

//! With --png: runs plot_ber.py on \p csvs and returns its exit status (the
//! command is printed when it fails). Without: prints the command.
int plot(const viterbi_ber_options& o, const char* argv0, const std::vector<std::string>& csvs);

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif

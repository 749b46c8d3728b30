/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What gpurx-lte-ber writes: the CSV (one row per point of every curve,
// flushed as each completes), a markdown table per curve with where its
// BLER crosses 10 %, and the plot (scripts/plot_bler.py).
#ifndef INCLUDED_GPURX_APPS_LTE_BER_OUTPUT_H
#define INCLUDED_GPURX_APPS_LTE_BER_OUTPUT_H

#include "app_output.h"
#include "lte_ber_options.h"
#include "lte_ber_point.h"

#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

//! One curve as it ran.
struct bler_curve {
    std::string name;
    lte_link link;
    harq_mode harq;
    std::string backend, decoder;
    std::vector<bler_point> pts;
};

//! Es/N0 - Eb/N0 in dB: 10 log10(information bits per QAM symbol).
double esn0_minus_ebn0(const lte_link& l);

class bler_csv_writer
{
public:
    //! Throws std::runtime_error naming --csv and the path when it cannot be written.
    explicit bler_csv_writer(const std::string& path);
    //! The row of \p c's last point.
    void row(const lte_ber_options& o, const bler_curve& c);
    void close();

private:
    csv_file d_file;
};

//! The curve's markdown table and the Es/N0 where the BLER after each
//! number of transmissions crosses 10 % (stdout).
void print_bler_curve(const lte_ber_options& o, const bler_curve& c);

//! Where log10 of the BLER after \p n transmissions crosses log10(\p target)
//! between two measured points; NAN when no two points bracket it.
double bler_crossing(const std::vector<bler_point>& pts, size_t n, double target);

//! "LTE DL-SCH over AWGN, 6 turbo iterations, ..." for titles.
std::string bler_title(const lte_ber_options& o);

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif

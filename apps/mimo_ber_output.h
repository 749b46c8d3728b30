/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What gpurx-mimo-ber writes: the CSV (one row per point of every curve, the
// columns plot_ber.py reads: curve, ebn0_db, ber), a markdown table per curve
// and the summary that compares the curves at the target BER.
#ifndef INCLUDED_GPURX_APPS_MIMO_BER_OUTPUT_H
#define INCLUDED_GPURX_APPS_MIMO_BER_OUTPUT_H

#include "app_output.h"
#include "ber_point.h"
#include "mimo_ber_options.h"

#include <cstdio>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

//! One detector's curve and how it ran.
struct mimo_curve {
    std::string name;           //!< curve_name()
    core::mimo_config cfg;      //!< the detector as it ran
    std::string detector;       //!< implementation name (cpu-mtt, cuda-mtt-fast, ...)
    std::string decoder;        //!< turbo implementation name
    std::string backend;
    double rate = 0;            //!< information bits per coded bit sent
    double snr_minus_ebn0 = 0;  //!< 10 log10(nt R log2 Q), dB
    std::vector<ber_point> pts; //!< ber_point::ebn0 is Eb/N0; frames are blocks
};

//! The CSV of a run, flushed after every point so a long sweep can be
//! plotted while it runs. An empty path writes nothing.
class mimo_csv_writer
{
public:
    //! Throws std::runtime_error naming --csv and the path when it cannot be written.
    explicit mimo_csv_writer(const std::string& path);
    //! The row of \p c's last point.
    void row(const mimo_ber_options& o, const mimo_curve& c);
    //! Throws naming the path when a write failed (a full disk, say).
    void close();

private:
    csv_file d_file;
};

//! A curve's markdown table and its crossing of the target BER.
void print_curve(const mimo_ber_options& o, const mimo_curve& c);

//! Every curve's Eb/N0 (and SNR) at the target BER, and the difference to
//! the first curve.
void print_summary(const mimo_ber_options& o, const std::vector<mimo_curve>& curves);

//! "4x4 16qam, LTE turbo K=6144 rate 1/3, 6 it., i.i.d. Rayleigh (N=12)"
std::string link_title(const mimo_ber_options& o);

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx-turbo-ber's command line: the options and the help text. Parsing
// checks every value and throws usage_error naming the option, so main() can
// print it and exit 2 before anything runs.
#ifndef INCLUDED_GPURX_APPS_TURBO_BER_OPTIONS_H
#define INCLUDED_GPURX_APPS_TURBO_BER_OPTIONS_H

#include "app_args.h"

#include <cstdint>
#include <string>

namespace gr {
namespace gpurx {
namespace apps {

struct turbo_ber_options {
    std::string backend = "auto";
    std::string devices = "0";
    int K = 6144;
    int P = 0; //!< sub-blocks; 0 picks them per K as the blocks do
    int iterations = 6, guard = 16;
    std::string algorithm = "scaled-max-log-map";
    bool fixed_point = true; //!< 16-bit fixed point for the max-log-MAP variants, as in the blocks
    std::string implementation = "auto"; //!< registry name, as the blocks' implementation parameter
    db_range ebn0{ 0.2, 1.2, 0.1 };
    uint64_t min_frame_errors = 100, max_frames = 20000;
    bool keep_going = false; //!< run every point even after one without errors
    std::string csv, png, label;
    bool quiet = false;
    // The reference table of docs/turbo_ber.md.
    bool table = false;
    int table_P = 128;         //!< the windowed decoder the table compares with P = 1
    bool no_p1 = false;        //!< table without its P = 1 curves
    bool max_log_only = false; //!< table without the log-MAP curves
};

//! Parses argv; throws usage_error naming the option. Sets \p help when
//! --help was given (nothing else is then checked).
turbo_ber_options parse_turbo_ber_options(int argc, char** argv, bool& help);

//! The full --help text.
const char* turbo_ber_help();

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif

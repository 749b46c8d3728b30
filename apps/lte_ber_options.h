/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx-lte-ber's command line: the options and the help text. Parsing
// checks every value, resolves --mcs/--prb through the 36.213 tables into
// the links to simulate, and throws usage_error naming the option, so
// main() exits 2 before anything runs.
#ifndef INCLUDED_GPURX_APPS_LTE_BER_OPTIONS_H
#define INCLUDED_GPURX_APPS_LTE_BER_OPTIONS_H

#include "app_args.h"
#include "sch/sch_config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

//! How retransmissions are made.
enum class harq_mode { ir, chase };
const char* harq_name(harq_mode m);

//! One transport block format: what one curve sends.
struct lte_link {
    int tbs = 0;  //!< A, information bits per TB
    int qm = 2;   //!< bits per QAM symbol
    int g = 0;    //!< coded bits per transmission
    int mcs = -1; //!< 36.213 MCS index, or -1 when --tbs/--qm gave the format
    int prb = 0;  //!< PRBs, or 0 when --g gave G
    double code_rate() const { return double(tbs) / double(g); }
    //! "mcs13/25prb" or "tbs6120/g7200/qpsk"
    std::string name() const;
};

struct lte_ber_options {
    std::vector<lte_link> links;  //!< one per --mcs value (or the one --tbs link)
    std::vector<harq_mode> harqs{ harq_mode::ir };
    int max_tx = 4;               //!< transmissions per TB at most
    bool exact_llr = false;       //!< --demapper exact: exact LLRs instead of max-log
    core::sch_config sch;         //!< decoder: turbo algorithm, iterations, early termination
    std::string backend = "auto";
    std::string devices = "0";
    size_t threads = 0;           //!< CPU workers and signal generators, 0: one per hardware thread
    db_range esn0{ 0.0, 10.0, 1.0 };
    uint64_t min_block_errors = 100; //!< first-transmission failures that end a point ...
    uint64_t min_blocks = 0;         //!< ... once at least this many TBs ran
    uint64_t max_blocks = 2000;      //!< ... or after this many TBs
    bool keep_going = false;
    uint64_t seed = 1;
    std::string csv, png, label;
    bool quiet = false;
};

//! The redundancy version of transmission \p tx (0-based): IR cycles
//! 0, 2, 3, 1 (36.321's order); chase sends rv 0 every time.
int rv_of(harq_mode m, int tx);

//! Parses argv; throws usage_error naming the option. Sets \p help when
//! --help was given (nothing else is then checked).
lte_ber_options parse_lte_ber_options(int argc, char** argv, bool& help);

//! The full --help text.
const char* lte_ber_help();

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif

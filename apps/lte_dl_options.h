/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx-lte-dl's command line.
#ifndef INCLUDED_GPURX_APPS_LTE_DL_OPTIONS_H
#define INCLUDED_GPURX_APPS_LTE_DL_OPTIONS_H

#include "lte/receiver/downlink_receiver.h"

#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

struct lte_dl_options {
    std::vector<std::string> inputs; //!< one file per receive antenna
    std::string format = "cf32";     //!< cf32 | sc16
    double rate = 0.0;               //!< 0: try every standard rate
    bool every_ue = true;
    std::vector<int> rntis;
    std::string backend = "auto";
    std::string devices = "0";
    std::string pcap, jsonl;
    int ue_category = 4;
    int tm = 0;                      //!< the UEs' transmission mode, 0 unknown
    std::string detector = "lmmse";
    std::string front_end = "auto";
    int cpu_threads = 0;             //!< DL-SCH CPU workers, 0: one per core
    long long max_subframes = 0;     //!< 0: the whole capture
    bool quiet = false;
    bool help = false;
};

//! Throws usage_error naming the option.
lte_dl_options parse_lte_dl_options(int argc, char** argv);
const char* lte_dl_help();

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif

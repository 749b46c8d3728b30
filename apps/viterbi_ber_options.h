/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx-viterbi-ber's command line: the options, the named code presets, and
// the help text. Parsing checks every value and throws usage_error naming the
// option, so main() can print it and exit 2 before anything runs.
#ifndef INCLUDED_GPURX_APPS_VITERBI_BER_OPTIONS_H
#define INCLUDED_GPURX_APPS_VITERBI_BER_OPTIONS_H

#include "app_args.h"
#include "viterbi/viterbi_config.h"
#include "viterbi/viterbi_frame.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

struct viterbi_ber_options {
    std::string code_name = "k7"; //!< preset, or "custom" once --K/--polys/... change it
    core::viterbi_config cfg;     //!< the code and implementation
    core::viterbi::input_kind input = core::viterbi::INPUT_SOFT;
    double int8_scale = 32.0; //!< int8 levels per unit of received amplitude
    std::string backend = "auto";
    std::string devices = "0";
    size_t cpu_threads = 0;
    int frame_bits = 2048;
    double e0 = 0.0, e1 = 6.0, estep = 0.5;
    uint64_t min_frame_errors = 100, max_frames = 100000;
    bool keep_going = false;  //!< run every Eb/N0 point even after one without errors
    bool charge_tail = false; //!< Eb includes the energy of the tail (terminated codes)
    uint64_t seed = 1;
    std::string csv, png, label;
    bool grfec = false; //!< also run gr-fec's cc_decoder (the Python companion)
    bool quiet = false; //!< no progress line
};

//! Parses argv; throws usage_error naming the option. Sets \p help when
//! --help was given (nothing else is then checked).
viterbi_ber_options parse_viterbi_ber_options(int argc, char** argv, bool& help);

//! The full --help text.
const char* viterbi_ber_help();

//! "133,171" (octal, the standards' order, whatever order was given).
std::string polys_text(const core::viterbi_code& code);
//! "111001", or "none".
std::string puncture_text(const core::viterbi_code& code);
//! Information bits per transmitted coded bit, after puncturing, without the
//! tail (the code's nominal rate: 1/2, 3/4, ...).
double nominal_rate(const core::viterbi_code& code);
const char* input_name(core::viterbi::input_kind input);

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif

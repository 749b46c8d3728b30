/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx-mimo-ber's command line: the options and the help text. Parsing
// checks every value (and that each algorithm can detect the shape) and
// throws usage_error naming the option, so main() exits 2 before anything runs.
#ifndef INCLUDED_GPURX_APPS_MIMO_BER_OPTIONS_H
#define INCLUDED_GPURX_APPS_MIMO_BER_OPTIONS_H

#include "app_args.h"
#include "mimo/mimo_config.h"
#include "turbo/turbo_config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

struct mimo_ber_options {
    //! The detector's shape and settings; its algorithm is set per curve.
    core::mimo_config mimo;
    std::vector<core::mimo::algorithm> algorithms{ core::mimo::algorithm::mtt };
    core::turbo_config turbo; //!< iterations, P, arithmetic; rest as the blocks' defaults
    int K = 6144;             //!< information bits per block (36.212 Table 5.1.3-3)
    int vectors_per_channel = 12; //!< N: received vectors per channel realisation
    //! LTE rate matching (36.212 §5.1.4.1, all 3K+12 bits, rv 0) as the channel
    //! interleaver; false sends the codeword in the encoder's order.
    bool rate_matching = true;
    //! --code-rate: the rate K/E rate matching punctures (or repeats) the
    //! codeword to, E = ceil(K / rate) bits sent; 0: all 3K+12 (about 1/3).
    double code_rate = 0;
    //! E, the bits sent per block.
    int sent_bits() const;
    //! --idd-passes: detection passes per block; above 1, iterative detection
    //! and decoding (mimo_idd_point.h), the decoder in float on the CPU.
    int idd_passes = 1;
    //! --idd-scale: the factor on the decoder's extrinsic LLRs fed back. Max-log
    //! extrinsics are overconfident; 0.75 is the damping the decoder applies
    //! between its own two halves.
    double idd_scale = 0.75;
    std::string backend = "auto";
    std::string devices = "0";
    size_t threads = 0; //!< CPU workers and signal generators, 0 = one per hardware thread
    bool snr_axis = false; //!< the sweep was given as --snr (per receive antenna)
    db_range sweep{ 0.0, 6.0, 0.5 };
    uint64_t min_block_errors = 100, max_blocks = 10000;
    bool keep_going = false;
    double target_ber = 1e-4; //!< where the summary compares the curves
    uint64_t seed = 1;
    std::string csv, png;
    bool quiet = false;
};

//! Parses argv; throws usage_error naming the option. Sets \p help when
//! --help was given (nothing else is then checked).
mimo_ber_options parse_mimo_ber_options(int argc, char** argv, bool& help);

//! The full --help text.
const char* mimo_ber_help();

//! The curve's name: "mtt", "kbest16", "one-pass", ... with "/sqr" for a
//! sorted QR.
std::string curve_name(const core::mimo_config& cfg);

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif

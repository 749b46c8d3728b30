/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Options of the iterative detection and decoding (IDD) receiver: a soft
// MIMO detector and the transport-block decoder in a loop, P passes per
// transport block (TB). Pass 1 detects without a-priori LLRs; each later
// pass gives the detector, as a-priori LLRs, the decoder's extrinsic LLRs of
// the codeword as received (sch_config::extrinsic_output), and decodes the
// detector's new extrinsic LLRs. A TB stops at the first pass whose CRC24A
// checks.
#ifndef INCLUDED_GPURX_IDD_IDD_CONFIG_H
#define INCLUDED_GPURX_IDD_IDD_CONFIG_H

#include "mimo/mimo_config.h"
#include "sch/sch_config.h"

#include <string>

namespace gr {
namespace gpurx {
namespace core {

//! The most passes an IDD receiver runs per TB.
constexpr int idd_max_passes = 8;

struct mimo_idd_config {
    mimo_idd_config();
    //! The detector: shape, modulation, algorithm, implementation and
    //! max_channels (at least a TB's channels). Its apriori, output and
    //! llr_type are the receiver's (detector_config()).
    mimo_config detector;
    //! The transport-block decoder: turbo algorithm, iterations,
    //! implementation, max_tbs, max_g, extrinsic_scale. The turbo
    //! arithmetic must be float (the extrinsic output needs it; the
    //! default here is float). Its extrinsic_output and HARQ buffers are the
    //! receiver's (decoder_config()): each TB is decoded alone.
    sch_config decoder;
    //! Detection and decoding passes per TB, 1..idd_max_passes.
    int passes = 1;
    //! "auto", "cpu-idd" or "cuda-idd" (idd_implementations.h).
    std::string implementation = "auto";

    //! Throws std::invalid_argument naming the bad field and its value.
    void validate() const;
    //! The detector as the receiver runs it: a-priori LLRs in (zeros on
    //! pass 1), extrinsic float LLRs out.
    mimo_config detector_config() const;
    //! The decoder as the receiver runs it: extrinsic output, no HARQ
    //! buffers (a pass decodes the TB afresh; combining with an earlier
    //! pass would count the channel twice).
    sch_config decoder_config() const;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

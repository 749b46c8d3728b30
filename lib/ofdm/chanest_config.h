/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The OFDM channel estimator family's static configuration: the frame shape
// a kernel is built for (its working memory is sized for it; frames of that
// shape or smaller run) and the implementation asked for.
#ifndef INCLUDED_GPURX_OFDM_CHANEST_CONFIG_H
#define INCLUDED_GPURX_OFDM_CHANEST_CONFIG_H

#include "ofdm/chanest_frame.h"

#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

struct chanest_config {
    int nt = 2;
    int nr = 2;
    int used = 48;
    int repeats = 2;
    int data_symbols = 12;
    int group = 1;
    //! "auto" or a registry name (chanest_implementations.h).
    std::string implementation = "auto";

    //! Throws std::invalid_argument naming the bad field.
    void validate() const;
    //! The record of a frame of this shape.
    chanest_frame_params frame_params() const;
    //! Per-frame working memory a kernel of this configuration has, in
    //! chanest_work_values().
    size_t max_work() const { return chanest_work_values(frame_params()); }
};

//! Why a kernel of \p cfg cannot estimate a frame of \p p ("" when it can);
//! names the field.
std::string chanest_frame_problem(const chanest_frame_params& p, const chanest_config& cfg);

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// One point of gpurx-mimo-ber: blocks through the detector's pipeline and
// then the turbo decoder's, both on the chosen backend, errors counted.
#ifndef INCLUDED_GPURX_APPS_MIMO_BER_POINT_H
#define INCLUDED_GPURX_APPS_MIMO_BER_POINT_H

#include "ber_point.h"
#include "mimo_ber_options.h"
#include "mimo_link.h"

#include "pipeline/backend.h"
#include "pipeline/batch_pipeline.h"
#include "pipeline/implementation.h"

#include <string>

namespace gr {
namespace gpurx {
namespace apps {

//! One curve's fixed parts.
struct mimo_ber_context {
    const mimo_ber_options& o;
    mimo_link_geometry geometry;
    core::mimo_config detector; //!< normalised by choose_mimo_implementation()
    core::implementation_choice detector_choice;
    core::turbo_config decoder; //!< normalised by choose_turbo_implementation()
    core::implementation_choice decoder_choice;
    core::backend_choice where;
    std::string label; //!< the progress line's name of the curve
};

/*!
 * Runs blocks at \p ebn0 (dB) until o.min_block_errors block errors or
 * o.max_blocks blocks (the blocks already in flight then are counted too).
 * \p point numbers the point for the blocks' seeds. Throws std::runtime_error
 * when the detector reports a frame it could not detect.
 */
ber_point run_mimo_ber_point(const mimo_ber_context& ctx, int point, double ebn0);

//! Signal generator threads (and CPU decoders): --threads, or one per
//! hardware thread.
unsigned worker_count(const mimo_ber_options& o);

//! Throws std::runtime_error unless the detector detected frame \p f
//! (status OK or rank-deficient: finite LLRs either way).
void check_detected(const core::completed_frame& f);

//! The progress line on stderr ("\r", or a newline when \p final).
void print_point_progress(const std::string& label, double ebn0, const ber_point& p, double seconds, bool final);

//! The detector's pipeline for a curve: batches that fill the backend,
//! frames of the link's size (with a-priori LLRs when ctx.detector takes them).
core::pipeline_config detector_pipeline_config(const mimo_ber_context& ctx);

//! Es/N0 (dB) per stream at \p ebn0 for the link's charged rate.
double esn0_of(const mimo_link_geometry& g, double ebn0);

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif

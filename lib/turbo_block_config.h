/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Parameter handling shared by the turbo decoder blocks (stream, tagged, PDU).
#ifndef INCLUDED_GPURX_TURBO_BLOCK_CONFIG_H
#define INCLUDED_GPURX_TURBO_BLOCK_CONFIG_H

#include "core/batch_pipeline.h"
#include "core/turbo_config.h"
#include <cstddef>
#include <string>

namespace gr {
namespace gpurx {

//! Validated decoder options; throws std::invalid_argument naming the parameter.
core::turbo_config make_turbo_config(int iterations,
                                     const std::string& algorithm,
                                     int subblocks,
                                     float scaling,
                                     const std::string& early_termination);

//! Pipeline settings for codewords up to \p max_K; throws naming the parameter.
core::pipeline_config
make_turbo_pipeline_config(int max_K, bool soft, int max_batch, int slots, int flush_us);

/*!
 * Submit a codeword of \p n float LLRs, checking them as they are copied into
 * the pipeline's (pinned) staging, in one pass over the input. Returns false,
 * submitting nothing, when an LLR is NaN or Inf. Requires pipe.can_accept().
 */
bool submit_finite_llrs(core::batch_pipeline& pipe, const float* llr, size_t n, int K, uint32_t param);

} // namespace gpurx
} // namespace gr

#endif

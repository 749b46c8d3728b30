/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The stream decoder's registry (family "viterbi-stream"): every
// implementation of viterbi_stream.h's definition by name, and the choice
// for a configuration.
//   cpu-stream        windows decoded by the CPU workers: the reference
//   cuda-stream-regs  one thread per window, the state metrics in registers;
//                     the codes compiled in (viterbi_stream_regs.cu)
//   cuda-stream-warp  one warp per window, metrics in shared memory: any code
// "auto" picks cuda-stream-regs when it has the code, else cuda-stream-warp.
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_STREAM_IMPLEMENTATIONS_H
#define INCLUDED_GPURX_VITERBI_VITERBI_STREAM_IMPLEMENTATIONS_H

#include "pipeline/batch_pipeline.h"
#include "pipeline/implementation.h"
#include "viterbi/viterbi_stream.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {

std::vector<implementation<viterbi_stream_config>> viterbi_stream_implementations();
registry<viterbi_stream_config> viterbi_stream_registry();

//! Resolve cfg.implementation (throws std::invalid_argument naming
//! `implementation` for an unknown name); a request that cannot run the
//! configuration falls back, with a note for the log.
implementation_choice choose_viterbi_stream_implementation(const viterbi_stream_config& cfg);

kernel_factories viterbi_stream_kernel_factories(const viterbi_stream_config& cfg,
                                                 const implementation_choice& choice);

family_listing viterbi_stream_listing();

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

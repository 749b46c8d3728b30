/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The Viterbi family's registry: every implementation by name, and the choice
// for a configuration. CPU only so far.
//
// "auto" picks cpu-simd on the CPU whenever it supports the configuration
// (it supports all): with frames already decoded in parallel across the
// workers, a full-frame decoder does the least work (the tiled one decodes
// each chunk from all 2^(K-1) start states, the price of the intra-frame
// parallelism it offers a GPU), and cpu-simd is the reference's algorithm
// in SIMD lanes: bit-exact on int8/hard input, equal up to float near-ties
// on float input, and an order of magnitude or more faster (K=7 on one
// AVX2 core: about 30x on int8 input, 10x on float). Otherwise
// cpu-reference. A CPU
// implementation asked for by name that cannot run the configuration falls
// back the same way, with a note. A name that is not registered throws,
// naming `implementation`.
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_IMPLEMENTATIONS_H
#define INCLUDED_GPURX_VITERBI_VITERBI_IMPLEMENTATIONS_H

#include "pipeline/batch_pipeline.h"
#include "pipeline/implementation.h"
#include "viterbi/viterbi_config.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {

//! Every Viterbi implementation this build has.
std::vector<implementation<viterbi_config>> viterbi_implementations();

//! Resolve cfg.implementation (throws std::invalid_argument naming
//! `implementation` for an unknown name).
implementation_choice choose_viterbi_implementation(const viterbi_config& cfg);

//! Kernel factories for the chosen implementations.
kernel_factories viterbi_kernel_factories(const viterbi_config& cfg, const implementation_choice& choice);

//! The family's entry in the module-wide listing.
family_listing viterbi_listing();

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

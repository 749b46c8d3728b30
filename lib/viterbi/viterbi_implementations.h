/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The Viterbi family's registry (pipeline/implementation.h chooses from it).
//
// On the CPU "auto" picks cpu-simd, which runs every configuration: with
// frames already decoded in parallel across the workers, a full-frame
// decoder does the least work, and cpu-simd is the reference's algorithm in
// SIMD lanes (bit-exact on int8/hard input, equal up to float near-ties on
// float input; K=7 on one AVX2 core about 30x the reference on int8 input,
// 10x on float). cpu-tiled, Lin et al.'s layout, decodes each chunk from
// all 2^(K-1) start states: the price of the intra-frame parallelism it
// offers a GPU; it runs only when named. On CUDA: cuda-thread (the standard
// codes compiled in, every termination), else cuda-warp (any code,
// terminated or truncated); a configuration neither runs (tail-biting with
// another code) runs on the CPU, unless cuda-tiled is named.
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
registry<viterbi_config> viterbi_registry();
//! How the tiled decoders (cpu-tiled, cuda-tiled) agree with cpu-reference.
agreement_tolerance tiled_tolerance();

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

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The MIMO family's registry. One CPU implementation per algorithm; cpu-ml,
// the exhaustive search, is the reference. What agreement with it means
// (tests/test_agreement.cc):
//   cpu-mtt       equal for nt <= 2 (MTT is exact there), close beyond
//   cpu-kbest     equal with K = Q^nt (nothing pruned) and a clip above every LLR
//   cpu-lmmse     equal for channels with orthogonal columns (streams decouple)
//   cpu-one-pass  equal for one stream
// With CUDA, each cuda-<algorithm> (cuda/mimo_cuda_kernel.h) is checked
// against its CPU twin in float precision; mtt has two: cuda-mtt, the
// thesis-literal one, and cuda-mtt-fast.
// An entry runs one algorithm: "auto" picks, per backend, the production
// entry of cfg.algorithm (on the CPU, ml runs on its reference, cpu-ml);
// naming an entry sets the algorithm. One that cannot run the configuration
// (cpu-ml beyond 2^24 candidates) falls back to the automatic choice with a
// warning.
#ifndef INCLUDED_GPURX_MIMO_MIMO_IMPLEMENTATIONS_H
#define INCLUDED_GPURX_MIMO_MIMO_IMPLEMENTATIONS_H

#include "mimo/mimo_config.h"
#include "pipeline/batch_pipeline.h"
#include "pipeline/implementation.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {

//! Every MIMO implementation this build has.
std::vector<implementation<mimo_config>> mimo_implementations();
registry<mimo_config> mimo_registry();

//! "" when an entry of algorithm \p a can run \p c, else why not.
std::string mimo_runs_algorithm(mimo::algorithm a, const mimo_config& c);

//! cfg.implementation resolved (mimo_registry().choose: \p cfg takes the
//! named entry's algorithm). Throws std::invalid_argument naming
//! `implementation` for an unknown name.
implementation_choice choose_mimo_implementation(mimo_config& cfg);

//! Kernel factories for the chosen implementations (cfg as normalised above).
kernel_factories mimo_kernel_factories(const mimo_config& cfg,
                                       const implementation_choice& choice);

//! The family's entry in the module-wide listing.
family_listing mimo_listing();

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

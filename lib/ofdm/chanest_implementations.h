/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The OFDM channel estimator family's registry ("ofdm-chanest"):
//   cpu-ls   least squares and the residual in double per frame
//            (estimate_mimo_channel); the reference, checked against the
//            channel truth (test_mimo_chanest, test_agreement)
//   cuda-ls  the same in float on the GPU (cuda/chanest_cuda_kernel.h),
//            checked against cpu-ls to float rounding
// "auto" runs cuda-ls where the backend is CUDA, cpu-ls on the CPU.
#ifndef INCLUDED_GPURX_OFDM_CHANEST_IMPLEMENTATIONS_H
#define INCLUDED_GPURX_OFDM_CHANEST_IMPLEMENTATIONS_H

#include "ofdm/chanest_config.h"
#include "pipeline/batch_pipeline.h"
#include "pipeline/implementation.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {

//! Every OFDM channel estimator implementation this build has.
std::vector<implementation<ofdm::chanest_config>> chanest_implementations();
registry<ofdm::chanest_config> chanest_registry();

//! cfg.implementation resolved. Throws std::invalid_argument naming
//! `implementation` for an unknown name.
implementation_choice choose_chanest_implementation(ofdm::chanest_config& cfg);

//! Kernel factories for the chosen implementations.
kernel_factories chanest_kernel_factories(const ofdm::chanest_config& cfg, const implementation_choice& choice);

//! The family's entry in the module-wide listing.
family_listing chanest_listing();

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

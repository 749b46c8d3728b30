/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The turbo family's registry: every implementation by name, and the choice
// for a configuration. The CUDA entries exist only in builds with CUDA.
//
// "auto" picks, per backend, the fastest implementation of the configured
// arithmetic: cpu-window16-simd / cuda-fixed16-dpx for the max-log-MAP
// variants in fixed point, cpu-float / cuda-float-window otherwise. Naming a
// CUDA fixed-point implementation gives the CPU its bit-exact twin,
// cpu-fixed16-simd (cpu-window16-simd chooses its own windows). A named
// implementation that cannot run the configuration falls back to the auto
// choice, and says so in implementation_choice::note (the block logs it).
#ifndef INCLUDED_GPURX_TURBO_TURBO_IMPLEMENTATIONS_H
#define INCLUDED_GPURX_TURBO_TURBO_IMPLEMENTATIONS_H

#include "pipeline/batch_pipeline.h"
#include "pipeline/implementation.h"
#include "turbo/turbo_config.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {

//! Every turbo implementation this build has. \p int8_scale: LLR per int8 unit.
std::vector<implementation<turbo_config>> turbo_implementations(float int8_scale = 1.0f);

/*!
 * Resolve cfg.implementation. Returns the choice and \p cfg normalised to it
 * (a named implementation fixes the arithmetic, cfg.fixed_point). Throws
 * std::invalid_argument naming `implementation` for an unknown name.
 */
implementation_choice choose_turbo_implementation(turbo_config& cfg);

//! Kernel factories for the chosen implementations (cfg as normalised above).
kernel_factories turbo_kernel_factories(const turbo_config& cfg,
                                        const implementation_choice& choice,
                                        float int8_scale = 1.0f);

//! The family's entry in the module-wide listing.
family_listing turbo_listing();

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

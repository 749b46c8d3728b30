/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The turbo family's registry (pipeline/implementation.h chooses from it).
// The CUDA entries exist only in builds with CUDA.
//
// An entry runs one arithmetic: 16-bit fixed point (the max-log-MAP
// variants, turbo_config::fixed_point) or float. "auto" picks the fastest
// production entry of the configured arithmetic: cpu-window16-simd and
// cuda-fixed16-dpx in fixed point; cuda-float-window in float, whose CPU
// side is the reference cpu-float. Naming an entry sets the arithmetic;
// naming a CUDA entry gives the CPU its bit-exact twin (cpu-fixed16-simd for
// fixed point: cpu-window16-simd chooses its own windows).
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
registry<turbo_config> turbo_registry(float int8_scale = 1.0f);

//! cfg.implementation resolved (turbo_registry().choose: \p cfg takes the
//! named entry's arithmetic). Throws std::invalid_argument naming
//! `implementation` for an unknown name.
implementation_choice choose_turbo_implementation(turbo_config& cfg);

//! Kernel factories for the chosen implementations (cfg as chosen above).
kernel_factories turbo_kernel_factories(const turbo_config& cfg,
                                        const implementation_choice& choice,
                                        float int8_scale = 1.0f);

//! The family's entry in the module-wide listing.
family_listing turbo_listing();

// The two arithmetics, shared by the CPU and CUDA entries.
extern const char* const turbo_arithmetic_float;
extern const char* const turbo_arithmetic_fixed16;
void bind_turbo_fixed16(turbo_config& c);
void bind_turbo_float(turbo_config& c);
std::string turbo_needs_fixed16(const turbo_config& c); //!< "" when c runs in fixed point
std::string turbo_needs_float(const turbo_config& c);   //!< "" when c runs in float

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

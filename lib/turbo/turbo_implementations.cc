/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo/turbo_implementations.h"
#include "turbo/turbo_cpu_kernel.h"
#include "turbo/turbo_decoder_cpu.h"
#ifdef GPURX_HAVE_CUDA
#include "turbo/cuda/turbo_cuda_kernel.h"
#endif

namespace gr {
namespace gpurx {
namespace core {

namespace {

implementation<turbo_config> cpu_entry(const std::string& name,
                                       implementation_role role,
                                       bool fixed,
                                       const std::string& description,
                                       const std::string& reference,
                                       agreement_tolerance tolerance,
                                       turbo_cpu_kernel::kind kind,
                                       float int8_scale)
{
    implementation<turbo_config> e;
    e.info = { name,      backend_kind::cpu, role, fixed ? turbo_arithmetic_fixed16 : turbo_arithmetic_float,
               description, reference,       std::move(tolerance), "" };
    e.bind = fixed ? bind_turbo_fixed16 : bind_turbo_float;
    e.unsupported = fixed ? turbo_needs_fixed16 : turbo_needs_float;
    e.make_cpu = [int8_scale, kind](const turbo_config& c) -> std::unique_ptr<cpu_kernel> {
        return std::make_unique<turbo_cpu_kernel>(c, kind, int8_scale);
    };
    return e;
}

} // namespace

const char* const turbo_arithmetic_float = "float";
const char* const turbo_arithmetic_fixed16 = "16-bit fixed point";

void bind_turbo_fixed16(turbo_config& c) { c.fixed_point = true; }
void bind_turbo_float(turbo_config& c) { c.fixed_point = false; }

std::string turbo_needs_fixed16(const turbo_config& c)
{
    if (c.algorithm == turbo::LOG_MAP)
        return "log-MAP runs in float only";
    if (c.coded_output)
        return "the coded bits' extrinsic output (coded_output) needs float arithmetic";
    return c.fixed_point ? "" : "it runs 16-bit fixed point and the configuration asks for float";
}

std::string turbo_needs_float(const turbo_config& c)
{
    return c.uses_fixed_point() ? "it runs float and the configuration asks for 16-bit fixed point" : "";
}

std::vector<implementation<turbo_config>> turbo_implementations(float int8_scale)
{
    using role = implementation_role;
    std::vector<implementation<turbo_config>> all;
    // The fastest first: "auto" takes the first production entry that runs
    // the configuration's arithmetic. cpu-window16-simd is about twice
    // cpu-fixed16-simd's speed, with BER within 0.05 dB (docs/cpu-turbo.md).
    all.push_back(cpu_entry(
        "cpu-window16-simd", role::production, true,
        std::string("16-bit fixed point, a codeword's windows in SIMD lanes (16 windows for K >= 2048), "
                    "edges from the previous iteration, QPP as lane shuffles (this CPU: ") +
            turbo_win::simd_isa_name(turbo_win::default_simd_isa()) + ")",
        "cpu-fixed16-simd",
        // It chooses its own windows; at those, and guard 0, it is
        // cpu-fixed16-simd bit for bit (test_turbo_window).
        agreement_tolerance::decisions_within(0.002, "it chooses its own windows"),
        turbo_cpu_kernel::kind::window, int8_scale));
    all.push_back(cpu_entry("cpu-fixed16-simd", role::reference, true,
                            std::string("16-bit fixed point, 16 codewords per SIMD vector (this build: ") +
                                turbo_decoder_cpu::simd_isa() +
                                "); the fixed-point reference, bit for bit the CUDA kernel's arithmetic",
                            "", agreement_tolerance::exact(), turbo_cpu_kernel::kind::fixed_lanes,
                            int8_scale));
    all.push_back(cpu_entry("cpu-float", role::reference, false,
                            "float, one codeword per worker (log-MAP and the max-log-MAP variants); "
                            "the reference",
                            "", agreement_tolerance::exact(), turbo_cpu_kernel::kind::float_one, int8_scale));
#ifdef GPURX_HAVE_CUDA
    for (auto& e : turbo_cuda_implementations(int8_scale))
        all.push_back(std::move(e));
#endif
    return all;
}

registry<turbo_config> turbo_registry(float int8_scale)
{
    return registry<turbo_config>("lte-turbo", turbo_implementations(int8_scale));
}

implementation_choice choose_turbo_implementation(turbo_config& cfg)
{
    return turbo_registry().choose(cfg);
}

kernel_factories
turbo_kernel_factories(const turbo_config& cfg, const implementation_choice& choice, float int8_scale)
{
    return turbo_registry(int8_scale).factories(cfg, choice);
}

family_listing turbo_listing() { return turbo_registry().listing(); }

} // namespace core
} // namespace gpurx
} // namespace gr

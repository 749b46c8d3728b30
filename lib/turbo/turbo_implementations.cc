/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo/turbo_implementations.h"
#include "turbo/turbo_cpu_kernel.h"
#ifdef GPURX_HAVE_CUDA
#include "turbo/cuda/turbo_cuda_kernel.h"
#endif

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

namespace {

implementation<turbo_config> cpu_entry(const char* name, const std::string& description, const char* reference, bool fixed)
{
    implementation<turbo_config> e;
    e.info = { name, backend_kind::cpu, description, reference, true };
    e.unsupported = [fixed](const turbo_config& c) {
        return fixed && c.algorithm == turbo::LOG_MAP ? std::string("log-MAP runs in float only")
                                                      : std::string();
    };
    return e;
}

bool is_fixed(const std::string& name)
{
    return name.find("fixed16") != std::string::npos || name == "cpu-window16-simd";
}

} // namespace

std::vector<implementation<turbo_config>> turbo_implementations(float int8_scale)
{
    std::vector<implementation<turbo_config>> all;
    all.push_back(cpu_entry("cpu-float",
                            "float, one codeword per worker (log-MAP and max-log-MAP); the reference",
                            "", false));
    all.push_back(cpu_entry("cpu-fixed16-simd",
                            "16-bit fixed point, 16 codewords per SIMD vector (AVX2, else SSE2); "
                            "the fixed-point reference, bit for bit the CUDA twin's arithmetic",
                            "", true));
    // Not bit-exact with the reference under the same configuration: it
    // chooses its own windows (turbo_window_decoder.h); it is bit for bit
    // cpu-fixed16-simd with those windows and guard 0 (test_turbo_window).
    all.push_back(cpu_entry("cpu-window16-simd",
                            std::string("16-bit fixed point, a codeword's windows in SIMD lanes (16 windows for K >= 2048) "
                                        "(edges from the previous iteration), QPP as lane shuffles; "
                                        "the CPU default (this CPU: ") +
                                turbo_win::simd_isa_name(turbo_win::default_simd_isa()) + ")",
                            "cpu-fixed16-simd", true));
    all.back().info.bit_exact = false;
    for (auto& e : all) {
        const auto k = e.info.name == "cpu-window16-simd" ? turbo_cpu_kernel::kind::window
                       : e.info.name == "cpu-fixed16-simd" ? turbo_cpu_kernel::kind::fixed_lanes
                                                           : turbo_cpu_kernel::kind::float_one;
        e.make_cpu = [int8_scale, k](const turbo_config& c) -> std::unique_ptr<cpu_kernel> {
            return std::make_unique<turbo_cpu_kernel>(c, k, int8_scale);
        };
    }
#ifdef GPURX_HAVE_CUDA
    for (auto& e : turbo_cuda_implementations(int8_scale))
        all.push_back(std::move(e));
#endif
    return all;
}

implementation_choice choose_turbo_implementation(turbo_config& cfg)
{
    const auto all = turbo_implementations();
    implementation_choice c;
    const std::string want = cfg.implementation;
    if (want != "auto") {
        const auto* e = find_implementation(all, want);
        if (!e) {
            std::string names;
            for (const auto& x : all)
                names += (names.empty() ? "" : ", ") + x.info.name;
            throw std::invalid_argument("implementation must be \"auto\" or one of " + names +
                                        ", got \"" + want + "\"");
        }
        const std::string why = e->unsupported(cfg);
        if (why.empty()) {
            cfg.fixed_point = is_fixed(want);
        } else {
            c.note = "implementation \"" + want + "\" cannot run this configuration (" + why +
                     "); using the automatic choice instead";
        }
    }
    const bool fixed = cfg.uses_fixed_point();
    // The CPU default for fixed point is the windowed decoder (about twice
    // cpu-fixed16-simd's speed, BER within 0.05 dB: docs/cpu-turbo.md); the
    // GPU twin of a named CUDA implementation stays cpu-fixed16-simd.
    c.cpu = fixed ? "cpu-window16-simd" : "cpu-float";
    if (find_implementation(all, "cuda-float-window"))
        c.cuda = fixed ? "cuda-fixed16-dpx" : "cuda-float-window";
    // A named implementation that can run: it replaces the automatic choice
    // on its own backend; the other backend runs its twin of equal arithmetic.
    if (want != "auto" && c.note.empty()) {
        if (want.rfind("cpu-", 0) == 0) {
            c.cpu = want;
        } else {
            c.cuda = want;
            if (fixed)
                c.cpu = "cpu-fixed16-simd";
        }
    }
    return c;
}

kernel_factories
turbo_kernel_factories(const turbo_config& cfg, const implementation_choice& choice, float int8_scale)
{
    return factories_of(turbo_implementations(int8_scale), choice, cfg);
}

family_listing turbo_listing()
{
    turbo_config cfg;
    return listing_of("lte-turbo", turbo_implementations(), choose_turbo_implementation(cfg));
}

} // namespace core
} // namespace gpurx
} // namespace gr

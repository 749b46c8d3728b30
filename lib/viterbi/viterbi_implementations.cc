/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi/viterbi_implementations.h"
#include "viterbi/viterbi_cpu_kernel.h"
#ifdef GPURX_HAVE_CUDA
#include "viterbi/cuda/viterbi_cuda_kernel.h"
#endif

namespace gr {
namespace gpurx {
namespace core {

namespace {

implementation<viterbi_config> cpu_entry(const char* name,
                                         implementation_role role,
                                         const char* arithmetic,
                                         const std::string& description,
                                         const char* reference,
                                         agreement_tolerance tolerance,
                                         viterbi_cpu_algorithm algorithm)
{
    implementation<viterbi_config> e;
    e.info = { name, backend_kind::cpu, role, arithmetic, description, reference, std::move(tolerance), "" };
    // Every CPU implementation runs every code, termination and puncturing.
    e.unsupported = [](const viterbi_config&) { return std::string(); };
    e.make_cpu = [algorithm](const viterbi_config& c) -> std::unique_ptr<cpu_kernel> {
        return std::make_unique<viterbi_cpu_kernel>(c, algorithm);
    };
    return e;
}

} // namespace

agreement_tolerance tiled_tolerance()
{
    // Paths of exactly equal metric (frequent with hard input) are ordered
    // otherwise than the full-frame reference orders them; with soft input
    // the decisions are the reference's.
    return agreement_tolerance::decisions_within(
        0.01, "paths of exactly equal metric (frequent with hard input) are ordered otherwise");
}

std::vector<implementation<viterbi_config>> viterbi_implementations()
{
    using role = implementation_role;
    std::vector<implementation<viterbi_config>> all;
    all.push_back(cpu_entry(
        "cpu-simd", role::production, "int16 metrics (int8, hard input); float32 (float input)",
        std::string("full-frame Viterbi in SIMD lanes (AVX2/SSE2/portable by CPU; this one: ") +
            viterbi::simd_isa_name(viterbi::default_simd_isa()) +
            "): int16 metrics for int8/hard input, bit-exact; float32 for float input, equal up to "
            "near-ties",
        "cpu-reference",
        // float32 lanes may order two paths of nearly equal metric otherwise;
        // int8 and hard input are bit-exact (test_viterbi_simd).
        agreement_tolerance::decisions_within(0.01, "float input: float32 metrics order near-ties "
                                                   "otherwise than the double reference"),
        viterbi_cpu_algorithm::simd));
    all.push_back(cpu_entry("cpu-reference", role::reference, "double metrics",
                            "full-frame Viterbi, one frame per worker; exact tail-biting "
                            "(every start state); the reference",
                            "", agreement_tolerance::exact(), viterbi_cpu_algorithm::reference));
    all.push_back(cpu_entry("cpu-tiled", role::paper, "double metrics",
                            "Lin et al.'s tiled Viterbi: chunks decoded from every start state, "
                            "then merged; equal to the reference up to exact metric ties "
                            "(about 1 Mbit/s: for comparison, not for use)",
                            "cpu-reference", tiled_tolerance(), viterbi_cpu_algorithm::tiled));
#ifdef GPURX_HAVE_CUDA
    for (auto& e : viterbi_cuda_implementations())
        all.push_back(std::move(e));
#endif
    return all;
}

registry<viterbi_config> viterbi_registry()
{
    return registry<viterbi_config>("viterbi", viterbi_implementations());
}

implementation_choice choose_viterbi_implementation(const viterbi_config& cfg)
{
    viterbi_config c = cfg; // nothing to bind: every entry runs the configuration as given
    return viterbi_registry().choose(c);
}

kernel_factories viterbi_kernel_factories(const viterbi_config& cfg, const implementation_choice& choice)
{
    cfg.validate();
    return viterbi_registry().factories(cfg, choice);
}

family_listing viterbi_listing() { return viterbi_registry().listing(); }

} // namespace core
} // namespace gpurx
} // namespace gr

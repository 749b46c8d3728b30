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

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

namespace {

implementation<viterbi_config> cpu_entry(const char* name,
                                         const std::string& description,
                                         const char* reference,
                                         bool bit_exact,
                                         viterbi_cpu_algorithm algorithm)
{
    implementation<viterbi_config> e;
    e.info = { name, backend_kind::cpu, description, reference, bit_exact };
    // Every CPU implementation runs every code, termination and puncturing.
    e.unsupported = [](const viterbi_config&) { return std::string(); };
    e.make_cpu = [algorithm](const viterbi_config& c) -> std::unique_ptr<cpu_kernel> {
        return std::make_unique<viterbi_cpu_kernel>(c, algorithm);
    };
    return e;
}

} // namespace

std::vector<implementation<viterbi_config>> viterbi_implementations()
{
    std::vector<implementation<viterbi_config>> all;
    all.push_back(cpu_entry("cpu-reference",
                            "full-frame Viterbi, one frame per worker; exact tail-biting "
                            "(every start state); the reference",
                            "", true, viterbi_cpu_algorithm::reference));
    all.push_back(cpu_entry("cpu-tiled",
                            "Lin et al.'s tiled Viterbi: chunks decoded from every start state, "
                            "then merged; equal to the reference up to exact metric ties",
                            "cpu-reference", true, viterbi_cpu_algorithm::tiled));
    // Not marked bit-exact: float input may order two paths of nearly equal
    // metric otherwise (float32 lanes); int8 and hard input are bit-exact
    // (test_viterbi_simd).
    all.push_back(cpu_entry("cpu-simd",
                            std::string("full-frame Viterbi in SIMD lanes (AVX2/SSE2/portable by CPU; this one: ") +
                                viterbi::simd_isa_name(viterbi::default_simd_isa()) +
                                "): int16 metrics for int8/hard input, bit-exact; float32 for float "
                                "input, equal up to near-ties",
                            "cpu-reference", false, viterbi_cpu_algorithm::simd));
#ifdef GPURX_HAVE_CUDA
    for (auto& e : viterbi_cuda_implementations())
        all.push_back(std::move(e));
#endif
    return all;
}

implementation_choice choose_viterbi_implementation(const viterbi_config& cfg)
{
    // On the CPU: cpu-simd (it runs every configuration; should that change,
    // the reference takes what it cannot). On CUDA: the thread-per-frame
    // decoder (standard codes, every termination), else the warp-per-frame
    // one (any code, terminated or truncated), else the tiled one
    // (tail-biting) when its memory allows; when none can run the
    // configuration, the block runs on the CPU and logs why.
    return choose_ranked(viterbi_implementations(), cfg, { "cpu-simd", "cpu-reference" },
                         { "cuda-thread", "cuda-warp", "cuda-tiled" }, cfg.implementation);
}

kernel_factories viterbi_kernel_factories(const viterbi_config& cfg, const implementation_choice& choice)
{
    cfg.validate();
    return factories_of(viterbi_implementations(), choice, cfg);
}

family_listing viterbi_listing()
{
    family_listing l;
    l.family = "viterbi";
    for (const auto& e : viterbi_implementations())
        l.implementations.push_back(e.info);
    const auto c = choose_viterbi_implementation(viterbi_config());
    l.default_cpu = c.cpu;
    l.default_cuda = c.cuda;
    return l;
}

} // namespace core
} // namespace gpurx
} // namespace gr

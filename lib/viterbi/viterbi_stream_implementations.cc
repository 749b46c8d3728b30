/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi/viterbi_stream_implementations.h"
#include "viterbi/viterbi_stream_cpu_kernel.h"
#ifdef GPURX_HAVE_CUDA
#include "viterbi/cuda/viterbi_stream_cuda_kernel.h"
#endif

namespace gr {
namespace gpurx {
namespace core {

std::vector<implementation<viterbi_stream_config>> viterbi_stream_implementations()
{
    std::vector<implementation<viterbi_stream_config>> all;
    implementation<viterbi_stream_config> cpu;
    cpu.info = { "cpu-stream",
                 backend_kind::cpu,
                 implementation_role::reference,
                 "double metrics",
                 "overlapped windows of one stream, one window per worker at a time; the reference",
                 "",
                 agreement_tolerance::exact(),
                 "" };
    cpu.unsupported = [](const viterbi_stream_config&) { return std::string(); };
    cpu.make_cpu = [](const viterbi_stream_config& c) -> std::unique_ptr<cpu_kernel> {
        return std::make_unique<viterbi_stream_cpu_kernel>(c);
    };
    all.push_back(cpu);
#ifdef GPURX_HAVE_CUDA
    // On CUDA: the register kernel (the compiled codes), else the warp
    // kernel (any code).
    for (auto& e : viterbi_stream_cuda_implementations())
        all.push_back(std::move(e));
#endif
    return all;
}

registry<viterbi_stream_config> viterbi_stream_registry()
{
    return registry<viterbi_stream_config>("viterbi-stream", viterbi_stream_implementations());
}

implementation_choice choose_viterbi_stream_implementation(const viterbi_stream_config& cfg)
{
    viterbi_stream_config c = cfg; // nothing to bind
    return viterbi_stream_registry().choose(c);
}

kernel_factories viterbi_stream_kernel_factories(const viterbi_stream_config& cfg,
                                                 const implementation_choice& choice)
{
    cfg.validate();
    return viterbi_stream_registry().factories(cfg, choice);
}

family_listing viterbi_stream_listing() { return viterbi_stream_registry().listing(); }

} // namespace core
} // namespace gpurx
} // namespace gr

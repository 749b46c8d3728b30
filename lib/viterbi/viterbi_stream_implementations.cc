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

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

std::vector<implementation<viterbi_stream_config>> viterbi_stream_implementations()
{
    std::vector<implementation<viterbi_stream_config>> all;
    implementation<viterbi_stream_config> cpu;
    cpu.info = { "cpu-stream", backend_kind::cpu,
                 "overlapped windows of one stream, one window per worker at a time; the reference", "",
                 true };
    cpu.unsupported = [](const viterbi_stream_config&) { return std::string(); };
    cpu.make_cpu = [](const viterbi_stream_config& c) -> std::unique_ptr<cpu_kernel> {
        return std::make_unique<viterbi_stream_cpu_kernel>(c);
    };
    all.push_back(cpu);
#ifdef GPURX_HAVE_CUDA
    for (auto& e : viterbi_stream_cuda_implementations())
        all.push_back(std::move(e));
#endif
    return all;
}

implementation_choice choose_viterbi_stream_implementation(const viterbi_stream_config& cfg)
{
    const auto all = viterbi_stream_implementations();
    implementation_choice c;
    c.cpu = "cpu-stream";
    std::string why_not;
    for (const char* name : { "cuda-stream-regs", "cuda-stream-warp" })
        if (const auto* gpu = find_implementation(all, name)) {
            const std::string why = gpu->unsupported(cfg);
            if (why.empty()) {
                c.cuda = name;
                break;
            }
            why_not += std::string(why_not.empty() ? "" : "; ") + name + ": " + why;
        }
    if (c.cuda.empty() && !why_not.empty())
        c.note = "no CUDA implementation can run this configuration (" + why_not + "); it decodes on the CPU";
    if (cfg.implementation != "auto") {
        const auto* e = find_implementation(all, cfg.implementation);
        if (!e) {
            std::string names;
            for (const auto& x : all)
                names += (names.empty() ? "" : ", ") + x.info.name;
            throw std::invalid_argument("implementation must be \"auto\" or one of " + names + ", got \"" +
                                        cfg.implementation + "\"");
        }
        if (e->info.backend == backend_kind::cpu) {
            c.cpu = cfg.implementation;
        } else {
            const std::string why = e->unsupported(cfg);
            if (why.empty())
                c.cuda = cfg.implementation;
            else
                c.note = cfg.implementation + " cannot run this configuration (" + why + ")" +
                         (c.cuda.empty() ? "; it decodes on the CPU" : "; using " + c.cuda);
        }
    }
    return c;
}

kernel_factories viterbi_stream_kernel_factories(const viterbi_stream_config& cfg,
                                                 const implementation_choice& choice)
{
    cfg.validate();
    return factories_of(viterbi_stream_implementations(), choice, cfg);
}

family_listing viterbi_stream_listing()
{
    return listing_of("viterbi-stream", viterbi_stream_implementations(),
                      choose_viterbi_stream_implementation(viterbi_stream_config()));
}

} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo/mimo_cpu_kernel.h"
#include "mimo/mimo_implementations.h"
#ifdef GPURX_HAVE_CUDA
#include "mimo/cuda/mimo_cuda_kernel.h"
#endif

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

namespace {

implementation<mimo_config>
cpu_entry(mimo::algorithm a, const char* description, const char* reference)
{
    implementation<mimo_config> e;
    e.info = { std::string("cpu-") + mimo::algorithm_name(a),
               backend_kind::cpu,
               description,
               reference,
               false };
    e.unsupported = [a](const mimo_config& c) {
        return mimo::unsupported_shape(a, c.nt, c.modulation);
    };
    e.make_cpu = [a](const mimo_config& c) -> std::unique_ptr<cpu_kernel> {
        mimo_config k = c;
        k.algorithm = a;
        return std::make_unique<mimo_cpu_kernel>(k);
    };
    return e;
}

const implementation<mimo_config>*
find(const std::vector<implementation<mimo_config>>& all, const std::string& name)
{
    return find_implementation(all, name);
}

// The algorithm an implementation runs: its name without the backend prefix
// and without a variant suffix ("cuda-mtt-fast" -> mtt).
mimo::algorithm algorithm_of(const std::string& name)
{
    std::string a = name.substr(name.find('-') + 1);
    const std::string fast = "-fast";
    if (a.size() > fast.size() && a.compare(a.size() - fast.size(), fast.size(), fast) == 0)
        a.resize(a.size() - fast.size());
    return mimo::parse_algorithm(a);
}

// What "auto" runs on CUDA for each algorithm: the fastest implementation.
const char* fastest_cuda(mimo::algorithm a)
{
    switch (a) {
    case mimo::algorithm::ml:
        return "cuda-ml";
    case mimo::algorithm::mtt:
        return "cuda-mtt-fast";
    case mimo::algorithm::kbest:
        return "cuda-kbest";
    case mimo::algorithm::one_pass:
        return "cuda-one-pass";
    default:
        return "cuda-lmmse";
    }
}

} // namespace

std::vector<implementation<mimo_config>> mimo_implementations()
{
    using mimo::algorithm;
    std::vector<implementation<mimo_config>> all;
    all.push_back(
        cpu_entry(algorithm::ml,
                  "exhaustive max-log over all Q^nt candidates, double precision "
                  "(nt <= 4, Q^nt <= 2^24); the reference",
                  ""));
    all.push_back(
        cpu_entry(algorithm::mtt,
                  "multi-pass trellis traversal (Wu), every edge visited; equal to "
                  "cpu-ml for nt <= 2",
                  "cpu-ml"));
    all.push_back(
        cpu_entry(algorithm::kbest,
                  "breadth-first K-best tree search, LLRs clipped; equal to cpu-ml "
                  "for K = Q^nt",
                  "cpu-ml"));
    all.push_back(
        cpu_entry(algorithm::lmmse,
                  "LMMSE equalisation, per-stream max-log demapping at the "
                  "post-equalisation SINR; equal to cpu-ml for orthogonal columns",
                  "cpu-ml"));
    all.push_back(cpu_entry(algorithm::one_pass,
                            "one-pass trellis traversal (Wu's OT): one candidate list for "
                            "all streams, LLRs clipped; equal to cpu-ml for one stream",
                            "cpu-ml"));
#ifdef GPURX_HAVE_CUDA
    for (auto& e : mimo_cuda_implementations())
        all.push_back(std::move(e));
#endif
    return all;
}

implementation_choice choose_mimo_implementation(mimo_config& cfg)
{
    const auto all = mimo_implementations();
    implementation_choice c;
    const std::string want = cfg.implementation;
    const implementation<mimo_config>* named = nullptr;
    if (want != "auto") {
        named = find(all, want);
        if (!named) {
            std::string names;
            for (const auto& x : all)
                names += (names.empty() ? "" : ", ") + x.info.name;
            throw std::invalid_argument("implementation must be \"auto\" or one of " +
                                        names + ", got \"" + want + "\"");
        }
        // Naming an implementation fixes the algorithm, whichever backend runs.
        mimo_config as_named = cfg;
        as_named.algorithm = algorithm_of(want);
        const std::string why = named->unsupported(as_named);
        if (why.empty())
            cfg.algorithm = as_named.algorithm;
        else {
            c.note = "implementation \"" + want + "\" cannot run this configuration (" +
                     why + "); using the automatic choice instead";
            named = nullptr;
        }
    }
    c.cpu = std::string("cpu-") + mimo::algorithm_name(cfg.algorithm);
    if (named && named->info.backend == backend_kind::cuda) {
        c.cuda = want;
        return c;
    }
    // The CUDA side: the fastest implementation of the algorithm, if the build
    // has it and it can run the configuration; else the CPU runs, with a note.
    if (const auto* gpu = find(all, fastest_cuda(cfg.algorithm))) {
        const std::string why = gpu->unsupported(cfg);
        if (why.empty())
            c.cuda = gpu->info.name;
        else if (c.note.empty())
            c.note = gpu->info.name + " cannot run this configuration (" + why +
                     "); it detects on the CPU";
    }
    return c;
}

kernel_factories mimo_kernel_factories(const mimo_config& cfg,
                                       const implementation_choice& choice)
{
    cfg.validate();
    return factories_of(mimo_implementations(), choice, cfg);
}

family_listing mimo_listing()
{
    mimo_config cfg;
    return listing_of("mimo", mimo_implementations(), choose_mimo_implementation(cfg));
}

} // namespace core
} // namespace gpurx
} // namespace gr

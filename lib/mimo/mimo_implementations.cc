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

namespace gr {
namespace gpurx {
namespace core {

namespace {

implementation<mimo_config> cpu_entry(mimo::algorithm a,
                                      implementation_role role,
                                      const char* description,
                                      const char* reference)
{
    implementation<mimo_config> e;
    e.info = { std::string("cpu-") + mimo::algorithm_name(a),
               backend_kind::cpu,
               role,
               "double",
               description,
               reference,
               agreement_tolerance::llrs_within(
                   1e-4, 1e-3, "double precision; equal to max-log ML only where the algorithm is exact"),
               "" };
    e.bind = [a](mimo_config& c) { c.algorithm = a; };
    e.unsupported = [a](const mimo_config& c) { return mimo_runs_algorithm(a, c); };
    e.make_cpu = [](const mimo_config& c) -> std::unique_ptr<cpu_kernel> {
        return std::make_unique<mimo_cpu_kernel>(c);
    };
    return e;
}

} // namespace

std::string mimo_runs_algorithm(mimo::algorithm a, const mimo_config& c)
{
    if (c.algorithm != a)
        return std::string("it runs ") + mimo::algorithm_name(a) + " and the configuration asks for " +
               mimo::algorithm_name(c.algorithm);
    return mimo::unsupported_shape(a, c.nt, c.modulation);
}

std::vector<implementation<mimo_config>> mimo_implementations()
{
    using mimo::algorithm;
    using role = implementation_role;
    std::vector<implementation<mimo_config>> all;
    all.push_back(cpu_entry(algorithm::ml, role::reference,
                            "exhaustive max-log over all Q^nt candidates, double precision "
                            "(nt <= 4, Q^nt <= 2^24); the reference",
                            ""));
    all.push_back(cpu_entry(algorithm::mtt, role::production,
                            "multi-pass trellis traversal (Wu), every edge visited; equal to "
                            "cpu-ml for nt <= 2",
                            "cpu-ml"));
    all.push_back(cpu_entry(algorithm::kbest, role::production,
                            "breadth-first K-best tree search, LLRs clipped; equal to cpu-ml "
                            "for K = Q^nt",
                            "cpu-ml"));
    all.push_back(cpu_entry(algorithm::lmmse, role::production,
                            "LMMSE equalisation, per-stream max-log demapping at the "
                            "post-equalisation SINR; equal to cpu-ml for orthogonal columns",
                            "cpu-ml"));
    all.push_back(cpu_entry(algorithm::one_pass, role::production,
                            "one-pass trellis traversal (Wu's OT): one candidate list for "
                            "all streams, LLRs clipped; equal to cpu-ml for one stream",
                            "cpu-ml"));
#ifdef GPURX_HAVE_CUDA
    for (auto& e : mimo_cuda_implementations())
        all.push_back(std::move(e));
#endif
    return all;
}

registry<mimo_config> mimo_registry() { return registry<mimo_config>("mimo", mimo_implementations()); }

implementation_choice choose_mimo_implementation(mimo_config& cfg) { return mimo_registry().choose(cfg); }

kernel_factories mimo_kernel_factories(const mimo_config& cfg,
                                       const implementation_choice& choice)
{
    cfg.validate();
    return mimo_registry().factories(cfg, choice);
}

family_listing mimo_listing() { return mimo_registry().listing(); }

} // namespace core
} // namespace gpurx
} // namespace gr

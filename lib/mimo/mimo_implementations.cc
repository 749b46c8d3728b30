/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo/mimo_cpu_kernel.h"
#include "mimo/mimo_implementations.h"

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
    for (const auto& e : all)
        if (e.info.name == name)
            return &e;
    return nullptr;
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
    return all;
}

implementation_choice choose_mimo_implementation(mimo_config& cfg)
{
    const auto all = mimo_implementations();
    implementation_choice c;
    const std::string want = cfg.implementation;
    if (want != "auto") {
        const auto* e = find(all, want);
        if (!e) {
            std::string names;
            for (const auto& x : all)
                names += (names.empty() ? "" : ", ") + x.info.name;
            throw std::invalid_argument("implementation must be \"auto\" or one of " +
                                        names + ", got \"" + want + "\"");
        }
        const std::string why = e->unsupported(cfg);
        if (why.empty())
            cfg.algorithm = mimo::parse_algorithm(want.substr(4)); // after "cpu-"
        else
            c.note = "implementation \"" + want + "\" cannot run this configuration (" +
                     why + "); using the automatic choice instead";
    }
    c.cpu = std::string("cpu-") + mimo::algorithm_name(cfg.algorithm);
    return c;
}

kernel_factories mimo_kernel_factories(const mimo_config& cfg,
                                       const implementation_choice& choice)
{
    const auto all = mimo_implementations();
    const auto* cpu = find(all, choice.cpu);
    if (!cpu)
        throw std::invalid_argument("no CPU implementation \"" + choice.cpu + "\"");
    cfg.validate();
    kernel_factories k;
    auto make_cpu = cpu->make_cpu;
    k.cpu = [make_cpu, cfg] { return make_cpu(cfg); };
    return k;
}

family_listing mimo_listing()
{
    mimo_config cfg;
    return listing_of("mimo", mimo_implementations(), choose_mimo_implementation(cfg));
}

} // namespace core
} // namespace gpurx
} // namespace gr

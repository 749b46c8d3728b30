/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Implementations of a family, by name, as VOLK keeps kernels: each family
// has a registry of what it can run on each backend, one of them the plain
// reference the others are tested against (tests/test_agreement.cc).
#ifndef INCLUDED_GPURX_PIPELINE_IMPLEMENTATION_H
#define INCLUDED_GPURX_PIPELINE_IMPLEMENTATION_H

#include "backend.h"
#include "batch_kernel.h"
#include "batch_pipeline.h"

#include <stdexcept>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

struct implementation_info {
    std::string name;        //!< what it is: backend, arithmetic, layout ("cuda-fixed16-dpx")
    backend_kind backend;
    std::string description; //!< one line
    std::string reference;   //!< the implementation it is checked against ("" for a reference)
    bool bit_exact;          //!< equal output to its reference (else: the family's tolerance)
};

/*!
 * One entry of a family's registry. \p Config is the family's static
 * configuration; unsupported() says why an entry cannot run a configuration
 * ("" when it can); make_cpu/make_cuda build the kernel for its backend.
 */
template <typename Config>
struct implementation {
    implementation_info info;
    std::function<std::string(const Config&)> unsupported;
    std::function<std::unique_ptr<cpu_kernel>(const Config&)> make_cpu;
    std::function<std::unique_ptr<cuda_kernel>(const Config&, int device)> make_cuda;
};

//! What a family's selection decided for one configuration: the CPU and CUDA
//! implementations, and a note for the log when a request was not honoured
//! as asked (a fallback); empty otherwise.
struct implementation_choice {
    std::string cpu;
    std::string cuda; //!< "" when the family has none (or the build has no CUDA)
    std::string note;
};

//! A family's entry in the module-wide listing (gpurx-info, the agreement test).
struct family_listing {
    std::string family;
    std::vector<implementation_info> implementations;
    std::string default_cpu, default_cuda; //!< what "auto" picks for the default configuration
};

//! The entry named \p name, or nullptr.
template <typename Config>
const implementation<Config>* find_implementation(const std::vector<implementation<Config>>& all,
                                                  const std::string& name)
{
    for (const auto& e : all)
        if (e.info.name == name)
            return &e;
    return nullptr;
}

//! Kernel factories for the implementations \p choice names, bound to \p cfg.
template <typename Config>
kernel_factories factories_of(const std::vector<implementation<Config>>& all,
                              const implementation_choice& choice,
                              const Config& cfg)
{
    const auto* cpu = find_implementation(all, choice.cpu);
    if (!cpu || !cpu->make_cpu)
        throw std::invalid_argument("no CPU implementation \"" + choice.cpu + "\"");
    kernel_factories k;
    k.cpu = [make = cpu->make_cpu, cfg] { return make(cfg); };
    if (const auto* cuda = choice.cuda.empty() ? nullptr : find_implementation(all, choice.cuda))
        k.cuda = [make = cuda->make_cuda, cfg](int device) { return make(cfg, device); };
    return k;
}

//! The listing of a family's registry, with what "auto" picks by default.
/*!
 * The choice of a family whose implementations are ranked: the first entry
 * of \p cpu_order and of \p cuda_order that can run \p cfg (an entry the
 * build lacks is passed over). When no CUDA entry can, the note says why,
 * entry by entry, and the block decodes on the CPU. \p requested names one
 * implementation ("auto": none); it is taken when it can run \p cfg, else
 * the note says why and the ranked choice stays. Throws
 * std::invalid_argument listing the names when \p requested is unknown.
 */
template <typename Config>
implementation_choice choose_ranked(const std::vector<implementation<Config>>& all,
                                    const Config& cfg,
                                    const std::vector<std::string>& cpu_order,
                                    const std::vector<std::string>& cuda_order,
                                    const std::string& requested)
{
    implementation_choice c;
    for (const auto& name : cpu_order)
        if (const auto* e = find_implementation(all, name))
            if (e->unsupported(cfg).empty()) {
                c.cpu = name;
                break;
            }
    std::string why_not;
    for (const auto& name : cuda_order)
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
    if (requested == "auto")
        return c;
    const auto* e = find_implementation(all, requested);
    if (!e) {
        std::string names;
        for (const auto& x : all)
            names += (names.empty() ? "" : ", ") + x.info.name;
        throw std::invalid_argument("implementation must be \"auto\" or one of " + names + ", got \"" +
                                    requested + "\"");
    }
    const std::string why = e->unsupported(cfg);
    if (e->info.backend == backend_kind::cpu) {
        if (why.empty())
            c.cpu = requested;
        else
            c.note = requested + " cannot run this configuration (" + why + "); using " + c.cpu;
    } else if (why.empty()) {
        c.cuda = requested;
    } else {
        c.note = requested + " cannot run this configuration (" + why + ")" +
                 (c.cuda.empty() ? "; it decodes on the CPU" : "; using " + c.cuda);
    }
    return c;
}

template <typename Config>
family_listing listing_of(const std::string& family,
                          const std::vector<implementation<Config>>& implementations,
                          const implementation_choice& defaults)
{
    family_listing l{ family, {}, defaults.cpu, defaults.cuda };
    for (const auto& e : implementations)
        l.implementations.push_back(e.info);
    return l;
}

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

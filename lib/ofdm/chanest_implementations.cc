/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ofdm/chanest_implementations.h"
#include "ofdm/chanest_cpu_kernel.h"
#ifdef GPURX_HAVE_CUDA
#include "ofdm/cuda/chanest_cuda_kernel.h"
#endif

#include <memory>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

std::vector<implementation<ofdm::chanest_config>> chanest_implementations()
{
    implementation<ofdm::chanest_config> cpu;
    cpu.info = { "cpu-ls",
                 backend_kind::cpu,
                 implementation_role::reference,
                 "double",
                 "least squares and residual per subcarrier in double (estimate_mimo_channel), frames "
                 "over the workers; the reference",
                 "",
                 agreement_tolerance::exact(),
                 "" };
    cpu.unsupported = [](const ofdm::chanest_config&) { return std::string(); };
    cpu.make_cpu = [](const ofdm::chanest_config& c) -> std::unique_ptr<cpu_kernel> {
        return std::make_unique<ofdm::chanest_cpu_kernel>(c);
    };
    std::vector<implementation<ofdm::chanest_config>> all{ cpu };
#ifdef GPURX_HAVE_CUDA
    all.push_back(chanest_cuda_implementation());
#endif
    return all;
}

registry<ofdm::chanest_config> chanest_registry()
{
    return registry<ofdm::chanest_config>("ofdm-chanest", chanest_implementations());
}

implementation_choice choose_chanest_implementation(ofdm::chanest_config& cfg)
{
    return chanest_registry().choose(cfg);
}

kernel_factories chanest_kernel_factories(const ofdm::chanest_config& cfg, const implementation_choice& choice)
{
    cfg.validate();
    return chanest_registry().factories(cfg, choice);
}

family_listing chanest_listing() { return chanest_registry().listing(); }

} // namespace core
} // namespace gpurx
} // namespace gr

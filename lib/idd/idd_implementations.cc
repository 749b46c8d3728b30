/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "idd/idd_implementations.h"
#include "idd/idd_cpu_kernel.h"
#include "mimo/mimo_implementations.h"
#include "sch/sch_implementations.h"

namespace gr {
namespace gpurx {
namespace core {

idd_parts idd_part_factories(const mimo_idd_config& cfg)
{
    idd_parts p;
    mimo_config det = cfg.detector_config();
    p.detector_choice = choose_mimo_implementation(det);
    p.detector = mimo_kernel_factories(det, p.detector_choice);
    sch_config dec = cfg.decoder_config();
    const auto reg = sch_registry();
    p.decoder_choice = reg.choose(dec);
    p.decoder = reg.factories(dec, p.decoder_choice);
    return p;
}

namespace {

std::string invalid(const mimo_idd_config& c)
{
    try {
        c.validate();
        idd_part_factories(c);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

} // namespace

std::vector<implementation<mimo_idd_config>> idd_implementations()
{
    std::vector<implementation<mimo_idd_config>> v;
    implementation<mimo_idd_config> cpu;
    cpu.info = { "cpu-idd",
                 backend_kind::cpu,
                 implementation_role::reference,
                 "the detector's and the decoder's",
                 "iterative detection and decoding: the MIMO detector's and the transport "
                 "decoder's CPU kernels, P passes per TB, a TB stopping at its first CRC pass",
                 "",
                 agreement_tolerance::exact(),
                 "" };
    cpu.unsupported = invalid;
    cpu.make_cpu = [](const mimo_idd_config& c) { return std::make_unique<idd_cpu_kernel>(c); };
    v.push_back(cpu);
#ifdef GPURX_HAVE_CUDA
    implementation<mimo_idd_config> cuda;
    cuda.info = { "cuda-idd",
                  backend_kind::cuda,
                  implementation_role::production,
                  "the detector's and the decoder's",
                  "the same passes on one GPU: the detector's and the transport decoder's CUDA "
                  "kernels on one stream, the priors copied on the device, no host round trip "
                  "between passes",
                  "cpu-idd",
                  agreement_tolerance::decisions_within(
                      0.02, "the CUDA detectors compute in fp32, their CPU twins in double; a TB "
                            "near its decoding threshold may pass a pass earlier or later"),
                  "cpu-idd" };
    cuda.unsupported = [](const mimo_idd_config& c) -> std::string {
        std::string why = invalid(c);
        if (!why.empty())
            return why;
        const auto parts = idd_part_factories(c);
        if (parts.detector_choice.cuda.empty())
            return "the detector has no CUDA implementation for this configuration (" +
                   parts.detector_choice.note + ")";
        if (parts.decoder_choice.cuda.empty())
            return "the decoder has no CUDA implementation for this configuration (" +
                   parts.decoder_choice.note + ")";
        return "";
    };
    cuda.make_cuda = [](const mimo_idd_config& c, int device) { return make_idd_cuda_kernel(c, device); };
    v.push_back(cuda);
#endif
    return v;
}

registry<mimo_idd_config> idd_registry() { return registry<mimo_idd_config>("mimo-idd", idd_implementations()); }

implementation_choice choose_idd_implementation(mimo_idd_config& cfg) { return idd_registry().choose(cfg); }

kernel_factories idd_kernel_factories(const mimo_idd_config& cfg, const implementation_choice& choice)
{
    return idd_registry().factories(cfg, choice);
}

family_listing idd_listing() { return idd_registry().listing(); }

} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "sch/sch_implementations.h"
#include "sch/sch_cpu_kernel.h"
#include "turbo/turbo_implementations.h"

namespace gr {
namespace gpurx {
namespace core {

namespace {

std::string turbo_unsupported(const sch_config& c)
{
    try {
        c.validate();
        turbo_config t = c.turbo;
        choose_turbo_implementation(t);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

} // namespace

std::vector<implementation<sch_config>> sch_implementations()
{
    std::vector<implementation<sch_config>> v;
    implementation<sch_config> cpu;
    cpu.info = { "cpu-sch",
                 backend_kind::cpu,
                 implementation_role::production,
                 "int16 soft buffers, the turbo decoder's arithmetic",
                 "DL-SCH/UL-SCH transport blocks: descrambling, deinterleaving, rate "
                 "dematching, HARQ combining, turbo decoding, CRCs, on the worker pool",
                 "",
                 agreement_tolerance::exact(),
                 "" };
    cpu.unsupported = turbo_unsupported;
    cpu.make_cpu = [](const sch_config& c) { return std::make_unique<sch_cpu_kernel>(c); };
    v.push_back(cpu);
#ifdef GPURX_HAVE_CUDA
    implementation<sch_config> cuda;
    cuda.info = { "cuda-sch",
                  backend_kind::cuda,
                  implementation_role::production,
                  "int16 soft buffers, the turbo decoder's arithmetic",
                  "the same steps batched on one GPU, soft buffers in device memory",
                  "cpu-sch",
                  agreement_tolerance::decisions_within(
                      0.002, "the CPU's default turbo kernel (cpu-window16-simd) chooses its own "
                             "windows; with the turbo implementation named cuda-fixed16-dpx the CPU "
                             "runs its twin cpu-fixed16-simd and the two agree bit for bit "
                             "(test_sch)"),
                  "cpu-sch" };
    cuda.unsupported = turbo_unsupported;
    cuda.make_cuda = [](const sch_config& c, int device) { return make_sch_cuda_kernel(c, device); };
    v.push_back(cuda);
#endif
    return v;
}

registry<sch_config> sch_registry() { return registry<sch_config>("lte-sch", sch_implementations()); }

family_listing sch_listing() { return sch_registry().listing(); }

} // namespace core
} // namespace gpurx
} // namespace gr

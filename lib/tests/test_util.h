/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_TEST_UTIL_H
#define INCLUDED_GPURX_TEST_UTIL_H

#include "pipeline/backend.h"
#include "cuda/cuda_probe.h"
#include <string>

namespace gr {
namespace gpurx {
namespace test {

//! "" when CUDA device 0 is usable, else why not.
inline std::string cuda_unusable_reason()
{
    const auto& p = core::probe_cuda();
    if (!p.compiled_in)
        return "built without CUDA";
    if (!p.problem.empty())
        return p.problem;
    if (p.devices.empty())
        return "no CUDA device found";
    if (!p.devices[0].usable)
        return p.devices[0].problem;
    return "";
}

inline core::backend_choice cpu_backend() { return { core::backend_kind::cpu, {}, "test" }; }
inline core::backend_choice cuda_backend(std::vector<int> devices = { 0 })
{
    return { core::backend_kind::cuda, std::move(devices), "test" };
}

} // namespace test
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "backend.h"
#include "cuda_probe.h"

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

const char* backend_name(backend_kind kind)
{
    return kind == backend_kind::cuda ? "cuda" : "cpu";
}

namespace {
// Why device `device` cannot be used, or "" when it can.
std::string cuda_problem(int device)
{
    const auto& p = probe_cuda();
    if (!p.compiled_in)
        return "gr-gpurx was built without CUDA (ENABLE_CUDA=OFF or no nvcc found)";
    if (!p.problem.empty())
        return p.problem;
    if (device >= static_cast<int>(p.devices.size()))
        return "CUDA device " + std::to_string(device) + " does not exist (" +
               std::to_string(p.devices.size()) + " found)";
    const auto& d = p.devices[device];
    if (!d.usable)
        return "CUDA device " + std::to_string(device) + " (" + d.name +
               ") is not usable: " + d.problem;
    return "";
}
} // namespace

backend_choice select_backend(const std::string& request, int device)
{
    if (device < 0)
        throw std::invalid_argument("device must be >= 0, got " + std::to_string(device));
    if (request == "cpu")
        return { backend_kind::cpu, -1, "backend=cpu requested: using the CPU backend" };
    if (request != "cuda" && request != "auto")
        throw std::invalid_argument("backend must be \"auto\", \"cuda\" or \"cpu\", got \"" +
                                    request + "\"");
    const std::string problem = cuda_problem(device);
    if (problem.empty()) {
        const auto& d = probe_cuda().devices[device];
        return { backend_kind::cuda,
                 device,
                 "backend=" + request + ": using CUDA device " + std::to_string(device) +
                     " (" + d.name + ", sm_" + std::to_string(d.cc_major) +
                     std::to_string(d.cc_minor) + ")" };
    }
    if (request == "cuda")
        throw std::runtime_error("backend=\"cuda\" cannot be used: " + problem);
    return { backend_kind::cpu,
             -1,
             "backend=auto: no usable CUDA device (" + problem +
                 "); falling back to the CPU backend" };
}

} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "pipeline/backend.h"
#include "cuda/cuda_probe.h"

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

const char* backend_name(backend_kind kind)
{
    return kind == backend_kind::cuda ? "cuda" : "cpu";
}

device_request device_request::parse(const std::string& devices)
{
    device_request r;
    if (devices == "all") {
        r.all = true;
        return r;
    }
    auto bad = [&](const std::string& why) {
        return std::invalid_argument("devices must be \"all\", a CUDA device ordinal or a "
                                     "comma-separated list of them (\"0,1\"), got \"" +
                                     devices + "\"" + (why.empty() ? "" : ": " + why));
    };
    if (devices.find_first_not_of(' ') == std::string::npos)
        throw bad("no device named (use \"all\" for every GPU)");
    size_t pos = 0;
    while (pos <= devices.size()) {
        const size_t comma = std::min(devices.find(',', pos), devices.size());
        std::string item = devices.substr(pos, comma - pos);
        item.erase(0, item.find_first_not_of(' '));
        item.erase(item.find_last_not_of(' ') + 1);
        if (item.empty() || item.size() > 4 ||
            item.find_first_not_of("0123456789") != std::string::npos)
            throw bad(item.empty() ? "empty entry" : "\"" + item + "\" is not an ordinal >= 0");
        const int d = std::stoi(item);
        if (std::find(r.list.begin(), r.list.end(), d) != r.list.end())
            throw bad("device " + item + " is listed twice");
        r.list.push_back(d);
        pos = comma + 1;
    }
    return r;
}

namespace {
// Why device `device` cannot be used, or "" when it can.
std::string device_problem(const cuda_probe_result& p, int device)
{
    if (device >= static_cast<int>(p.devices.size()))
        return "CUDA device " + std::to_string(device) + " does not exist (" +
               std::to_string(p.devices.size()) + " found)";
    const auto& d = p.devices[device];
    if (!d.usable)
        return "CUDA device " + std::to_string(device) + " (" + d.name +
               ") is not usable: " + d.problem;
    return "";
}

std::string describe(const cuda_probe_result& p, const std::vector<int>& devices)
{
    std::string s = devices.size() > 1 ? "CUDA devices " : "CUDA device ";
    for (size_t i = 0; i < devices.size(); i++) {
        const auto& d = p.devices[devices[i]];
        s += (i ? ", " : "") + std::to_string(devices[i]) + " (" + d.name + ", sm_" +
             std::to_string(d.cc_major) + std::to_string(d.cc_minor) + ")";
    }
    return s;
}
} // namespace

backend_choice select_backend(const std::string& request, const std::string& devices)
{
    // The CPU backend uses no GPU: whatever devices says is not its concern.
    if (request == "cpu")
        return { backend_kind::cpu, {}, "backend=cpu requested: using the CPU backend" };
    const device_request want = device_request::parse(devices);
    if (request != "cuda" && request != "auto")
        throw std::invalid_argument("backend must be \"auto\", \"cuda\" or \"cpu\", got \"" +
                                    request + "\"");
    const auto& p = probe_cuda();
    std::string problem;
    if (!p.compiled_in)
        problem = "gr-gpurx was built without CUDA (ENABLE_CUDA=OFF or no nvcc found)";
    else if (!p.problem.empty())
        problem = p.problem;
    else if (p.devices.empty())
        problem = "no CUDA device found";

    std::vector<int> chosen;
    if (problem.empty()) {
        if (want.all) {
            for (const auto& d : p.devices)
                if (d.usable)
                    chosen.push_back(d.ordinal);
            if (chosen.empty())
                problem = device_problem(p, 0);
        } else {
            for (int d : want.list) {
                if (d >= static_cast<int>(p.devices.size()))
                    throw std::invalid_argument(
                        "devices=\"" + devices + "\": CUDA device " + std::to_string(d) +
                        " does not exist (" + std::to_string(p.devices.size()) + " found)");
                const std::string why = device_problem(p, d);
                if (!why.empty()) {
                    problem = why;
                    chosen.clear();
                    break;
                }
                chosen.push_back(d);
            }
        }
    }
    if (problem.empty())
        return { backend_kind::cuda, chosen, "backend=" + request + ": using " + describe(p, chosen) };
    if (request == "cuda")
        throw std::runtime_error("backend=\"cuda\" cannot be used: " + problem);
    // A GPU is there (or a driver older than this build's runtime) but
    // this build cannot use it: a warning, where a machine without any is
    // a valid configuration.
    const bool gpu_unusable = p.compiled_in && (!p.devices.empty() ||
                                                (p.driver_version > 0 && p.driver_version < p.runtime_version));
    return { backend_kind::cpu,
             {},
             "backend=auto: no usable CUDA device (" + problem +
                 "); falling back to the CPU backend",
             gpu_unusable };
}

} // namespace core
} // namespace gpurx
} // namespace gr

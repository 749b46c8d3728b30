/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cuda/cuda_arch.h"

#include <cctype>
#include <vector>

#ifndef GPURX_CUDA_ARCHS_STRING
#define GPURX_CUDA_ARCHS_STRING ""
#endif

namespace gr {
namespace gpurx {
namespace core {

const char* cuda_build_architectures() { return GPURX_CUDA_ARCHS_STRING; }

cuda_arch_support cuda_arch_supports(const std::string& archs, int major, int minor)
{
    const int dev = major * 10 + minor;
    cuda_arch_support best;
    int best_real = -1, best_ptx = -1;
    size_t pos = 0;
    while (pos <= archs.size()) {
        size_t end = archs.find_first_of(";,", pos);
        if (end == std::string::npos)
            end = archs.size();
        std::string item = archs.substr(pos, end - pos);
        pos = end + 1;
        while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back())))
            item.pop_back();
        while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front())))
            item.erase(0, 1);
        if (item.empty())
            continue;
        if (item == "all" || item == "all-major" || item == "native") {
            best.runs = best.native = true;
            best.how = "\"" + item + "\" in the architecture list";
            return best;
        }
        bool real = true, virt = true;
        const size_t dash = item.find('-');
        if (dash != std::string::npos) {
            const std::string kind = item.substr(dash + 1);
            real = kind == "real";
            virt = kind == "virtual";
            item.erase(dash);
        }
        char suffix = 0;
        if (!item.empty() && (item.back() == 'a' || item.back() == 'f')) {
            suffix = item.back();
            item.pop_back();
        }
        if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos)
            continue;
        const int cc = std::stoi(item);
        if (real && cc / 10 == major && cc <= dev && (suffix != 'a' || cc == dev))
            best_real = cc > best_real ? cc : best_real;
        if (virt && suffix == 0 && cc <= dev)
            best_ptx = cc > best_ptx ? cc : best_ptx;
    }
    if (best_real >= 0) {
        best.runs = best.native = true;
        best.how = "sm_" + std::to_string(best_real) + " machine code";
    } else if (best_ptx >= 0) {
        best.runs = true;
        best.how = "PTX compute_" + std::to_string(best_ptx) +
                   ", JIT-compiled by the driver at first launch (slow first start; add " +
                   std::to_string(dev) + "-real to CMAKE_CUDA_ARCHITECTURES for machine code)";
    } else {
        best.how = "no kernel image for compute capability " + std::to_string(major) + "." +
                   std::to_string(minor) + " in this build (architectures: " +
                   (archs.empty() ? std::string("none") : archs) + "); rebuild with " +
                   std::to_string(dev) + " in CMAKE_CUDA_ARCHITECTURES";
    }
    return best;
}

} // namespace core
} // namespace gpurx
} // namespace gr

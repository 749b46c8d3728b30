/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What the CUDA runtime can tell about this machine. Implemented in lib/cuda
// when the module is built with CUDA, and by a stub reporting "built without
// CUDA" otherwise, so callers never need #ifdefs.
#ifndef INCLUDED_GPURX_CUDA_CUDA_PROBE_H
#define INCLUDED_GPURX_CUDA_CUDA_PROBE_H

#include <cstddef>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

struct cuda_device_info {
    int ordinal = -1;
    std::string name;
    int cc_major = 0, cc_minor = 0;
    size_t total_mem = 0;
    int multiprocessors = 0;
    bool usable = false; //!< a probe kernel ran and produced the expected result
    std::string problem; //!< why not usable (empty when usable)
};

struct cuda_probe_result {
    bool compiled_in = false; //!< module built with CUDA support
    int driver_version = 0;   //!< e.g. 13000 for CUDA 13.0; 0 = no driver
    int runtime_version = 0;  //!< version of the CUDA runtime we linked
    std::string problem;      //!< set when no device could be enumerated at all
    std::vector<cuda_device_info> devices;
};

//! Enumerate devices and run a tiny probe kernel on each. Cached after the first call.
const cuda_probe_result& probe_cuda();

//! Format a CUDA version integer (13000) as "13.0".
inline std::string cuda_version_string(int v)
{
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

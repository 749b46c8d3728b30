/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Device discovery. A device counts as usable only when a probe kernel from
// this very library ran on it and wrote the expected values: that catches a
// driver older than the toolkit, a missing kernel image for the device's
// architecture, and any other case where launches would silently do nothing.
#include "cuda/cuda_probe.h"
#include "cuda/cuda_check.h"
#include "cuda/cuda_arch.h"

#include <cuda_runtime.h>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

namespace {

__global__ void probe_kernel(unsigned* out, unsigned seed)
{
    out[threadIdx.x] = seed ^ (threadIdx.x * 2654435761u);
}

std::string err_text(cudaError_t e)
{
    return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

// Runs the probe kernel on the current device (compute capability
// major.minor); "" on success.
std::string run_probe(int major, int minor)
{
    constexpr int n = 64;
    const unsigned seed = 0x9e3779b9u;
    unsigned* d = nullptr;
    cudaError_t e = cudaMalloc(&d, n * sizeof(unsigned));
    if (e != cudaSuccess)
        return "cudaMalloc failed: " + err_text(e);
    unsigned h[n] = {};
    probe_kernel<<<1, n>>>(d, seed);
    e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    cudaFree(d);
    if (e == cudaErrorNoKernelImageForDevice)
        return cuda_arch_supports(cuda_build_architectures(), major, minor).how + " (" +
               err_text(e) + ")";
    if (e != cudaSuccess)
        return "probe kernel failed: " + err_text(e);
    for (int i = 0; i < n; i++)
        if (h[i] != (seed ^ (unsigned(i) * 2654435761u)))
            return "probe kernel produced wrong results";
    return "";
}

cuda_probe_result do_probe()
{
    cuda_probe_result p;
    p.compiled_in = true;
    cudaRuntimeGetVersion(&p.runtime_version);
    cudaDriverGetVersion(&p.driver_version);
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (p.driver_version == 0) {
        p.problem = "no CUDA driver found (no NVIDIA GPU or driver on this machine)";
        cudaGetLastError();
        return p;
    }
    if (e == cudaErrorInsufficientDriver || (p.driver_version > 0 && p.driver_version < p.runtime_version)) {
        p.problem = "the CUDA driver (" + cuda_version_string(p.driver_version) +
                    ") is older than the CUDA runtime gr-gpurx was built with (" +
                    cuda_version_string(p.runtime_version) + ")";
        cudaGetLastError();
        return p;
    }
    if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0)) {
        p.problem = "no CUDA device found";
        cudaGetLastError();
        return p;
    }
    if (e != cudaSuccess) {
        p.problem = "cudaGetDeviceCount failed: " + err_text(e);
        cudaGetLastError();
        return p;
    }
    for (int i = 0; i < count; i++) {
        cuda_device_info d;
        d.ordinal = i;
        cudaDeviceProp prop{};
        e = cudaGetDeviceProperties(&prop, i);
        if (e != cudaSuccess) {
            d.problem = "cudaGetDeviceProperties failed: " + err_text(e);
            p.devices.push_back(d);
            continue;
        }
        d.name = prop.name;
        d.cc_major = prop.major;
        d.cc_minor = prop.minor;
        d.total_mem = prop.totalGlobalMem;
        d.multiprocessors = prop.multiProcessorCount;
        e = cudaSetDevice(i);
        d.problem = e == cudaSuccess ? run_probe(prop.major, prop.minor) : "cudaSetDevice failed: " + err_text(e);
        d.usable = d.problem.empty();
        cudaGetLastError(); // the probe's error must not leak into later calls
        p.devices.push_back(d);
    }
    return p;
}

} // namespace

const cuda_probe_result& probe_cuda()
{
    static const cuda_probe_result r = do_probe();
    return r;
}

} // namespace core
} // namespace gpurx
} // namespace gr

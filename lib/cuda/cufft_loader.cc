/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cuda/cufft_loader.h"
#include "cuda/cuda_check.h"

#include <dlfcn.h>
#include <mutex>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

namespace {

template <typename F>
void bind(void* lib, const char* name, F& f, std::string& missing)
{
    f = reinterpret_cast<F>(dlsym(lib, name));
    if (!f)
        missing += std::string(missing.empty() ? "" : ", ") + name;
}

} // namespace

const cufft_api& cufft()
{
    static std::once_flag once;
    static cufft_api api{};
    static std::string error;
    std::call_once(once, [] {
        const char* names[] = { "libcufft.so.12", "libcufft.so.13", "libcufft.so" };
        void* lib = nullptr;
        for (const char* n : names)
            if ((lib = dlopen(n, RTLD_NOW | RTLD_LOCAL)) != nullptr)
                break;
        if (!lib) {
            error = "cuFFT not found (tried libcufft.so.12, .13 and libcufft.so on the library path): the "
                    "LTE receiver's CUDA front end needs it; install the CUDA toolkit's cuFFT or use the CPU "
                    "front end";
            return;
        }
        std::string missing;
        bind(lib, "cufftPlanMany", api.plan_many, missing);
        bind(lib, "cufftSetStream", api.set_stream, missing);
        bind(lib, "cufftExecC2C", api.exec_c2c, missing);
        bind(lib, "cufftDestroy", api.destroy, missing);
        if (!missing.empty())
            error = "cuFFT was loaded but lacks " + missing;
    });
    if (!error.empty())
        throw cuda_error(cudaErrorSharedObjectInitFailed, error);
    return api;
}

} // namespace core
} // namespace gpurx
} // namespace gr

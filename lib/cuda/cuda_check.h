/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Every CUDA runtime call in gr-gpurx goes through GPURX_CUDA_CHECK: a failure
// becomes a gr::gpurx::core::cuda_error that says which call, where, and why.
#ifndef INCLUDED_GPURX_CUDA_CHECK_H
#define INCLUDED_GPURX_CUDA_CHECK_H

#include <cuda_runtime_api.h>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

class cuda_error : public std::runtime_error
{
public:
    cuda_error(cudaError_t code, const std::string& what)
        : std::runtime_error(what), d_code(code)
    {
    }
    cudaError_t code() const { return d_code; }

private:
    cudaError_t d_code;
};

[[noreturn]] void throw_cuda_error(cudaError_t err,
                                   const char* call,
                                   const char* file,
                                   int line,
                                   const std::string& context);

inline void check_cuda(cudaError_t err,
                       const char* call,
                       const char* file,
                       int line,
                       const std::string& context = std::string())
{
    if (err != cudaSuccess)
        throw_cuda_error(err, call, file, line, context);
}

} // namespace core
} // namespace gpurx
} // namespace gr

#define GPURX_CUDA_CHECK(call) ::gr::gpurx::core::check_cuda((call), #call, __FILE__, __LINE__)
#define GPURX_CUDA_CHECK_CTX(call, ctx) \
    ::gr::gpurx::core::check_cuda((call), #call, __FILE__, __LINE__, (ctx))
//! After a kernel launch: launch-configuration errors and missing kernel images.
#define GPURX_CUDA_CHECK_LAUNCH(what) \
    ::gr::gpurx::core::check_cuda(cudaGetLastError(), "launch of " what, __FILE__, __LINE__)

#endif

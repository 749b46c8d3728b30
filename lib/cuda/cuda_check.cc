/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cuda/cuda_check.h"

#include <cstdlib>
#include <cstring>

namespace gr {
namespace gpurx {
namespace core {

void throw_cuda_error(cudaError_t err,
                      const char* call,
                      const char* file,
                      int line,
                      const std::string& context)
{
    std::string msg = std::string("CUDA error ") + cudaGetErrorName(err) + " (" +
                      cudaGetErrorString(err) + ") in " + call + " at " + file + ":" +
                      std::to_string(line);
    if (!context.empty())
        msg += " [" + context + "]";
    throw cuda_error(err, msg);
}

} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The LTE turbo decoder's CUDA implementations as pipeline kernels. Built only
// with CUDA; the family registry (turbo_implementations.cc) lists them then.
#ifndef INCLUDED_GPURX_TURBO_CUDA_TURBO_CUDA_KERNEL_H
#define INCLUDED_GPURX_TURBO_CUDA_TURBO_CUDA_KERNEL_H

#include "pipeline/implementation.h"
#include "turbo/turbo_config.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {

//! The CUDA entries of the turbo registry.
std::vector<implementation<turbo_config>> turbo_cuda_implementations(float int8_scale);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

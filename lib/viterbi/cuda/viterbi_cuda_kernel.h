/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The Viterbi decoder's CUDA implementations as pipeline kernels. Built only
// with CUDA; the family registry (viterbi_implementations.cc) lists them then.
#ifndef INCLUDED_GPURX_VITERBI_CUDA_VITERBI_CUDA_KERNEL_H
#define INCLUDED_GPURX_VITERBI_CUDA_VITERBI_CUDA_KERNEL_H

#include "pipeline/implementation.h"
#include "viterbi/viterbi_config.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {

//! The CUDA entries of the Viterbi registry.
std::vector<implementation<viterbi_config>> viterbi_cuda_implementations();

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The stream decoder's CUDA implementations as pipeline kernels. Built only
// with CUDA; the registry (viterbi_stream_implementations.cc) lists them then.
#ifndef INCLUDED_GPURX_VITERBI_CUDA_VITERBI_STREAM_CUDA_KERNEL_H
#define INCLUDED_GPURX_VITERBI_CUDA_VITERBI_STREAM_CUDA_KERNEL_H

#include "pipeline/implementation.h"
#include "viterbi/viterbi_stream.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {

//! The CUDA entries of the stream registry.
std::vector<implementation<viterbi_stream_config>> viterbi_stream_cuda_implementations();

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The MIMO detectors' CUDA implementations as pipeline kernels. Built only
// with CUDA; the family registry (mimo_implementations.cc) lists them then.
//   cuda-ml        exhaustive max-log on R, one thread per vector
//   cuda-mtt       multi-pass trellis traversal as the thesis states it: every
//                  edge of every step evaluated in full (the reference kernel)
//   cuda-mtt-fast  the same lists: reductions in the expanded distance form,
//                  path extensions by per-axis slicing
//   cuda-kbest     K-best, one warp per vector, tournament selection
//   cuda-lmmse     LMMSE, per-axis max-log demapping
//   cuda-one-pass  one-pass trellis traversal (the fast reductions)
// Every one: batched QR (or LMMSE filter) once per frame, then every vector of
// the frame with it; fp32; a-priori LLRs and extrinsic output as on the CPU.
#ifndef INCLUDED_GPURX_MIMO_CUDA_MIMO_CUDA_KERNEL_H
#define INCLUDED_GPURX_MIMO_CUDA_MIMO_CUDA_KERNEL_H

#include "mimo/mimo_config.h"
#include "pipeline/implementation.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {

//! The CUDA entries of the MIMO registry.
std::vector<implementation<mimo_config>> mimo_cuda_implementations();

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

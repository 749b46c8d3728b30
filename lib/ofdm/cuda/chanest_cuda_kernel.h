/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The OFDM channel estimator's CUDA implementation as a pipeline kernel,
// cuda-ls (chanest_batch.cu): it enqueues a batch on the engine's stream,
// with the engine's scratch (per frame: the per-subcarrier H and the
// residuals); no memory or stream of its own. Built only with CUDA; the
// family registry (chanest_implementations.cc) lists it then.
#ifndef INCLUDED_GPURX_OFDM_CUDA_CHANEST_CUDA_KERNEL_H
#define INCLUDED_GPURX_OFDM_CUDA_CHANEST_CUDA_KERNEL_H

#include "ofdm/chanest_config.h"
#include "pipeline/implementation.h"

namespace gr {
namespace gpurx {
namespace core {

//! The CUDA entry of the OFDM channel estimator's registry.
implementation<ofdm::chanest_config> chanest_cuda_implementation();

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

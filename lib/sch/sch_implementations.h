/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The transport-block decoder's registry (pipeline/implementation.h chooses
// from it): "cpu-sch" and, in builds with CUDA, "cuda-sch". Both decode the
// code blocks with the turbo registry's choice for sch_config::turbo on
// their backend; with the turbo decoder in fixed point, the two agree bit
// for bit (the soft buffers' arithmetic is integer on both).
#ifndef INCLUDED_GPURX_SCH_SCH_IMPLEMENTATIONS_H
#define INCLUDED_GPURX_SCH_SCH_IMPLEMENTATIONS_H

#include "pipeline/batch_pipeline.h"
#include "pipeline/implementation.h"
#include "sch/sch_config.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {

std::vector<implementation<sch_config>> sch_implementations();
registry<sch_config> sch_registry();
family_listing sch_listing();

#ifdef GPURX_HAVE_CUDA
//! The CUDA entry's kernel (sch/cuda/sch_cuda_kernel.cc).
std::unique_ptr<cuda_kernel> make_sch_cuda_kernel(const sch_config& cfg, int device);
#endif

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

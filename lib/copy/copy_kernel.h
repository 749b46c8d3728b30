/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The copy family, behind gpurx.batch_copy: out = scale * in, frame by frame.
// It exists to measure and test the pipeline itself (copies overlapping
// compute), with the least possible computation. No per-frame records.
#ifndef INCLUDED_GPURX_COPY_COPY_KERNEL_H
#define INCLUDED_GPURX_COPY_COPY_KERNEL_H

#include <string>
#include "pipeline/batch_pipeline.h"
#include "pipeline/implementation.h"

namespace gr {
namespace gpurx {
namespace core {

struct copy_config {
    size_t vlen = 1;    //!< floats per frame, 1..2^24
    float scale = 1.0f; //!< finite
    std::string implementation = "auto";

    //! Throws std::invalid_argument naming vlen or scale.
    void validate() const;
};

class copy_cpu_kernel final : public cpu_kernel
{
public:
    explicit copy_cpu_kernel(const copy_config& cfg);
    const char* name() const override { return "cpu-volk"; }
    void run(const batch_view& batch, worker_pool& pool) override;

private:
    copy_config d_cfg;
};

//! Every copy implementation this build has.
std::vector<implementation<copy_config>> copy_implementations();
kernel_factories copy_kernel_factories(const copy_config& cfg);
registry<copy_config> copy_registry();
family_listing copy_listing();
#ifdef GPURX_HAVE_CUDA
implementation<copy_config> copy_cuda_implementation(); // copy/cuda/copy_cuda_kernel.cc
#endif

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

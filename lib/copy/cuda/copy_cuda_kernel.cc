/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "copy/copy_kernel.h"
#include "copy/cuda/copy_launch.h"

namespace gr {
namespace gpurx {
namespace core {

namespace {
class copy_cuda_kernel final : public cuda_kernel
{
public:
    explicit copy_cuda_kernel(const copy_config& cfg) : d_cfg(cfg) {}
    const char* name() const override { return "cuda-scale"; }
    void enqueue(const batch_view& dev, const batch_view& host, void* stream) override
    {
        // Every frame has the same size, so in and out share one layout: scale
        // the whole data area (padding included) in one launch.
        const frame_desc& last = host.frames[host.nframes - 1];
        cuda_scale_batch(dev, (last.in_offset + last.in_bytes) / sizeof(float), d_cfg.scale, stream);
    }

private:
    copy_config d_cfg;
};
} // namespace

implementation<copy_config> copy_cuda_implementation()
{
    implementation<copy_config> e;
    e.info = { "cuda-scale",      backend_kind::cuda, implementation_role::production, "float",
               "grid-stride float4 scaled copy of the whole batch",
               "cpu-volk",        agreement_tolerance::exact(), "" };
    e.unsupported = [](const copy_config&) { return std::string(); };
    e.make_cuda = [](const copy_config& c, int) -> std::unique_ptr<cuda_kernel> {
        return std::make_unique<copy_cuda_kernel>(c);
    };
    return e;
}

} // namespace core
} // namespace gpurx
} // namespace gr

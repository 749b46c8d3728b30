/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ofdm/cuda/chanest_cuda_kernel.h"
#include "ofdm/cuda/chanest_launch.h"

#include <memory>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

namespace {
class chanest_cuda_kernel final : public cuda_kernel
{
public:
    explicit chanest_cuda_kernel(const ofdm::chanest_config& cfg) : d_max_work((cfg.validate(), cfg.max_work())) {}
    const char* name() const override { return "cuda-ls"; }
    size_t scratch_bytes(size_t max_frames) const override
    {
        return max_frames * ofdm::chanest_cuda_scratch_stride(d_max_work);
    }
    void enqueue(const batch_view& dev, const batch_view& host, void* stream) override
    {
        ofdm::cuda_chanest_batch(dev, host, d_max_work, stream);
    }

private:
    size_t d_max_work;
};
} // namespace

implementation<ofdm::chanest_config> chanest_cuda_implementation()
{
    implementation<ofdm::chanest_config> e;
    e.info = { "cuda-ls",
               backend_kind::cuda,
               implementation_role::production,
               "float (N0's sum in double)",
               "least squares and residual per (subcarrier, receive antenna), one thread each; group "
               "average, y reordering and N0 on the device",
               "cpu-ls",
               agreement_tolerance::llrs_within(1e-5, 1e-4, "float on the GPU against double on the CPU: "
                                                            "H and N0 agree to float rounding"),
               "cpu-ls" };
    e.unsupported = [](const ofdm::chanest_config&) { return std::string(); };
    e.make_cuda = [](const ofdm::chanest_config& c, int) -> std::unique_ptr<cuda_kernel> {
        return std::make_unique<chanest_cuda_kernel>(c);
    };
    return e;
}

} // namespace core
} // namespace gpurx
} // namespace gr

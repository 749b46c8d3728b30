/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo/cuda/turbo_cuda_kernel.h"
#include "turbo/cuda/turbo_launch.h"
#include "turbo/turbo_frame.h"
#include "turbo/turbo_geometry.h"
#include "turbo/turbo_implementations.h"

#include "cuda/cuda_check.h"
#include "cuda/cuda_dpx.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

namespace {

// One registry entry: the fixed-point kernel, or a float kernel of one layout.
class turbo_cuda_kernel final : public cuda_kernel
{
public:
    turbo_cuda_kernel(const char* name,
                      const turbo_config& cfg,
                      bool fixed,
                      turbo_float_layout layout,
                      float int8_scale,
                      int device)
        : d_name(name),
          d_cfg(cfg),
          d_fixed(fixed),
          d_dpx(fixed && cuda_dpx_for_device(device)),
          d_layout(layout),
          d_int8_scale(int8_scale)
    {
        d_cfg.validate();
    }
    const char* name() const override { return d_name; }
    size_t scratch_bytes(size_t max_frames) const override
    {
        return max_frames * turbo_scratch_floats(d_cfg.max_subblocks()) * sizeof(float);
    }

    void enqueue(const batch_view& dev, const batch_view& host, void* stream) override
    {
        // Launch geometry bounds every frame of the batch.
        const auto* params = host.params_as<turbo::frame_params>();
        turbo_geometry geo{ 0, 0, 0, 0 };
        const bool int8 = host.nframes && params[0].input == turbo::INPUT_INT8;
        // Batches hold runs of one K: the geometry is worked out once per run
        // (per frame it would cost more host time than the copies).
        int last_K = -1;
        turbo_geometry g{};
        for (size_t f = 0; f < host.nframes; f++) {
            if (params[f].K != last_K) {
                last_K = params[f].K;
                g = turbo_geometry_of(d_cfg, last_K);
            }
            geo.max_K = std::max(geo.max_K, g.max_K);
            geo.max_windows = std::max(geo.max_windows, g.max_windows);
            geo.max_W = std::max(geo.max_W, g.max_W);
            geo.max_slots = std::max(geo.max_slots, g.max_slots);
            if ((params[f].input == turbo::INPUT_INT8) != int8)
                throw std::invalid_argument("turbo batch mixes int8 and float32 input");
        }
        if (d_fixed)
            cuda_turbo_decode_fixed(dev, d_cfg, d_int8_scale, int8, geo, d_dpx, stream);
        else if (d_layout == turbo_float_layout::window)
            cuda_turbo_decode_float_window(dev, d_cfg, d_int8_scale, int8, geo, stream);
        else if (d_layout == turbo_float_layout::block)
            cuda_turbo_decode_float_block(dev, d_cfg, d_int8_scale, int8, geo, stream);
        else
            cuda_turbo_decode_float_state(dev, d_cfg, d_int8_scale, int8, geo, stream);
    }

private:
    const char* d_name;
    turbo_config d_cfg;
    bool d_fixed;
    bool d_dpx;
    turbo_float_layout d_layout;
    float d_int8_scale;
};

implementation<turbo_config> entry(const char* name,
                                   implementation_role role,
                                   const char* description,
                                   bool fixed,
                                   turbo_float_layout layout,
                                   std::function<std::string(const turbo_config&)> layout_limit,
                                   float int8_scale)
{
    implementation<turbo_config> e;
    e.info = { name,
               backend_kind::cuda,
               role,
               fixed ? turbo_arithmetic_fixed16 : turbo_arithmetic_float,
               description,
               fixed ? "cpu-fixed16-simd" : "cpu-float",
               fixed ? agreement_tolerance::exact()
                     : agreement_tolerance::decisions_within(
                           0.002, "log-MAP's exp/log round differently on the GPU (the max-log "
                                  "variants agree bit for bit: test_turbo_decoder)"),
               fixed ? "cpu-fixed16-simd" : "cpu-float" };
    e.bind = fixed ? bind_turbo_fixed16 : bind_turbo_float;
    e.unsupported = [fixed, layout_limit](const turbo_config& c) {
        std::string why = fixed ? turbo_needs_fixed16(c) : turbo_needs_float(c);
        return why.empty() && layout_limit ? layout_limit(c) : why;
    };
    e.make_cuda = [=](const turbo_config& cfg, int device) -> std::unique_ptr<cuda_kernel> {
        return std::make_unique<turbo_cuda_kernel>(name, cfg, fixed, layout, int8_scale, device);
    };
    return e;
}

} // namespace

std::vector<implementation<turbo_config>> turbo_cuda_implementations(float int8_scale)
{
    using role = implementation_role;
    return {
        entry("cuda-fixed16-dpx", role::production,
              "16-bit fixed point, two codewords per thread block with packed 16x2 DPX "
              "add-max (Hopper; other GPUs: the same arithmetic without DPX), one thread per window",
              true, turbo_float_layout::window, nullptr, int8_scale),
        entry("cuda-float-window", role::production,
              "float, one thread per window, checkpointed alpha, several codewords per block",
              false, turbo_float_layout::window, nullptr, int8_scale),
        entry("cuda-float-state", role::paper,
              "float, the paper's mapping: one thread per trellis state with warp shuffles "
              "(at most 64 windows)",
              false, turbo_float_layout::state,
              [](const turbo_config& c) {
                  if (c.coded_output)
                      return std::string("it has no coded-bit output (coded_output): cuda-float-window has");
                  return c.max_subblocks() > 64
                             ? "it runs at most 64 windows per codeword and this configuration "
                               "has up to " + std::to_string(c.max_subblocks())
                             : std::string();
              },
              int8_scale),
        entry("cuda-float-block", role::paper,
              "float, the paper's layout: one codeword per block, all of alpha in shared memory",
              false, turbo_float_layout::block,
              [](const turbo_config& c) {
                  if (c.coded_output)
                      return std::string("it has no coded-bit output (coded_output): cuda-float-window has");
                  return c.guard != 0 ? "it needs guard 0, got " + std::to_string(c.guard)
                                      : std::string();
              },
              int8_scale),
    };
}

} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "turbo/cuda/turbo_cuda_kernel.h"
#include "turbo/cuda/turbo_launch.h"
#include "turbo/turbo_frame.h"
#include "turbo/turbo_geometry.h"

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

namespace {

// One registry entry: the fixed-point kernel, or a float kernel of one layout.
class turbo_cuda_kernel final : public cuda_kernel
{
public:
    turbo_cuda_kernel(const char* name, const turbo_config& cfg, bool fixed, turbo_float_layout layout, float int8_scale)
        : d_name(name), d_cfg(cfg), d_fixed(fixed), d_layout(layout), d_int8_scale(int8_scale)
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
            cuda_turbo_decode_fixed(dev, d_cfg, d_int8_scale, int8, geo, stream);
        else
            cuda_turbo_decode(dev, d_cfg, d_layout, d_int8_scale, int8, geo, stream);
    }

private:
    const char* d_name;
    turbo_config d_cfg;
    bool d_fixed;
    turbo_float_layout d_layout;
    float d_int8_scale;
};

implementation<turbo_config> entry(const char* name,
                                   const char* description,
                                   const char* reference,
                                   bool fixed,
                                   turbo_float_layout layout,
                                   std::function<std::string(const turbo_config&)> unsupported,
                                   float int8_scale)
{
    implementation<turbo_config> e;
    e.info = { name, backend_kind::cuda, description, reference, fixed };
    e.unsupported = std::move(unsupported);
    e.make_cuda = [=](const turbo_config& cfg, int) -> std::unique_ptr<cuda_kernel> {
        return std::make_unique<turbo_cuda_kernel>(name, cfg, fixed, layout, int8_scale);
    };
    return e;
}

std::string needs_fixed(const turbo_config& c)
{
    return c.algorithm == turbo::LOG_MAP ? "log-MAP runs in float only" : "";
}

} // namespace

std::vector<implementation<turbo_config>> turbo_cuda_implementations(float int8_scale)
{
    return {
        entry("cuda-fixed16-dpx",
              "16-bit fixed point, two codewords per thread block with packed 16x2 DPX "
              "add-max (Hopper; other GPUs: the same arithmetic without DPX), one thread per window",
              "cpu-fixed16-simd", true, turbo_float_layout::window, needs_fixed, int8_scale),
        entry("cuda-float-window",
              "float, one thread per window, checkpointed alpha, several codewords per block",
              "cpu-float", false, turbo_float_layout::window,
              [](const turbo_config&) { return std::string(); }, int8_scale),
        entry("cuda-float-state",
              "float, one thread per trellis state with warp shuffles (at most 64 windows)",
              "cpu-float", false, turbo_float_layout::state,
              [](const turbo_config& c) {
                  return c.max_subblocks() > 64
                             ? "it runs at most 64 windows per codeword and this configuration "
                               "has up to " + std::to_string(c.max_subblocks())
                             : std::string();
              },
              int8_scale),
        entry("cuda-float-block",
              "float, the paper's layout: one codeword per block, all of alpha in shared memory",
              "cpu-float", false, turbo_float_layout::block,
              [](const turbo_config& c) {
                  return c.guard != 0 ? "it needs guard 0, got " + std::to_string(c.guard)
                                      : std::string();
              },
              int8_scale),
    };
}

} // namespace core
} // namespace gpurx
} // namespace gr

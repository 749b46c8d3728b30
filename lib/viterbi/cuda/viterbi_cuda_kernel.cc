/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi/cuda/viterbi_cuda_kernel.h"
#include "viterbi/cuda/viterbi_launch.h"
#include "viterbi/viterbi_implementations.h"
#include "cuda/cuda_dpx.h"

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

viterbi_gpu_code make_viterbi_gpu_code(const viterbi_code& code, int chunk)
{
    viterbi_gpu_code g{};
    g.K = code.K();
    g.n = code.n();
    g.S = code.states();
    g.termination = int(code.term());
    g.chunk = chunk;
    g.min_frame_bits = code.min_frame_bits();
    for (int s = 0; s < g.S; s++)
        for (int u = 0; u < 2; u++)
            g.outputs[2 * s + u] = uint8_t(code.outputs(s, u));
    const auto& pat = code.puncture(); // n x period flags
    g.period = int(pat.size()) / g.n;
    int kept = 0;
    for (int t = 0; t < g.period; t++)
        for (int i = 0; i < g.n; i++)
            g.offset[t * g.n + i] = int16_t(pat[size_t(t) * g.n + i] ? kept++ : -1);
    g.kept = kept;
    return g;
}

namespace {

// The largest per-frame working memory the faithful tiled layout may take:
// its tables grow as tiles x states^2 (the price of decoding each tile from
// every start state).
constexpr size_t max_scratch_per_frame = size_t(8) << 20;

viterbi_gpu_code gpu_code_of(const viterbi_config& cfg) { return make_viterbi_gpu_code(cfg.code(), cfg.chunk); }

std::string unsupported_on_gpu(const viterbi_config& cfg)
{
    const viterbi_code code = cfg.code();
    if (int(code.puncture().size()) / code.n() > viterbi_gpu_code::max_period_steps)
        return "its puncture period is over " + std::to_string(viterbi_gpu_code::max_period_steps) + " steps";
    if (code.term() == viterbi::termination::tail_biting && code.K() > 8)
        return "tail-biting K=9 would need 512 KiB of shared memory for the merge";
    const size_t per_frame = viterbi_tiled_scratch_bytes(gpu_code_of(cfg), code.steps(cfg.max_frame_bits));
    if (per_frame > max_scratch_per_frame)
        return "frames of max_frame_bits=" + std::to_string(cfg.max_frame_bits) + " in tiles of " +
               std::to_string(cfg.chunk) + " steps need " + std::to_string(per_frame >> 20) +
               " MiB each (limit " + std::to_string(max_scratch_per_frame >> 20) +
               " MiB): raise chunk or lower max_frame_bits";
    return "";
}

class viterbi_cuda_tiled final : public cuda_kernel
{
public:
    explicit viterbi_cuda_tiled(const viterbi_config& cfg)
        : d_cfg(cfg), d_code(cfg.code()), d_gpu(gpu_code_of(cfg))
    {
        d_cfg.validate();
        d_max_steps = d_code.steps(cfg.max_frame_bits);
    }
    const char* name() const override { return "cuda-tiled"; }
    size_t scratch_bytes(size_t max_frames) const override
    {
        return max_frames * viterbi_tiled_scratch_bytes(d_gpu, d_max_steps);
    }
    void enqueue(const batch_view& dev, const batch_view& host, void* stream) override
    {
        // Frames longer than the configured bound would overrun the scratch:
        // the adapters never submit them; refuse rather than corrupt.
        for (size_t f = 0; f < host.nframes; f++)
            if (host.params_as<viterbi::frame_params>()[f].frame_bits > d_cfg.max_frame_bits)
                throw std::invalid_argument("cuda-tiled: frame of " +
                                            std::to_string(host.params_as<viterbi::frame_params>()[f].frame_bits) +
                                            " bits, more than max_frame_bits=" +
                                            std::to_string(d_cfg.max_frame_bits));
        // The scratch stride is the configured bound's, so every frame fits.
        cuda_viterbi_tiled(dev, d_gpu, d_max_steps, stream);
    }

private:
    viterbi_config d_cfg;
    viterbi_code d_code;
    viterbi_gpu_code d_gpu;
    int d_max_steps;
};

// One warp per frame, the whole frame at once: terminated and truncated.
class viterbi_cuda_warp final : public cuda_kernel
{
public:
    explicit viterbi_cuda_warp(const viterbi_config& cfg) : d_cfg(cfg), d_gpu(gpu_code_of(cfg))
    {
        d_cfg.validate();
        d_max_steps = cfg.code().steps(cfg.max_frame_bits);
    }
    const char* name() const override { return "cuda-warp"; }
    size_t scratch_bytes(size_t max_frames) const override
    {
        return max_frames * viterbi_warp_scratch_bytes(d_gpu, d_max_steps);
    }
    void enqueue(const batch_view& dev, const batch_view&, void* stream) override
    {
        // Frames longer than max_frame_bits are rejected on the device (their
        // decisions would not fit the scratch).
        cuda_viterbi_warp(dev, d_gpu, d_max_steps, stream);
    }

private:
    viterbi_config d_cfg;
    viterbi_gpu_code d_gpu;
    int d_max_steps;
};

// One thread per frame, the code compiled in: every termination. Integer
// input runs the DPX variant of the packed max where the policy says
// (cuda/cuda_dpx.h), decided once, for \p device.
class viterbi_cuda_thread final : public cuda_kernel
{
public:
    viterbi_cuda_thread(const viterbi_config& cfg, int device)
        : d_cfg(cfg),
          d_gpu(gpu_code_of(cfg)),
          d_polys(cfg.code().polynomials()),
          d_dpx(cuda_dpx_for_device(device))
    {
        d_cfg.validate();
        d_max_steps = cfg.code().steps(cfg.max_frame_bits);
    }
    const char* name() const override { return "cuda-thread"; }
    size_t scratch_bytes(size_t max_frames) const override
    {
        return max_frames * viterbi_thread_scratch_bytes(d_gpu, d_max_steps);
    }
    void enqueue(const batch_view& dev, const batch_view& host, void* stream) override
    {
        // Frames longer than max_frame_bits are rejected on the device.
        if (!cuda_viterbi_thread(dev, host, d_gpu, d_polys.data(), d_max_steps, d_dpx, stream))
            throw std::logic_error("cuda-thread: the code is not compiled in (the registry should not pick it)");
    }

private:
    viterbi_config d_cfg;
    viterbi_gpu_code d_gpu;
    std::vector<unsigned> d_polys;
    bool d_dpx;
    int d_max_steps;
};

std::string unsupported_by_thread(const viterbi_config& c)
{
    const viterbi_code code = c.code();
    if (!viterbi_thread_compiled(code.K(), code.n(), code.polynomials().data()))
        return "it is compiled for the standard codes only (K=7 133,171; K=5 23,33; K=7 133,171,165)";
    if (int(code.puncture().size()) / code.n() > viterbi_gpu_code::max_period_steps)
        return "its puncture period is over " + std::to_string(viterbi_gpu_code::max_period_steps) + " steps";
    return "";
}

} // namespace

std::vector<implementation<viterbi_config>> viterbi_cuda_implementations()
{
    implementation<viterbi_config> thread;
    using role = implementation_role;
    thread.info = { "cuda-thread", backend_kind::cuda, role::production,
                    "packed 16-bit metrics (int8, hard input); float32 (float input)",
                    "full-frame Viterbi, one thread per frame, the trellis in registers "
                    "(packed 16-bit metrics for int8 and hard input), standard codes compiled in; "
                    "tail-biting exact (every start state, one thread each)",
                    "cpu-reference", agreement_tolerance::exact(), "" };
    thread.unsupported = unsupported_by_thread;
    thread.make_cuda = [](const viterbi_config& c, int device) -> std::unique_ptr<cuda_kernel> {
        return std::make_unique<viterbi_cuda_thread>(c, device);
    };
    implementation<viterbi_config> warp;
    warp.info = { "cuda-warp", backend_kind::cuda, role::production, "float32 metrics",
                  "full-frame Viterbi, one warp per frame, decisions by ballot, traceback by one lane",
                  "cpu-reference", agreement_tolerance::exact(), "" };
    warp.unsupported = [](const viterbi_config& c) -> std::string {
        const viterbi_code code = c.code();
        if (code.term() == viterbi::termination::tail_biting)
            return "it decodes terminated and truncated frames only";
        if (int(code.puncture().size()) / code.n() > viterbi_gpu_code::max_period_steps)
            return "its puncture period is over " + std::to_string(viterbi_gpu_code::max_period_steps) + " steps";
        return "";
    };
    warp.make_cuda = [](const viterbi_config& c, int) -> std::unique_ptr<cuda_kernel> {
        return std::make_unique<viterbi_cuda_warp>(c);
    };
    implementation<viterbi_config> e;
    e.info = { "cuda-tiled", backend_kind::cuda, role::paper, "float32 metrics",
               "Lin et al.'s tiled Viterbi as the paper lays it out: every tile of every frame "
               "from every start state at once, merged per frame, tiles traced back at once "
               "(slower than the CPU: for comparison, runs only when named)",
               "cpu-reference", tiled_tolerance(), "" };
    e.unsupported = unsupported_on_gpu;
    e.make_cuda = [](const viterbi_config& c, int) -> std::unique_ptr<cuda_kernel> {
        return std::make_unique<viterbi_cuda_tiled>(c);
    };
    return { thread, warp, e };
}

} // namespace core
} // namespace gpurx
} // namespace gr

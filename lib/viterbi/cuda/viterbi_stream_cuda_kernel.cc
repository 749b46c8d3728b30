/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "viterbi/cuda/viterbi_stream_cuda_kernel.h"
#include "viterbi/cuda/viterbi_stream_launch.h"

#include <algorithm>

namespace gr {
namespace gpurx {
namespace core {

namespace {

viterbi_stream_gpu stream_gpu_of(const viterbi_stream_config& cfg)
{
    const viterbi_code code = cfg.code();
    viterbi_stream_gpu g{};
    g.code = make_viterbi_gpu_code(code, cfg.chunk);
    for (int i = 0; i < code.n(); i++)
        g.polys[i] = code.polynomials()[size_t(i)];
    g.chunk = cfg.chunk;
    g.traceback = cfg.traceback;
    g.frame_windows = cfg.frame_windows;
    g.max_frame_steps = cfg.max_frame_steps();
    return g;
}

std::string puncture_unsupported(const viterbi_stream_config& cfg)
{
    const viterbi_code code = cfg.code();
    if (int(code.puncture().size()) / code.n() > viterbi_gpu_code::max_period_steps)
        return "its puncture period is over " + std::to_string(viterbi_gpu_code::max_period_steps) + " steps";
    return "";
}

class viterbi_stream_cuda final : public cuda_kernel
{
public:
    viterbi_stream_cuda(const viterbi_stream_config& cfg, bool regs)
        : d_cfg(cfg), d_gpu(stream_gpu_of(cfg)), d_regs(regs)
    {
        d_cfg.validate();
    }
    const char* name() const override { return d_regs ? "cuda-stream-regs" : "cuda-stream-warp"; }
    size_t scratch_bytes(size_t max_frames) const override
    {
        return viterbi_stream_scratch_bytes(d_gpu, max_frames);
    }
    void enqueue(const batch_view& dev, const batch_view& host, void* stream) override
    {
        // The grid and the decisions' stride: a bound on the windows the
        // map will count (it skips malformed frames, never adds).
        long windows = 0;
        for (size_t f = 0; f < host.nframes; f++)
            windows += std::min(viterbi::stream_windows_of(host.params_as<viterbi::stream_frame_params>()[f],
                                                           d_cfg.chunk),
                                d_cfg.frame_windows);
        cuda_viterbi_stream_map(dev, d_gpu, stream);
        if (d_regs)
            cuda_viterbi_stream_regs(dev, d_gpu, int(windows), stream);
        else
            cuda_viterbi_stream_warp(dev, d_gpu, int(windows), stream);
    }

private:
    viterbi_stream_config d_cfg;
    viterbi_stream_gpu d_gpu;
    bool d_regs;
};

} // namespace

std::vector<implementation<viterbi_stream_config>> viterbi_stream_cuda_implementations()
{
    implementation<viterbi_stream_config> regs;
    regs.info = { "cuda-stream-regs", backend_kind::cuda, implementation_role::production, "float32 metrics",
                  "one thread per window, the state metrics in registers; the codes compiled in "
                  "(K=7 0133/0171 and 0133/0171/0165, K=5 023/033, K=3 07/05)",
                  "cpu-stream", agreement_tolerance::exact(), "" };
    regs.unsupported = [](const viterbi_stream_config& c) -> std::string {
        if (!viterbi_stream_regs_supports(c.code()))
            return "its code is not compiled into the register kernel";
        return puncture_unsupported(c);
    };
    regs.make_cuda = [](const viterbi_stream_config& c, int) -> std::unique_ptr<cuda_kernel> {
        return std::make_unique<viterbi_stream_cuda>(c, true);
    };
    implementation<viterbi_stream_config> warp;
    warp.info = { "cuda-stream-warp", backend_kind::cuda, implementation_role::production, "float32 metrics",
                  "one warp per window, metrics in shared memory, decisions by ballot: any code", "cpu-stream",
                  agreement_tolerance::exact(), "" };
    warp.unsupported = puncture_unsupported;
    warp.make_cuda = [](const viterbi_stream_config& c, int) -> std::unique_ptr<cuda_kernel> {
        return std::make_unique<viterbi_stream_cuda>(c, false);
    };
    return { regs, warp };
}

} // namespace core
} // namespace gpurx
} // namespace gr

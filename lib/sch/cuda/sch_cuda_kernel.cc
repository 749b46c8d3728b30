/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// "cuda-sch": a batch of transport blocks on one GPU, all on the slot's
// stream: descramble, code block set-up, dematch and combine into the soft
// buffers (device memory, kept between batches), the turbo decoder's CUDA
// kernel on the two groups of code blocks, then assembly and CRCs.
#include "cuda/cuda_check.h"
#include "sch/cuda/sch_launch.h"
#include "sch/sch_batch.h"
#include "sch/sch_implementations.h"
#include "turbo/turbo_implementations.h"

#include <cuda_runtime.h>
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

namespace {

std::unique_ptr<cuda_kernel> turbo_cuda(turbo_config t, int device)
{
    const auto choice = choose_turbo_implementation(t);
    if (choice.cuda.empty())
        throw std::invalid_argument("cuda-sch: no CUDA turbo decoder runs this configuration (" +
                                    choice.note + ")");
    return turbo_kernel_factories(t, choice, 1.0f / 8.0f).cuda(device);
}

class sch_cuda_kernel final : public cuda_kernel
{
public:
    sch_cuda_kernel(const sch_config& cfg, int device) : d_cfg(cfg), d_device(device)
    {
        d_cfg.validate();
        d_turbo_a = turbo_cuda(d_cfg.turbo_for(true), device);
        d_turbo_b = turbo_cuda(d_cfg.turbo_for(false), device);
        d_soft_llrs = d_cfg.soft_buffer_llrs();
        const size_t soft_bytes = size_t(d_cfg.harq_buffers) * d_soft_llrs * sizeof(int16_t);
        if (soft_bytes) {
            GPURX_CUDA_CHECK_CTX(cudaMalloc(&d_soft, soft_bytes), "cuda-sch soft buffers");
            GPURX_CUDA_CHECK(cudaMemset(d_soft, 0, soft_bytes));
        }
        const int words = (sch::MAX_TBS + 24 + 31) / 32 + 1;
        GPURX_CUDA_CHECK_CTX(cudaMalloc(&d_crc, sch::table_words(words) * sizeof(uint32_t)),
                             "cuda-sch CRC and scrambling tables");
        d_tables = sch::upload_tables(d_crc, words);
    }
    ~sch_cuda_kernel() override
    {
        cudaFree(d_soft);
        cudaFree(d_crc);
    }
    const char* name() const override { return "cuda-sch"; }
    size_t scratch_bytes(size_t max_frames) const override
    {
        return layout(max_frames).bytes;
    }

    void enqueue(const batch_view& dev, const batch_view& host, void* stream) override
    {
        const auto* tbs = host.params_as<sch::frame_params>();
        int max_G = 0, max_E = 0;
        for (size_t f = 0; f < host.nframes; f++) {
            const auto& p = tbs[f];
            if (p.C > d_cfg.max_code_blocks() || p.G > d_cfg.max_g ||
                p.harq_slot >= d_cfg.harq_buffers)
                throw std::logic_error("cuda-sch: TB " + std::to_string(f) +
                                       " exceeds the decoder's bounds (C " + std::to_string(p.C) +
                                       ", G " + std::to_string(p.G) + ", slot " +
                                       std::to_string(p.harq_slot) + ")");
            max_G = std::max(max_G, p.G);
            max_E = std::max({ max_E, p.E_lo, p.E_hi });
        }
        // The code blocks' turbo frames on the host too: the turbo kernel
        // sizes its launch from them (the device's copy is cb_setup's).
        d_cbs.build(tbs, host.nframes);
        const size_t n = d_cbs.entries.size();
        d_desc.resize(n);
        d_tparams.resize(n);
        for (size_t i = 0; i < n; i++)
            sch::cb_turbo_frame(tbs[d_cbs.entries[i].tb], d_cbs.entries[i], i, d_desc[i], d_tparams[i]);

        sch::receive_args a{ dev.frames,
                             dev.params_as<sch::frame_params>(),
                             int(dev.nframes),
                             dev.in,
                             dev.out,
                             dev.results_as<sch::frame_result>(),
                             dev.scratch,
                             layout(dev.nframes),
                             int(n),
                             int(d_cbs.single),
                             d_soft,
                             d_soft_llrs,
                             d_tables,
                             d_cfg.max_g };
        sch::launch_descramble(a, max_G, stream);
        sch::launch_cb_setup(a, stream);
        sch::launch_dematch(a, max_E, stream);
        auto group = [&](cuda_kernel& k, size_t first, size_t count) {
            if (!count)
                return;
            const auto& L = a.layout;
            batch_view d{};
            d.frames = reinterpret_cast<const frame_desc*>(dev.scratch + L.cb_desc) + first;
            d.nframes = count;
            d.params = reinterpret_cast<const turbo::frame_params*>(dev.scratch + L.cb_params) + first;
            d.in = dev.scratch + L.cb_in;
            d.out = dev.scratch + L.cb_out;
            d.results = reinterpret_cast<turbo::frame_result*>(dev.scratch + L.cb_results) + first;
            d.scratch = dev.scratch + L.turbo_scratch;
            batch_view h{};
            h.frames = d_desc.data() + first;
            h.nframes = count;
            h.params = d_tparams.data() + first;
            k.enqueue(d, h, stream);
        };
        group(*d_turbo_a, 0, d_cbs.single);
        group(*d_turbo_b, d_cbs.single, n - d_cbs.single);
        sch::launch_assemble(a, stream);
    }

private:
    sch::batch_layout layout(size_t max_frames) const
    {
        const size_t cbs = max_frames * size_t(d_cfg.max_code_blocks());
        return sch::batch_layout(max_frames, size_t(d_cfg.max_code_blocks()), size_t(d_cfg.max_g),
                                 std::max(d_turbo_a->scratch_bytes(cbs), d_turbo_b->scratch_bytes(cbs)));
    }

    sch_config d_cfg;
    int d_device;
    std::unique_ptr<cuda_kernel> d_turbo_a, d_turbo_b;
    int16_t* d_soft = nullptr;
    size_t d_soft_llrs = 0;
    uint32_t* d_crc = nullptr;
    sch::device_tables d_tables{};
    sch::cb_list d_cbs;
    std::vector<frame_desc> d_desc;
    std::vector<turbo::frame_params> d_tparams;
};

} // namespace

std::unique_ptr<cuda_kernel> make_sch_cuda_kernel(const sch_config& cfg, int device)
{
    return std::make_unique<sch_cuda_kernel>(cfg, device);
}

} // namespace core
} // namespace gpurx
} // namespace gr

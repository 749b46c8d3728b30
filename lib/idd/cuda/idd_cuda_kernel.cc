/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// "cuda-idd": a batch of TBs through P passes on one GPU, all on the slot's
// stream: set-up (records, detector input with zero priors), then per pass
// the detector's CUDA kernel, the transport decoder's, the choice of each
// TB's output, and the copy of the decoder's extrinsics into the detector's
// prior slots. Nothing returns to the host between passes, so a TB whose
// CRC checked still runs the later passes (its output is kept from the pass
// that checked; the CPU kernel skips them instead).
#include "idd/cuda/idd_launch.h"
#include "idd/idd_batch.h"
#include "idd/idd_implementations.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

namespace {

class idd_cuda_kernel final : public cuda_kernel
{
public:
    idd_cuda_kernel(const mimo_idd_config& cfg, int device) : d_cfg(cfg)
    {
        d_cfg.validate();
        auto parts = idd_part_factories(d_cfg);
        if (!parts.detector.cuda)
            throw std::invalid_argument("cuda-idd: the detector has no CUDA implementation for this configuration (" +
                                        parts.detector_choice.note + ")");
        if (!parts.decoder.cuda)
            throw std::invalid_argument("cuda-idd: the decoder has no CUDA implementation for this configuration (" +
                                        parts.decoder_choice.note + ")");
        d_det = parts.detector.cuda(device);
        d_sch = parts.decoder.cuda(device);
    }
    const char* name() const override { return "cuda-idd"; }
    size_t scratch_bytes(size_t max_frames) const override { return layout(max_frames).bytes; }

    void enqueue(const batch_view& dev, const batch_view& host, void* stream) override
    {
        const auto* params = host.params_as<idd::frame_params>();
        const size_t n = host.nframes;
        const auto L = layout(n);
        d_det_desc.resize(n);
        d_sch_desc.resize(n);
        d_det_params.resize(n);
        d_sch_params.resize(n);
        size_t max_words = 0;
        int max_g = 0, max_tbs = 0;
        for (size_t f = 0; f < n; f++) {
            const std::string why = idd::frame_problem(params[f], d_cfg);
            if (!why.empty())
                throw std::invalid_argument("cuda-idd: TB " + std::to_string(f) + ": " + why);
            idd::tb_records(L, params[f], f, d_det_desc[f], d_det_params[f], d_sch_desc[f], d_sch_params[f]);
            max_words = std::max<size_t>(max_words, d_det_desc[f].in_bytes / 4);
            max_g = std::max(max_g, params[f].tb.G);
            max_tbs = std::max(max_tbs, params[f].tb.tbs);
        }
        const idd::device_batch b{ dev.frames,
                                   dev.params_as<idd::frame_params>(),
                                   int(n),
                                   dev.in,
                                   dev.out,
                                   dev.results_as<idd::frame_result>(),
                                   dev.scratch,
                                   L };
        idd::launch_setup(b, max_words, stream);
        uint8_t* s = dev.scratch;
        // The decoder reads the detector's output in place.
        const batch_view dv = device_view(s, n, L.det_desc, L.det_params, L.det_in, L.det_out, L.det_results,
                                          L.det_scratch);
        const batch_view sv = device_view(s, n, L.sch_desc, L.sch_params, L.det_out, L.sch_out, L.sch_results,
                                          L.sch_scratch);
        const batch_view dh = host_view(d_det_desc.data(), n, d_det_params.data());
        const batch_view sh = host_view(d_sch_desc.data(), n, d_sch_params.data());
        for (int pass = 1; pass <= d_cfg.passes; pass++) {
            d_det->enqueue(dv, dh, stream);
            d_sch->enqueue(sv, sh, stream);
            idd::launch_commit(b, pass, max_tbs, stream);
            if (pass < d_cfg.passes)
                idd::launch_feedback(b, max_g, stream);
        }
    }

private:
    //! A part's view of the batch: its records, parameters, input, output,
    //! results and scratch at these offsets of the IDD kernel's scratch.
    static batch_view device_view(uint8_t* s, size_t n, size_t desc, size_t params, size_t in, size_t out,
                                  size_t results, size_t scratch)
    {
        batch_view v{};
        v.frames = reinterpret_cast<const frame_desc*>(s + desc);
        v.nframes = n;
        v.params = s + params;
        v.in = s + in;
        v.out = s + out;
        v.results = s + results;
        v.scratch = s + scratch;
        return v;
    }
    //! What a part's enqueue() reads on the host: records and parameters.
    static batch_view host_view(const frame_desc* frames, size_t n, const void* params)
    {
        batch_view v{};
        v.frames = frames;
        v.nframes = n;
        v.params = params;
        return v;
    }

    idd::batch_layout layout(size_t n) const
    {
        return idd::batch_layout(d_cfg, n, d_det->scratch_bytes(n), d_sch->scratch_bytes(n));
    }

    mimo_idd_config d_cfg;
    std::unique_ptr<cuda_kernel> d_det, d_sch;
    std::vector<frame_desc> d_det_desc, d_sch_desc;
    std::vector<mimo::frame_params> d_det_params;
    std::vector<sch::frame_params> d_sch_params;
};

} // namespace

std::unique_ptr<cuda_kernel> make_idd_cuda_kernel(const mimo_idd_config& cfg, int device)
{
    return std::make_unique<idd_cuda_kernel>(cfg, device);
}

} // namespace core
} // namespace gpurx
} // namespace gr

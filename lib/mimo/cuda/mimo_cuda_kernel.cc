/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "mimo/cuda/mimo_cuda_kernel.h"
#include "mimo/mimo_implementations.h"
#include "mimo/cuda/mimo_detect.h"
#include "mimo/cuda/mimo_launch.h"
#include "mimo/mimo_frame.h"

#include <limits>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {

void cuda_mimo_detect(const batch_view& dev, size_t nframes, size_t max_vectors,
                      int bits_per_symbol, const mimo_gpu_settings& s, void* stream,
                      unsigned nt_mask)
{
    if (max_vectors == 0)
        return;
    switch (mimo::algorithm(s.algorithm)) {
    case mimo::algorithm::ml:
        return cuda_mimo_detect_ml(dev, nframes, max_vectors, bits_per_symbol, s, stream);
    case mimo::algorithm::lmmse:
        return cuda_mimo_detect_lmmse(dev, nframes, max_vectors, bits_per_symbol, s, stream);
    case mimo::algorithm::kbest:
        return cuda_mimo_detect_kbest(dev, nframes, max_vectors, bits_per_symbol, s, stream);
    default: // mtt, one-pass
        return cuda_mimo_detect_trellis(dev, nframes, max_vectors, bits_per_symbol, s, nt_mask,
                                        stream);
    }
}

namespace {

class mimo_cuda_detector final : public cuda_kernel
{
public:
    mimo_cuda_detector(const mimo_config& cfg, const std::string& name, int variant)
        : d_cfg(cfg), d_name(name)
    {
        d_cfg.validate();
        d_settings.algorithm = int(cfg.algorithm);
        d_settings.variant = variant;
        // ml and lmmse do not depend on the detection order (the CPU ignores it too).
        d_settings.sorted_qr = cfg.sorted_qr && cfg.algorithm != mimo::algorithm::ml &&
                               cfg.algorithm != mimo::algorithm::lmmse;
        d_settings.extrinsic = cfg.output == mimo::llr_output::extrinsic;
        d_settings.int8_output = cfg.llr_type == mimo::llr_format::int8;
        d_settings.k = cfg.k;
        d_settings.max_channels = cfg.max_channels;
        d_settings.clip = cfg.algorithm == mimo::algorithm::kbest ||
                                  cfg.algorithm == mimo::algorithm::one_pass
                              ? cfg.clip
                              : std::numeric_limits<float>::infinity();
    }
    const char* name() const override { return d_name.c_str(); }
    size_t scratch_bytes(size_t max_frames) const override
    {
        return mimo_cuda_scratch_bytes(max_frames, d_settings.max_channels);
    }
    void enqueue(const batch_view& dev, const batch_view& host, void* stream) override
    {
        // The grid covers every vector the parameters announce (frames the
        // device refuses leave their threads idle); one detection launch per
        // modulation present.
        const auto* params = host.params_as<mimo::frame_params>();
        size_t vectors = 0;
        unsigned nt_mask[9] = {}; // per bits per symbol: the numbers of streams present
        for (size_t f = 0; f < host.nframes; f++)
            if (params[f].vectors > 0 && params[f].channels > 0) {
                vectors += size_t(params[f].vectors) * size_t(params[f].channels);
                const int bits = params[f].bits_per_symbol, nt = params[f].nt;
                if (bits >= 0 && bits <= 8 && nt >= 1 && nt <= mimo::max_antennas)
                    nt_mask[bits] |= 1u << nt;
            }
        if (vectors > size_t(std::numeric_limits<uint32_t>::max()))
            throw std::invalid_argument(d_name + ": a batch of " + std::to_string(vectors) +
                                        " vectors; at most 2^32 - 1 (lower max_batch)");
        cuda_mimo_prepare(dev, host.nframes, d_settings, stream);
        for (int bits : { 2, 4, 6, 8 })
            if (nt_mask[bits])
                cuda_mimo_detect(dev, host.nframes, vectors, bits, d_settings, stream,
                                 nt_mask[bits]);
        cuda_mimo_finish(dev, host.nframes, d_settings, stream);
    }

private:
    mimo_config d_cfg;
    std::string d_name;
    mimo_gpu_settings d_settings{};
};

implementation<mimo_config> cuda_entry(const char* name, mimo::algorithm a, int variant,
                                       implementation_role role, const char* description)
{
    implementation<mimo_config> e;
    const std::string twin = std::string("cpu-") + mimo::algorithm_name(a);
    e.info = { name,
               backend_kind::cuda,
               role,
               "fp32",
               description,
               twin,
               agreement_tolerance::llrs_within(0.02, 0.01, "fp32 against its double-precision CPU twin"),
               twin };
    e.bind = [a](mimo_config& c) { c.algorithm = a; };
    e.unsupported = [a](const mimo_config& c) -> std::string {
        std::string why = mimo_runs_algorithm(a, c);
        if (why.empty() && a == mimo::algorithm::kbest &&
            size_t(c.k) << mimo::bits_per_symbol(c.modulation) > size_t(mimo_kbest_max_children))
            why = "cuda-kbest keeps at most " + std::to_string(mimo_kbest_max_children) +
                  " children (k * Q) per level in shared memory; k " + std::to_string(c.k) +
                  " of " + mimo::modulation_name(c.modulation) + " makes " +
                  std::to_string(size_t(c.k) << mimo::bits_per_symbol(c.modulation));
        return why;
    };
    std::string n = name;
    e.make_cuda = [variant, n](const mimo_config& c, int) -> std::unique_ptr<cuda_kernel> {
        return std::make_unique<mimo_cuda_detector>(c, n, variant);
    };
    return e;
}

} // namespace

std::vector<implementation<mimo_config>> mimo_cuda_implementations()
{
    using mimo::algorithm;
    using role = implementation_role;
    return {
        cuda_entry("cuda-ml", algorithm::ml, MIMO_GPU_PLAIN, role::production,
                   "exhaustive max-log on R, one thread per vector, fp32"),
        cuda_entry("cuda-mtt", algorithm::mtt, MIMO_GPU_PLAIN, role::reference,
                   "multi-pass trellis traversal as the thesis states it (every edge in "
                   "full), one thread per vector, fp32; the reference of cuda-mtt-fast"),
        cuda_entry("cuda-mtt-fast", algorithm::mtt, MIMO_GPU_MTT_FAST, role::production,
                   "multi-pass trellis traversal: expanded-form reductions (2 FMAs per edge), "
                   "extensions by per-axis slicing; two streams: exact max-log ML as LORD "
                   "(two QR orders, 2 Q candidates), one thread per vector; 3-4 streams a lane "
                   "per trellis vertex (a warp per vector above 32 points); beyond, a thread "
                   "per vector; fp32"),
        cuda_entry("cuda-kbest", algorithm::kbest, MIMO_GPU_PLAIN, role::production,
                   "K-best, one warp per vector, tournament selection (k * Q <= 4096), fp32"),
        cuda_entry("cuda-lmmse", algorithm::lmmse, MIMO_GPU_PLAIN, role::production,
                   "LMMSE filter per frame, per-axis max-log demapping, one thread per "
                   "vector, fp32"),
        cuda_entry("cuda-one-pass", algorithm::one_pass, MIMO_GPU_PLAIN, role::production,
                   "one-pass trellis traversal (fast reductions), LLRs clipped; the lanes "
                   "of cuda-mtt-fast up to 4 streams, beyond a thread per vector; fp32"),
    };
}

} // namespace core
} // namespace gpurx
} // namespace gr

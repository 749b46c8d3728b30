/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The LTE turbo decoder as a batch kernel: frames of 3K+12 LLRs (float32, or
// int8 with TURBO_INPUT_INT8 in frame_desc.flags) with param =
// turbo_frame_param(K); output K hard bits (+ K soft LLRs with soft_output).
// Frames of different K may share a batch.
#ifndef INCLUDED_GPURX_CORE_TURBO_KERNEL_H
#define INCLUDED_GPURX_CORE_TURBO_KERNEL_H

#include "batch_kernel.h"
#include "turbo_config.h"
#include "turbo_decoder_cpu.h"
#include "turbo_launch.h"

#include <memory>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

class turbo_batch_kernel final : public batch_kernel
{
public:
    /*!
     * \param cpu_threads worker threads of the CPU backend (0: one per core)
     * \param int8_scale LLR = int8 value x int8_scale, for int8 input
     */
    explicit turbo_batch_kernel(const turbo_config& cfg, int cpu_threads = 0, float int8_scale = 1.0f);
    size_t scratch_bytes(size_t max_frames) const override;
    void run_cpu(const batch_view& batch) override;
    void enqueue_cuda(const batch_view& dev, const frame_desc* host_frames, void* stream) override;
    const turbo_config& config() const { return d_cfg; }

    static int frame_K(const frame_desc& f) { return int(f.param & 0x1FFFu); }

private:
    void decode_one(const batch_view& b, size_t f, size_t worker);
    // Fixed point: frames [first, first + n) of one K and input type, as
    // SIMD lanes.
    void decode_lanes(const batch_view& b, size_t first, size_t n, size_t worker);

    turbo_config d_cfg;
    float d_int8_scale;
    size_t d_threads;
    std::vector<std::unique_ptr<turbo_decoder_cpu>> d_decoders;
    std::vector<std::vector<std::vector<int>>> d_quant; // [worker][lane] quantised LLRs
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

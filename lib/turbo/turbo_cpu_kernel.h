/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The LTE turbo decoder's CPU implementations as a pipeline kernel: frames of
// 3K+12 LLRs (float32, or int8 per turbo::frame_params::input); output K hard
// bits (+ K soft LLRs with soft_output). Frames of different K may share a
// batch.
//   cpu-float         one codeword per worker, float arithmetic (log-MAP and
//                     max-log-MAP): the family's reference
//   cpu-fixed16-simd  16-bit fixed point, 16 codewords per SIMD vector (AVX2
//                     where the CPU has it, else SSE2 / generic vectors)
//   cpu-window16-simd 16-bit fixed point, one codeword per SIMD vector in 16
//                     windows (turbo_window_decoder.h): the fast one
#ifndef INCLUDED_GPURX_TURBO_TURBO_CPU_KERNEL_H
#define INCLUDED_GPURX_TURBO_TURBO_CPU_KERNEL_H

#include "pipeline/batch_kernel.h"
#include "turbo/turbo_config.h"
#include "turbo/turbo_decoder_cpu.h"
#include "turbo/turbo_frame.h"
#include "turbo/turbo_window_decoder.h"

#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

class turbo_cpu_kernel final : public cpu_kernel
{
public:
    enum class kind { float_one, fixed_lanes, window };
    /*!
     * \param cfg the decoder
     * \param k cpu-float (float_one), cpu-fixed16-simd (fixed_lanes) or
     *   cpu-window16-simd (window); the fixed-point ones need
     *   cfg.uses_fixed_point()
     * \param int8_scale LLR = int8 value x int8_scale, for int8 input
     */
    turbo_cpu_kernel(const turbo_config& cfg, kind k, float int8_scale = 1.0f);
    //! The kind cfg selects among the first two (the CUDA twins).
    static kind twin_of(const turbo_config& cfg)
    {
        return cfg.uses_fixed_point() ? kind::fixed_lanes : kind::float_one;
    }
    const char* name() const override;
    size_t scratch_bytes(size_t max_frames) const override;
    void run(const batch_view& batch, worker_pool& pool) override;
    const turbo_config& config() const { return d_cfg; }

private:
    // One worker's decoder and quantisation buffers, made on first use.
    struct worker_state {
        std::unique_ptr<turbo_decoder_cpu> decoder;
        std::unique_ptr<turbo_window_decoder> window;
        std::vector<std::vector<int>> quant; // [lane] quantised LLRs
        std::vector<float> convert;          // int8 input as float (coded output)
    };
    worker_state& state(size_t worker);
    void decode_one(const batch_view& b, size_t f, worker_state& w);
    // Fixed point: frames [first, first + n) of one K and input type, as
    // SIMD lanes.
    void decode_lanes(const batch_view& b, size_t first, size_t n, worker_state& w);
    // cpu-window16-simd: frames [first, first + n) of one K and input type,
    // as many as one vector takes.
    void decode_window(const batch_view& b, size_t first, size_t n, worker_state& w);

    turbo_config d_cfg;
    kind d_kind;
    std::string d_name;
    float d_int8_scale;
    std::vector<worker_state> d_workers;
    std::vector<std::pair<size_t, size_t>> d_runs; // work items of the current batch
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

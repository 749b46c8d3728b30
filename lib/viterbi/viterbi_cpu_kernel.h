/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The Viterbi decoders as a pipeline kernel: a frame's input is its punctured
// coded bits (float32 LLRs or hard bytes, per viterbi::frame_params::input);
// its output frame_bits decoded bits, one per byte. Frames of different
// lengths and input kinds may share a batch; the pool's workers take frames
// in turn, each with its own decoder.
//   cpu-reference  full-frame Viterbi (viterbi_reference.h): the reference
//   cpu-tiled      Lin et al.'s tiled decoder (viterbi_tiled.h)
//   cpu-simd       full-frame Viterbi in SIMD lanes (viterbi_simd.h); int8
//                  and hard frames go to its integer path as int8, never
//                  through floats
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_CPU_KERNEL_H
#define INCLUDED_GPURX_VITERBI_VITERBI_CPU_KERNEL_H

#include "pipeline/batch_kernel.h"
#include "viterbi/viterbi_config.h"
#include "viterbi/viterbi_decoder.h"
#include "viterbi/viterbi_simd.h"

#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

enum class viterbi_cpu_algorithm { reference, tiled, simd };

class viterbi_cpu_kernel final : public cpu_kernel
{
public:
    //! Throws for an invalid cfg.
    viterbi_cpu_kernel(const viterbi_config& cfg, viterbi_cpu_algorithm algorithm);
    //! The registry name; cpu-simd adds the instruction set it runs, so the
    //! block's "pipeline on ..." log line records the choice.
    const char* name() const override { return d_name.c_str(); }
    void run(const batch_view& batch, worker_pool& pool) override;

private:
    struct worker_state {
        std::unique_ptr<viterbi_decoder> decoder;
        viterbi_simd* simd = nullptr; // decoder, when it is cpu-simd
        std::vector<float> llr;       // the frame depunctured
        std::vector<int8_t> llr8;     // the same, int8 / hard frames for cpu-simd
    };
    worker_state& state(size_t worker);
    void decode_one(const batch_view& b, size_t f, worker_state& w) const;

    viterbi_config d_cfg;
    viterbi_code d_code;
    viterbi_cpu_algorithm d_algorithm;
    std::string d_name;
    std::vector<worker_state> d_workers;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

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
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_CPU_KERNEL_H
#define INCLUDED_GPURX_VITERBI_VITERBI_CPU_KERNEL_H

#include "pipeline/batch_kernel.h"
#include "viterbi/viterbi_config.h"
#include "viterbi/viterbi_decoder.h"

#include <memory>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

class viterbi_cpu_kernel final : public cpu_kernel
{
public:
    //! \p tiled: cpu-tiled, else cpu-reference. Throws for an invalid cfg.
    viterbi_cpu_kernel(const viterbi_config& cfg, bool tiled);
    const char* name() const override { return d_tiled ? "cpu-tiled" : "cpu-reference"; }
    void run(const batch_view& batch, worker_pool& pool) override;

private:
    struct worker_state {
        std::unique_ptr<viterbi_decoder> decoder;
        std::vector<float> llr; // the frame depunctured
    };
    worker_state& state(size_t worker);
    void decode_one(const batch_view& b, size_t f, worker_state& w) const;

    viterbi_config d_cfg;
    viterbi_code d_code;
    bool d_tiled;
    std::vector<worker_state> d_workers;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

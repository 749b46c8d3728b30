/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The stream decoder on the CPU (cpu-stream): every window of every frame of
// a batch (viterbi_stream.h) decoded by the pool's workers in turn, each
// window a plain Viterbi run with its decisions kept from its payload on.
// Metrics in double, as the family's other CPU decoders.
#ifndef INCLUDED_GPURX_VITERBI_VITERBI_STREAM_CPU_KERNEL_H
#define INCLUDED_GPURX_VITERBI_VITERBI_STREAM_CPU_KERNEL_H

#include "pipeline/batch_kernel.h"
#include "viterbi/viterbi_stream.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {

class viterbi_stream_cpu_kernel final : public cpu_kernel
{
public:
    //! Throws for an invalid cfg, naming the field.
    explicit viterbi_stream_cpu_kernel(const viterbi_stream_config& cfg);
    const char* name() const override { return "cpu-stream"; }
    void run(const batch_view& batch, worker_pool& pool) override;

private:
    struct workspace {
        std::vector<float> llr;       // the window's steps, depunctured
        std::vector<double> metric, next, bm;
        std::vector<uint8_t> decisions; // [step from begin][state]
    };
    struct window_ref {
        size_t frame;
        int index;
    };
    void decode_window(const batch_view& b, const window_ref& w, workspace& ws) const;

    viterbi_stream_config d_cfg;
    viterbi_code d_code;
    std::vector<workspace> d_workspaces;
    std::vector<window_ref> d_windows;
};

/*!
 * Depunctured LLRs of the steps [first, first + steps) of a frame whose
 * step 0 has puncture phase \p phase: n per step, 0 where punctured; hard
 * bits as +-1, int8 LLRs as they are.
 */
void stream_depuncture(const viterbi_code& code,
                       const uint8_t* in,
                       viterbi::input_kind input,
                       int phase,
                       int first,
                       int steps,
                       float* out);

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

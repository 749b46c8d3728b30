/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The OFDM channel estimator on the CPU backend, cpu-ls: per frame,
// estimate_mimo_channel (least squares and the residual in double) and the
// data symbols' y vectors reordered for the detector; frames spread over the
// engine's workers.
#ifndef INCLUDED_GPURX_OFDM_CHANEST_CPU_KERNEL_H
#define INCLUDED_GPURX_OFDM_CHANEST_CPU_KERNEL_H

#include "ofdm/chanest_config.h"
#include "ofdm/mimo_training.h"
#include "pipeline/batch_kernel.h"

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

class chanest_cpu_kernel final : public cpu_kernel
{
public:
    //! Throws std::invalid_argument as chanest_config::validate().
    explicit chanest_cpu_kernel(const chanest_config& cfg);
    const char* name() const override { return "cpu-ls"; }
    void run(const batch_view& batch, worker_pool& pool) override;

    //! One frame of \p p from host memory (chanest_frame.h's layout); a
    //! frame the configuration cannot run comes out as zeros, CHANEST_BAD_FRAME.
    chanest_frame_result estimate_frame(const chanest_frame_params& p,
                                        const frame_desc& d,
                                        const uint8_t* in,
                                        uint8_t* out) const;

private:
    chanest_config d_cfg;
    mimo_training d_tr; // the configuration's; other shapes make their own
};

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The transport-block decoder on the CPU as a pipeline kernel ("cpu-sch"):
// frames are TBs (G LLRs in, tbs bits out, sch::frame_result), decoded in
// the steps of sch_steps.h by the worker pool, the code blocks by the turbo
// family's CPU kernel. The HARQ soft buffers are host memory owned here.
#ifndef INCLUDED_GPURX_SCH_SCH_CPU_KERNEL_H
#define INCLUDED_GPURX_SCH_SCH_CPU_KERNEL_H

#include "pipeline/batch_kernel.h"
#include "sch/sch_batch.h"
#include "sch/sch_config.h"
#include "sch/sch_rate_match.h"

#include <cstdlib>
#include <memory>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

class sch_cpu_kernel final : public cpu_kernel
{
public:
    explicit sch_cpu_kernel(const sch_config& cfg);
    const char* name() const override { return "cpu-sch"; }
    size_t scratch_bytes(size_t max_frames) const override;
    void run(const batch_view& batch, worker_pool& pool) override;
    //! The turbo implementation decoding the code blocks.
    const char* turbo_name() const { return d_turbo_b->name(); }

private:
    sch_config d_cfg;
    std::unique_ptr<cpu_kernel> d_turbo_a; //!< TBs of one code block (CRC24A stop)
    std::unique_ptr<cpu_kernel> d_turbo_b; //!< the others (CRC24B stop)
    //! harq_buffers x soft_buffer_llrs(), zero. calloc'd rather than a
    //! vector: a large calloc gets the kernel's zero pages, so a pool sized
    //! for many UEs costs nothing until its buffers are used.
    std::unique_ptr<int16_t, void (*)(void*)> d_soft{ nullptr, std::free };
    sch::circular_order_cache d_orders;
    sch::cb_list d_cbs;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

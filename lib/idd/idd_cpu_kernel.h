/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The IDD receiver on the CPU as a pipeline kernel ("cpu-idd"): the MIMO
// family's CPU kernel and the transport decoder's ("cpu-sch") composed on
// the batch's working memory (idd_batch.h), pass after pass. Each pass
// detects and decodes only the TBs whose CRC has not yet checked.
#ifndef INCLUDED_GPURX_IDD_IDD_CPU_KERNEL_H
#define INCLUDED_GPURX_IDD_IDD_CPU_KERNEL_H

#include "idd/idd_batch.h"
#include "idd/idd_config.h"
#include "pipeline/batch_kernel.h"

#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

class idd_cpu_kernel final : public cpu_kernel
{
public:
    explicit idd_cpu_kernel(const mimo_idd_config& cfg);
    const char* name() const override { return "cpu-idd"; }
    size_t scratch_bytes(size_t max_frames) const override;
    void run(const batch_view& batch, worker_pool& pool) override;
    //! The implementations composed: the detector's and the decoder's.
    std::string parts() const;

private:
    idd::batch_layout layout(size_t max_frames) const;

    mimo_idd_config d_cfg;
    std::unique_ptr<cpu_kernel> d_det, d_sch;
    // The TBs a pass runs, compacted: their records.
    std::vector<frame_desc> d_det_desc, d_sch_desc;
    std::vector<mimo::frame_params> d_det_params;
    std::vector<sch::frame_params> d_sch_params;
    std::vector<mimo::frame_result> d_det_res;
    std::vector<sch::frame_result> d_sch_res;
};

namespace idd {

//! The TB's detector input with prior slots: its channels' H and vectors
//! from \p in (apriori 0), zeros as priors. \p p: apriori 1.
void expand_input(const mimo::frame_params& p, const uint8_t* in, uint8_t* det_in);
//! The decoder's G extrinsic LLRs \p ext into the prior slots of \p det_in.
void feed_back(const mimo::frame_params& p, const float* ext, uint8_t* det_in);

} // namespace idd

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/sch/sch_harq_admission.h"

#include <stdexcept>

namespace gr {
namespace gpurx {

namespace sch = core::sch;

bool sch_harq_admission::must_wait(const frame_shape& shape) const
{
    return d_pool.must_wait(shape.note_as<sch::harq_request>());
}

void sch_harq_admission::admit(const frame_shape& shape, void* params, admission_report& report)
{
    const auto req = shape.note_as<sch::harq_request>();
    // params is the TB's record in the pipeline, as staged: only its soft
    // buffer and whether to combine change.
    auto* p = static_cast<sch::frame_params*>(params);
    const auto d = d_pool.assign(req, *p);
    p->harq_slot = d.slot;
    p->combine = d.combine ? 1 : 0;
    d_admitted.push_back({ d.slot, d.transmissions, d.duplicate, req });
    report.error = d.error;
    // A duplicate (its ACK was lost) is already in the batch: it runs, alone,
    // and leaves marked duplicate=True, for the consumer not to count it twice.
    if (d.duplicate)
        report.error = "duplicate: rnti " + std::to_string(req.rnti) + ", harq_process " +
                       std::to_string(req.harq_process) + ", tb " + std::to_string(req.tb_index) +
                       " was delivered already with this ndi and tbs";
    if (!d.evicted.empty())
        report.info = "HARQ: all " + std::to_string(d_pool.buffers()) +
                      " soft buffers in use: the least recently used one (" + d.evicted +
                      ") is evicted for cell " + std::to_string(req.cell_id) + ", rnti " +
                      std::to_string(req.rnti) + ", harq_process " + std::to_string(req.harq_process) +
                      ", tb " + std::to_string(req.tb_index);
}

void sch_harq_admission::completed(const core::completed_frame& f, frame_meta& meta)
{
    if (d_admitted.empty())
        throw std::logic_error("sch_harq_admission: a frame left that was never admitted");
    const admitted a = d_admitted.front();
    d_admitted.pop_front();
    const auto* r = f.result_as<sch::frame_result>();
    const bool ok = r && r->crc_ok == 1;
    if (a.slot >= 0)
        d_pool.completed(a.slot, ok);
    else if (!a.duplicate)
        d_pool.delivered_alone(a.req, ok);
    meta.emplace_back(pmt::mp("transmissions"), pmt::from_long(a.transmissions));
    if (a.duplicate)
        meta.emplace_back(pmt::mp("duplicate"), pmt::PMT_T);
}

} // namespace gpurx
} // namespace gr

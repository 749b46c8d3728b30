/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/sch/sch_harq_admission.h"

#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpurx {

namespace sch = core::sch;

sch_harq_note harq_note_of(const sch::tb_request& r)
{
    return { r.rnti, r.harq_process, r.codeword, r.ndi, r.tbs, r.harq_reset ? 1 : 0 };
}

namespace {
// harq_pool reads only the key, ndi, tbs and harq_reset of a request.
sch::tb_request request_of(const sch_harq_note& n)
{
    sch::tb_request r;
    r.rnti = n.rnti;
    r.harq_process = n.harq_process;
    r.codeword = n.codeword;
    r.ndi = n.ndi;
    r.tbs = n.tbs;
    r.harq_reset = n.reset != 0;
    return r;
}
} // namespace

bool sch_harq_admission::must_wait(const frame_shape& shape) const
{
    return d_pool.must_wait(request_of(shape.note_as<sch_harq_note>()));
}

void sch_harq_admission::admit(const frame_shape& shape, void* params, admission_report& report)
{
    const auto note = shape.note_as<sch_harq_note>();
    auto p = shape.params_as<sch::frame_params>();
    const auto d = d_pool.assign(request_of(note), p);
    p.harq_slot = d.slot;
    p.combine = d.combine ? 1 : 0;
    std::memcpy(params, &p, sizeof(p));
    d_admitted.push_back({ d.slot, d.transmissions });
    report.error = d.error;
    if (!d.evicted.empty())
        report.info = "HARQ: all " + std::to_string(d_pool.buffers()) +
                      " soft buffers in use: the least recently used one (" + d.evicted +
                      ") is evicted for rnti " + std::to_string(note.rnti) + ", harq_process " +
                      std::to_string(note.harq_process) + ", codeword " +
                      std::to_string(note.codeword);
}

void sch_harq_admission::completed(const core::completed_frame& f, frame_meta& meta)
{
    if (d_admitted.empty())
        throw std::logic_error("sch_harq_admission: a frame left that was never admitted");
    const admitted a = d_admitted.front();
    d_admitted.pop_front();
    const auto* r = f.result_as<sch::frame_result>();
    d_pool.completed(a.slot, r && r->crc_ok == 1);
    meta.emplace_back(pmt::mp("transmissions"), pmt::from_long(a.transmissions));
}

} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// For the PDSCH tests only: the transport blocks of received grants through
// the project's DL-SCH decoder (CPU pipeline, no HARQ combining), as
// lib/sch/tests/test_sch.cc runs it. The receiver will have its own
// HARQ-aware decoder.
#ifndef INCLUDED_GPURX_LTE_PDSCH_TESTS_PDSCH_TEST_DECODE_H
#define INCLUDED_GPURX_LTE_PDSCH_TESTS_PDSCH_TEST_DECODE_H

#include "lte/pdsch/pdsch_grant.h"
#include "lte/pdsch/pdsch_receiver.h"
#include "pipeline/batch_pipeline.h"
#include "sch/sch_frame.h"
#include "sch/sch_implementations.h"
#include "sch/sch_params.h"
#include "test_util.h"
#include "turbo/turbo_frame.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace test {

//! The decoder's request for codeword \p q of \p g as received into \p r.
inline core::sch::tb_request pdsch_tb_request(const core::lte::pdsch_grant& g,
                                              const core::lte::pdsch_llrs& r,
                                              int q,
                                              int cell_id,
                                              int subframe)
{
    const core::lte::pdsch_tb& t = g.tb[size_t(r.tb[size_t(q)])];
    core::sch::tb_request req;
    req.channel = core::sch::DLSCH;
    req.tbs = t.tbs;
    req.rv = t.rv;
    req.qm = t.qm;
    req.g = r.g[size_t(q)];
    req.rnti = g.rnti;
    req.cell_id = cell_id;
    req.subframe = subframe;
    req.codeword = q;
    req.nl = r.nl[size_t(q)];
    req.harq_process = t.harq_process;
    req.ndi = t.ndi;
    return req;
}

struct decoded_tb {
    std::vector<uint8_t> bits; //!< the TB, one bit per byte
    bool crc_ok = false;
};

//! Decodes every request with its LLRs (float, G each), in order.
inline std::vector<decoded_tb> decode_tbs(const std::vector<core::sch::tb_request>& reqs,
                                          const std::vector<std::vector<float>>& llrs)
{
    core::sch_config cfg;
    cfg.harq_buffers = 0;
    auto reg = core::sch_registry();
    const auto choice = reg.choose(cfg);
    auto pc = test_pipeline_config(core::sch::frame_types_of(), 8);
    pc.max_in_bytes = size_t(cfg.max_g) * sizeof(float);
    pc.max_out_bytes = size_t(cfg.max_tbs);
    auto pipe = core::make_pipeline(reg.factories(cfg, choice), cpu_backend(), pc);
    std::vector<decoded_tb> out;
    auto run = run_frames(*pipe, [&](const core::completed_frame& f) {
        decoded_tb d;
        d.bits.assign(f.data, f.data + f.out_bytes);
        d.crc_ok = f.result_as<core::sch::frame_result>()->crc_ok != 0;
        out.push_back(std::move(d));
    });
    for (size_t i = 0; i < reqs.size(); i++) {
        auto p = core::sch::frame_params_of(reqs[i]);
        p.input = core::turbo::INPUT_FLOAT32;
        run.submit(llrs[i].data(), llrs[i].size() * sizeof(float), size_t(p.tbs), &p);
    }
    run.finish("decode_tbs");
    return out;
}

} // namespace test
} // namespace gpurx
} // namespace gr

#endif

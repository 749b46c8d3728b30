/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "lte/dlsch/dlsch_decoder.h"

#include "pipeline/backend.h"
#include "sch/sch_implementations.h"
#include "sch/sch_params.h"
#include "turbo/turbo_frame.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

struct dlsch_decoder::pending {
    dlsch_result res;
    std::vector<float> llr; //!< kept until the pipeline has read it
    bool done = false;
    int slot = -1;          //!< the HARQ soft buffer, or -1: decoded alone
    sch::harq_request harq{};
};

namespace {

[[noreturn]] void refuse(const char* name, long v, const char* why)
{
    throw std::invalid_argument(std::string(name) + "=" + std::to_string(v) + " " + why);
}

} // namespace

dlsch_decoder::dlsch_decoder(const dlsch_decoder_options& o) : d_o(o), d_harq(o.harq_buffers)
{
    if (o.ue_category < 0 || o.ue_category > 12)
        refuse("ue_category", o.ue_category, "is not a UE category 1..12 (0: no soft-buffer limit)");
    if (o.tm < 1 || o.tm > 10)
        refuse("tm", o.tm, "is not a transmission mode 1..10");
    sch_config cfg;
    cfg.harq_buffers = o.harq_buffers;
    cfg.max_tbs = o.max_tbs;
    cfg.max_g = o.max_g;
    cfg.validate();
    const auto where = select_backend(o.backend, o.devices);
    d_kind = where.kind;
    d_backend_line = where.reason;
    auto reg = sch_registry();
    const auto choice = reg.choose(cfg);
    pipeline_config pc;
    pc.types = sch::frame_types_of();
    pc.slots = 3;
    pc.max_batch = o.max_batch;
    pc.max_in_bytes = size_t(o.max_g) * sizeof(float);
    pc.max_out_bytes = size_t(o.max_tbs);
    pc.flush_timeout = std::chrono::microseconds(1000);
    pc.cpu_threads = o.cpu_threads;
    d_pipe = make_pipeline(reg.factories(cfg, choice), where, pc);
}

dlsch_decoder::~dlsch_decoder()
{
    if (d_pipe)
        d_pipe->drain();
}

int dlsch_decoder::process_tbs(int cell_id, int rnti, int harq_process, int tb_index) const
{
    auto it = d_first_tbs.find(key{ cell_id, rnti, harq_process, tb_index });
    return it == d_first_tbs.end() ? 0 : it->second;
}

bool dlsch_decoder::on_cuda() const { return d_kind == backend_kind::cuda; }

void dlsch_decoder::submit(dlsch_tb tb)
{
    auto p = std::make_unique<pending>();
    p->llr = std::move(tb.llr);
    tb.llr.clear();
    p->res.tb = tb;
    pending& e = *p;
    d_pending.push_back(std::move(p));
    auto fail = [&](const std::string& why) {
        e.res.error = why;
        e.done = true;
    };
    if (tb.rnti < 0 || tb.rnti > 65535)
        return fail("rnti=" + std::to_string(tb.rnti) + " is outside 0..65535");
    if (tb.tb_index != 0 && tb.tb_index != 1)
        return fail("tb_index=" + std::to_string(tb.tb_index) + " is not 0 or 1");
    if (tb.harq_process < 0 || tb.harq_process > 15)
        return fail("harq_process=" + std::to_string(tb.harq_process) + " is outside 0..15");
    const key k{ tb.cell_id, tb.rnti, tb.harq_process, tb.tb_index };
    // MCS 29..31: the TBS of the process's TB as first sent.
    if (tb.tbs == 0) {
        auto it = d_first_tbs.find(k);
        if (it == d_first_tbs.end())
            return fail("mcs=" + std::to_string(tb.mcs) +
                        " gives no TBS and this HARQ process has no first transmission to take it from");
        tb.tbs = it->second;
        e.res.tb.tbs = tb.tbs;
    } else {
        d_first_tbs[k] = tb.tbs;
    }
    sch::tb_request req;
    req.channel = sch::DLSCH;
    req.tbs = tb.tbs;
    req.rv = tb.rv;
    req.qm = tb.qm;
    req.g = int(e.llr.size());
    req.rnti = tb.rnti;
    req.cell_id = tb.cell_id;
    req.subframe = tb.subframe;
    req.harq_process = tb.harq_process;
    req.ndi = tb.ndi;
    req.codeword = tb.codeword;
    req.tb_index = tb.tb_index;
    req.nl = tb.nl;
    if (d_o.ue_category > 0) {
        const auto sb = soft_buffer_of(d_o.ue_category, d_o.tm);
        req.n_soft = sb.n_soft;
        req.kc = sb.kc;
        req.k_mimo = sb.k_mimo;
        req.m_dl_harq = sb.m_dl_harq;
        req.m_limit = sb.m_limit;
    }
    if (req.tbs > d_o.max_tbs)
        return fail("tbs=" + std::to_string(req.tbs) + " is above max_tbs=" + std::to_string(d_o.max_tbs));
    if (req.g > d_o.max_g)
        return fail("G=" + std::to_string(req.g) + " is above max_g=" + std::to_string(d_o.max_g));
    sch::frame_params fp;
    try {
        fp = sch::frame_params_of(req);
    } catch (const std::invalid_argument& ex) {
        return fail(ex.what());
    }
    e.harq = sch::harq_request_of(req);
    if (d_harq.must_wait(e.harq)) { // its previous transmission is in flight
        d_pipe->drain();
        collect(false);
    }
    const auto d = d_harq.assign(e.harq, fp);
    if (d.duplicate) {
        e.res.duplicate = true;
        return fail("duplicate: delivered already with ndi " + std::to_string(tb.ndi) + " and tbs " +
                    std::to_string(tb.tbs) + " (its ACK was lost): not decoded again");
    }
    e.res.error = d.error;
    e.res.transmissions = d.transmissions;
    e.slot = d.slot;
    fp.harq_slot = d.slot;
    fp.combine = d.combine ? 1 : 0;
    fp.input = turbo::INPUT_FLOAT32;
    while (!d_pipe->can_accept())
        collect(true);
    d_pipe->submit(e.llr.data(), e.llr.size() * sizeof(float), size_t(tb.tbs), &fp, d_next);
    e.res.decoded = true;
    d_next++;
}

void dlsch_decoder::collect(bool block)
{
    while (const auto* f = d_pipe->front(block)) {
        block = false;
        // Frames leave in submission order: the next pending one that is
        // in the pipeline and not done.
        while (d_head < d_pending.size() && (d_pending[d_head]->done || !d_pending[d_head]->res.decoded))
            d_head++;
        if (d_head == d_pending.size())
            throw std::logic_error("dlsch_decoder: a frame left that was not pending");
        pending* e = d_pending[d_head].get();
        const auto* r = f->result_as<sch::frame_result>();
        const bool ok = !f->rejected && r && r->crc_ok == 1;
        e->res.crc_ok = ok;
        e->res.iterations = r ? r->iterations : 0;
        if (f->rejected)
            e->res.error = "rejected by the decoder";
        e->res.bits.assign(f->data, f->data + f->out_bytes);
        if (e->slot >= 0)
            d_harq.completed(e->slot, ok);
        else
            d_harq.delivered_alone(e->harq, ok);
        e->llr.clear();
        e->llr.shrink_to_fit();
        e->done = true;
        d_pipe->pop();
    }
}

std::vector<dlsch_result> dlsch_decoder::take()
{
    d_pipe->drain();
    collect(false);
    std::vector<dlsch_result> out;
    out.reserve(d_pending.size());
    for (auto& p : d_pending) {
        if (!p->done)
            throw std::logic_error("dlsch_decoder: a TB is still pending after drain");
        out.push_back(std::move(p->res));
    }
    d_pending.clear();
    d_head = 0;
    return out;
}

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/lte/lte_dl_messages.h"

#include <cstdio>

namespace gr {
namespace gpurx {

namespace lte = core::lte;

namespace {
pmt::pmt_t add(pmt::pmt_t d, const char* k, long v) { return pmt::dict_add(d, pmt::mp(k), pmt::from_long(v)); }
pmt::pmt_t add(pmt::pmt_t d, const char* k, double v) { return pmt::dict_add(d, pmt::mp(k), pmt::from_double(v)); }
pmt::pmt_t add(pmt::pmt_t d, const char* k, bool v) { return pmt::dict_add(d, pmt::mp(k), pmt::from_bool(v)); }
pmt::pmt_t add(pmt::pmt_t d, const char* k, const std::string& v)
{
    return pmt::dict_add(d, pmt::mp(k), pmt::string_to_symbol(v));
}
} // namespace

pmt::pmt_t tb_pdu(const lte::downlink_tb& t)
{
    pmt::pmt_t m = pmt::make_dict();
    m = add(m, "sfn", long(t.tb.sfn));
    m = add(m, "subframe", long(t.tb.subframe));
    m = add(m, "cell_id", long(t.tb.cell_id));
    m = add(m, "rnti", long(t.tb.rnti));
    m = add(m, "dci_format", t.tb.dci_format);
    m = add(m, "mcs", long(t.tb.mcs));
    m = add(m, "tbs", long(t.tb.tbs));
    m = add(m, "rv", long(t.tb.rv));
    m = add(m, "ndi", long(t.tb.ndi));
    m = add(m, "harq_process", long(t.tb.harq_process));
    m = add(m, "tb", long(t.tb.tb_index));
    m = add(m, "crc_ok", t.crc_ok);
    m = add(m, "iterations", long(t.iterations));
    m = add(m, "transmissions", long(t.transmissions));
    m = add(m, "duplicate", t.duplicate);
    if (!t.decoded && !t.duplicate && !t.error.empty())
        m = add(m, "error", t.error);
    const bool with_bits = t.decoded && !t.duplicate;
    return pmt::cons(m, with_bits ? pmt::init_u8vector(t.bits.size(), t.bits) : pmt::make_u8vector(0, 0));
}

pmt::pmt_t subframe_dict(const lte::subframe_report& r)
{
    pmt::pmt_t d = pmt::make_dict();
    d = add(d, "sfn", long(r.sfn));
    d = add(d, "subframe", long(r.subframe));
    d = add(d, "outcome", std::string(lte::subframe_outcome_name(r.outcome)));
    d = add(d, "cfi", long(r.cfi));
    d = add(d, "dcis", long(r.dcis));
    d = add(d, "pdschs", long(r.pdschs));
    d = add(d, "cfo_hz", r.cfo_hz);
    d = add(d, "noise_var", double(r.noise_var));
    d = add(d, "reason", r.reason);
    return d;
}

pmt::pmt_t status_dict(const lte_dl_status& s)
{
    pmt::pmt_t d = pmt::make_dict();
    d = add(d, "state", s.state);
    d = add(d, "reason", s.reason);
    d = add(d, "backend", s.backend);
    d = add(d, "sample_rate", s.sample_rate);
    d = add(d, "n_rx", long(s.n_rx));
    if (s.have_cell) {
        const auto& c = s.acq.c;
        d = add(d, "cell_id", long(c.cell_id));
        d = add(d, "n_prb", long(c.n_prb));
        d = add(d, "ports", long(c.ports));
        d = add(d, "cp", std::string(c.cp == lte::cyclic_prefix::normal ? "normal" : "extended"));
        d = add(d, "cfo_hz", s.acq.cfo_hz);
        d = add(d, "sfn", long(s.acq.sfn));
    }
    return d;
}

std::string cell_line(const lte::acquisition_result& a)
{
    char buf[200];
    std::snprintf(buf, sizeof buf, "cell %d: %d PRB, %d port(s), %s CP, CFO %.0f Hz, SFN %d", a.c.cell_id, a.c.n_prb,
                  a.c.ports, a.c.cp == lte::cyclic_prefix::normal ? "normal" : "extended", a.cfo_hz, a.sfn);
    return buf;
}

} // namespace gpurx
} // namespace gr

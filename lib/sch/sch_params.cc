/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "sch/sch_params.h"
#include "sch/sch_arith.h"
#include "turbo/lte_qpp.h"

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

namespace {

std::string bad(const char* field, long value, const std::string& why)
{
    return std::string(field) + "=" + std::to_string(value) + ": " + why;
}

//! The smallest K of Table 5.1.3-3 with C K >= B', and the next smaller one.
int smallest_K_at_least(int k)
{
    for (const auto& row : lte_qpp_table())
        if (row.K >= k)
            return row.K;
    return 0;
}
int largest_K_below(int k)
{
    int best = 0;
    for (const auto& row : lte_qpp_table())
        if (row.K < k)
            best = row.K;
    return best;
}

} // namespace

std::string tb_request::check() const
{
    if (channel != DLSCH && channel != ULSCH)
        return bad("channel", channel, "must be dlsch or ulsch");
    if (tbs < 1 || tbs > MAX_TBS)
        return bad("tbs", tbs, "must be in 1.." + std::to_string(MAX_TBS));
    if (rv < 0 || rv > 3)
        return bad("rv", rv, "must be in 0..3");
    if (qm != 2 && qm != 4 && qm != 6 && qm != 8)
        return bad("qm", qm, "must be 2, 4, 6 or 8");
    if (rnti < 0 || rnti > 65535)
        return bad("rnti", rnti, "must be in 0..65535");
    if (cell_id < 0 || cell_id > 503)
        return bad("cell_id", cell_id, "must be in 0..503");
    if (subframe < 0 || subframe > 9)
        return bad("subframe", subframe, "must be in 0..9");
    if (codeword < 0 || codeword > 1)
        return bad("codeword", codeword, "must be 0 or 1");
    if (nl != 1 && nl != 2)
        return bad("nl", nl, "must be 1 or 2");
    if (channel == ULSCH && nl != 1)
        return bad("nl", nl, "must be 1 on the uplink");
    if (n_soft < 0)
        return bad("n_soft", n_soft, "must be >= 0 (0: no soft-buffer limit)");
    // 36.212 §5.1.4.1.2's values: K_C is 1, 3/2 (not representable here),
    // 2, 3 or 5; K_MIMO 1 or 2; M_DL_HARQ at most 15 (TDD, 36.213 Table
    // 7-1); M_limit is 8. Bounded, their product cannot overflow N_IR's
    // divisor to zero.
    if (kc < 1 || kc > 5)
        return bad("kc", kc, "must be in 1..5");
    if (k_mimo < 1 || k_mimo > 2)
        return bad("k_mimo", k_mimo, "must be 1 or 2");
    if (m_dl_harq < 1 || m_dl_harq > 15)
        return bad("m_dl_harq", m_dl_harq, "must be in 1..15");
    if (m_limit < 1 || m_limit > 8)
        return bad("m_limit", m_limit, "must be in 1..8");
    if (channel == ULSCH && (n_symb < 1 || n_symb > 14)) // uplink only: ignored on the downlink
        return bad("n_symb", n_symb, "must be in 1..14");
    if (g < 1)
        return bad("g", g, "must be >= 1");
    if (g % (nl * qm) != 0)
        return bad("g", g, "must be a multiple of nl*qm = " + std::to_string(nl * qm));
    if (channel == ULSCH && (g / qm) % n_symb != 0)
        return bad("g", g,
                   "G/qm = " + std::to_string(g / qm) + " must be a multiple of n_symb = " +
                       std::to_string(n_symb));
    const int C = segment(tbs).C;
    if (g / (nl * qm) < C)
        return bad("g", g,
                   "too small: each of the " + std::to_string(C) +
                       " code blocks needs at least nl*qm = " + std::to_string(nl * qm) + " bits");
    return {};
}

segmentation segment(int tbs)
{
    if (tbs < 1 || tbs > MAX_TBS)
        throw std::invalid_argument(bad("tbs", tbs, "must be in 1.." + std::to_string(MAX_TBS)));
    segmentation s{};
    s.B = tbs + 24;
    const int Z = lte_max_K;
    int Bp;
    if (s.B <= Z) {
        s.C = 1;
        Bp = s.B;
    } else {
        s.C = (s.B + (Z - 24) - 1) / (Z - 24);
        Bp = s.B + 24 * s.C;
    }
    // B' shorter than the smallest K pads up to 40 (filler bits).
    s.Kp = smallest_K_at_least((Bp + s.C - 1) / s.C);
    if (s.C == 1) {
        s.Cp = 1;
        s.Km = 0;
        s.Cm = 0;
    } else {
        s.Km = largest_K_below(s.Kp);
        const int dK = s.Kp - s.Km;
        s.Cm = (s.C * s.Kp - Bp) / dK;
        s.Cp = s.C - s.Cm;
        if (s.Cm == 0)
            s.Km = 0;
    }
    s.F = s.Cp * s.Kp + s.Cm * s.Km - Bp;
    return s;
}

uint32_t scrambling_seed(const tb_request& r)
{
    const uint32_t base = uint32_t(r.rnti) * (1u << 14) + uint32_t(r.subframe) * (1u << 9) +
                          uint32_t(r.cell_id);
    return r.channel == DLSCH ? base + uint32_t(r.codeword) * (1u << 13) : base;
}

frame_params frame_params_of(const tb_request& req)
{
    const std::string why = req.check();
    if (!why.empty())
        throw std::invalid_argument(why);
    const segmentation s = segment(req.tbs);
    frame_params p{};
    p.tbs = req.tbs;
    p.C = s.C;
    p.Kp = s.Kp;
    p.Km = s.Km;
    p.Cm = s.Cm;
    p.F = s.F;
    const qpp_params qp = lte_qpp(s.Kp);
    p.fp1 = qp.f1;
    p.fp2 = qp.f2;
    if (s.Km) {
        const qpp_params qn = lte_qpp(s.Km);
        p.fm1 = qn.f1;
        p.fm2 = qn.f2;
    }
    p.G = req.g;
    p.qm = req.qm;
    p.nlqm = req.nl * req.qm;
    const int Gp = req.g / p.nlqm;
    p.gamma = Gp % s.C;
    p.E_lo = p.nlqm * (Gp / s.C);
    p.E_hi = p.nlqm * ((Gp + s.C - 1) / s.C);
    // N_cb: the whole circular buffer, or on the downlink the UE's share of
    // its soft buffer when N_soft is given (§5.1.4.1.2).
    auto ncb_of = [&](int K) {
        const int Kw = circular_length(K);
        if (req.channel != DLSCH || req.n_soft == 0)
            return Kw;
        const long n_ir =
            req.n_soft / (long(req.kc) * req.k_mimo * std::min(req.m_dl_harq, req.m_limit));
        return int(std::min<long>(n_ir / s.C, Kw));
    };
    // k0 (§5.1.4.1.2), reduced modulo N_cb here once: with a soft-buffer
    // limit it can pass N_cb, and every consumer wants the position in the
    // circular buffer.
    auto k0_of = [&](int K, int ncb) {
        const int R = subblock_rows(K);
        return R * (2 * ((ncb + 8 * R - 1) / (8 * R)) * req.rv + 2) % ncb;
    };
    p.ncb_p = ncb_of(s.Kp);
    if (s.Km)
        p.ncb_m = ncb_of(s.Km);
    // A soft-buffer limit below K leaves fewer soft bits than information
    // bits per code block: nothing could decode it. Checked before k0,
    // which is reduced modulo N_cb (an N_cb of 0 would divide by zero).
    for (int K : { s.Kp, s.Km }) {
        const int ncb = K == s.Kp ? p.ncb_p : p.ncb_m;
        if (K && ncb < K)
            throw std::invalid_argument(bad("n_soft", req.n_soft,
                                            "leaves N_cb = " + std::to_string(ncb) +
                                                " soft bits per code block of K = " +
                                                std::to_string(K) + ", fewer than K"));
    }
    p.k0_p = k0_of(s.Kp, p.ncb_p);
    if (s.Km)
        p.k0_m = k0_of(s.Km, p.ncb_m);
    p.c_init = scrambling_seed(req);
    p.channel = req.channel;
    p.n_symb = req.n_symb;
    p.input = 0;
    p.harq_slot = -1;
    p.combine = 0;
    return p;
}

channel_kind parse_channel(const std::string& name, const char* param)
{
    if (name == "dlsch")
        return DLSCH;
    if (name == "ulsch")
        return ULSCH;
    throw std::invalid_argument(std::string(param) + "='" + name + "': must be dlsch or ulsch");
}

const char* channel_name(channel_kind c) { return c == ULSCH ? "ulsch" : "dlsch"; }

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "sch/sch_harq.h"

#include <algorithm>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

harq_request harq_request_of(const tb_request& r)
{
    return { r.cell_id, r.rnti, r.harq_process, r.tb_index < 0 ? r.codeword : r.tb_index,
             r.ndi, r.tbs, r.harq_reset ? 1 : 0 };
}

harq_pool::harq_pool(int buffers)
{
    if (buffers < 0)
        throw std::invalid_argument("harq_buffers=" + std::to_string(buffers) + ": must be >= 0");
    d_slots.resize(size_t(buffers));
}

std::string harq_pool::name_of(const key& k)
{
    return "cell " + std::to_string(std::get<0>(k)) + ", rnti " + std::to_string(std::get<1>(k)) +
           ", harq_process " + std::to_string(std::get<2>(k)) + ", tb " + std::to_string(std::get<3>(k));
}

bool harq_pool::same_layout(const slot_state& s, const frame_params& p)
{
    return s.C == p.C && s.Kp == p.Kp && s.Km == p.Km && s.F == p.F && s.ncb_p == p.ncb_p &&
           s.ncb_m == p.ncb_m && s.channel == p.channel;
}

bool harq_pool::must_wait(const harq_request& req) const
{
    auto it = d_keys.find(key_of(req));
    return it != d_keys.end() && d_slots[size_t(it->second)].pending > 0;
}

void harq_pool::take(slot_state& s, const key& k, const harq_request& req, const frame_params& p)
{
    s.used = true;
    s.owner = k;
    s.ndi = req.ndi;
    s.tbs = req.tbs;
    s.transmissions = 1;
    s.C = p.C;
    s.Kp = p.Kp;
    s.Km = p.Km;
    s.F = p.F;
    s.ncb_p = p.ncb_p;
    s.ncb_m = p.ncb_m;
    s.channel = p.channel;
}

harq_pool::decision harq_pool::assign(const harq_request& req, const frame_params& p)
{
    decision d;
    const key k = key_of(req);
    d_clock++;
    auto it = d_keys.find(k);
    if (it != d_keys.end()) {
        slot_state& s = d_slots[size_t(it->second)];
        if (s.pending > 0)
            throw std::logic_error("harq_pool::assign: the buffer of " + name_of(k) +
                                   " is in flight (must_wait)");
        d.slot = it->second;
        s.last_use = d_clock;
        if (req.ndi != s.ndi || req.tbs != s.tbs || req.reset) {
            take(s, k, req, p); // a new TB in this process (or a reset): the old one is discarded
        } else if (!same_layout(s, p)) {
            d.slot = -1;
            d.error = "retransmission of " + name_of(k) +
                      " contradicts its soft buffer (code blocks, N_cb or channel differ): "
                      "decoded alone, not combined";
            return d;
        } else {
            d.combine = true;
            d.transmissions = ++s.transmissions;
        }
        s.pending++;
        return d;
    }
    // No buffer: a TB delivered before, sent again with the same ndi, is a
    // duplicate (its ACK was lost), unless the sender reset the key.
    auto done = d_delivered.find(k);
    if (done != d_delivered.end()) {
        const bool same = done->second.ndi == req.ndi && done->second.tbs == req.tbs;
        d_delivered.erase(done);
        if (same && !req.reset) {
            d.duplicate = true;
            d_delivered[k] = { req.ndi, req.tbs, d_clock };
            return d;
        }
    }
    // A new key: a free buffer, else the least recently used one not in flight.
    int best = -1;
    for (size_t i = 0; i < d_slots.size(); i++) {
        const slot_state& s = d_slots[i];
        if (!s.used) {
            best = int(i);
            break;
        }
        if (s.pending == 0 && (best < 0 || s.last_use < d_slots[size_t(best)].last_use))
            best = int(i);
    }
    if (best < 0)
        return d; // none (harq_buffers = 0, or all in flight): decoded alone
    slot_state& s = d_slots[size_t(best)];
    if (s.used) {
        d.evicted = name_of(s.owner);
        d_keys.erase(s.owner);
    }
    take(s, k, req, p);
    s.last_use = d_clock;
    s.pending = 1;
    d_keys[k] = best;
    d.slot = best;
    return d;
}

void harq_pool::completed(int slot, bool crc_ok)
{
    if (slot < 0 || slot >= int(d_slots.size()))
        return;
    slot_state& s = d_slots[size_t(slot)];
    if (s.pending > 0)
        s.pending--;
    if (crc_ok && s.used && s.pending == 0) {
        remember_delivered(s.owner, s.ndi, s.tbs);
        d_keys.erase(s.owner);
        s = slot_state{};
    }
}

void harq_pool::delivered_alone(const harq_request& req, bool crc_ok)
{
    // No buffers: no HARQ state at all (every TB decoded as it comes).
    if (crc_ok && !d_slots.empty())
        remember_delivered(key_of(req), req.ndi, req.tbs);
}

void harq_pool::remember_delivered(const key& k, int ndi, int tbs)
{
    d_delivered[k] = { ndi, tbs, ++d_clock };
    // Bounded memory: forget the oldest when over the limit.
    const size_t limit = std::max<size_t>(64, d_slots.size());
    if (d_delivered.size() > limit) {
        auto oldest = d_delivered.begin();
        for (auto it = d_delivered.begin(); it != d_delivered.end(); ++it)
            if (it->second.when < oldest->second.when)
                oldest = it;
        d_delivered.erase(oldest);
    }
}

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

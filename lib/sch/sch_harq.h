/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// HARQ bookkeeping of a transport-block decoder: which soft buffer a TB
// goes to and whether it is combined there. The buffers themselves live
// with the kernel (device memory on the GPU, host memory on the CPU); this
// class only hands out their indices, on the host.
//
// Semantics (the blocks' documentation repeats them):
//  - a buffer is keyed by (cell_id, rnti, harq_process, tb_index): the
//    transport block's index, not its codeword q (a lone retransmission of
//    TB 2 goes on codeword 0);
//  - a toggled ndi, or another tbs, starts a new TB in that key's buffer;
//  - so does harq_reset (a request flag, from the PDU's metadata), whatever
//    ndi says: what the buffer held is discarded, never combined (a
//    scale-out front end sets it on the first transmission of a key that
//    comes from another decoder, whose buffer here is stale);
//  - a TB that passes its CRC releases its buffer;
//  - at most `buffers` exist; a new key when all are taken evicts the one
//    used least recently (reported, for a log line);
//  - a retransmission (same ndi and tbs) whose layout contradicts its
//    buffer's (another N_cb, channel, ...) is decoded alone, never combined,
//    and reported;
//  - a retransmission (same ndi and tbs) of a TB that passed its CRC is a
//    duplicate (its ACK was lost): reported (decision::duplicate) so that
//    it is not delivered twice; the pool remembers the last delivered
//    (ndi, tbs) of each of the most recent keys, as many as it has buffers
//    (at least 64). A pool of 0 buffers keeps no HARQ state at all: no
//    combining, no duplicates;
//  - any other retransmission without a buffer (evicted, or never seen) is
//    decoded alone: its first transmission was lost.
#ifndef INCLUDED_GPURX_SCH_SCH_HARQ_H
#define INCLUDED_GPURX_SCH_SCH_HARQ_H

#include "sch/sch_frame.h"
#include "sch/sch_params.h"
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

//! What the pool reads of a TB beside its layout: its buffer's key, and
//! what tells a new TB from a retransmission. Trivially copyable, so a
//! block can carry it beside the kernel record until the TB is admitted.
struct harq_request {
    int32_t cell_id, rnti, harq_process, tb_index; //!< the key
    int32_t ndi, tbs;
    int32_t reset; //!< tb_request::harq_reset
};
harq_request harq_request_of(const tb_request& req);

class harq_pool
{
public:
    explicit harq_pool(int buffers);

    struct decision {
        int slot = -1;         //!< soft buffer, or -1: decode alone
        bool combine = false;  //!< add to the buffer (else start it afresh)
        int transmissions = 1; //!< this one included
        std::string error;     //!< a contradiction, for the errors port
        std::string evicted;   //!< the key evicted to make room, for a log line
        //! A retransmission of a TB already delivered (same ndi and tbs
        //! after a CRC pass): the caller need not decode or deliver it.
        bool duplicate = false;
    };

    //! True when the buffer \p req would use has a TB in flight: the caller
    //! must wait for it (drain) before assign(), or the two would race.
    bool must_wait(const harq_request& req) const;
    bool must_wait(const tb_request& req) const { return must_wait(harq_request_of(req)); }
    //! The soft buffer for TB \p req with layout \p p; marks it in flight.
    decision assign(const harq_request& req, const frame_params& p);
    decision assign(const tb_request& req, const frame_params& p) { return assign(harq_request_of(req), p); }
    //! The TB that was given \p slot has been decoded.
    void completed(int slot, bool crc_ok);
    //! A TB decoded without a buffer (slot -1) has been decoded: one that
    //! passed is remembered, so that a duplicate of it is recognised
    //! (not in a pool of 0 buffers).
    void delivered_alone(const harq_request& req, bool crc_ok);

    int buffers() const { return int(d_slots.size()); }
    int in_use() const { return int(d_keys.size()); }

private:
    using key = std::tuple<int, int, int, int>; // cell_id, rnti, harq_process, tb_index
    struct slot_state {
        bool used = false;
        key owner{};
        int ndi = 0, tbs = 0, transmissions = 0;
        int C = 0, Kp = 0, Km = 0, F = 0, ncb_p = 0, ncb_m = 0, channel = 0;
        int pending = 0;       //!< TBs in flight on it
        uint64_t last_use = 0; //!< for eviction
    };
    static key key_of(const harq_request& r) { return key{ r.cell_id, r.rnti, r.harq_process, r.tb_index }; }
    static bool same_layout(const slot_state& s, const frame_params& p);
    static std::string name_of(const key& k);
    void take(slot_state& s, const key& k, const harq_request& req, const frame_params& p);

    //! What a key's last TB that passed its CRC was, to recognise duplicates.
    struct delivered {
        int ndi, tbs;
        uint64_t when;
    };
    void remember_delivered(const key& k, int ndi, int tbs);

    std::vector<slot_state> d_slots;
    std::map<key, int> d_keys;
    std::map<key, delivered> d_delivered;
    uint64_t d_clock = 0;
};

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

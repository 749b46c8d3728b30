/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// worker_gate's per-PDU rules (docs/scale-out.md, "Workers"), free of GNU
// Radio; the reference model is the Python worker_gate it replaced
// (python/gpurx/scale_out.py before it became C++), rule for rule:
// - a PDU whose "worker_instance" is an integer other than this worker's
//   instance was queued for a predecessor at the same endpoint: stale;
// - one whose rnti, harq_process or codeword is there but not valid
//   (harq_key.h ranges): bad_harq_field (no decoder would take it);
// - else its decoder: shard_key modulo the decoders (Python's modulo: a
//   negative key counts from the top), the key computed from the HARQ
//   fields when "shard_key" is absent or not an integer, decoder 0 when it
//   has neither (that decoder reports what is wrong);
// - with max_queue > 0, a PDU arriving while max_queue PDUs wait for its
//   decoder is dropped (queue_full), and the next PDU of its HARQ key that
//   passes carries harq_reset: its soft buffer missed a transmission.
#ifndef INCLUDED_GPURX_SCALE_OUT_GATE_ROUTER_H
#define INCLUDED_GPURX_SCALE_OUT_GATE_ROUTER_H

#include "scale_out/harq_key.h"
#include "scale_out/meta_int.h"

#include <atomic>
#include <cstdint>
#include <unordered_set>

namespace gr {
namespace gpurx {
namespace scale_out {

//! What the gate reads of a PDU's metadata.
struct gate_pdu {
    meta_int instance;  // "worker_instance"
    meta_int shard_key; // "shard_key"
    bool harq_valid = true; // false: rnti, harq_process or codeword there but not valid
    harq_values harq;   // the fields present (when harq_valid)
};

enum class gate_verdict { stale, bad_harq_field, queue_full, pass };

struct gate_decision {
    gate_verdict verdict;
    unsigned decoder = 0;    // queue_full, pass: the decoder it is (was) for
    bool harq_reset = false; // pass: its HARQ key missed a PDU dropped here
};

class gate_router
{
public:
    static constexpr unsigned max_decoders = 64;

    //! std::invalid_argument naming decoders outside 1..64.
    gate_router(unsigned decoders, uint64_t max_queue, uint64_t instance);

    unsigned decoders() const { return d_n; }
    uint64_t max_queue() const { return d_max_queue; }
    uint64_t instance() const { return d_instance; }

    //! The decoder that takes pdu (its HARQ fields valid).
    unsigned decoder_for(const gate_pdu& pdu) const;

    //! The verdict on one PDU, counted. queue_of(decoder) -> PDUs waiting
    //! for that decoder (the gate's queue included); asked only with
    //! max_queue > 0.
    template <class QueueOf>
    gate_decision admit(const gate_pdu& pdu, QueueOf&& queue_of)
    {
        gate_decision d{ gate_verdict::pass };
        if (is_stale(pdu)) {
            d_stale.fetch_add(1, std::memory_order_relaxed);
            d.verdict = gate_verdict::stale;
            return d;
        }
        if (!pdu.harq_valid) {
            d_bad.fetch_add(1, std::memory_order_relaxed);
            d.verdict = gate_verdict::bad_harq_field;
            return d;
        }
        d.decoder = decoder_for(pdu);
        if (d_max_queue && uint64_t(queue_of(d.decoder)) >= d_max_queue) {
            d_dropped.fetch_add(1, std::memory_order_relaxed);
            uint64_t k;
            if (buffer_key(pdu, k))
                d_reset.insert(k);
            d.verdict = gate_verdict::queue_full;
            return d;
        }
        if (!d_reset.empty()) {
            uint64_t k;
            if (buffer_key(pdu, k) && d_reset.erase(k))
                d.harq_reset = true;
        }
        d_passed.fetch_add(1, std::memory_order_relaxed);
        return d;
    }

    // The counts (read from any thread).
    uint64_t passed() const { return d_passed.load(std::memory_order_relaxed); }
    uint64_t dropped() const { return d_dropped.load(std::memory_order_relaxed); }
    uint64_t stale() const { return d_stale.load(std::memory_order_relaxed); }
    uint64_t bad() const { return d_bad.load(std::memory_order_relaxed); }

private:
    bool is_stale(const gate_pdu& pdu) const
    {
        return pdu.instance.kind == meta_int::ok && pdu.instance.value != __int128(d_instance);
    }
    // The HARQ buffer a PDU is for, (rnti, harq_process, codeword or 0)
    // packed; false when rnti or harq_process is absent.
    static bool buffer_key(const gate_pdu& pdu, uint64_t& key);

    const unsigned d_n;
    const uint64_t d_max_queue;
    const uint64_t d_instance;
    std::unordered_set<uint64_t> d_reset; // keys whose next PDU carries harq_reset
    std::atomic<uint64_t> d_passed{ 0 }, d_dropped{ 0 }, d_stale{ 0 }, d_bad{ 0 };
};

} // namespace scale_out
} // namespace gpurx
} // namespace gr

#endif

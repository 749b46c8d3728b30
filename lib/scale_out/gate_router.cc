/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "scale_out/gate_router.h"

#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace scale_out {

gate_router::gate_router(unsigned decoders, uint64_t max_queue, uint64_t instance)
    : d_n(decoders), d_max_queue(max_queue), d_instance(instance)
{
    if (decoders < 1 || decoders > max_decoders)
        throw std::invalid_argument("decoders must be 1.." + std::to_string(max_decoders) +
                                    ", got " + std::to_string(decoders));
}

unsigned gate_router::decoder_for(const gate_pdu& pdu) const
{
    if (d_n == 1)
        return 0;
    if (pdu.shard_key.kind == meta_int::ok) {
        // Python's modulo: the result has the divisor's sign (-5 % 2 == 1).
        const __int128 n = d_n;
        return unsigned(((pdu.shard_key.value % n) + n) % n);
    }
    const harq_values& h = pdu.harq;
    if (!pdu.harq_valid || !h.present[0] || !h.present[1])
        return 0;
    return decoder_of(harq_shard_key(h.v[0], h.v[1], h.present[2] ? h.v[2] : 0), d_n);
}

bool gate_router::buffer_key(const gate_pdu& pdu, uint64_t& key)
{
    const harq_values& h = pdu.harq;
    if (!pdu.harq_valid || !h.present[0] || !h.present[1])
        return false;
    // rnti < 2^16, harq_process < 2^4, codeword < 2^1 (harq_key.h ranges).
    key = (uint64_t(h.v[0]) << 8) | (uint64_t(h.v[1]) << 1) | uint64_t(h.present[2] ? h.v[2] : 0);
    return true;
}

} // namespace scale_out
} // namespace gpurx
} // namespace gr

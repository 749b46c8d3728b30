/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A PDU's HARQ key (python/gpurx/scale_out.py harq_shard_key, HARQ_FIELDS):
// the fields lte_sch_decoder_pdu keys its soft buffers by, their ranges, and
// the shard key hash64 of (rnti, harq_process, codeword) as three big-endian
// signed 64-bit integers.
#ifndef INCLUDED_GPURX_SCALE_OUT_HARQ_KEY_H
#define INCLUDED_GPURX_SCALE_OUT_HARQ_KEY_H

#include <cstdint>

namespace gr {
namespace gpurx {
namespace scale_out {

struct harq_field {
    const char* name;
    int64_t lo, hi;
    const char* expected; // "an integer in lo..hi"
};

//! rnti 0..65535, harq_process 0..15, codeword 0..1.
constexpr harq_field harq_fields[3] = {
    { "rnti", 0, 65535, "an integer in 0..65535" },
    { "harq_process", 0, 15, "an integer in 0..15" },
    { "codeword", 0, 1, "an integer in 0..1" },
};

//! rnti, harq_process, codeword of a PDU as read from its metadata:
//! present[i] false when absent (then v[i] is 0).
struct harq_values {
    bool present[3] = { false, false, false };
    int64_t v[3] = { 0, 0, 0 };
};

//! The shard key of a HARQ buffer (fields in their ranges).
uint64_t harq_shard_key(int64_t rnti, int64_t harq_process, int64_t codeword);

//! The decoder (0..n-1) of a worker with n decoders taking a shard key.
inline unsigned decoder_of(uint64_t shard_key, unsigned n) { return unsigned(shard_key % n); }

} // namespace scale_out
} // namespace gpurx
} // namespace gr

#endif

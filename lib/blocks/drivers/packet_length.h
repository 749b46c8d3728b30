/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A length tag's value as a packet length. GNU Radio's own blocks write
// pmt longs (tagged_stream_block, stream_to_tagged_stream); other sources
// write uint64s, and a mistaken one a double or a symbol. Every block that
// reads a length tag reads it here, so none of them ends its thread on
// pmt's wrong_type exception.
#ifndef INCLUDED_GPURX_BLOCKS_PACKET_LENGTH_H
#define INCLUDED_GPURX_BLOCKS_PACKET_LENGTH_H

#include <pmt/pmt.h>
#include <string>

namespace gr {
namespace gpurx {

//! \p value (of tag \p key) as a length >= 1, or -1 with \p why naming the
//! key and the value: not an integer, or not positive. A uint64 beyond
//! INT64_MAX reads as INT64_MAX.
long long packet_length(const pmt::pmt_t& key, const pmt::pmt_t& value, std::string& why);

} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/drivers/packet_length.h"
#include "blocks/drivers/tagged_driver.h" // pmt_description

#include <cstdint>

namespace gr {
namespace gpurx {

long long packet_length(const pmt::pmt_t& key, const pmt::pmt_t& v, std::string& why)
{
    long long n;
    if (pmt::is_integer(v)) {
        n = pmt::to_long(v);
    } else if (pmt::is_uint64(v)) {
        const uint64_t u = pmt::to_uint64(v);
        n = u > uint64_t(INT64_MAX) ? INT64_MAX : (long long)u;
    } else {
        why = pmt::symbol_to_string(key) + " tag value is " + pmt_description(v) + ", not an integer";
        return -1;
    }
    if (n <= 0) {
        why = pmt::symbol_to_string(key) + " tag value " + std::to_string(n) + " is not a packet length";
        return -1;
    }
    return n;
}

} // namespace gpurx
} // namespace gr

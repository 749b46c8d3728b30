/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// pdu_shard_sink's memory of the shard keys: the endpoint each key was last
// sent to and, when that endpoint lost the key's buffer (removed, restarted,
// a PDU dropped), the cause; at most max_keys of them, the least recently
// seen forgotten first.
#ifndef INCLUDED_GPURX_SCALE_OUT_KEY_TABLE_H
#define INCLUDED_GPURX_SCALE_OUT_KEY_TABLE_H

#include <cstdint>
#include <list>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

namespace gr {
namespace gpurx {
namespace scale_out {

class key_table
{
public:
    struct entry {
        uint64_t key;
        std::string endpoint;
        std::string lost; // the cause of a lost buffer; "" when none
    };

    //! std::invalid_argument naming max_keys below 1.
    explicit key_table(uint64_t max_keys);

    size_t size() const { return d_map.size(); }
    //! The key's entry, made the most recently seen; nullptr when unknown.
    entry* find(uint64_t key);
    //! A new entry (key unknown); the key forgotten to make room, if any.
    std::optional<uint64_t> remember(uint64_t key, const std::string& endpoint, entry** out);
    //! Marks every key of endpoint lost (cause); how many.
    uint64_t lose_keys_of(const std::string& endpoint, const std::string& cause);
    //! {endpoint: keys last sent there}.
    std::map<std::string, uint64_t> counts() const;

private:
    uint64_t d_max_keys;
    std::list<entry> d_order; // least recently seen first
    std::unordered_map<uint64_t, std::list<entry>::iterator> d_map;
};

} // namespace scale_out
} // namespace gpurx
} // namespace gr

#endif

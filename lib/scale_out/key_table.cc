/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "scale_out/key_table.h"

#include <stdexcept>

namespace gr {
namespace gpurx {
namespace scale_out {

key_table::key_table(uint64_t max_keys) : d_max_keys(max_keys)
{
    if (max_keys < 1)
        throw std::invalid_argument("max_keys must be >= 1, got " + std::to_string(max_keys));
}

key_table::entry* key_table::find(uint64_t key)
{
    auto it = d_map.find(key);
    if (it == d_map.end())
        return nullptr;
    d_order.splice(d_order.end(), d_order, it->second);
    return &*it->second;
}

std::optional<uint64_t>
key_table::remember(uint64_t key, const std::string& endpoint, entry** out)
{
    d_order.push_back(entry{ key, endpoint, std::string() });
    d_map[key] = std::prev(d_order.end());
    *out = &d_order.back();
    if (d_map.size() > d_max_keys) {
        const uint64_t old = d_order.front().key;
        d_map.erase(old);
        d_order.pop_front();
        return old;
    }
    return std::nullopt;
}

uint64_t key_table::lose_keys_of(const std::string& endpoint, const std::string& cause)
{
    uint64_t n = 0;
    for (auto& e : d_order)
        if (e.endpoint == endpoint) {
            e.lost = cause;
            ++n;
        }
    return n;
}

std::map<std::string, uint64_t> key_table::counts() const
{
    std::map<std::string, uint64_t> out;
    for (const auto& e : d_order)
        out[e.endpoint] += 1;
    return out;
}

} // namespace scale_out
} // namespace gpurx
} // namespace gr

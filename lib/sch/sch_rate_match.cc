/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "sch/sch_rate_match.h"
#include "sch/sch_arith.h"

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

std::vector<int32_t> circular_order(int K, int F, int ncb, int k0)
{
    std::vector<int32_t> order;
    order.reserve(size_t(ncb));
    for (int j = 0; j < ncb; j++) {
        const int c = circular_to_codeword(K, F, (k0 + j) % ncb);
        if (c >= 0)
            order.push_back(c);
    }
    return order;
}

std::shared_ptr<const std::vector<int32_t>>
circular_order_cache::get(int K, int F, int ncb, int k0)
{
    const auto key = std::make_tuple(K, F, ncb, k0);
    {
        std::lock_guard<std::mutex> lock(d_mutex);
        auto it = d_tables.find(key);
        if (it != d_tables.end())
            return it->second;
    }
    auto table = std::make_shared<const std::vector<int32_t>>(circular_order(K, F, ncb, k0));
    std::lock_guard<std::mutex> lock(d_mutex);
    // Bounded: a cell sees few shapes, but a hostile stream could vary N_cb.
    if (d_tables.size() > 4096)
        d_tables.clear();
    return d_tables.emplace(key, table).first->second;
}

size_t circular_order_cache::size() const
{
    std::lock_guard<std::mutex> lock(d_mutex);
    return d_tables.size();
}

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Rate matching of one code block on the CPU (36.212 §5.1.4.1), for every
// redundancy version and soft-buffer size, with filler bits: the order in
// which bits leave the circular buffer, as codeword positions 3k+i, <NULL>s
// skipped. The e-th bit sent is order[e mod order.size()], so one table
// serves any E (puncturing reads part of it, repetition wraps).
#ifndef INCLUDED_GPURX_SCH_SCH_RATE_MATCH_H
#define INCLUDED_GPURX_SCH_SCH_RATE_MATCH_H

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

/*!
 * The bits a code block of K with F filler bits sends from circular-buffer
 * position k0 on, wrapping at N_cb: their codeword positions, one lap.
 */
std::vector<int32_t> circular_order(int K, int F, int ncb, int k0);

//! A thread-safe cache of circular_order() tables (a TB has at most three
//! shapes: K-, K+, and block 0 with filler bits).
class circular_order_cache
{
public:
    std::shared_ptr<const std::vector<int32_t>> get(int K, int F, int ncb, int k0);
    size_t size() const;

private:
    mutable std::mutex d_mutex;
    std::map<std::tuple<int, int, int, int>, std::shared_ptr<const std::vector<int32_t>>> d_tables;
};

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

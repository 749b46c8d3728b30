/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Where pdu_shard_sink sends a shard key (docs/scale-out.md, "Balance"); the
// reference model is python/gpurx/shard_ring.py, which this follows rule for
// rule (the same endpoint for every key, the same keys moved):
// - hash_ring: plain consistent hashing, `vnodes` points per endpoint
//   (hash64("endpoint#i")), a key to the owner of the first point at or
//   after key_point(key), wrapping; ties between equal points broken by the
//   endpoint string;
// - bounded_ring: consistent hashing with bounded loads (Mirrokni, Thorup,
//   Zadimoghaddam 2018): a new key goes to the first endpoint clockwise
//   holding fewer than load_bound(keys + 1, endpoints, eps) keys and stays;
//   remove(e) moves only e's keys, add(e) only keys that go to e.
#ifndef INCLUDED_GPURX_SCALE_OUT_SHARD_RING_H
#define INCLUDED_GPURX_SCALE_OUT_SHARD_RING_H

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gr {
namespace gpurx {
namespace scale_out {

//! ceil((1 + eps) * keys / endpoints), eps in millionths (round half to
//! even, as Python's round()), in integer arithmetic.
uint64_t load_bound(uint64_t keys, uint64_t endpoints, double eps);

class hash_ring
{
public:
    //! std::invalid_argument naming vnodes outside 1..4096.
    explicit hash_ring(int vnodes = 64);

    int vnodes() const { return d_vnodes; }
    const std::vector<std::string>& endpoints() const { return d_endpoints; }
    bool has(const std::string& endpoint) const;
    //! The sorted points of one endpoint.
    std::vector<uint64_t> points_of(const std::string& endpoint) const;
    //! std::invalid_argument when the endpoint is there already.
    void add(const std::string& endpoint);
    //! std::invalid_argument when the endpoint is not there.
    void remove(const std::string& endpoint);
    //! The endpoint of a key; nullptr on an empty ring.
    const std::string* lookup(uint64_t key) const;
    //! The endpoints in the order a walk clockwise from the key meets them.
    std::vector<const std::string*> clockwise(uint64_t key) const;

private:
    size_t first_at(uint64_t point) const;
    int d_vnodes;
    std::vector<std::string> d_endpoints;                // in the order added
    std::vector<std::pair<uint64_t, std::string>> d_points; // sorted
};

class bounded_ring
{
public:
    //! std::invalid_argument naming vnodes (1..4096) or eps ((0, 10]).
    bounded_ring(int vnodes = 64, double eps = 0.01);

    const std::vector<std::string>& endpoints() const { return d_ring.endpoints(); }
    bool has(const std::string& endpoint) const { return d_ring.has(endpoint); }
    const std::map<std::string, uint64_t>& counts() const { return d_count; }
    size_t keys() const { return d_owner.size(); }
    uint64_t bound() const;
    //! The endpoint of a key placed already, else nullptr.
    const std::string* lookup(uint64_t key) const;
    //! The endpoint of key, placing it when new; nullptr on an empty ring.
    const std::string* place(uint64_t key);
    void forget(uint64_t key);
    //! Takes endpoint off: (key, new endpoint) of each of its keys, in key
    //! order ("" when it was the last endpoint: the keys are forgotten).
    std::vector<std::pair<uint64_t, std::string>> remove(const std::string& endpoint);
    //! Puts endpoint on: (key, old endpoint) of each key it took.
    std::vector<std::pair<uint64_t, std::string>> add(const std::string& endpoint);

private:
    const std::string& first_below(uint64_t key, uint64_t limit) const;
    hash_ring d_ring;
    double d_eps;
    std::unordered_map<uint64_t, std::string> d_owner;
    std::map<std::string, uint64_t> d_count;
};

} // namespace scale_out
} // namespace gpurx
} // namespace gr

#endif

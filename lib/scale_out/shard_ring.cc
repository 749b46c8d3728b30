/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "scale_out/shard_ring.h"
#include "scale_out/hash64.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <sstream>
#include <stdexcept>

namespace gr {
namespace gpurx {
namespace scale_out {

uint64_t load_bound(uint64_t keys, uint64_t endpoints, double eps)
{
    const auto m = static_cast<unsigned __int128>(std::nearbyint(eps * 1e6));
    const unsigned __int128 num = (1000000 + m) * keys;
    const unsigned __int128 den = static_cast<unsigned __int128>(1000000) * endpoints;
    return static_cast<uint64_t>((num + den - 1) / den);
}

hash_ring::hash_ring(int vnodes) : d_vnodes(vnodes)
{
    if (vnodes < 1 || vnodes > 4096)
        throw std::invalid_argument("vnodes must be 1..4096, got " + std::to_string(vnodes));
}

bool hash_ring::has(const std::string& endpoint) const
{
    return std::find(d_endpoints.begin(), d_endpoints.end(), endpoint) != d_endpoints.end();
}

std::vector<uint64_t> hash_ring::points_of(const std::string& endpoint) const
{
    std::vector<uint64_t> p(d_vnodes);
    for (int i = 0; i < d_vnodes; ++i)
        p[i] = vnode_point(endpoint, i);
    std::sort(p.begin(), p.end());
    return p;
}

void hash_ring::add(const std::string& endpoint)
{
    if (has(endpoint))
        throw std::invalid_argument("endpoint '" + endpoint + "' is already on the ring");
    d_endpoints.push_back(endpoint);
    for (uint64_t p : points_of(endpoint))
        d_points.emplace_back(p, endpoint);
    std::sort(d_points.begin(), d_points.end());
}

void hash_ring::remove(const std::string& endpoint)
{
    auto it = std::find(d_endpoints.begin(), d_endpoints.end(), endpoint);
    if (it == d_endpoints.end())
        throw std::invalid_argument("endpoint '" + endpoint + "' is not on the ring");
    d_endpoints.erase(it);
    d_points.erase(std::remove_if(d_points.begin(), d_points.end(),
                                  [&](const auto& p) { return p.second == endpoint; }),
                   d_points.end());
}

size_t hash_ring::first_at(uint64_t point) const
{
    // bisect_left over (point, endpoint) with (point, ""): the first point >= it.
    auto it = std::lower_bound(d_points.begin(), d_points.end(), point,
                               [](const auto& p, uint64_t v) { return p.first < v; });
    return size_t(it - d_points.begin());
}

const std::string* hash_ring::lookup(uint64_t key) const
{
    if (d_points.empty())
        return nullptr;
    return &d_points[first_at(key_point(key)) % d_points.size()].second;
}

std::vector<const std::string*> hash_ring::clockwise(uint64_t key) const
{
    std::vector<const std::string*> seen;
    const size_t n = d_points.size();
    if (!n)
        return seen;
    const size_t i = first_at(key_point(key));
    for (size_t j = 0; j < n && seen.size() < d_endpoints.size(); ++j) {
        const std::string* e = &d_points[(i + j) % n].second;
        bool met = false;
        for (auto* s : seen)
            if (*s == *e) {
                met = true;
                break;
            }
        if (!met)
            seen.push_back(e);
    }
    return seen;
}

bounded_ring::bounded_ring(int vnodes, double eps) : d_ring(vnodes), d_eps(eps)
{
    if (!(eps > 0 && eps <= 10)) {
        std::ostringstream s;
        s << "eps must be in (0, 10], got " << eps;
        throw std::invalid_argument(s.str());
    }
}

uint64_t bounded_ring::bound() const
{
    return d_count.empty() ? 0 : load_bound(d_owner.size(), d_count.size(), d_eps);
}

const std::string* bounded_ring::lookup(uint64_t key) const
{
    auto it = d_owner.find(key);
    return it == d_owner.end() ? nullptr : &it->second;
}

const std::string& bounded_ring::first_below(uint64_t key, uint64_t limit) const
{
    for (const std::string* e : d_ring.clockwise(key))
        if (d_count.at(*e) < limit)
            return *e;
    throw std::logic_error("bounded_ring: no endpoint below the load bound");
}

const std::string* bounded_ring::place(uint64_t key)
{
    auto it = d_owner.find(key);
    if (it != d_owner.end())
        return &it->second;
    if (d_count.empty())
        return nullptr;
    const std::string& e =
        first_below(key, load_bound(d_owner.size() + 1, d_count.size(), d_eps));
    auto ins = d_owner.emplace(key, e).first;
    d_count[e] += 1;
    return &ins->second;
}

void bounded_ring::forget(uint64_t key)
{
    auto it = d_owner.find(key);
    if (it == d_owner.end())
        return;
    d_count[it->second] -= 1;
    d_owner.erase(it);
}

std::vector<std::pair<uint64_t, std::string>> bounded_ring::remove(const std::string& endpoint)
{
    d_ring.remove(endpoint); // throws when it is not there
    d_count.erase(endpoint);
    std::vector<uint64_t> mine;
    for (const auto& [k, e] : d_owner)
        if (e == endpoint)
            mine.push_back(k);
    std::sort(mine.begin(), mine.end());
    std::vector<std::pair<uint64_t, std::string>> moved;
    if (d_count.empty()) {
        for (uint64_t k : mine) {
            d_owner.erase(k);
            moved.emplace_back(k, std::string());
        }
        return moved;
    }
    const uint64_t limit = load_bound(d_owner.size(), d_count.size(), d_eps);
    for (uint64_t k : mine) {
        const std::string e = first_below(k, limit);
        d_owner[k] = e;
        d_count[e] += 1;
        moved.emplace_back(k, e);
    }
    return moved;
}

std::vector<std::pair<uint64_t, std::string>> bounded_ring::add(const std::string& endpoint)
{
    d_ring.add(endpoint); // throws when it is there already
    d_count[endpoint] = 0;
    const uint64_t target = d_owner.size() / d_count.size();
    std::vector<std::pair<uint64_t, std::string>> taken;
    if (target == 0)
        return taken;
    const std::vector<uint64_t> points = d_ring.points_of(endpoint);
    auto gap = [&](uint64_t k) {
        const uint64_t h = key_point(k);
        auto it = std::lower_bound(points.begin(), points.end(), h);
        const uint64_t p = it == points.end() ? points.front() : *it;
        return p - h; // mod 2^64
    };
    using item = std::pair<uint64_t, uint64_t>; // (gap, key), nearest first
    std::map<std::string, std::priority_queue<item, std::vector<item>, std::greater<item>>> near;
    for (const auto& [k, e] : d_owner)
        near[e].emplace(gap(k), k);
    while (taken.size() < target) {
        // The donor: the most keys, ties to the least endpoint string.
        const std::string* donor = nullptr;
        for (auto& [e, heap] : near) {
            if (heap.empty())
                continue;
            if (!donor || d_count[e] > d_count[*donor])
                donor = &e;
        }
        auto& heap = near[*donor];
        const uint64_t k = heap.top().second;
        heap.pop();
        d_count[*donor] -= 1;
        d_owner[k] = endpoint;
        taken.emplace_back(k, *donor);
    }
    d_count[endpoint] = target;
    return taken;
}

} // namespace scale_out
} // namespace gpurx
} // namespace gr

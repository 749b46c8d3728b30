/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The scale-out core (lib/scale_out) against its reference model,
// python/gpurx/shard_ring.py and scale_out.py: the expected figures below
// are that model's (hash64, harq_shard_key, where 200 HARQ keys go on a
// hash ring and a bounded ring, before and after an endpoint leaves and
// another comes), and the rules: removing an endpoint moves only its keys,
// adding one takes only keys that go to it, no endpoint above the bound;
// the reorder window's order, duplicates, late, timeouts, window, resync,
// drop notices and flush.
#include "scale_out/endpoint.h"
#include "scale_out/harq_key.h"
#include "scale_out/hash64.h"
#include "scale_out/key_table.h"
#include "scale_out/reorder_window.h"
#include "scale_out/shard_ring.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gr::gpurx::scale_out;

namespace {

const std::vector<std::string> eps = { "tcp://10.0.0.1:5555", "tcp://10.0.0.2:5555",
                                       "tcp://10.0.0.3:5555", "tcp://10.0.0.4:5555" };

std::vector<uint64_t> model_keys()
{
    std::vector<uint64_t> keys;
    for (int i = 0; i < 400; ++i) {
        const uint64_t k = harq_shard_key(100 + i % 50, i % 8, i % 2);
        if (std::find(keys.begin(), keys.end(), k) == keys.end())
            keys.push_back(k);
    }
    return keys;
}

uint64_t index_of(const std::string& e)
{
    return uint64_t(std::find(eps.begin(), eps.end(), e) - eps.begin()) + 1;
}

template <class Ring>
uint64_t signature(const Ring& r, const std::vector<uint64_t>& keys)
{
    uint64_t s = 0;
    for (uint64_t k : keys)
        s += k * index_of(*r.lookup(k));
    return s;
}

std::vector<uint64_t> sorted_counts(const bounded_ring& b)
{
    std::vector<uint64_t> c;
    for (const auto& kv : b.counts())
        c.push_back(kv.second);
    std::sort(c.begin(), c.end());
    return c;
}

} // namespace

TEST(scale_out_hash, blake2b_as_python)
{
    EXPECT_EQ(hash64(""), 16476032584258269876ULL);
    EXPECT_EQ(hash64("abc"), 15617099051652453721ULL);
    EXPECT_EQ(hash64(std::string(300, 'x')), 1348047167962039829ULL); // several blocks
    EXPECT_EQ(key_point(12345), 8422754932196866392ULL);
    EXPECT_EQ(vnode_point("tcp://a:1", 3), 1382213081422477945ULL);
    EXPECT_EQ(harq_shard_key(1, 2, 1), 14497622332805642489ULL);
    EXPECT_EQ(model_keys().size(), 200u);
    EXPECT_EQ(model_keys()[0], 6205362917563217817ULL);
}

TEST(scale_out_ring, load_bound)
{
    EXPECT_EQ(load_bound(100, 3, 0.01), 34u);
    EXPECT_EQ(load_bound(7, 2, 0.5), 6u);
    EXPECT_EQ(load_bound(1000, 7, 0.0000025), 143u);
}

TEST(scale_out_ring, hash_ring_as_python)
{
    hash_ring r(16);
    for (int i = 0; i < 3; ++i)
        r.add(eps[i]);
    const auto keys = model_keys();
    EXPECT_EQ(signature(r, keys), 7328574196828955848ULL);
    // Removing one moves only its keys.
    std::vector<std::string> before;
    for (uint64_t k : keys)
        before.push_back(*r.lookup(k));
    r.remove(eps[1]);
    for (size_t i = 0; i < keys.size(); ++i)
        if (before[i] != eps[1])
            EXPECT_EQ(*r.lookup(keys[i]), before[i]);
    EXPECT_THROW(r.remove(eps[1]), std::invalid_argument);
    EXPECT_THROW(r.add(eps[0]), std::invalid_argument);
    EXPECT_THROW(hash_ring(0), std::invalid_argument);
    EXPECT_EQ(hash_ring(4).lookup(1), nullptr);
}

TEST(scale_out_ring, bounded_ring_as_python)
{
    bounded_ring b(16, 0.01);
    for (int i = 0; i < 3; ++i)
        b.add(eps[i]);
    const auto keys = model_keys();
    for (uint64_t k : keys)
        b.place(k);
    EXPECT_EQ(signature(b, keys), 1637538506830949840ULL);
    EXPECT_EQ(sorted_counts(b), (std::vector<uint64_t>{ 65, 67, 68 }));
    EXPECT_LE(sorted_counts(b).back(), b.bound());

    std::vector<std::string> before;
    for (uint64_t k : keys)
        before.push_back(*b.lookup(k));
    const auto moved = b.remove(eps[1]);
    EXPECT_EQ(moved.size(), 65u);
    for (size_t i = 0; i < keys.size(); ++i)
        if (before[i] != eps[1])
            EXPECT_EQ(*b.lookup(keys[i]), before[i]) << "a key of another endpoint moved";
    EXPECT_EQ(signature(b, keys), 18316392803400120333ULL);
    EXPECT_EQ(sorted_counts(b), (std::vector<uint64_t>{ 99, 101 }));

    before.clear();
    for (uint64_t k : keys)
        before.push_back(*b.lookup(k));
    const auto taken = b.add(eps[3]);
    EXPECT_EQ(taken.size(), 66u);
    for (size_t i = 0; i < keys.size(); ++i)
        if (*b.lookup(keys[i]) != eps[3])
            EXPECT_EQ(*b.lookup(keys[i]), before[i]) << "a key moved elsewhere than to the new one";
    EXPECT_EQ(signature(b, keys), 5504800630879931224ULL);
    EXPECT_EQ(sorted_counts(b), (std::vector<uint64_t>{ 66, 67, 67 }));

    EXPECT_THROW(bounded_ring(16, 0), std::invalid_argument);
    EXPECT_THROW(bounded_ring(16, 11), std::invalid_argument);
    EXPECT_THROW(bounded_ring(5000, 0.1), std::invalid_argument);
    // The last endpoint leaving forgets its keys.
    bounded_ring one(8, 0.1);
    one.add(eps[0]);
    one.place(7);
    const auto gone = one.remove(eps[0]);
    ASSERT_EQ(gone.size(), 1u);
    EXPECT_EQ(gone[0].second, "");
    EXPECT_EQ(one.keys(), 0u);
    EXPECT_EQ(one.place(7), nullptr);
}

TEST(scale_out_keys, endpoints_checked)
{
    EXPECT_EQ(endpoint_problem("tcp://127.0.0.1:5555", false), "");
    EXPECT_EQ(endpoint_problem("tcp://[::1]:5555", false), "");
    EXPECT_EQ(endpoint_problem("ipc:///tmp/x", false), "");
    EXPECT_EQ(endpoint_problem("tcp://*:5555", true), "");
    EXPECT_NE(endpoint_problem("tcp://*:5555", false), "");
    EXPECT_NE(endpoint_problem("localhost:5", false), "");
    EXPECT_NE(endpoint_problem("tcp://a:99999", false), "");
    EXPECT_NE(endpoint_problem("tcp://a:0", false), "");
    EXPECT_NE(endpoint_problem("tcp://a b:1", false), "");
    EXPECT_NE(endpoint_problem("tcp:// a:1", false), "");
    EXPECT_NE(endpoint_problem("udp://a:1", false), "");
    try {
        check_endpoint("pdu_shard_sink", "endpoints:", "tcp://a:99999");
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("endpoints: 'tcp://a:99999'"), std::string::npos);
    }
}

TEST(scale_out_keys, key_table_forgets_least_recent)
{
    key_table t(2);
    key_table::entry* e = nullptr;
    EXPECT_FALSE(t.remember(1, "a", &e));
    EXPECT_FALSE(t.remember(2, "b", &e));
    ASSERT_NE(t.find(1), nullptr); // 1 is now the most recent
    auto old = t.remember(3, "a", &e);
    ASSERT_TRUE(old);
    EXPECT_EQ(*old, 2u);
    EXPECT_EQ(t.lose_keys_of("a", "endpoint_removed"), 2u);
    EXPECT_EQ(t.find(3)->lost, "endpoint_removed");
    EXPECT_EQ(t.counts().at("a"), 2u);
    EXPECT_THROW(key_table(0), std::invalid_argument);
}

namespace {

struct out_t {
    std::vector<uint64_t> emitted, notices;
    std::vector<std::pair<std::string, uint64_t>> reports;
    std::vector<uint64_t> resynced; // first, last, count
    void emit(uint64_t seq, int&) { emitted.push_back(seq); }
    void dropped(uint64_t seq, int&) { notices.push_back(seq); }
    void report(const char* r, uint64_t seq) { reports.emplace_back(r, seq); }
    void resync(uint64_t f, uint64_t l, uint64_t c) { resynced = { f, l, c }; }
};

} // namespace

TEST(scale_out_reorder, order_duplicates_late)
{
    reorder_window<int> w(16, 10.0);
    out_t o;
    for (uint64_t s : { 3, 1, 0, 2, 2, 5, 4, 7, 6, 0 })
        w.push(s, 0, false, 0.0, o);
    EXPECT_EQ(o.emitted, (std::vector<uint64_t>{ 0, 1, 2, 3, 4, 5, 6, 7 }));
    EXPECT_EQ(o.reports, (std::vector<std::pair<std::string, uint64_t>>{ { "duplicate", 2 },
                                                                          { "duplicate", 0 } }));
}

TEST(scale_out_reorder, timeout_window_late)
{
    reorder_window<int> w(16, 0.2);
    out_t o;
    for (uint64_t s : { 0, 1, 3, 4 })
        w.push(s, 0, false, 0.0, o);
    EXPECT_EQ(o.emitted.size(), 2u);
    w.expire(0.1, o);
    EXPECT_EQ(o.emitted.size(), 2u);
    w.expire(0.25, o);
    EXPECT_EQ(o.emitted, (std::vector<uint64_t>{ 0, 1, 3, 4 }));
    w.push(2, 0, false, 0.3, o);
    w.push(22, 0, false, 0.3, o); // 17 beyond the next due (5): 5 and 6 forced out
    EXPECT_EQ(o.reports, (std::vector<std::pair<std::string, uint64_t>>{
                             { "timeout", 2 }, { "late", 2 }, { "window_full", 5 }, { "window_full", 6 } }));
    EXPECT_EQ(w.next_seq(), 7u);
    w.flush(o);
    EXPECT_EQ(o.emitted.back(), 22u);
    EXPECT_EQ(w.stats().flush, 15u);
    // Already emitted: duplicate, however long ago; skipped: late.
    w.push(3, 0, false, 1.0, o);
    w.push(10, 0, false, 1.0, o);
    EXPECT_EQ(o.reports[o.reports.size() - 2].first, "duplicate");
    EXPECT_EQ(o.reports.back().first, "late");
}

TEST(scale_out_reorder, resync_and_notices)
{
    reorder_window<int> w(16, 10.0);
    out_t o;
    w.push(0, 0, false, 0, o);
    w.push(2, 0, false, 0, o);
    w.push(uint64_t(1) << 62, 0, false, 0, o); // one resync, whatever the jump
    EXPECT_EQ(o.emitted, (std::vector<uint64_t>{ 0, 2, uint64_t(1) << 62 }));
    EXPECT_EQ(o.resynced, (std::vector<uint64_t>{ 1, (uint64_t(1) << 62) - 1, (uint64_t(1) << 62) - 2 }));
    EXPECT_EQ(w.stats().resync, 1u);
    const uint64_t n = w.next_seq();
    w.push(n + 1, 0, false, 0, o);
    w.push(n, 0, true, 0, o); // a worker's drop notice: reported in its turn
    EXPECT_EQ(o.notices, (std::vector<uint64_t>{ n }));
    EXPECT_EQ(o.emitted.back(), n + 1);
    w.push(n, 0, false, 0, o);
    EXPECT_EQ(o.reports.back(), (std::pair<std::string, uint64_t>{ "duplicate", n }));
    EXPECT_THROW(reorder_window<int>(0, 1.0), std::invalid_argument);
    EXPECT_THROW(reorder_window<int>(16, 0.0), std::invalid_argument);
}

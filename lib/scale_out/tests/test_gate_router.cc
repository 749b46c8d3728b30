/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// worker_gate's rules (lib/scale_out/gate_router) against the Python
// worker_gate they replaced (python/gpurx/scale_out.py before the move): the
// shard keys and their decoders below were computed by that model
// (hashlib.blake2b of struct.pack(">qqq", rnti, harq_process, codeword),
// Python's %), the rest are its rules: stale before bad before the queue,
// decoder 0 for a PDU without key or HARQ fields, a full queue's drop
// flagging the next PDU of that HARQ key (once), not other keys.
#include "scale_out/gate_router.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <vector>

using namespace gr::gpurx::scale_out;

namespace {

gate_pdu harq_pdu(int64_t rnti, int64_t hp, int cw = -1)
{
    gate_pdu p;
    p.harq.present[0] = p.harq.present[1] = true;
    p.harq.v[0] = rnti;
    p.harq.v[1] = hp;
    if (cw >= 0) {
        p.harq.present[2] = true;
        p.harq.v[2] = cw;
    }
    return p;
}

gate_pdu with_key(gate_pdu p, __int128 key)
{
    p.shard_key = meta_int::of(key);
    return p;
}

auto never_asked = [](unsigned) -> uint64_t {
    ADD_FAILURE() << "queue asked with max_queue 0";
    return 0;
};

} // namespace

TEST(scale_out_gate, decoders_as_python)
{
    // (rnti, harq_process, codeword) -> harq_shard_key % 7 by the Python model.
    gate_router g7(7, 0, 1);
    EXPECT_EQ(g7.decoder_for(harq_pdu(100, 3, 1)), 3u); // key 4395161459923965769
    EXPECT_EQ(g7.decoder_for(harq_pdu(101, 0, 0)), 0u); // key 8139953780258305145
    EXPECT_EQ(g7.decoder_for(harq_pdu(101, 0)), 0u);    // codeword absent: 0
    EXPECT_EQ(g7.decoder_for(harq_pdu(5, 2)), 3u);      // key 14895465359351317205
    gate_router g64(64, 0, 1);
    EXPECT_EQ(g64.decoder_for(harq_pdu(65535, 15, 1)), 51u); // key 12666892117176315571
    EXPECT_EQ(g64.decoder_for(harq_pdu(5, 2, 0)), 21u);
    // A "shard_key" routes, whatever the HARQ fields (round_robin: the seq).
    EXPECT_EQ(g7.decoder_for(with_key(harq_pdu(100, 3, 1), 10)), 3u);
    EXPECT_EQ(g7.decoder_for(with_key(harq_pdu(100, 3, 1), 11)), 4u);
    EXPECT_EQ(g7.decoder_for(with_key(gate_pdu(), (__int128(1) << 64) - 1)), 1u);
    // A negative long: Python's -5 % 2 == 1, -2^63 % 7 == 6.
    gate_router g2(2, 0, 1);
    EXPECT_EQ(g2.decoder_for(with_key(gate_pdu(), -5)), 1u);
    EXPECT_EQ(g7.decoder_for(with_key(gate_pdu(), -(__int128(1) << 63))), 6u);
    // An ill-typed key: the HARQ fields' key.
    gate_pdu ill = harq_pdu(100, 3, 1);
    ill.shard_key = meta_int::not_an_integer();
    EXPECT_EQ(g7.decoder_for(ill), 3u);
    // Neither: decoder 0 (it reports the PDU); rnti alone is no key.
    EXPECT_EQ(g7.decoder_for(gate_pdu()), 0u);
    gate_pdu rnti_only;
    rnti_only.harq.present[0] = true;
    rnti_only.harq.v[0] = 5;
    EXPECT_EQ(g7.decoder_for(rnti_only), 0u);
    // One decoder: always 0.
    gate_router g1(1, 0, 1);
    EXPECT_EQ(g1.decoder_for(with_key(gate_pdu(), 12345)), 0u);
}

TEST(scale_out_gate, bad_parameters_named)
{
    for (unsigned n : { 0u, 65u }) {
        try {
            gate_router g(n, 0, 1);
            ADD_FAILURE() << "decoders " << n << " taken";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("decoders"), std::string::npos) << e.what();
        }
    }
    EXPECT_NO_THROW(gate_router(64, 0, 0));
}

TEST(scale_out_gate, stale_and_bad_dropped_and_counted)
{
    gate_router g(2, 0, 7);
    gate_pdu p = harq_pdu(100, 3, 1);
    p.instance = meta_int::of(7); // this worker's
    EXPECT_EQ(g.admit(p, never_asked).verdict, gate_verdict::pass);
    p.instance = meta_int::of(4); // a predecessor's
    EXPECT_EQ(g.admit(p, never_asked).verdict, gate_verdict::stale);
    p.instance = meta_int::of(-7); // a negative long is not 7
    EXPECT_EQ(g.admit(p, never_asked).verdict, gate_verdict::stale);
    p.instance = meta_int::not_an_integer(); // as absent
    EXPECT_EQ(g.admit(p, never_asked).verdict, gate_verdict::pass);
    p.instance = meta_int();
    gate_pdu bad = p;
    bad.harq_valid = false;
    EXPECT_EQ(g.admit(bad, never_asked).verdict, gate_verdict::bad_harq_field);
    bad.instance = meta_int::of(3); // stale first
    EXPECT_EQ(g.admit(bad, never_asked).verdict, gate_verdict::stale);
    const gate_decision d = g.admit(p, never_asked);
    EXPECT_EQ(d.verdict, gate_verdict::pass);
    EXPECT_EQ(d.decoder, 1u); // harq_shard_key(100, 3, 1) % 2 by the Python model
    EXPECT_FALSE(d.harq_reset);
    EXPECT_EQ(g.passed(), 3u);
    EXPECT_EQ(g.stale(), 3u);
    EXPECT_EQ(g.bad(), 1u);
    EXPECT_EQ(g.dropped(), 0u);
}

TEST(scale_out_gate, full_queue_drops_and_flags_the_next_pdu_of_its_key)
{
    // max_queue 2; the queue of each decoder as the test sets it.
    gate_router g(2, 2, 1);
    std::vector<uint64_t> queue{ 0, 0 };
    std::vector<unsigned> asked;
    auto queue_of = [&](unsigned i) {
        asked.push_back(i);
        return queue[i];
    };
    const gate_pdu a = harq_pdu(100, 3, 1); // decoder 1
    const gate_pdu b = harq_pdu(101, 0, 0); // decoder 1 (8139953780258305145 % 2)
    const gate_pdu c = harq_pdu(5, 2, 0);   // decoder 1
    gate_pdu a_cw0 = harq_pdu(100, 3);      // another buffer (codeword 0): decoder 0
    gate_pdu no_key = with_key(gate_pdu(), 4); // decoder 0, no HARQ key
    EXPECT_EQ(g.admit(a, queue_of).verdict, gate_verdict::pass);
    queue[1] = 1;
    EXPECT_EQ(g.admit(a, queue_of).verdict, gate_verdict::pass);
    queue[1] = 2; // decoder 1 full: a and b dropped
    const gate_decision da = g.admit(a, queue_of);
    EXPECT_EQ(da.verdict, gate_verdict::queue_full);
    EXPECT_EQ(da.decoder, 1u);
    EXPECT_EQ(g.admit(b, queue_of).verdict, gate_verdict::queue_full);
    queue[0] = 5;
    EXPECT_EQ(g.admit(no_key, queue_of).verdict, gate_verdict::queue_full);
    queue = { 0, 0 };
    // The next PDU of a, then of b, carry harq_reset once; c never did.
    EXPECT_TRUE(g.admit(c, queue_of).verdict == gate_verdict::pass);
    gate_decision d = g.admit(a, queue_of);
    EXPECT_EQ(d.verdict, gate_verdict::pass);
    EXPECT_TRUE(d.harq_reset);
    EXPECT_FALSE(g.admit(a, queue_of).harq_reset);
    EXPECT_FALSE(g.admit(a_cw0, queue_of).harq_reset); // (100, 3, 0) lost nothing
    EXPECT_TRUE(g.admit(b, queue_of).harq_reset);
    EXPECT_FALSE(g.admit(b, queue_of).harq_reset);
    EXPECT_FALSE(g.admit(no_key, queue_of).harq_reset);
    EXPECT_EQ(g.dropped(), 3u);
    EXPECT_EQ(g.passed(), 9u);
    // The queue asked is the PDU's decoder's, every time.
    EXPECT_EQ(asked, (std::vector<unsigned>{ 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0 }));
}

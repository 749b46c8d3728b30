/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/scale_out/scale_out_pmt.h"
#include "scale_out/harq_key.h"
#include "pdu_sequencer_params.h"
#include <gnuradio/io_signature.h>
#include <atomic>
#include <stdexcept>

namespace gr {
namespace gpurx {

using namespace scale_out;

class pdu_sequencer_impl : public pdu_sequencer
{
public:
    explicit pdu_sequencer_impl(const std::string& key)
        : gr::block("pdu_sequencer", gr::io_signature::make(0, 0, 0),
                    gr::io_signature::make(0, 0, 0)),
          d_key(key), d_harq(key == "harq")
    {
        message_port_register_in(keys::pdus());
        message_port_register_out(keys::pdus());
        message_port_register_out(keys::errors());
        set_msg_handler(keys::pdus(),
                        guarded(this, "pdus", [this](const pmt::pmt_t& m) { handle(m); }));
    }

    uint64_t next_seq() const override { return d_seq.load(); }
    std::string key() const override { return d_key; }

private:
    void error(const report& r) { message_port_pub(keys::errors(), r.dict()); }

    void handle(const pmt::pmt_t& msg)
    {
        if (!is_meta_pdu(msg)) {
            error(report("not a PDU (a pair of a dict and a vector)"));
            return;
        }
        pmt::pmt_t meta = pmt::car(msg);
        const uint64_t seq = d_seq.load(std::memory_order_relaxed);
        uint64_t shard = seq;
        if (d_harq) {
            harq_values h;
            bad_field bad;
            // Dropped before it takes a seq: the collector has no gap to wait for.
            if (!read_harq(meta, h, bad)) {
                error(bad.to_report());
                return;
            }
            if (!h.present[0] || !h.present[1]) {
                error(report(h.present[0] ? "missing harq_process (key harq)"
                                          : "missing rnti (key harq)"));
                return;
            }
            shard = harq_shard_key(h.v[0], h.v[1], h.present[2] ? h.v[2] : 0);
        }
        d_seq.store(seq + 1, std::memory_order_relaxed);
        meta = pmt::dict_add(meta, keys::seq(), pmt::from_uint64(seq));
        meta = pmt::dict_add(meta, keys::shard_key(), pmt::from_uint64(shard));
        message_port_pub(keys::pdus(), pmt::cons(meta, pmt::cdr(msg)));
    }

    const std::string d_key;
    const bool d_harq;
    std::atomic<uint64_t> d_seq{ 0 };
};

pdu_sequencer::sptr make_pdu_sequencer(const pdu_sequencer_params& p)
{
    if (p.key != "harq" && p.key != "round_robin")
        throw std::invalid_argument("pdu_sequencer: key must be one of ('harq', "
                                    "'round_robin'), got '" + p.key + "'");
    return gnuradio::make_block_sptr<pdu_sequencer_impl>(p.key);
}

} // namespace gpurx
} // namespace gr

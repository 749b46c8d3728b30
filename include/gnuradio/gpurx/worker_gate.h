/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_WORKER_GATE_H
#define INCLUDED_GPURX_WORKER_GATE_H

#include <gnuradio/basic_block.h>
#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <pmt/pmt.h>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {

/*!
 * \brief A scale-out worker's gate between its ZMQ PULL and its decoders
 * (docs/scale-out.md, "Workers"); Python users get it as gpurx.worker_gate,
 * a thin wrapper (python/gpurx/scale_out.py) that keeps its parameters,
 * attributes and watch().
 * \ingroup gpurx
 *
 * Each PDU goes to one decoder, "pdus0" .. "pdus<n-1>" (with one decoder
 * "pdus" when that is the port connected, as GRC names it): its
 * "shard_key" modulo the decoders, the key computed from rnti, harq_process
 * and codeword when it has none, decoder 0 when it has neither. Its
 * metadata gets "worker" (the worker's name) and "decoder" (the index). A
 * PDU whose "worker_instance" is not instance is dropped as stale. With
 * max_queue > 0 a PDU arriving while max_queue PDUs wait for its decoder
 * (the gate's own queue plus, once watch() was called, that decoder's) is
 * dropped: a notice (its metadata plus "dropped" = "worker_queue_full", an
 * empty u8vector) goes out on "dropped", and the next PDU of its HARQ key
 * carries "harq_reset". A PDU whose rnti, harq_process or codeword is there
 * but not valid is reported on "errors" ("bad HARQ field") and, with a seq,
 * noticed on "dropped" (cause "bad_harq_field"). Anything that throws in
 * the handler is reported on "errors" ("internal error") and costs that
 * PDU only. With log_interval > 0 it writes lines on stderr: started, its
 * rate every log_interval seconds, stopped. Ports: "pdus" in; "pdus<i>",
 * ("pdus" with one decoder), "dropped", "errors" out.
 */
class GPURX_API worker_gate : virtual public gr::block
{
public:
    typedef std::shared_ptr<worker_gate> sptr;
    //! std::invalid_argument naming name (empty), decoders (1..64),
    //! max_queue (< 0) or log_interval (< 0).
    static sptr make(const std::string& name,
                     int decoders = 1,
                     int64_t max_queue = 0,
                     uint64_t instance = 0,
                     double log_interval = 0.0);

    virtual std::string worker_name() const = 0;
    virtual uint64_t instance() const = 0;
    virtual int decoders() const = 0;
    virtual int64_t max_queue() const = 0;
    virtual double log_interval() const = 0;

    // The counts, read from any thread.
    virtual uint64_t passed() const = 0;
    virtual uint64_t dropped() const = 0;
    virtual uint64_t stale() const = 0;
    virtual uint64_t bad() const = 0;

    //! The decoder blocks on "pdus0" .. "pdus<n-1>", in order:
    //! std::invalid_argument when not n of them.
    virtual void watch(const std::vector<gr::basic_block_sptr>& decoders) = 0;
    virtual bool watching() const = 0;
    //! PDUs waiting for the gate and, when watched, for decoder (-1: every
    //! decoder).
    virtual uint64_t queue(int decoder = -1) const = 0;
    //! Where the log reads what the decoders decoded (< 0: not known, the
    //! log counts PDUs passed).
    virtual void set_decoded_source(std::function<int64_t()> decoded) = 0;
    //! The decoder a PDU with metadata meta goes to.
    virtual int decoder_for(const pmt::pmt_t& meta) const = 0;
    //! Tests: the handling of the next PDU throws std::runtime_error(what),
    //! as an unforeseen error would.
    virtual void inject_fault(const std::string& what) = 0;
};

} // namespace gpurx
} // namespace gr

#endif

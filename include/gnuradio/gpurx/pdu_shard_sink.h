/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_PDU_SHARD_SINK_H
#define INCLUDED_GPURX_PDU_SHARD_SINK_H

#include <gnuradio/basic_block.h>
#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {

/*!
 * \brief Sends each PDU to one of N ZeroMQ PUSH endpoints (workers' PULL
 * sockets; this side connects) chosen by its "shard_key" on a consistent
 * hash ring (docs/scale-out.md, "Balance").
 * \ingroup gpurx
 *
 * Each endpoint has its own gr::zeromq::push_msg_sink in a flowgraph of its
 * own (a lane), so that an endpoint can come and go while the others run.
 * balance "bounded": consistent hashing with bounded loads (a new key to the
 * first endpoint clockwise holding fewer than ceil((1 + eps) keys / N),
 * where it stays; the first PDU of a key it does not know carries
 * "harq_reset"); "ring": plain consistent hashing. remove_endpoint(),
 * add_endpoint() (or "control" commands) move only the keys of the endpoint
 * concerned. The first PDU of a key that moved, or whose endpoint lost its
 * buffer, carries "harq_reset" and is reported ("key_moved", "key_reset").
 * With max_queue > 0 a PDU whose lane holds max_queue PDUs is dropped
 * ("queue_full"). Endpoint changes are reported ("endpoint_removed",
 * "endpoint_added", "endpoint_restarted"). With a worker's instance known,
 * each PDU carries "worker_instance". Ports: "pdus" in, "control" in (dicts:
 * "command" add or remove, "endpoint", optional "instance" and "cause"),
 * "errors" out.
 */
class GPURX_API pdu_shard_sink : virtual public gr::block
{
public:
    typedef std::shared_ptr<pdu_shard_sink> sptr;
    //! Bad parameters raise std::invalid_argument naming them; a ZMQ
    //! refusal std::runtime_error naming the endpoint.
    static sptr make(const std::vector<std::string>& endpoints,
                     int vnodes = 64,
                     int timeout_ms = 100,
                     int64_t max_queue = 1024,
                     int64_t max_keys = 65536,
                     const std::string& balance = "bounded",
                     double eps = 0.01);
    virtual std::vector<std::string> endpoints() const = 0;
    //! Where shard_key goes now ("" for none: balance "bounded", a key not
    //! placed yet).
    virtual std::string endpoint_of(uint64_t shard_key) const = 0;
    //! {endpoint: keys it holds} ("ring": keys remembered, by endpoint).
    virtual std::map<std::string, uint64_t> keys_of() const = 0;
    //! {endpoint: PDUs sent}, removed endpoints included.
    virtual std::map<std::string, uint64_t> sent() const = 0;
    //! {endpoint: PDUs still in its lane's queue}, removed ones included.
    virtual std::map<std::string, uint64_t> pending() const = 0;
    virtual std::map<std::string, uint64_t> stats() const = 0;
    //! std::invalid_argument when not on the ring.
    virtual void remove_endpoint(const std::string& endpoint,
                                 const std::string& cause = "remove_endpoint()") = 0;
    //! instance < 0: not known. std::invalid_argument when on the ring
    //! already or not an endpoint.
    virtual void add_endpoint(const std::string& endpoint,
                              int64_t instance = -1,
                              const std::string& cause = "add_endpoint()") = 0;
    virtual void restart_endpoint(const std::string& endpoint,
                                  uint64_t instance,
                                  const std::string& cause = "restart_endpoint()") = 0;
    //! Tests and benchmarks: the endpoint's lane posts to block's port
    //! instead of its ZMQ socket (not while running).
    virtual void set_lane_sink(const std::string& endpoint,
                               gr::basic_block_sptr block,
                               const std::string& port) = 0;
};

} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_PDU_SEQUENCER_H
#define INCLUDED_GPURX_PDU_SEQUENCER_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief The scale-out front end's first block (docs/scale-out.md): stamps
 * each PDU's metadata with "seq" (uint64: 0, 1, 2, ... in arrival order) and
 * "shard_key" (uint64).
 * \ingroup gpurx
 *
 * key "harq": hash64 of (rnti, harq_process, codeword) from the metadata
 * (codeword 0 when absent), so that all transmissions of a transport block
 * share a key; "round_robin": the seq itself. A PDU that is not a (dict .
 * vector) pair, or lacks rnti / harq_process with key "harq", is dropped and
 * reported on "errors" (dict: "reason"); it takes no seq. So is one whose
 * rnti, harq_process or codeword is not an integer in the decoder's range
 * (0..65535, 0..15, 0..1): "bad HARQ field", with "field", "value" and
 * "expected". Ports: "pdus" in, "pdus" out, "errors" out.
 */
class GPURX_API pdu_sequencer : virtual public gr::block
{
public:
    typedef std::shared_ptr<pdu_sequencer> sptr;
    //! \param key "harq" or "round_robin" (std::invalid_argument naming key)
    static sptr make(const std::string& key = "harq");
    //! The seq the next PDU will get (= how many were stamped).
    virtual uint64_t next_seq() const = 0;
    virtual std::string key() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_PDU_REORDER_H
#define INCLUDED_GPURX_PDU_REORDER_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <cstdint>
#include <map>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief The scale-out collector (docs/scale-out.md): emits PDUs in "seq"
 * order, whatever order they arrive in.
 * \ingroup gpurx
 *
 * Reported on "errors", each a dict with "reason" and "seq": "timeout" (a
 * seq that had not come when a later PDU had waited timeout_ms: skipped),
 * "window_full" (a PDU arrived window or more beyond the next due: the
 * oldest gaps forced out), "resync" (2 x window or more beyond: what was
 * held is emitted, the skipped seqs reported as one, with "first", "last"
 * and "count"), "duplicate" (a seq held or delivered already), "late" (a seq
 * skipped already), "dropped" (a worker's drop notice: a PDU whose metadata
 * has "dropped", reported in its turn with "cause" and "worker"; nothing
 * emitted), "no seq", "flush" (flush()'s gaps). Ports: "pdus" in, "pdus"
 * out, "errors" out.
 */
class GPURX_API pdu_reorder : virtual public gr::block
{
public:
    typedef std::shared_ptr<pdu_reorder> sptr;
    //! \param window 1..16777216
    //! \param timeout_ms > 0, at most an hour
    //! \param first_seq the first seq due (>= 0)
    static sptr make(int64_t window = 4096, double timeout_ms = 500, int64_t first_seq = 0);
    //! Counts: emitted, timeout, window_full, resync, duplicate, late,
    //! no_seq, flush, dropped; held, next_seq.
    virtual std::map<std::string, uint64_t> stats() const = 0;
    //! Emits everything held, in order, reporting the gaps ("flush").
    virtual void flush() = 0;
};

} // namespace gpurx
} // namespace gr

#endif

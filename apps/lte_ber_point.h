/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// One curve of gpurx-lte-ber: a transport-block format and a HARQ mode,
// run point by point. TBs go through in rounds: every TB of a round is sent
// once, decoded (the pipeline drained), and those whose CRC failed are sent
// again with the next redundancy version into their own soft buffer, up to
// --max-tx times. Draining between transmissions keeps a retransmission out
// of the batch that still decodes the transmission it combines with.
#ifndef INCLUDED_GPURX_APPS_LTE_BER_POINT_H
#define INCLUDED_GPURX_APPS_LTE_BER_POINT_H

#include "lte_ber_options.h"

#include "pipeline/backend.h"
#include "pipeline/batch_pipeline.h"
#include "pipeline/worker_pool.h"
#include "sch/sch_encoder.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace apps {

//! What one Es/N0 point measured.
struct bler_point {
    double esn0 = 0;
    uint64_t blocks = 0;        //!< TBs sent (each at least once)
    //! failed[n]: TBs not delivered correctly after n + 1 transmissions
    //! (their CRC still fails, or it checked on a wrong payload).
    std::vector<uint64_t> failed;
    uint64_t transmissions = 0; //!< every transmission, retransmissions included
    uint64_t delivered = 0;     //!< TBs delivered with the right payload
    uint64_t undetected = 0;    //!< TBs whose CRC checked on a wrong payload
    uint64_t iterations = 0;    //!< sum over transmissions of the TB's most turbo iterations

    double bler(size_t n) const { return blocks && n >= 1 && n <= failed.size() ? double(failed[n - 1]) / double(blocks) : 0; }
    double residual() const { return bler(failed.size()); }
    //! TBs delivered per transmission: the throughput as a fraction of the TBS.
    double throughput() const { return transmissions ? double(delivered) / double(transmissions) : 0; }
    double mean_transmissions() const { return blocks ? double(transmissions) / double(blocks) : 0; }
    double mean_iterations() const { return transmissions ? double(iterations) / double(transmissions) : 0; }
};

//! The curve's settings as run.
struct bler_curve_setup {
    const lte_ber_options& o;
    lte_link link;
    harq_mode harq;
    core::backend_choice where;
    std::string name; //!< CSV and legend name
};

//! Runs the points of one curve on one pipeline (made here, with one soft
//! buffer per TB of a round).
class bler_curve_runner
{
public:
    explicit bler_curve_runner(const bler_curve_setup& s);
    ~bler_curve_runner();
    /*!
     * The point at Es/N0 \p esn0 (dB). TB b of the point and its noise
     * follow from --seed, \p esn0 and b alone (not the thread count, the
     * backend or the sweep), so
     * curves run at the same Es/N0 (IR and chase, say) send the same TBs
     * through the same noise in their first transmissions.
     */
    bler_point run(double esn0);
    //! "cpu-sch (turbo: cpu-window16-simd)" and the like.
    const std::string& decoder() const { return d_decoder; }

private:
    //! One round of \p n TBs at \p esn0 into \p p.
    void run_round(size_t n, double esn0, uint64_t point_seed, bler_point& p);
    void progress(const bler_point& p, double secs, bool final) const;

    const bler_curve_setup& d_s;
    core::sch::tb_request d_req; //!< the TB's request at rv 0
    std::vector<core::sch::frame_params> d_params; //!< per transmission (its rv)
    size_t d_round = 0; //!< TBs per round (= soft buffers)
    std::unique_ptr<core::batch_pipeline> d_pipe;
    std::unique_ptr<core::worker_pool> d_gen; //!< signal generators
    std::vector<std::unique_ptr<core::sch::sch_encoder>> d_enc; //!< one per generator
    std::vector<std::vector<uint8_t>> d_bits; //!< the round's payloads
    std::vector<std::vector<float>> d_llr;    //!< the round's channel LLRs
    std::string d_decoder;
};

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif

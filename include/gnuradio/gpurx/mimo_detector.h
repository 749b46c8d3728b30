/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_MIMO_DETECTOR_H
#define INCLUDED_GPURX_MIMO_DETECTOR_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <gnuradio/gpurx/pipeline_options.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief Soft-output MIMO detector, stream form: received vectors and channel matrices in, LLR vectors out.
 * \ingroup gpurx
 *
 * The model: y = H s + n, nt transmit streams of unit-energy symbols
 * (modulation "qpsk", "16qam", "64qam", "256qam": 3GPP TS 36.211 7.1, as
 * qam_mapper), nr >= nt receive antennas, E|n|^2 = N0 per receive antenna.
 * H is nr x nt complex, row-major (H[r][t] at r * nt + t). Output LLRs
 * follow GNU Radio's convention, L = ln P(b=1)/P(b=0), positive for bit 1:
 * per received vector nt * bits_per_symbol floats, antenna 0's bits first,
 * each antenna's in the order b(0), b(1), ... (as qam_mapper reads them).
 * algorithm: "ml" (exhaustive max-log, the reference; nt <= 4, Q^nt <= 2^24),
 * "mtt" (multi-pass trellis traversal, exact for nt <= 2), "one-pass",
 * "kbest" (k paths per level, |LLR| <= clip), "lmmse". sorted_qr detects
 * the strongest stream first (output still in antenna order). apriori: the
 * detector also takes a-priori LLRs (same layout and convention as its
 * output); output "extrinsic" gives L_D - L_A instead of the a-posteriori
 * L_D (they are equal without a-priori input). implementation: "auto" or a
 * registry name (gpurx-info lists them). llr_type "int8": one int8 (char)
 * per LLR instead of a float, in steps of 1/8: v = round(8 L) (half to even)
 * saturated to +-127, the unit of lte_turbo_decoder(input="int8"), whose
 * fixed-point algorithms decode it exactly as the float LLR; both backends
 * quantise alike. Each completed channel is tagged
 * (PDU: described) "rank", the numerical rank of H (with rank_tags false,
 * only a channel below full rank); below nt also
 * "rank_deficient" (the LLRs stay finite, 0 for bits it cannot separate).
 * Inputs: 0, the received vectors y (nr complex); 1, H (nr * nt complex),
 * one per vectors_per_channel y vectors (the y's that follow it); with
 * apriori, an input of a-priori LLR vectors (nt * bps float, one per y);
 * with noise_input, a last input of N0 (one float per H), else noise_var.
 * One LLR vector (nt * bps float, or char with int8) out per y vector, in
 * order. A channel whose H, y's, a-priori LLRs or N0 hold NaN or Inf, whose
 * N0 is outside 1e-20..1e20, or whose H or y hold parts so large for its N0
 * that the LLRs would leave float's range (beyond 1.8e13 at N0 = 1 for 8x8
 * 256-QAM, proportionally to sqrt(N0) below 1) is not detected: its LLR
 * vectors are zeros, the first tagged "gpurx_error" with the reason, and
 * the log says which; its neighbours are unaffected. Every LLR out is
 * finite. A stream that ends inside a channel (fewer y vectors, or no H,
 * for its last channel) is reported once its whole channels have left:
 * logged, and posted on "errors" as a dict ("reason", "offset" of its first
 * y vector, "dropped": the items of each input not detected).
 * Batching, backend and GPUs: see pipeline_options.
 */
class GPURX_API mimo_detector : virtual public gr::block
{
public:
    typedef std::shared_ptr<mimo_detector> sptr;
    /*!
     * \param nt transmit streams, 1..8
     * \param nr receive antennas, nt..8
     * \param modulation "qpsk", "16qam", "64qam" or "256qam"
     * \param algorithm "ml", "mtt", "one-pass", "kbest" or "lmmse"
     * \param k kbest: paths kept per level, 1..65536
     * \param clip kbest: |LLR| bound, > 0
     * \param noise_var N0 per receive antenna, 1e-20..1e20 (SNRs within +-200 dB)
     * \param noise_input N0 per channel from an extra float input
     * \param vectors_per_channel y vectors per H, 1..65536
     * \param sorted_qr detect in the order of a sorted QR
     * \param apriori take a-priori LLRs
     * \param output "aposteriori" or "extrinsic"
     * \param implementation "auto" or a registry name
     * \param options batching, backend and GPUs (pipeline_options)
     * \param llr_type "float" (default): float32 LLRs out; "int8": one char
     *        (int8) per LLR, v = round(8 L) saturated to +-127 (appended
     *        last so that positional calls of earlier versions still work)
     * \param rank_tags true (default): every channel tagged "rank"; false:
     *        only channels below full rank (and errors) are tagged. A
     *        receiver with a channel per subcarrier (mimo_ofdm_rx: 1200 per
     *        OFDM frame at 20 MHz) spends most of its time moving those
     *        tags through every block downstream otherwise.
     */
    static sptr make(int nt,
                     int nr,
                     const std::string& modulation = "16qam",
                     const std::string& algorithm = "mtt",
                     int k = 16,
                     float clip = 16.0f,
                     float noise_var = 0.1f,
                     bool noise_input = false,
                     int vectors_per_channel = 1,
                     bool sorted_qr = false,
                     bool apriori = false,
                     const std::string& output = "aposteriori",
                     const std::string& implementation = "auto",
                     const pipeline_options& options = pipeline_options(),
                     const std::string& llr_type = "float",
                     bool rank_tags = true);
    //! "cuda" or "cpu": the backend this block runs on.
    virtual std::string backend() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_MIMO_DETECTOR_PDU_H
#define INCLUDED_GPURX_MIMO_DETECTOR_PDU_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <gnuradio/gpurx/pipeline_options.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief Soft-output MIMO detector for PDUs: a c32vector PDU per channel.
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
 * (PDU: described) "rank", the numerical rank of H; below nt also
 * "rank_deficient" (the LLRs stay finite, 0 for bits it cannot separate).
 * A PDU's vector (c32vector) is H, then the received vectors y of
 * that channel (nr each), then with apriori their a-priori LLRs in the
 * output's order, two per complex item (real part first); its length gives
 * the number of vectors (1..max_vectors). N0 is noise_var. The LLRs leave as
 * an f32vector PDU (s8vector with int8) with the input's metadata and
 * "rank". Malformed PDUs (NaN/Inf, or H and y too large for N0 to keep the
 * LLRs within float's range: see mimo_detector) are reported on "errors"
 * (a dict with the reason).
 * Batching, backend and GPUs: see pipeline_options.
 */
class GPURX_API mimo_detector_pdu : virtual public gr::block
{
public:
    typedef std::shared_ptr<mimo_detector_pdu> sptr;
    /*!
     * \param nt transmit streams, 1..8
     * \param nr receive antennas, nt..8
     * \param modulation "qpsk", "16qam", "64qam" or "256qam"
     * \param algorithm "ml", "mtt", "one-pass", "kbest" or "lmmse"
     * \param k kbest: paths kept per level, 1..65536
     * \param clip kbest: |LLR| bound, > 0
     * \param noise_var N0 per receive antenna, 1e-20..1e20 (SNRs within +-200 dB)
     * \param max_vectors most vectors per channel accepted (sizes the staging)
     * \param sorted_qr detect in the order of a sorted QR
     * \param apriori take a-priori LLRs
     * \param output "aposteriori" or "extrinsic"
     * \param implementation "auto" or a registry name
     * \param options batching, backend and GPUs (pipeline_options)
     * \param llr_type "float" (default): float32 LLRs out; "int8": one char
     *        (int8) per LLR, v = round(8 L) saturated to +-127 (appended
     *        last so that positional calls of earlier versions still work)
     */
    static sptr make(int nt,
                     int nr,
                     const std::string& modulation = "16qam",
                     const std::string& algorithm = "mtt",
                     int k = 16,
                     float clip = 16.0f,
                     float noise_var = 0.1f,
                     bool sorted_qr = false,
                     bool apriori = false,
                     const std::string& output = "aposteriori",
                     const std::string& implementation = "auto",
                     int max_vectors = 1024,
                     const pipeline_options& options = pipeline_options(),
                     const std::string& llr_type = "float");
    //! "cuda" or "cpu": the backend this block runs on.
    virtual std::string backend() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif

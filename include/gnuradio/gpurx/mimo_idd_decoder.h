/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_MIMO_IDD_DECODER_H
#define INCLUDED_GPURX_MIMO_IDD_DECODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <gnuradio/gpurx/pipeline_options.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief Iterative detection and decoding (IDD) receiver, stream form: a MIMO
 * detector and the DL-SCH / UL-SCH transport-block decoder in a loop,
 * `passes` passes per transport block (TB), on the GPU without a host round
 * trip between passes.
 * \ingroup gpurx
 *
 * One TB is `channels` channels of `vectors_per_channel` received vectors
 * each, with the inputs of mimo_detector(noise_input=True): input 0 the y
 * vectors (nr complex each), input 1 one H per channel (nr * nt complex,
 * row-major), input 2 one N0 per channel (float; the TB's N0 is its first
 * channel's: mimo_ofdm_channel_estimator gives one per OFDM frame). The
 * detector's LLRs of the TB (channel after channel, vector after vector,
 * antenna 0's bits first) are its G = channels * vectors_per_channel * nt *
 * bits_per_symbol coded bits in transmission order, as mimo_ofdm_tx maps
 * them. Pass 1 detects without a-priori LLRs and decodes; each later pass
 * gives the detector the decoder's extrinsic LLRs of the codeword (damped
 * by extrinsic_scale) as a-priori LLRs and decodes its extrinsic LLRs. A TB
 * stops at the first pass whose CRC24A checks.
 *
 * Output: the TB's tbs decoded bits (one per byte), its first bit tagged
 * "crc_ok" (bool), "passes" (passes run), "pass_crc" (bit p-1: pass p's CRC
 * checked) and "iterations" (turbo iterations of the output's pass). The TB
 * parameters are fixed: rv 0, one transmission, no HARQ combining, as
 * mimo_ofdm_link sends them. The turbo decoder runs in float (scaled
 * max-log-MAP): its coded-bit extrinsics need it.
 */
class GPURX_API mimo_idd_decoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<mimo_idd_decoder> sptr;
    /*!
     * \param nt transmit streams, 1..8
     * \param nr receive antennas, nt..8
     * \param modulation "qpsk", "16qam", "64qam" or "256qam"
     * \param algorithm "ml", "mtt", "one-pass", "kbest" or "lmmse"
     * \param channels channels (H) per TB, 1..65536
     * \param vectors_per_channel y vectors per H, >= 1
     * \param tbs transport block size (bits, CRC excluded)
     * \param passes detection and decoding passes per TB, 1..8
     * \param iterations turbo iterations per pass, 1..32
     * \param extrinsic_scale damping of the decoder's extrinsic fed back, (0, 2]
     * \param channel "dlsch" or "ulsch"
     * \param rnti n_RNTI of the scrambling, 0..65535
     * \param cell_id N_ID^cell, 0..503
     * \param subframe 0..9
     * \param implementation "auto", "cpu-idd" or "cuda-idd"
     * \param options batching, backend and GPUs (pipeline_options)
     */
    static sptr make(int nt,
                     int nr,
                     const std::string& modulation,
                     const std::string& algorithm,
                     int channels,
                     int vectors_per_channel,
                     int tbs,
                     int passes = 2,
                     int iterations = 6,
                     float extrinsic_scale = 0.75f,
                     const std::string& channel = "dlsch",
                     int rnti = 0,
                     int cell_id = 0,
                     int subframe = 0,
                     const std::string& implementation = "auto",
                     const pipeline_options& options = pipeline_options());
    //! "cuda" or "cpu": the backend this block runs on.
    virtual std::string backend() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif

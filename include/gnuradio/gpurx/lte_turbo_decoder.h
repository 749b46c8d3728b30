/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_LTE_TURBO_DECODER_H
#define INCLUDED_GPURX_LTE_TURBO_DECODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief LTE turbo decoder, parallel-window BCJR, on CUDA or the CPU.
 * \ingroup gpurx
 *
 * In: vectors of 3K+12 float LLRs in the layout c[3k+i] = d(i)_k.
 * Soft values are GNU Radio's convention: L = ln P(b=1)/P(b=0), positive for
 * bit 1 (a BPSK soft decision of +1 means 1).
 * Max-log-MAP (scaled or not) decodes in 16-bit fixed point (LLRs quantised
 * to 1/8, saturating at +-15.9), identically on both backends; log-MAP in
 * float.
 * Out: vectors of K unpacked bits (uint8 0/1).
 *
 * Codewords are batched (max_batch), several batches are in flight (slots),
 * and a partial batch is decoded after flush_us microseconds. The block is
 * 1:1 in vectors, with a delay of up to slots x max_batch vectors. A vector
 * holding NaN or Inf is not decoded: its output is zeros, it carries a
 * "gpurx_error" tag, and a warning is logged; its neighbours are unaffected.
 */
class GPURX_API lte_turbo_decoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<lte_turbo_decoder> sptr;

    /*!
     * \param K block size (Table 5.1.3-3)
     * \param iterations full turbo iterations, 1..16
     * \param algorithm "log-map", "max-log-map" or "scaled-max-log-map"
     * \param subblocks P, parallel windows per codeword, 1..256 (1 = no
     *        windowing), or 0 (default): automatic, windows of at most 48
     *        steps per codeword (P = 128 for K = 6144, within 0.01 dB of P = 1);
     *        windows overlap their neighbours by 16 training steps
     * \param scaling extrinsic scale of scaled-max-log-map, (0, 1]
     * \param early_termination "none", "crc24a", "crc24b" or "hard-decision"
     * \param max_batch codewords per batch
     * \param slots batches in flight
     * \param flush_us launch a partial batch after this many microseconds
     * \param backend "auto", "cuda" or "cpu"
     * \param device CUDA device ordinal
     */
    static sptr make(int K,
                     int iterations = 6,
                     const std::string& algorithm = "scaled-max-log-map",
                     int subblocks = 0,
                     float scaling = 0.75f,
                     const std::string& early_termination = "none",
                     int max_batch = 64,
                     int slots = 3,
                     int flush_us = 1000,
                     const std::string& backend = "auto",
                     int device = 0);

    virtual std::string backend() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif

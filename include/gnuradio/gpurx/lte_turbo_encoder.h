/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_LTE_TURBO_ENCODER_H
#define INCLUDED_GPURX_LTE_TURBO_ENCODER_H

#include <gnuradio/gpurx/api.h>
#include <gnuradio/sync_block.h>
#include <vector>

namespace gr {
namespace gpurx {

/*!
 * \brief LTE turbo encoder (3GPP TS 36.212 5.1.3.2).
 * \ingroup gpurx
 *
 * In: vectors of K unpacked bits (uint8 0/1). Out: vectors of 3K+12 unpacked
 * bits, the three streams interleaved: c[3k+i] = d(i)_k, k = 0..K+3,
 * including the 12 trellis-termination bits.
 *
 * Each input byte's low bit is its bit (GNU Radio's unpacked convention);
 * an input vector holding bytes other than 0 and 1 is still encoded so,
 * its codeword tagged "gpurx_error" with their count, and the log notes
 * where such input starts and ends.
 */
class GPURX_API lte_turbo_encoder : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<lte_turbo_encoder> sptr;
    //! \param K block size, one of the 188 sizes of Table 5.1.3-3
    static sptr make(int K);
};

//! The 188 block sizes K of TS 36.212 Table 5.1.3-3, ascending (40..6144):
//! every turbo block takes exactly these.
GPURX_API std::vector<int> lte_turbo_block_sizes();

} // namespace gpurx
} // namespace gr

#endif

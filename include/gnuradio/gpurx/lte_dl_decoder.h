/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_LTE_DL_DECODER_H
#define INCLUDED_GPURX_LTE_DL_DECODER_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief The LTE downlink receiver of one cell as a sink: n_rx streams of
 * samples in, every transport block of the cell's UEs out as messages
 * (lib/lte/receiver/downlink_receiver.h, docs/lte-downlink.md).
 * \ingroup gpurx
 *
 * In: n_rx (1 or 2) streams of complex samples at sample_rate, a standard
 * LTE rate (1.92 .. 30.72 MS/s), one per receive antenna, as a USRP Source
 * or file sources give them. Cell search (PSS/SSS, the MIB), then per
 * subframe the control region, the PDSCHs of the RNTIs asked for and the
 * DL-SCH with HARQ, on the GPU (CUDA) or the CPU backend.
 *
 * Out, on message ports:
 * - "tbs": one PDU per transport block: metadata dict sfn, subframe,
 *   cell_id, rnti, dci_format, mcs, tbs, rv, ndi, harq_process, tb (0 or
 *   1), crc_ok, iterations, transmissions, duplicate (a retransmission of a
 *   TB already delivered: not decoded again) and, where it was not decoded,
 *   error; data: the TB's bits as a u8vector of 0/1 (empty for a duplicate
 *   or a TB not decoded);
 * - "stats": one dict per subframe: sfn, subframe, outcome ("decoded",
 *   "no_control", "lost"), cfi, dcis, pdschs, cfo_hz, noise_var, reason;
 * - "status": a dict when the state changes: state ("searching", "found",
 *   "lost"), reason, backend and, once a cell was found, cell_id, n_prb,
 *   ports, cp, cfo_hz, sfn, sample_rate, n_rx.
 *
 * Stream time: an "rx_time" tag (gr-uhd's: a tuple of whole and fractional
 * seconds) that jumps against the samples counted since the previous one (an
 * overflow, "O") becomes a gap of the samples lost: the subframes it
 * touches are reported "lost", never decoded as if the stream were
 * contiguous. A jump of more than a second, or back in time (a restart),
 * starts the receiver afresh (cell search). Each event is logged once, with
 * its count. At the end of a stream (and at stop()) what is still pending
 * is decoded and posted.
 */
class GPURX_API lte_dl_decoder : virtual public gr::block
{
public:
    typedef std::shared_ptr<lte_dl_decoder> sptr;
    /*!
     * \param sample_rate samples per second of every input (1.92e6, 3.84e6,
     *        7.68e6, 15.36e6, 23.04e6, 30.72e6)
     * \param n_rx receive antennas (inputs), 1 or 2
     * \param rnti "all": every UE of the cell, its C-RNTI learnt from the
     *        PDCCH; or a comma list of C-RNTIs (decimal or 0x-hex). SI-, P-
     *        and RA-RNTI grants are decoded in both cases
     * \param backend "auto", "cpu" or "cuda" (the DL-SCH decoder's)
     * \param devices CUDA devices ("0", "0,1", "all")
     * \param ue_category the UEs' category 0..12 (their soft buffer; 0: no
     *        limit)
     * \param detector TM3/TM4 MIMO detector: lmmse, mtt, kbest, ml, one-pass
     * \param pcap a MAC-LTE pcap file to write (Wireshark), or "" for none
     *
     * Throws std::invalid_argument (Python: ValueError) naming a bad one.
     */
    static sptr make(double sample_rate,
                     int n_rx = 1,
                     const std::string& rnti = "all",
                     const std::string& backend = "auto",
                     const std::string& devices = "0",
                     int ue_category = 4,
                     const std::string& detector = "lmmse",
                     const std::string& pcap = "");

    //! The backend in use, one line (what backend_choice decided).
    virtual std::string backend() const = 0;
    //! "searching", "found" or "lost".
    virtual std::string state() const = 0;
    //! The cell found (-1 while none).
    virtual int cell_id() const = 0;
    //! Subframes reported (any outcome), and those lost or without a
    //! readable control region.
    virtual uint64_t subframes() const = 0;
    virtual uint64_t subframes_lost() const = 0;
    virtual uint64_t subframes_no_control() const = 0;
    //! TBs delivered (duplicates excepted), those whose CRC passed, and the
    //! duplicates.
    virtual uint64_t tbs() const = 0;
    virtual uint64_t tbs_ok() const = 0;
    virtual uint64_t duplicates() const = 0;
    //! TB bits of the TBs whose CRC passed.
    virtual uint64_t ok_bits() const = 0;
    //! Stream-time jumps seen (rx_time) and the samples they lost.
    virtual uint64_t gaps() const = 0;
    virtual uint64_t samples_lost() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// PBCH reception (36.211 §6.6, 36.212 §5.3.1): the MIB from subframe 0 of a
// radio frame, when the ports and the frame's place in the 40 ms BCH period
// are not known yet:
//  - for each port hypothesis (1: maximum-ratio combining; 2: SFBC; 4:
//    SFBC + FSTD, transmit_diversity.h), the 240 QPSK symbols' LLRs;
//  - for each place j = SFN mod 4: the LLRs as quarter j of the 1920-bit
//    block (zeros elsewhere), descrambled by the Gold sequence of
//    c_init = N_ID^cell (§6.6.1), rate de-matched to 3 x 40, tail-biting
//    Viterbi decoded, CRC16 checked: the CRC's mask must be the hypothesis'
//    (36.212 Table 5.3.1.1-1: 1 port 0x0000, 2 ports 0xFFFF, 4 ports 0x5555);
//  - the MIB's fields, the SFN = 4 x (its 8 MSBs) + j.
// When one frame does not decode, the LLRs of the frames before it in the
// same 40 ms can be added (decode_combined): frames of one BCH period carry
// the same block, each its own quarter.
#ifndef INCLUDED_GPURX_LTE_PBCH_PBCH_DECODER_H
#define INCLUDED_GPURX_LTE_PBCH_PBCH_DECODER_H

#include "lte/coding/lte_cc_decoder.h"
#include "lte/common/lte_cell.h"
#include "lte/common/resource_grid.h"
#include "lte/pbch/mib.h"
#include "lte/pbch/pbch_mapping.h"

#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

struct pbch_result {
    bool found = false;
    int ports = 0;        //!< from the CRC mask: 1, 2 or 4
    int frame_in_tti = 0; //!< SFN mod 4 of the (last) frame decoded
    mib m;                //!< m.sfn: the SFN of that frame
    int frames = 1;       //!< frames whose LLRs were combined
    std::string reason;   //!< why nothing was found
};

class pbch_decoder
{
public:
    //! For cell \p cell_id (0..503) and \p cp. Throws std::invalid_argument.
    pbch_decoder(int cell_id, cyclic_prefix cp);

    /*!
     * The MIB of one radio frame from its subframe 0: the grid (any
     * bandwidth of at least 6 PRB around the cell's centre) and the channel
     * at its REs for est.n_ports ports (4 to try every hypothesis; the
     * hypotheses tried are 1, 2, 4 up to est.n_ports, or only \p ports when
     * it is 1, 2 or 4). The frame's LLRs are kept for decode_combined.
     */
    pbch_result decode(const subframe_grid& g, const channel_estimate& est, int ports = 0);

    /*!
     * After decode() failed on the latest frame: tries it combined with the
     * up to 3 frames decoded before it (they must have been the radio frames
     * just before, given to decode() in order with nothing in between; a
     * caller that skips frames calls forget()). For j = SFN mod 4 of the
     * latest frame, the j frames before it are in its BCH period.
     */
    pbch_result decode_combined();
    void forget() { d_history.clear(); }

    /*!
     * The LLRs (pbch_symbols_per_frame() x 2, mapping order) of the frame in
     * \p g for \p ports ports (1, 2, 4; est.n_ports at least that), values
     * that are not finite made 0. False when the grid is too narrow, est
     * does not match it, or fewer than half the LLRs are nonzero (no signal).
     */
    bool frame_llrs(const subframe_grid& g, const channel_estimate& est, int ports, float* llr);

private:
    //! Tries place j for the block \p e (1920 LLRs, scrambled) at \p ports.
    bool try_block(const std::vector<float>& e, int ports, int j, pbch_result& r);

    int d_cell_id;
    cyclic_prefix d_cp;
    std::vector<uint8_t> d_c;          //!< the 1920 (1728) scrambling bits
    std::vector<re_position> d_pos;    //!< for d_pos_n_sc
    int d_pos_n_sc = 0;
    tail_biting_decoder d_viterbi;
    std::vector<float> d_block;
    // The LLRs of the last frames (newest last) per hypothesis [1, 2, 4].
    struct frame_llr {
        std::vector<float> llr[3];
        bool have[3] = { false, false, false };
    };
    std::vector<frame_llr> d_history;
};

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

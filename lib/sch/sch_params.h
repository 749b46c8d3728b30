/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A transport block's parameters as a user gives them (a PDU's metadata, an
// app's options) and what 36.212 derives from them: code block segmentation
// (§5.1.2), each code block's N_cb and k0 (§5.1.4.1.2, with the downlink
// soft-buffer limit) and E (§5.1.4.1.2), and the scrambling seed (36.211
// §6.3.1 PDSCH, §5.3.1 PUSCH).
#ifndef INCLUDED_GPURX_SCH_SCH_PARAMS_H
#define INCLUDED_GPURX_SCH_SCH_PARAMS_H

#include "sch/sch_frame.h"
#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

//! The largest TBS accepted: 64 code blocks (36.213's largest, 391656, for
//! four layers, needs exactly 64).
constexpr int MAX_TBS = 391656;

struct tb_request {
    channel_kind channel = DLSCH;
    int tbs = 0;        //!< A, 16..MAX_TBS
    int rv = 0;         //!< redundancy version, 0..3
    int qm = 2;         //!< bits per symbol: 2, 4, 6, 8
    int g = 0;          //!< G, coded bits available to the TB
    int rnti = 0;       //!< n_RNTI, 0..65535
    int cell_id = 0;    //!< N_ID^cell, 0..503
    int subframe = 0;   //!< 0..9 (n_s = 2 subframe)
    int harq_process = 0;
    int ndi = 0;
    //! Start the key's HARQ buffer afresh, whatever ndi says: nothing
    //! before this transmission is combined with it (scale-out: the key
    //! came from another decoder, the buffer here is stale or empty).
    bool harq_reset = false;
    // Downlink
    int codeword = 0;   //!< q, 0 or 1: the scrambling's codeword index
    int nl = 1;         //!< N_L: 1, or 2 when the codeword is mapped onto two or four layers
    long n_soft = 0;    //!< N_soft; 0: no soft-buffer limit (N_cb = K_w)
    int kc = 1;         //!< K_C
    int k_mimo = 1;     //!< K_MIMO
    int m_dl_harq = 8;  //!< M_DL_HARQ
    int m_limit = 8;    //!< M_limit
    // Uplink
    int n_symb = 12;    //!< N_symb^PUSCH, SC-FDMA symbols carrying data
    // HARQ
    //! The transport block's index in its DCI (0: TB 1, 1: TB 2), which with
    //! cell_id, rnti and harq_process names its HARQ buffer. A lone TB 2 is
    //! sent on codeword 0 (36.212 Table 5.3.3.1.5-2), so q cannot tell the
    //! two apart. -1: the same as codeword.
    int tb_index = -1;

    //! An empty string, or what is wrong, naming the field and its value.
    std::string check() const;
};

//! Code block segmentation of a TB of A bits (36.212 §5.1.2).
struct segmentation {
    int B;      //!< A + 24
    int C;      //!< code blocks
    int Kp, Km; //!< K+ and K- (0 when C- = 0)
    int Cp, Cm; //!< how many of each
    int F;      //!< filler bits
};
//! Throws std::invalid_argument naming tbs when A is outside 1..MAX_TBS.
segmentation segment(int tbs);

/*!
 * The kernels' record of \p req (input kind, HARQ slot and combine left to
 * the caller). Throws std::invalid_argument naming the first bad field:
 * out of range, G not a multiple of nl*qm, G too small to give each code
 * block at least one symbol, G/qm not a multiple of n_symb on the uplink.
 */
frame_params frame_params_of(const tb_request& req);

//! c_init of the PDSCH (36.211 §6.3.1) or PUSCH (§5.3.1) scrambler.
uint32_t scrambling_seed(const tb_request& req);

//! "dlsch" / "ulsch"; throws naming \p param.
channel_kind parse_channel(const std::string& name, const char* param = "channel");
const char* channel_name(channel_kind c);

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

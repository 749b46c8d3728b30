/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A transport block's parameters from a PDU's metadata or a packet's tags
// (both a pmt dict), shared by the shared-channel decoders and encoders.
//
// Keys (integers: pmt long or uint64; ndi may also be a bool):
//   required: tbs, rv, qm, rnti, cell_id, subframe, harq_process, ndi
//   downlink, optional: codeword (0), nl (1), n_soft (0: no soft-buffer
//     limit), kc (1), k_mimo (1), m_dl_harq (8), m_limit (8); the
//     decoders' ue_category and tm change the defaults of n_soft, kc and
//     k_mimo (soft_buffer_defaults)
//   uplink, optional: n_symb (12)
//   optional: harq_reset (bool, or integer 0/1; false): start the key's
//     HARQ buffer afresh
//   g: the encoders' G (required there); the decoders take G from the
//     frame's length, and a "g" present must agree with it.
// Every error names the key and its value.
#ifndef INCLUDED_GPURX_BLOCKS_SCH_SCH_METADATA_H
#define INCLUDED_GPURX_BLOCKS_SCH_SCH_METADATA_H

#include "sch/sch_params.h"
#include <pmt/pmt.h>

#include <string>

namespace gr {
namespace gpurx {

//! The soft-buffer parameters a TB takes when its metadata lacks them:
//! the decoder blocks' ue_category and tm (36.306 Table 4.1-1, 36.212
//! 5.1.4.1.2). The defaults are no limit.
struct soft_buffer_defaults {
    long n_soft = 0; //!< 0: no soft-buffer limit (N_cb = K_w)
    int kc = 1;
    int k_mimo = 1;
};

/*!
 * The TB that \p meta describes on \p channel. \p g_items: G from the
 * frame's length (the decoders), or -1: G from the "g" key (the encoders).
 * "n_soft", "kc" and "k_mimo" absent from \p meta take \p soft's values;
 * each one present wins (an "n_soft" of 0 is no limit, whatever \p soft
 * says). Returns false, with the reason in \p why, when a key is missing,
 * not an integer, out of range, or when the TB cannot be laid out (36.212:
 * G not a multiple of nl*qm, too small for its code blocks, ...).
 */
bool tb_request_of(const pmt::pmt_t& meta,
                   core::sch::channel_kind channel,
                   long long g_items,
                   core::sch::tb_request& req,
                   std::string& why,
                   const soft_buffer_defaults& soft = {});

} // namespace gpurx
} // namespace gr

#endif

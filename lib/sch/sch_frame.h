/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The shared-channel family's per-frame records: one frame is one transport
// block (TB) of the DL-SCH or UL-SCH. The host works out everything that is
// per TB (segmentation, E, N_cb, k0, the scrambling seed) when the TB is
// submitted; the kernels derive each code block's values from these few
// numbers (sch_arith.h), so a batch needs no per-code-block table uploaded.
#ifndef INCLUDED_GPURX_SCH_SCH_FRAME_H
#define INCLUDED_GPURX_SCH_SCH_FRAME_H

#include "common/host_device.h"
#include "pipeline/frame.h"
#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

enum channel_kind : int32_t { DLSCH = 0, ULSCH = 1 };

//! One transport block as the kernels see it (36.212 §5.1.2, §5.1.4.1).
struct frame_params {
    int32_t tbs;          //!< A: transport block bits, CRC24A excluded
    int32_t C;            //!< code blocks
    int32_t Kp, Km;       //!< K+ and K- (Km = 0 when C- = 0)
    int32_t Cm;           //!< C-: code blocks 0..Cm-1 have K-, the rest K+
    int32_t F;            //!< filler bits at the start of code block 0
    int32_t fp1, fp2;     //!< QPP coefficients of K+
    int32_t fm1, fm2;     //!< QPP coefficients of K-
    int32_t G;            //!< coded bits of the TB (the input's LLRs)
    int32_t nlqm;         //!< N_L * Q_m
    int32_t qm;           //!< Q_m
    int32_t gamma;        //!< G' mod C: the last gamma code blocks get E_hi
    int32_t E_lo, E_hi;   //!< E of code blocks r < C - gamma, and of the others
    int32_t ncb_p, ncb_m; //!< N_cb of K+ and K- code blocks
    int32_t k0_p, k0_m;   //!< circular-buffer start of K+ and K- code blocks (mod N_cb)
    uint32_t c_init;      //!< scrambling sequence seed (36.211 §6.3.1 / §5.3.1)
    int32_t channel;      //!< channel_kind
    int32_t n_symb;       //!< UL: columns of the channel interleaver (C_mux)
    int32_t input;        //!< turbo::input_kind of the G LLRs
    int32_t harq_slot;    //!< soft buffer index, or -1: none (decode alone)
    int32_t combine;      //!< 1: add to the soft buffer; 0: start it afresh
};

//! What the decoder reports per TB.
struct frame_result {
    int32_t crc_ok;     //!< 1 when the TB's CRC24A checks
    int32_t iterations; //!< the most full iterations any code block ran
    int32_t C;          //!< code blocks
    int32_t uninformed; //!< code blocks without enough soft values to decode (cb_informed()); crc_ok is 0 when any
    uint64_t cb_crc;    //!< bit r: code block r's CRC checks (CRC24B, or CRC24A when C = 1)
};

/*!
 * With sch_config::extrinsic_output, a TB's output is its tbs decoded bits
 * (one per byte), then, from this 16-byte aligned offset, the G extrinsic
 * LLRs (float) of the codeword as it was received: in transmission order
 * and scrambled, bit j's is what the decoder knows of its codeword bit
 * without bit j's own received LLR, so a detector can take them as
 * a-priori LLRs of the bits it detects (sch_steps.h, extrinsic()).
 */
GPURX_HD size_t extrinsic_offset(int tbs) { return (size_t(tbs) + 15) & ~size_t(15); }

inline frame_types frame_types_of() { return frame_types::of<frame_params, frame_result>(); }

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

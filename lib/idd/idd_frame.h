/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The IDD family's per-frame records: one frame is one transport block (TB)
// with everything the detector needs for it.
//   input:  the TB's detector frame without a-priori LLRs (mimo_frame.h,
//           apriori 0): det.channels channels, each H (nr x nt) then its
//           det.vectors received vectors; its channels * vectors * nt *
//           bits_per_symbol LLRs, in the detector's output order, are the
//           TB's G coded bits in transmission order (as a link maps them)
//   output: the TB's tbs decoded bits, one per byte
#ifndef INCLUDED_GPURX_IDD_IDD_FRAME_H
#define INCLUDED_GPURX_IDD_IDD_FRAME_H

#include "idd/idd_config.h"
#include "mimo/mimo_frame.h"
#include "pipeline/frame.h"
#include "sch/sch_frame.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace idd {

struct frame_params {
    //! The TB's detector frame; apriori must be 0 (the receiver adds the
    //! a-priori LLRs).
    mimo::frame_params det;
    //! The TB (sch::frame_params_of()); its input kind, HARQ slot and
    //! combine flag are the receiver's (float LLRs, no soft buffer).
    sch::frame_params tb;
};

struct frame_result {
    //! The decoder's result of the pass whose bits are output: the first
    //! pass whose CRC checked, else the last pass.
    sch::frame_result tb;
    int32_t passes;     //!< passes run for the TB, 1..P
    int32_t pass_crc;   //!< bit p-1: pass p's CRC checked (of the passes run)
    int32_t det_status; //!< the detector's worst status (mimo::frame_status) over the passes run
    int32_t det_rank;   //!< the detector's rank of pass 1
};

//! The frame's input bytes (the detector frame without a-priori LLRs).
inline size_t in_bytes(const frame_params& p)
{
    mimo::frame_params d = p.det;
    d.apriori = 0;
    return mimo::frame_in_bytes(d);
}
inline size_t out_bytes(const frame_params& p) { return size_t(p.tb.tbs); }

/*!
 * Why a receiver of \p cfg cannot run a frame of \p p ("" when it can):
 * the detector frame's own problems, a shape other than the detector's,
 * apriori set, its LLR count unequal to the TB's G, a TB beyond the
 * decoder's max_tbs or max_g. Names the field.
 */
std::string frame_problem(const frame_params& p, const mimo_idd_config& cfg);

inline frame_types frame_types_of() { return frame_types::of<frame_params, frame_result>(); }

} // namespace idd
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

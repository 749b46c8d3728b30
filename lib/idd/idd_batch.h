/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// How a batch of IDD frames is laid out in a kernel's working memory, the
// same on the CPU and the GPU. Every TB has a fixed slot in each area, so
// the detector's and the decoder's frame descriptors follow from the TB's
// index alone:
//   det_in   the TB's detector frame with a-priori LLRs (apriori 1): each
//            channel's H and vectors as received, then its prior slots
//   det_out  the detector's G extrinsic LLRs (float): the decoder's input
//   sch_out  the decoder's output: tbs bits, then G extrinsic LLRs
//            (sch::extrinsic_offset()), copied into det_in's prior slots
//            before the next pass
// then the two kernels' descriptors, parameters and results, a done flag per
// TB, and the two kernels' own scratch.
#ifndef INCLUDED_GPURX_IDD_IDD_BATCH_H
#define INCLUDED_GPURX_IDD_IDD_BATCH_H

#include "common/host_device.h"
#include "idd/idd_config.h"
#include "idd/idd_frame.h"

#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace idd {

struct batch_layout {
    size_t det_in_stride, det_out_stride, sch_out_stride;
    size_t det_in, det_out, sch_out;
    size_t det_desc, det_params, det_results;
    size_t sch_desc, sch_params, sch_results;
    size_t done;
    size_t det_scratch, sch_scratch;
    size_t bytes;

    /*!
     * \p cfg: its detector shape, max_channels and the decoder's max_tbs,
     * max_g size the slots; \p det_scratch_bytes, \p sch_scratch_bytes:
     * the two kernels' scratch_bytes(max_frames).
     */
    batch_layout(const mimo_idd_config& cfg, size_t max_frames, size_t det_scratch_bytes,
                 size_t sch_scratch_bytes);
};

//! Bytes of one channel's H and vectors (the part before its priors).
GPURX_HD size_t channel_hy_bytes(const mimo::frame_params& p)
{
    return (size_t(p.nr) * p.nt + size_t(p.vectors) * p.nr) * 8;
}
//! Bytes of one channel with its priors (apriori 1).
GPURX_HD size_t channel_full_bytes(const mimo::frame_params& p)
{
    return channel_hy_bytes(p) + size_t(p.vectors) * p.nt * p.bits_per_symbol * 4;
}

/*!
 * The records of TB \p f of a batch laid out by \p L: the detector frame
 * (apriori 1) in det_in, its output in det_out; the decoder frame reading
 * det_out, writing sch_out; its parameters float input, no soft buffer.
 */
GPURX_HD void tb_records(const batch_layout& L, const frame_params& p, size_t f, frame_desc& det_desc,
                                mimo::frame_params& det, frame_desc& sch_desc, sch::frame_params& tb)
{
    det = p.det;
    det.apriori = 1;
    tb = p.tb;
    tb.input = 0; // turbo::INPUT_FLOAT32
    tb.harq_slot = -1;
    tb.combine = 0;
    const size_t G = size_t(tb.G);
    det_desc.in_offset = f * L.det_in_stride;
    det_desc.out_offset = f * L.det_out_stride;
    det_desc.in_bytes = uint32_t(size_t(det.channels) * channel_full_bytes(det));
    det_desc.out_bytes = uint32_t(G * sizeof(float));
    sch_desc.in_offset = f * L.det_out_stride;
    sch_desc.out_offset = f * L.sch_out_stride;
    sch_desc.in_bytes = uint32_t(G * sizeof(float));
    sch_desc.out_bytes = uint32_t(sch::extrinsic_offset(tb.tbs) + G * sizeof(float));
}

} // namespace idd
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

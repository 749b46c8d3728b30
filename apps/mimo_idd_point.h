/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// One point of gpurx-mimo-ber with iterative detection and decoding
// (--idd-passes R > 1): each block goes R times through the detector and the
// turbo decoder. Pass 1 is the plain receiver. Each later pass gives the
// detector, as a-priori LLRs of the bits sent, what the previous decoding
// added to them: the decoder's extrinsic LLR of every coded bit
// (turbo_decoder_cpu::decode_coded), less nothing else, since the detector
// runs with extrinsic output (its own contribution is what the decoder got as
// channel LLRs). The detector runs on the chosen backend through its
// pipeline, a-priori LLRs in its frames; the decoder runs on the CPU in float
// (the CUDA turbo kernels give no coded-bit LLRs), one per thread.
#ifndef INCLUDED_GPURX_APPS_MIMO_IDD_POINT_H
#define INCLUDED_GPURX_APPS_MIMO_IDD_POINT_H

#include "mimo_ber_point.h"

namespace gr {
namespace gpurx {
namespace apps {

/*!
 * As run_mimo_ber_point(), with ctx.o.idd_passes detection passes per
 * block. ctx.detector must take a-priori LLRs and give extrinsic ones
 * (mimo_config::apriori, output); ctx.decoder must use float arithmetic.
 */
ber_point run_mimo_idd_point(const mimo_ber_context& ctx, int point, double ebn0);

} // namespace apps
} // namespace gpurx
} // namespace gr

#endif

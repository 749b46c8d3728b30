/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// One point of gpurx-mimo-ber with iterative detection and decoding
// (--idd-passes P > 1): each block goes P times through the detector and the
// turbo decoder. Pass 1 is the plain receiver. Each later pass gives the
// detector, as a-priori LLR of each bit sent, what is known of it without
// the detector's own last word: the decoder's extrinsic LLR of the coded bit
// (turbo_decoder_cpu::decode_coded) times --idd-scale, plus a repeated bit's
// other copies (lte_rate_match::feedback). The detector gives extrinsic
// LLRs in turn, so neither side gets its own information back. The detector
// runs on the chosen backend through its pipeline, a-priori LLRs in its
// frames; the decoder runs on the CPU in float (the CUDA turbo kernels give
// no coded-bit LLRs), one per thread.
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

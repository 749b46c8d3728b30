/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Options of the transport-block decoder, shared by both backends and every
// block. What changes per TB (sizes, rv, HARQ process) is in the TB's
// frame_params; what is fixed for a decoder's life is here.
#ifndef INCLUDED_GPURX_SCH_SCH_CONFIG_H
#define INCLUDED_GPURX_SCH_SCH_CONFIG_H

#include "sch/sch_arith.h"
#include "sch/sch_params.h"
#include "turbo/turbo_config.h"
#include <cstddef>
#include <string>

namespace gr {
namespace gpurx {
namespace core {

struct sch_config {
    sch_config() { turbo.subblocks = 0; } // windows of at most 48 steps for every K
    //! The turbo decoder of the code blocks: algorithm, iterations, and its
    //! implementation by the turbo registry's names. Its early stop is set
    //! by early_termination below, per code block.
    turbo_config turbo;
    //! Stop a code block once its CRC checks (CRC24B; CRC24A for a TB of
    //! one code block); false: every code block runs all iterations.
    bool early_termination = true;
    //! HARQ soft buffers kept (sch_harq.h), each for a TB of up to max_tbs.
    int harq_buffers = 16;
    //! The largest TB accepted; sizes each soft buffer (code blocks x 3K+12
    //! int16 LLRs).
    int max_tbs = 97896;
    //! The largest G accepted (the input's LLRs per TB).
    int max_g = 1 << 18;
    //! Also output, per TB, the codeword's G extrinsic LLRs as received
    //! (sch_extrinsic_offset()): for iterative detection and decoding, the
    //! a-priori LLRs of a detector's next pass. Needs float turbo arithmetic
    //! (turbo.fixed_point = false, or log-MAP); sizes each code block's
    //! decoder output for 3K+12 floats more.
    bool extrinsic_output = false;
    //! The decoder's extrinsic in those LLRs is multiplied by this, in
    //! (0, 2]: max-log extrinsics are overconfident, and iterative receivers
    //! damp what they feed back (gpurx-mimo-ber's --idd-scale).
    float extrinsic_scale = 1.0f;
    //! "auto", "cpu-sch" or "cuda-sch" (sch_implementations.h).
    std::string implementation = "auto";

    //! Throws std::invalid_argument naming the bad field and its value.
    void validate() const;
    int max_code_blocks() const { return sch::segment(max_tbs).C; }
    //! Output bytes of a TB of \p tbs bits and \p G coded bits.
    size_t out_bytes(int tbs, int G) const
    {
        return extrinsic_output ? sch::extrinsic_offset(tbs) + size_t(G) * sizeof(float) : size_t(tbs);
    }
    //! int16 LLRs per soft buffer: one 3K+12 area per code block.
    size_t soft_buffer_llrs() const { return size_t(max_code_blocks()) * sch::MAX_CB_LLRS; }
    //! The turbo decoder's configuration for code blocks checked by CRC \p a (24A or 24B).
    turbo_config turbo_for(bool crc24a) const;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

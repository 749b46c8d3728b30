/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Options of the LTE turbo decoder, shared by both backends and every block.
#ifndef INCLUDED_GPURX_TURBO_TURBO_CONFIG_H
#define INCLUDED_GPURX_TURBO_TURBO_CONFIG_H

#include "turbo/turbo_trellis.h"
#include <string>

namespace gr {
namespace gpurx {
namespace core {

namespace turbo {
enum class early_stop { none, crc24a, crc24b, hard_decision };
} // namespace turbo

struct turbo_config {
    turbo::algorithm algorithm = turbo::SCALED_MAX_LOG_MAP;
    int iterations = 6;    //!< full iterations, 1..16
    //! P: parallel windows per codeword, 1..256, or 0: automatic, windows of
    //! at most 48 steps (P = ceil(K/48), 128 for K = 6144), per codeword.
    int subblocks = 1;
    float scaling = 0.75f; //!< extrinsic scale of scaled-max-log-map, (0, 1]
    turbo::early_stop stop = turbo::early_stop::none;
    bool soft_output = false; //!< also output the a-posteriori LLRs
    //! Also output the extrinsic LLRs of all 3K+12 coded bits, as
    //! turbo_decoder_cpu::decode_coded gives them (iterative detection and
    //! decoding). Float arithmetic only: cpu-float and cuda-float-window.
    bool coded_output = false;
    //! Training steps run across each window edge before the window's own
    //! recursions, started from the metrics saved there in the previous
    //! iteration. 0 = plain next-iteration initialisation, as in the paper.
    int guard = 16;
    //! The implementation, by its registry name (turbo_implementations.h,
    //! `gpurx-info` lists them), or "auto": the fastest one for the arithmetic
    //! below on the chosen backend. Naming one also fixes the arithmetic.
    std::string implementation = "auto";
    //! max-log-MAP variants run in 16-bit fixed point (turbo_fixed.h): the
    //! fastest CUDA implementation (cuda-fixed16-dpx: two codewords per
    //! thread, packed 16x2 DPX) and its bit-exact CPU twin (cpu-fixed16-simd).
    //! log-MAP always runs in float; false selects the float implementations
    //! for max-log-MAP too.
    bool fixed_point = true;
    //! Fixed point: quantisation steps per LLR unit for float input (LLRs
    //! saturate at +-127 steps, so at +-15.9 with the default 8).
    float fixed_scale = 8.0f;

    //! Throws std::invalid_argument naming the bad field and its value.
    void validate() const;
    //! P in effect for a codeword of K.
    int subblocks_for(int K) const { return turbo::subblocks_for(subblocks, K); }
    //! The largest P any codeword can get (sizes per-frame scratch).
    int max_subblocks() const { return subblocks > 0 ? subblocks : turbo::subblocks_for(0, 6144); }
    //! True when decoding runs in 16-bit fixed point.
    bool uses_fixed_point() const { return fixed_point && algorithm != turbo::LOG_MAP; }
    //! The extrinsic scale in effect (1 unless scaled-max-log-map).
    float extrinsic_scale() const
    {
        return algorithm == turbo::SCALED_MAX_LOG_MAP ? scaling : 1.0f;
    }
};

namespace turbo {
//! "log-map" | "max-log-map" | "scaled-max-log-map"
algorithm parse_algorithm(const std::string& name);
//! "none" | "crc24a" | "crc24b" | "hard-decision"
early_stop parse_early_stop(const std::string& name);
const char* algorithm_name(algorithm a);
} // namespace turbo

//! Bytes of decoder output per codeword of K bits: K hard bits (one per
//! byte), then, with soft output, K floats starting at a 16-byte boundary,
//! then, with coded output, 3K+12 floats (turbo_coded_offset()).
inline size_t turbo_out_bytes(int K, bool soft, bool coded = false)
{
    const size_t hard = (size_t(K) + 15) & ~size_t(15);
    if (!soft && !coded)
        return size_t(K);
    return hard + (soft ? size_t(K) * sizeof(float) : 0) +
           (coded ? (3 * size_t(K) + 12) * sizeof(float) : 0);
}
GPURX_HD size_t turbo_soft_offset(int K) { return (size_t(K) + 15) & ~size_t(15); }
//! Where the coded bits' extrinsic LLRs start (16-byte aligned: K is a
//! multiple of 8).
GPURX_HD size_t turbo_coded_offset(int K, bool soft)
{
    return turbo_soft_offset(K) + (soft ? size_t(K) * sizeof(float) : 0);
}

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

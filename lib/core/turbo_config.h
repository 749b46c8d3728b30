/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Options of the LTE turbo decoder, shared by both backends and every block.
#ifndef INCLUDED_GPURX_CORE_TURBO_CONFIG_H
#define INCLUDED_GPURX_CORE_TURBO_CONFIG_H

#include "turbo_trellis.h"
#include <string>

namespace gr {
namespace gpurx {
namespace core {

enum class early_stop { none, crc24a, crc24b, hard_decision };

struct turbo_config {
    turbo::algorithm algorithm = turbo::SCALED_MAX_LOG_MAP;
    int iterations = 6;    //!< full iterations, 1..16
    //! P: parallel windows per codeword, 1..256, or 0: automatic, windows of
    //! at most 48 steps (P = ceil(K/48), 128 for K = 6144), per codeword.
    int subblocks = 1;
    float scaling = 0.75f; //!< extrinsic scale of scaled-max-log-map, (0, 1]
    early_stop stop = early_stop::none;
    bool soft_output = false; //!< also output the a-posteriori LLRs
    //! Training steps run across each window edge before the window's own
    //! recursions, started from the metrics saved there in the previous
    //! iteration. 0 = plain next-iteration initialisation, as in the paper.
    int guard = 16;
    //! Float CUDA kernel (log-MAP, or max-log-MAP with fixed_point false;
    //! fixed point always runs kernel 4): 2 = one thread per window,
    //! checkpointed alpha, several codewords per block (default, the fastest
    //! float kernel: docs/benchmarks.md); 3 = one thread per trellis state
    //! with warp shuffles and checkpointed alpha (up to 96 windows; wider
    //! codewords use 2); 1 = the paper's layout, one codeword per block with
    //! all of alpha in shared memory (guard must be 0). All decode identically
    //! (log-MAP: to rounding).
    int gpu_kernel = 2;
    //! max-log-MAP variants run in 16-bit fixed point (turbo_fixed.h): the
    //! fastest CUDA kernel (4: two codewords per thread, packed 16x2 DPX) and
    //! its bit-exact CPU twin. log-MAP always runs in float; false selects
    //! the float kernels (gpu_kernel) for max-log-MAP too.
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

//! "log-map" | "max-log-map" | "scaled-max-log-map"
turbo::algorithm parse_algorithm(const std::string& name);
//! "none" | "crc24a" | "crc24b" | "hard-decision"
early_stop parse_early_stop(const std::string& name);
const char* algorithm_name(turbo::algorithm a);

//! Bytes of decoder output per codeword of K bits: K hard bits (one per
//! byte), then, with soft output, K floats starting at a 16-byte boundary.
inline size_t turbo_out_bytes(int K, bool soft)
{
    const size_t hard = (size_t(K) + 15) & ~size_t(15);
    return soft ? hard + size_t(K) * sizeof(float) : size_t(K);
}
GPURX_HD size_t turbo_soft_offset(int K) { return (size_t(K) + 15) & ~size_t(15); }

//! frame_desc.flags bit: the input LLRs are int8 (else float32).
constexpr unsigned TURBO_INPUT_INT8 = 1u;

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The CPU LTE turbo decoder: the CPU backend, and the reference the CUDA
// kernels are tested against. It runs the same parallel-window schedule as
// the GPU (P windows per codeword; each window starts its recursions `guard`
// steps inside its neighbours, from the metrics saved there in the previous
// iteration), window after window, with the same per-step arithmetic
// (turbo_trellis.h), so max-log-MAP results agree bit for bit.
//
// A-priori and extrinsic LLRs are double-buffered: decoder d reads ext[d] and
// writes ext[1-d], so training steps that read a neighbour's positions see
// the previous half-iteration's values, as on the GPU.
#ifndef INCLUDED_GPURX_CORE_TURBO_DECODER_CPU_H
#define INCLUDED_GPURX_CORE_TURBO_DECODER_CPU_H

#include "lte_qpp.h"
#include "turbo_config.h"
#include <cstdint>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

struct turbo_decode_result {
    int iterations; //!< iterations run
    int check;      //!< CRC of the decision: 1 pass, 0 fail, -1 not checked
};

class turbo_decoder_cpu
{
public:
    explicit turbo_decoder_cpu(const turbo_config& cfg);
    /*!
     * Decode one codeword of block size K.
     * \param llr 3K+12 LLRs in the interleaved layout c[3k+i] = d(i)_k
     * \param hard K output bits (0/1)
     * \param soft K a-posteriori LLRs, or nullptr
     */
    turbo_decode_result decode(const float* llr, int K, uint8_t* hard, float* soft);
    const turbo_config& config() const { return d_cfg; }

private:
    template <bool LOG>
    turbo_decode_result decode_impl(const float* llr, int K, uint8_t* hard, float* soft);

    turbo_config d_cfg;
    std::vector<float> d_ext[2], d_alpha, d_abound, d_bbound, d_ain, d_bin;
    std::vector<int> d_pi;
    std::vector<uint8_t> d_prev;
    int d_pi_K = 0;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

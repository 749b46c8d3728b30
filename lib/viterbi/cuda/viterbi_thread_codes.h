/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The codes that the thread-per-frame decoder (viterbi_thread_kernels.cuh)
// is compiled for: its trellis is folded into the instructions, so each code
// is a separate kernel, in a file of its own. Standard codes only; every
// other code decodes with cuda-warp. Adding a code is a line in
// compiled_thread_codes() and a viterbi_thread_<code>.cu that instantiates
// viterbi_thread_launch for it.
#ifndef INCLUDED_GPURX_VITERBI_CUDA_VITERBI_THREAD_CODES_H
#define INCLUDED_GPURX_VITERBI_CUDA_VITERBI_THREAD_CODES_H

namespace gr {
namespace gpurx {
namespace core {

//! A code by constraint length and polynomials (standards' order).
template <int K_, unsigned P0, unsigned P1, unsigned P2 = 0, unsigned P3 = 0>
struct thread_code {
    static constexpr int K = K_;
    static constexpr int N = P3 ? 4 : (P2 ? 3 : 2);
    static constexpr unsigned poly(int i) { return i == 0 ? P0 : i == 1 ? P1 : i == 2 ? P2 : P3; }
    static bool matches(int k, int n, const unsigned* polys)
    {
        if (k != K || n != N)
            return false;
        for (int i = 0; i < N; i++)
            if (polys[i] != poly(i))
                return false;
        return true;
    }
};

template <class... C>
struct thread_code_list {
};

struct batch_view;
struct viterbi_gpu_code;

//! Enqueue the batch's float frames (\p has_soft) and its other frames
//! (\p has_other) on code \p C; \p dpx: the integer kernels' DPX variant
//! (cuda_dpx_for_device()). Instantiated per code (viterbi_thread_<code>.cu).
template <class C>
void viterbi_thread_launch(const batch_view& dev,
                           const viterbi_gpu_code& code,
                           int max_steps,
                           void* stream,
                           bool has_soft,
                           bool has_other,
                           bool dpx);

inline thread_code_list<thread_code<7, 0133, 0171>,       // IEEE 802.11, CCSDS, DVB-S
                        thread_code<5, 023, 033>,          // GSM
                        thread_code<7, 0133, 0171, 0165>> // LTE (rate 1/3)
compiled_thread_codes()
{
    return {};
}

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

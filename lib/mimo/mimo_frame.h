/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The MIMO family's per-frame records and frame layout.
//
// A frame is `channels` channels, each with the vectors received through it,
// back to back (1 channel per frame is the blocks' case; a producer with many
// channels at hand puts many in one frame, mimo_config::max_channels). Per
// channel:
//   input:  H, nr * nt complex float (row-major, H[r][t] at r * nt + t), then
//           `vectors` received vectors y of nr complex float each, then, when
//           apriori is 1, vectors * nt * bits_per_symbol float a-priori LLRs
//           (L = ln P(1)/P(0), the order of the output)
//   output: vectors * nt * bits_per_symbol LLRs: per vector, antenna 0's
//           bits first, each antenna's as b(0), b(1), ... (L = ln P(1)/P(0));
//           float, or int8 (mimo_config::llr_type)
// The frame's input is its channels' inputs in order, and its output their
// outputs: a frame of C channels reads and writes exactly what C frames of
// one channel would. The channels of a frame share its parameters (shape,
// vectors per channel, N0).
// The parameters describe the frame completely (a batch may mix shapes and
// modulations); the algorithm and its settings, the LLR type among them, are
// the kernel's (mimo_config).
#ifndef INCLUDED_GPURX_MIMO_MIMO_FRAME_H
#define INCLUDED_GPURX_MIMO_MIMO_FRAME_H

#include "../pipeline/frame.h"
#include "mimo/mimo_config.h"

#include <complex>
#include <cstdint>
#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

enum frame_status : int32_t {
    STATUS_OK = 0,
    //! H has numerical rank below nt: the LLRs are finite, 0 for the bits it
    //! cannot tell apart.
    STATUS_RANK_DEFICIENT = 1,
    //! H, a received vector or an a-priori LLR of a channel holds a NaN or an
    //! infinity: that channel's output is zeros (the frame's other channels
    //! are detected).
    STATUS_NOT_FINITE = 2,
    //! The parameters or byte counts do not describe a frame this kernel can
    //! detect (frame_problem() says why): output zeros.
    STATUS_BAD_FRAME = 3,
};

struct frame_params {
    int32_t nt;              //!< transmit streams, 1..8
    int32_t nr;              //!< receive antennas, nt..8
    int32_t bits_per_symbol; //!< 2, 4, 6, 8 (QPSK .. 256-QAM)
    int32_t vectors;         //!< received vectors through this channel, >= 1
    float n0;                //!< noise variance per complex receive antenna, > 0
    int32_t apriori;         //!< 1: a-priori LLRs follow the vectors; 0: none
    int32_t channels;        //!< channels in the frame, 1..the kernel's max_channels
};

//! A frame's result; with several channels, the worst of theirs.
struct frame_result {
    int32_t status; //!< frame_status: the highest of its channels'
    //! Numerical rank of H (from its QR), the lowest of the frame's channels;
    //! a channel not detected (not finite, bad frame) counts 0.
    int32_t rank;
};

//! Parameters of a frame of \p channels channels of \p vectors vectors each
//! with cfg's shape and cfg.apriori; \p n0 < 0: cfg.noise_variance.
frame_params
frame_params_for(const mimo_config& cfg, int vectors, float n0 = -1.0f, int channels = 1);

//! Input bytes of one channel of a frame of \p p.
inline size_t channel_in_bytes(const frame_params& p)
{
    return (size_t(p.nr) * p.nt + size_t(p.vectors) * p.nr) * sizeof(std::complex<float>) +
           (p.apriori ? size_t(p.vectors) * p.nt * p.bits_per_symbol * sizeof(float) : 0);
}
//! Output bytes of one channel; \p f: the kernel's mimo_config::llr_type.
inline size_t channel_out_bytes(const frame_params& p, llr_format f)
{
    return size_t(p.vectors) * p.nt * p.bits_per_symbol * llr_bytes(f);
}
inline size_t frame_in_bytes(const frame_params& p)
{
    return size_t(p.channels) * channel_in_bytes(p);
}
inline size_t frame_out_bytes(const frame_params& p, llr_format f)
{
    return size_t(p.channels) * channel_out_bytes(p, f);
}

/*!
 * The largest |real part| and |imaginary part| an entry of H or y may have
 * in a frame of \p p (its N0 and shape; p must pass frame_problem()):
 * beyond it a metric could pass max_metric and the LLRs leave float's
 * range. At N0 = 1, 8x8 256-QAM: 1.8e13; at N0 = 1e-20: 1800.
 */
double max_input_component(const frame_params& p);
//! Why \p a cannot detect a frame of \p p when frames hold at most
//! \p max_channels channels ("" when it can); names the field.
std::string frame_problem(const frame_params& p, algorithm a, int max_channels = 1);

inline frame_types frame_types_of()
{
    return frame_types::of<frame_params, frame_result>();
}

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

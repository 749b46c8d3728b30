/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The MIMO family's per-frame records and frame layout.
//
// A frame is one channel and the vectors received through it:
//   input:  H, nr * nt complex float (row-major, H[r][t] at r * nt + t), then
//           `vectors` received vectors y of nr complex float each, then, when
//           apriori is 1, vectors * nt * bits_per_symbol float a-priori LLRs
//           (L = ln P(1)/P(0), the order of the output)
//   output: vectors * nt * bits_per_symbol LLRs: per vector, antenna 0's
//           bits first, each antenna's as b(0), b(1), ... (L = ln P(1)/P(0));
//           float, or int8 (mimo_config::llr_type)
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
    //! H or a received vector holds a NaN or an infinity: output zeros.
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
};

struct frame_result {
    int32_t status; //!< frame_status
    int32_t rank;   //!< numerical rank of H (from its QR); 0 when not detected
};

//! Parameters of a frame of \p vectors vectors with cfg's shape and cfg.apriori;
//! \p n0 < 0: cfg.noise_variance.
frame_params frame_params_for(const mimo_config& cfg, int vectors, float n0 = -1.0f);

inline size_t frame_in_bytes(const frame_params& p)
{
    return (size_t(p.nr) * p.nt + size_t(p.vectors) * p.nr) * sizeof(std::complex<float>) +
           (p.apriori ? size_t(p.vectors) * p.nt * p.bits_per_symbol * sizeof(float) : 0);
}
//! \p f: the kernel's mimo_config::llr_type.
inline size_t frame_out_bytes(const frame_params& p, llr_format f)
{
    return size_t(p.vectors) * p.nt * p.bits_per_symbol * llr_bytes(f);
}

//! Why \p a cannot detect a frame of \p p ("" when it can); names the field.
std::string frame_problem(const frame_params& p, algorithm a);

inline frame_types frame_types_of()
{
    return frame_types::of<frame_params, frame_result>();
}

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

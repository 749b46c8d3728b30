/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The OFDM channel estimator family's per-frame records and frame layout
// (docs/mimo-ofdm.md). A frame is one MIMO-OFDM frame's used subcarriers on
// nr receive antennas: T = repeats * nt training symbols, then data_symbols
// data symbols.
//   input:  per OFDM symbol s (training first), per receive antenna r, the
//           used subcarriers k in the block's order (FFT bins
//           fft_len - used/2 .. fft_len - 1, then 1 .. used/2), complex
//           float: in[(s * nr + r) * used + k]. The training symbols are
//           estimate_mimo_channel's y as they stand.
//   output: the data symbols' y vectors in mimo_detector's order (group by
//           group, subcarrier by subcarrier, symbol by symbol; nr complex
//           each): y[(k * data_symbols + s) * nr + r], used * data_symbols * nr
//           complex float; then one H (nr x nt, row-major) per group of
//           `group` adjacent used subcarriers, the least-squares estimate
//           averaged over the group: h[(g * nr + r) * nt + j].
//   result: N0 from the training residual (0 with repeats 1), and a status.
// The parameters describe the frame completely; a kernel runs frames whose
// working memory fits its configuration's (frame_problem()).
#ifndef INCLUDED_GPURX_OFDM_CHANEST_FRAME_H
#define INCLUDED_GPURX_OFDM_CHANEST_FRAME_H

#include "common/host_device.h"
#include "pipeline/frame.h"

#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace ofdm {

enum chanest_status : int32_t {
    CHANEST_OK = 0,
    //! The parameters or byte counts do not describe a frame this kernel can
    //! estimate (frame_problem() says why): output zeros, n0 0.
    CHANEST_BAD_FRAME = 1,
};

struct chanest_frame_params {
    int32_t nt;           //!< transmit antennas: 1, 2, 4 or 8
    int32_t nr;           //!< receive antennas, 1..8
    int32_t used;         //!< used subcarriers, 1..65536
    int32_t repeats;      //!< training repetitions, 1..16
    int32_t data_symbols; //!< data symbols, 0..4096
    int32_t group;        //!< subcarriers per H, dividing used
};

struct chanest_frame_result {
    double n0;      //!< residual / (nr used (T - nt)); 0 with repeats 1
    int32_t status; //!< chanest_status
    int32_t reserved;
};

GPURX_HD int chanest_training_symbols(const chanest_frame_params& p) { return p.repeats * p.nt; }
GPURX_HD size_t chanest_groups(const chanest_frame_params& p) { return size_t(p.used / p.group); }
//! Complex values of the frame's input.
GPURX_HD size_t chanest_in_values(const chanest_frame_params& p)
{
    return size_t(chanest_training_symbols(p) + p.data_symbols) * size_t(p.nr) * size_t(p.used);
}
//! Complex values of the y vectors, the first part of the output.
GPURX_HD size_t chanest_y_values(const chanest_frame_params& p)
{
    return size_t(p.used) * size_t(p.data_symbols) * size_t(p.nr);
}
//! Complex values of the H matrices, the second part of the output.
GPURX_HD size_t chanest_h_values(const chanest_frame_params& p)
{
    return chanest_groups(p) * size_t(p.nr) * size_t(p.nt);
}
GPURX_HD size_t chanest_in_bytes(const chanest_frame_params& p) { return chanest_in_values(p) * 8; }
GPURX_HD size_t chanest_out_bytes(const chanest_frame_params& p)
{
    return (chanest_y_values(p) + chanest_h_values(p)) * 8;
}
//! Per-subcarrier estimates a frame's working memory holds (used nr nt).
GPURX_HD size_t chanest_work_values(const chanest_frame_params& p)
{
    return size_t(p.used) * size_t(p.nr) * size_t(p.nt);
}

//! Code of what is wrong with \p p (0: nothing); chanest_problem_text()
//! names it. \p max_work: the kernel's per-frame working memory, in
//! chanest_work_values(); 0: no bound. Shared by host and device.
GPURX_HD int chanest_problem_code(const chanest_frame_params& p, size_t max_work)
{
    if (p.nt != 1 && p.nt != 2 && p.nt != 4 && p.nt != 8)
        return 1;
    if (p.nr < 1 || p.nr > 8)
        return 2;
    if (p.used < 1 || p.used > 65536)
        return 3;
    if (p.repeats < 1 || p.repeats > 16)
        return 4;
    if (p.data_symbols < 0 || p.data_symbols > 4096)
        return 5;
    if (p.group < 1 || p.used % p.group != 0)
        return 6;
    if (chanest_in_bytes(p) > 0xffffffffull || chanest_out_bytes(p) > 0xffffffffull)
        return 7;
    if (max_work != 0 && chanest_work_values(p) > max_work)
        return 8;
    return 0;
}

//! chanest_problem_code() with the byte counts of the frame's descriptor.
GPURX_HD bool chanest_frame_ok(const chanest_frame_params& p, const frame_desc& d, size_t max_work)
{
    return chanest_problem_code(p, max_work) == 0 && d.in_bytes == chanest_in_bytes(p) &&
           d.out_bytes == chanest_out_bytes(p);
}

inline frame_types chanest_frame_types()
{
    return frame_types::of<chanest_frame_params, chanest_frame_result>();
}

} // namespace ofdm
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

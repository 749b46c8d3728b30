/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Multi-pass trellis traversal (MTT), as in Wu's thesis, chapters 3 and 4,
// after Yang Sun's ASIC design. The literal version: every step visits all Q
// edges of all Q vertices, so that it is the reference for the GPU kernels.
//
// After QR, y_hat = R s + w. The trellis has one stage per stream, detected
// from the last row of R up: stage t is layer l = nt-1-t, with Q vertices
// (its constellation points). The edge into vertex q of stage t from a path
// p carries eq. 3.7's 1-D distance
//     w = |y_hat[l] - sum_{j>l} R[l][j] s_j(p) - R[l][l] c_q|^2,
// which depends on the stage and all its predecessors (plus the prior cost of
// c_q, mimo_detector.h, when the vector has a-priori LLRs).
//
// List L_t holds, for every vertex of stage t, the shortest path through it:
//   - edge reductions (eq. 3.9) at stages 1..t: each vertex keeps its best
//     incoming path of the Q (the prefix of these is shared by every list);
//   - path extensions (eqs. 3.10-3.11) at stages t+1..nt-1: each path keeps
//     its best outgoing edge of the Q.
// The bits of stage t's stream get their max-log LLRs (eq. 3.8) from the Q
// paths of L_t: every symbol value is present, so no clipping is needed.
// For nt <= 2 every path is exact, and MTT equals max-log ML.
#ifndef INCLUDED_GPURX_MIMO_MTT_DETECTOR_H
#define INCLUDED_GPURX_MIMO_MTT_DETECTOR_H

#include "mimo/mimo_detector.h"

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

class mtt_detector final : public mimo_detector
{
public:
    explicit mtt_detector(bool sorted_qr) : mimo_detector(sorted_qr) {}

private:
    void detect_vector(const std::complex<float>* y, float* llr) override;
    //! Q paths: the symbol index of each layer (rows of R) and the distance.
    struct path_set {
        std::vector<int>
            symbols; // Q x nt, layer-indexed; only layers > the current one are set
        std::vector<double> metric;
    };
    //! sum_{j>l} R[l][j] s_j of every path of \p p (eq. 4.2).
    void interference(const path_set& p, int layer);
    void edge_reduction(const path_set& in, int layer, path_set& out);
    void path_extension(path_set& p, int layer);

    std::vector<std::complex<double>> d_y_hat, d_work, d_delta;
    path_set d_reduced, d_list, d_next;
    std::vector<double> d_sym_min;
};

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

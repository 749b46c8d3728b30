/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// One-pass trellis traversal ("OT", Wu's thesis sec. 4.2.1): the trellis of
// mtt_detector.h visited once, from the first stage (the last layer) to the
// last, with an edge reduction at every stage: each vertex keeps its best
// incoming path of the Q (eq. 3.9). The Q paths that reach the last stage are
// the only candidate list, for every stream's bits. The last stage's stream
// sees every symbol value in it; the earlier streams' symbols are whatever
// those Q paths carry, so a bit may have no candidate on one side: it gets
// +-clip, and every |LLR| is bounded by clip (the thesis clips OT as K-best).
// It is MTT's last candidate list (L_{nt-1}) used for all streams: about
// 1/nt of MTT's work. For one stream it is max-log ML.
#ifndef INCLUDED_GPURX_MIMO_ONE_PASS_DETECTOR_H
#define INCLUDED_GPURX_MIMO_ONE_PASS_DETECTOR_H

#include "mimo/mimo_detector.h"

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

class one_pass_detector final : public mimo_detector
{
public:
    one_pass_detector(bool sorted_qr, double clip) : mimo_detector(sorted_qr), d_clip(clip) {}

private:
    void detect_vector(const std::complex<float>* y, float* llr) override;

    const double d_clip;
    std::vector<std::complex<double>> d_y_hat, d_work, d_delta;
    std::vector<int> d_paths, d_next_paths; // Q x nt, layer-indexed
    std::vector<double> d_metric, d_next_metric, d_sym_min;
};

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

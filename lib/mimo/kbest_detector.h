/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Breadth-first K-best tree search on R (after QR), from the last row up:
// each level expands every kept path by all Q symbols and keeps the K of
// least partial distance (ties: the earlier parent, then the lower symbol).
// The LLRs come from the K complete candidates; a bit whose counter-
// hypothesis is missing from them gets +-clip, and every |LLR| is bounded by
// clip. With K = Q^nt nothing is pruned and it equals max-log ML (up to clip).
#ifndef INCLUDED_GPURX_MIMO_KBEST_DETECTOR_H
#define INCLUDED_GPURX_MIMO_KBEST_DETECTOR_H

#include "mimo/mimo_detector.h"

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

class kbest_detector final : public mimo_detector
{
public:
    kbest_detector(bool sorted_qr, int k, double clip)
        : mimo_detector(sorted_qr), d_k(k), d_clip(clip)
    {
    }

private:
    void detect_vector(const std::complex<float>* y, float* llr) override;
    struct child {
        double metric;
        int parent;
        int symbol;
    };
    const int d_k;
    const double d_clip;
    std::vector<std::complex<double>> d_y_hat, d_work;
    std::vector<int> d_paths, d_next_paths; // kept x nt, layer-indexed
    std::vector<double> d_metric;
    std::vector<child> d_children;
    std::vector<double> d_sym_min;
};

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Exhaustive max-log detection: d = ||y - H s||^2 over all Q^nt candidates,
// straight from H (no QR), so that it is also the reference for the QR-based
// detectors. Candidates are enumerated depth first with the residual of the
// antennas fixed so far kept per level: a candidate costs one column update.
#ifndef INCLUDED_GPURX_MIMO_ML_DETECTOR_H
#define INCLUDED_GPURX_MIMO_ML_DETECTOR_H

#include "mimo/mimo_detector.h"

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

class ml_detector final : public mimo_detector
{
public:
    ml_detector() : mimo_detector(false) {}

private:
    void detect_vector(const std::complex<float>* y, float* llr) override;
    //! Every candidate of antennas t.. under the prior cost so far.
    void visit(int t, double prior_so_far);

    std::vector<std::complex<double>>
        d_residual;                // (nt + 1) x nr: y - sum of the antennas before t
    std::vector<int> d_symbol;     // the candidate's symbol per antenna
    std::vector<double> d_sym_min; // nt x Q: least d with antenna t sending q
};

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

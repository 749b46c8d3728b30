/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A soft MIMO detector on the CPU: given a channel H (nr x nt, row-major
// h[r * nt + t]) and the noise variance N0, it turns each received vector y
// (nr complex) into nt * bits_per_symbol max-log LLRs, antenna 0's bits first,
// each antenna's in the order b(0), b(1), ... (qam.h; L = ln P(1)/P(0)).
// The model is y = H s + n with unit-energy symbols and E|n|^2 = N0 per
// receive antenna.
//
// A-priori LLRs La (same order as the output, L = ln P(1)/P(0)) enter max-log
// as the candidate metric
//     m(s) = ||y - H s||^2 / N0 - sum_k x_k La_k / 2,   x_k = +1 for bit 1, -1 for 0,
// since ln P(s) = sum_k x_k La_k / 2 + const. The detectors use the equivalent
// non-negative form (it differs by the constant sum_k |La_k| / 2, which cancels
// in every LLR): a symbol q of antenna a costs, in distance units,
//     N0 * P_a(q),   P_a(q) = sum of |La_k| over its bits k that disagree with sign(La_k),
// added to the distance of its layer. LLR = (min_{b=0} m - min_{b=1} m); the
// extrinsic output is that minus La.
//
// One detector per worker thread: it keeps its scratch between frames.
// The arithmetic is double precision: these are the references the GPU
// implementations will be checked against.
#ifndef INCLUDED_GPURX_MIMO_MIMO_DETECTOR_H
#define INCLUDED_GPURX_MIMO_MIMO_DETECTOR_H

#include "mimo/channel_qr.h"
#include "mimo/mimo_config.h"
#include "modulation/qam.h"

#include <complex>
#include <functional>
#include <memory>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {

class mimo_detector
{
public:
    explicit mimo_detector(bool sorted_qr) : d_sorted_qr(sorted_qr) {}
    virtual ~mimo_detector() = default;

    //! Extrinsic LLRs out (a posteriori minus a priori) instead of a-posteriori ones.
    void set_output(llr_output o) { d_extrinsic = o == llr_output::extrinsic; }

    /*!
     * Take the channel of the detect() calls that follow (1 <= nt <= nr <= 8,
     * n0 > 0; the caller has checked them). Returns the channel's numerical
     * rank (from its QR): below nt, some bits cannot be told apart, and their
     * LLRs are 0 (never NaN).
     */
    int
    set_channel(const std::complex<float>* h, int nr, int nt, modulation m, double n0);
    /*!
     * LLRs of one received vector y (nr entries) into llr (nt * bits), given
     * the a-priori LLRs \p apriori of its bits (nt * bits, the output's
     * order), or none (nullptr: equiprobable bits).
     */
    void detect(const std::complex<float>* y, const float* apriori, float* llr);
    void detect(const std::complex<float>* y, float* llr) { detect(y, nullptr, llr); }

    /*!
     * A question asked during long detections (between K-best's layers and
     * within its expansion, between ML's top-level branches) and by
     * poll_stop(): once it says stop, detect() returns early and stopped()
     * is true; the LLRs of that call are zeros, not a detection. The CPU
     * kernel uses it to cancel a batch when its block is stopped (the
     * batch then runs again as a whole). Setting it clears stopped(). Empty:
     * never.
     */
    void set_stop_check(std::function<bool()> check)
    {
        d_stop_check = std::move(check);
        d_stopped = false;
    }
    bool stopped() const { return d_stopped; }
    //! Asks the stop check (if not stopped already); returns stopped().
    bool poll_stop()
    {
        if (!d_stopped && d_stop_check && d_stop_check())
            d_stopped = true;
        return d_stopped;
    }

protected:
    //! The channel changed: precompute what detect() needs.
    virtual void channel_changed() {}
    //! detect() of one vector; the priors, if any, are in d_apriori / penalty().
    virtual void detect_vector(const std::complex<float>* y, float* llr) = 0;

    //! Prior cost of symbol \p q on antenna \p antenna, in distance units
    //! (N0 * P_a(q) above); 0 without priors.
    double penalty(int antenna, int q) const
    {
        return d_apriori ? d_penalty[size_t(antenna) * d_c->points.size() + q] : 0.0;
    }
    //! Antenna \p antenna's LLRs into llr_all (the vector's nt * bits) from its
    //! symbol minima (llrs_from_symbol_minima), a posteriori or extrinsic.
    void emit_llrs(const double* sym_min, int antenna, double clip, float* llr_all) const;

    const bool d_sorted_qr;
    int d_nr = 0, d_nt = 0;
    double d_n0 = 1.0;
    const constellation* d_c = nullptr;
    std::vector<std::complex<double>> d_h; //!< H in double, row-major
    channel_qr d_qr;
    bool d_extrinsic = false;
    const float* d_apriori = nullptr; //!< the current vector's priors, or nullptr
    std::vector<double> d_penalty;    //!< nt x Q: N0 * P_a(q) of the current vector

private:
    std::function<bool()> d_stop_check;
    bool d_stopped = false;
};

//! The detector of cfg.algorithm (k, clip, sorted_qr, output from cfg).
std::unique_ptr<mimo_detector> make_detector(const mimo_config& cfg);

/*!
 * Max-log LLRs of one stream's bits from the least metric of each symbol
 * value: sym_min[q] = min metric over the candidates whose symbol is q
 * (+inf where none was seen). llr[i] = (min over b(i)=0 - min over b(i)=1) / n0,
 * minus \p apriori[i] when \p apriori is given (extrinsic output).
 * A bit with no candidate on one side gets +-clip; every |LLR| is bounded by
 * clip (infinity: no bound).
 */
void llrs_from_symbol_minima(const double* sym_min,
                             const constellation& c,
                             double n0,
                             double clip,
                             float* llr,
                             const float* apriori = nullptr);

//! P(q) of mimo_detector.h for one stream: the prior cost (LLR units) of each
//! of c's symbols under the a-priori LLRs la[0..bits).
void prior_costs(const constellation& c, const float* la, double* cost);

} // namespace mimo
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

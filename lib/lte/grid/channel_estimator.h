/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The downlink channel from the cell-specific reference signals (36.211
// §6.10.1), per receive antenna and transmit port (1, 2 or 4), at every
// resource element of a subframe, and the noise variance per RE:
//  1. least-squares estimates at each CRS (y conj(r));
//  2. in frequency: either the LS values as they are, or a moving average
//     over a few CRS (less noise, for channels flat over the window), then
//     linear interpolation to every subcarrier (extrapolated at the edges);
//  3. in time: linear between the port's CRS symbols (0, 4, 7, 11 for ports
//     0 and 1 with normal CP; 1 and 8 for ports 2 and 3), held (or
//     extrapolated) beyond them; before the first CRS symbol it uses the
//     previous subframe's last one when that subframe was the one just
//     before (so ports 2 and 3 need not hold symbol 0);
//  4. the noise variance from the residual between the LS values and their
//     moving average, divided by its expectation per unit noise
//     (1 - 1/window) — exact for a channel linear over the window. Only
//     ports 0 and (for a cell of 2 or more ports) 1 count by default: they
//     have the most CRS, and a port the cell does not have carries data on
//     its CRS REs (a receiver trying port hypotheses asks for port 0 only).
#ifndef INCLUDED_GPURX_LTE_GRID_CHANNEL_ESTIMATOR_H
#define INCLUDED_GPURX_LTE_GRID_CHANNEL_ESTIMATOR_H

#include "lte/common/lte_cell.h"
#include "lte/common/resource_grid.h"

#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

enum class frequency_interpolation {
    linear,   //!< between the LS values themselves (frequency-selective channels)
    averaged, //!< between moving averages of average_span CRS (less noise)
};

struct channel_estimator_options {
    frequency_interpolation frequency = frequency_interpolation::averaged;
    int average_span = 7;              //!< CRS per moving average (odd, >= 3); also the noise estimate's
    //! A narrower moving average (odd, >= 3, below average_span; 0: none),
    //! taken for a subframe whose channel bends within average_span CRS
    //! (wide_average_wins: a long delay spread), with its noise estimate.
    int narrow_span = 3;
    bool hold_in_time = true;          //!< beyond the outermost CRS symbols: hold (else extrapolate linearly)
    bool use_previous_subframe = true; //!< interpolate from the previous subframe's last CRS symbol
    int noise_ports = 0;               //!< ports the noise estimate uses (1, 2); 0: 2 if the cell has them, else 1
};

class channel_estimator
{
public:
    /*!
     * For \p c (its ports: how many to estimate; a receiver that does not
     * know them yet asks for 4) and \p n_rx antennas. Throws
     * std::invalid_argument for a bad cell, n_rx or option.
     */
    channel_estimator(const cell& c, int n_rx, const channel_estimator_options& o = {});

    /*!
     * Estimates subframe \p g (g.time tells the slots, hence the CRS) into
     * \p est ([rx][port][l][k], noise_var). Returns false (est zeroed,
     * noise_var 0) when the grid holds values that are not finite, or does
     * not match the cell and antennas.
     */
    bool estimate(const subframe_grid& g, channel_estimate& est);

    //! The moving average the last estimate() used (average_span or narrow_span).
    int last_span() const { return d_last_span; }

    //! Forgets the previous subframe (after a gap or a timing change).
    void reset() { d_have_previous = false; }

    const cell& cell_config() const { return d_cell; }

private:
    cell d_cell;
    int d_rx;
    channel_estimator_options d_opt;
    // The last CRS symbol of each [rx][port] (frequency-interpolated), of
    // the subframe at d_previous.
    std::vector<cf> d_last;
    subframe_time d_previous;
    bool d_have_previous = false;
    int d_last_span = 0;
    // One subframe's LS values and both moving averages, [rx][port][crs symbol][pilot].
    std::vector<cf> d_ls, d_wide, d_narrow;
};

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

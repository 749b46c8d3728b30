/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The PDSCH of one grant in one subframe, from the resource grid and the
// channel estimate to each codeword's soft bits for the DL-SCH decoder
// (36.211 §6.3, §6.4): RE demapping, detection per RE (single port: MRC;
// transmit diversity: SFBC combining, 2 ports, or SFBC+FSTD, 4 ports; large-delay CDD and
// closed-loop spatial multiplexing: the effective channel H W D(i) U or H W through the
// project's MIMO detectors, lib/mimo), layer demapping (§6.3.3) and soft
// demapping. The LLRs (positive for bit 1) come in codeword order, G of
// them, NOT descrambled: the DL-SCH decoder descrambles.
//
// Power: PDSCH EPRE on each port is rho_A times the CRS EPRE (36.213 §5.2,
// rho_A = P_A here; srsRAN's eNodeB sends P_A = 0 dB). Each port's precoded
// symbol then has the CRS's energy times rho_A, so a scheme that spreads a
// layer over 2 ports with the precoders' 1/sqrt2 is received with the
// channel estimate times sqrt(2 rho_A). 4-port transmit diversity has rho_A
// = P_A + 3 dB (36.213 §5.2): each port's symbol at amplitude sqrt(2 P_A).
#ifndef INCLUDED_GPURX_LTE_PDSCH_PDSCH_RECEIVER_H
#define INCLUDED_GPURX_LTE_PDSCH_PDSCH_RECEIVER_H

#include "lte/common/resource_grid.h"
#include "lte/pdsch/pdsch_grant.h"
#include "mimo/mimo_config.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpurx {
namespace core {
namespace mimo {
class mimo_detector;
}
namespace lte {

struct pdsch_rx_options {
    //! The detector of large-delay CDD and spatial multiplexing (lib/mimo's
    //! algorithms; its default parameters). Codewords of different
    //! modulations are detected with per-stream LMMSE whatever this says
    //! (lib/mimo's detectors take one modulation for all streams).
    mimo::algorithm algorithm = mimo::algorithm::lmmse;
    //! P_A (36.213 §5.2), dB.
    float p_a_db = 0.0f;
    //! Noise variances below this are taken as this (a noiseless estimate
    //! would otherwise give LLRs far beyond what any decoder needs).
    float min_noise_var = 1e-4f;
};

//! One grant's soft bits: llr[q] for codeword q (G_q of them), codeword 0
//! carrying the grant's first enabled TB and codeword 1 the second.
struct pdsch_llrs {
    int n_re = 0;            //!< PDSCH REs of the grant in this subframe
    std::array<int, 2> g{};  //!< G of each codeword (0: none)
    std::array<int, 2> tb{}; //!< the grant's TB index of each codeword
    std::array<int, 2>
        nl{}; //!< 36.212's N_L of each codeword (2: transmit diversity or 2 layers)
    std::array<std::vector<float>, 2> llr;
};

/*!
 * One per worker thread: keeps its scratch and MIMO detectors across
 * calls.
 */
class pdsch_receiver
{
public:
    //! Throws std::invalid_argument naming a bad option.
    explicit pdsch_receiver(const pdsch_rx_options& options = {});
    ~pdsch_receiver();

    /*!
     * Receives grant \p g of the subframe \p grid (its time says which
     * subframe), the control region \p cfi symbols (CFI 1..3), with channel
     * \p ch (ports >= the cell's ports, the grid's receive antennas, its
     * noise_var). Returns "" with \p out filled, or why it cannot (a grant
     * that does not fit the cell, shapes that disagree, a scheme that needs
     * more receive antennas than there are); \p out is then empty.
     */
    std::string receive(const cell& c,
                        int cfi,
                        const pdsch_grant& g,
                        const subframe_grid& grid,
                        const channel_estimate& ch,
                        pdsch_llrs& out);

private:
    struct detector_slot;
    std::string check_shapes(const cell& c,
                             int cfi,
                             const pdsch_grant& g,
                             const subframe_grid& grid,
                             const channel_estimate& ch) const;
    void gather(const subframe_grid& grid, const channel_estimate& ch, int n_ports);
    void detect_single_port(float n0, pdsch_llrs& out);
    void detect_sfbc(float n0, float amp, pdsch_llrs& out);
    void detect_layers(const pdsch_grant& g, float n0, float amp, pdsch_llrs& out);

    pdsch_rx_options d_opt;
    std::vector<int32_t> d_re;
    int d_nr = 0, d_np = 0;
    std::vector<cf> d_y; //!< [re][rx]
    std::vector<cf> d_h; //!< [re][rx][port]
    //! Per layer (or SFBC symbol stream): the combined symbols z = x +
    //! noise and their noise powers, demapped together (demap_many).
    std::vector<cf> d_z[2];
    std::vector<float> d_zn0[2];
    std::vector<float> d_llr_tmp;
    std::vector<std::unique_ptr<detector_slot>> d_det;
};

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

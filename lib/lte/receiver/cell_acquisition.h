/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Finding a cell in a capture without being told its bandwidth: PSS/SSS
// cell search (sync/) gives the cell ID, cyclic prefix, frame timing and
// frequency offset; the PBCH of the central 6 PRBs (pbch/), which every
// bandwidth carries, gives the MIB: the bandwidth, the ports (from the CRC
// mask), the PHICH configuration and the SFN.
#ifndef INCLUDED_GPURX_LTE_RECEIVER_CELL_ACQUISITION_H
#define INCLUDED_GPURX_LTE_RECEIVER_CELL_ACQUISITION_H

#include "lte/common/lte_cell.h"
#include "lte/sync/cell_search.h"

#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

struct acquisition_result {
    bool found = false;
    std::string reason;        //!< why not
    cell c;                    //!< with the MIB's bandwidth, ports and PHICH
    int fft_size = 0;          //!< of the capture's rate
    long long frame_start = -1; //!< first sample of a subframe 0 in the buffer
    int sfn = 0;               //!< the SFN of the frame that starts there
    double cfo_hz = 0.0;
    cell_search_result search; //!< what cell search found
};

/*!
 * Searches \p n samples of \p n_rx antennas at \p sample_rate (fft_size x
 * 15 kHz, fft_size a multiple of 128) for a cell and decodes its MIB from
 * up to four radio frames. Not found: a noise file, no MIB that checks, or
 * a rate too low for the bandwidth the MIB announces; the reason says which.
 */
acquisition_result acquire_cell(const cf* const* rx,
                                int n_rx,
                                size_t n,
                                double sample_rate,
                                const search_options& options = search_options());

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

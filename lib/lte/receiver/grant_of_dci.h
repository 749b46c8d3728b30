/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A downlink DCI (control/) as the PDSCH step's grant (pdsch/): the
// allocation, each transport block's size from 36.213's tables (tables/:
// the MCS table, the TBS of its layers, N_PRB^1A and format 1C for
// broadcast RNTIs; 0 for a retransmission-only MCS, which the DL-SCH layer
// resolves), and the transmission scheme the format and the cell's ports
// imply (36.213 §7.1: TM1/TM2 formats 1, 1A; TM3 2A; TM4 2; TM5 1D at a
// power offset of 0 dB and TM6 1B with its TPMI: one precoded layer). The TBs go
// into the grant in codeword order, the swap flag of formats 2 and 2A
// applied (36.212 §5.3.3.1.5), each with its DCI index for HARQ.
#ifndef INCLUDED_GPURX_LTE_RECEIVER_GRANT_OF_DCI_H
#define INCLUDED_GPURX_LTE_RECEIVER_GRANT_OF_DCI_H

#include "lte/control/dci.h"
#include "lte/pdsch/pdsch_grant.h"

#include <string>

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

/*!
 * Fills \p g from \p m for cell \p c. Returns "" or why the DCI gives no
 * PDSCH to receive (an uplink or PDCCH-order DCI, a grant already marked
 * impossible, a size the tables do not have, a precoding that refers to a
 * report the receiver has not seen).
 */
std::string grant_of_dci(const cell& c, const dci_message& m, pdsch_grant& g);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

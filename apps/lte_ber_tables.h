/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What gpurx-lte-ber takes from TS 36.213 to turn --mcs and --prb into a
// transport block: the PDSCH MCS table (Table 7.1.7.1-1: modulation order
// and TBS index) and the TBS table for one layer (Table 7.1.7.2.1-1,
// I_TBS 0..26, N_PRB 1..110), and the app's rule for G, the coded bits a
// subframe carries (documented in --help and docs/lte-transport-channels-bler.md).
#ifndef INCLUDED_GPURX_APPS_LTE_BER_TABLES_H
#define INCLUDED_GPURX_APPS_LTE_BER_TABLES_H

namespace gr {
namespace gpurx {
namespace apps {
namespace lte {

//! The largest MCS index that gives a TBS (29..31 only signal a modulation
//! for retransmissions).
constexpr int MAX_MCS = 28;
constexpr int MAX_ITBS = 26;
constexpr int MAX_PRB = 110;

//! One row of 36.213 Table 7.1.7.1-1.
struct mcs_entry {
    int qm;   //!< modulation order Q_m: 2, 4, 6
    int itbs; //!< TBS index I_TBS
};

//! Table 7.1.7.1-1 for \p mcs in 0..28; throws std::invalid_argument naming mcs.
mcs_entry pdsch_mcs(int mcs);

//! Table 7.1.7.2.1-1: the TBS of \p itbs (0..26) on \p nprb (1..110) PRBs;
//! throws std::invalid_argument naming the parameter out of range.
int tbs_of(int itbs, int nprb);

/*!
 * Resource elements a PRB pair gives the PDSCH in the app's subframe: normal
 * cyclic prefix (14 symbols x 12 subcarriers = 168), a control region of 2
 * OFDM symbols (24 REs), cell-specific reference signals of one antenna port
 * (36.211 §6.10.1: 2 REs in each of symbols 0, 4, 7 and 11; symbol 0 lies in
 * the control region, so 6 REs here). No PBCH, synchronisation signals or
 * other reference signals: 168 - 24 - 6 = 138.
 */
constexpr int PDSCH_RE_PER_PRB = 138;

//! G = 138 x nprb x qm, the coded bits of one codeword on one layer.
inline int g_of(int nprb, int qm) { return PDSCH_RE_PER_PRB * nprb * qm; }

} // namespace lte
} // namespace apps
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What TS 36.213 and 36.306 give a downlink receiver to turn a DCI into a
// transport block: the PDSCH MCS tables (7.1.7.1-1 for up to 64-QAM,
// 7.1.7.1-1A with 256-QAM), the TBS of an I_TBS on N_PRB PRBs and N layers
// (§7.1.7.2.1, .2, .4, .5), DCI format 1C's TBS (Table 7.1.7.2.3-1), and the
// soft-buffer parameters of a UE category (36.306 Table 4.1-1, 36.212
// §5.1.4.1.2). Every function throws std::invalid_argument naming the
// parameter and value it cannot take.
#ifndef INCLUDED_GPURX_LTE_TABLES_TABLES_H
#define INCLUDED_GPURX_LTE_TABLES_TABLES_H

namespace gr {
namespace gpurx {
namespace core {
namespace lte {

enum class mcs_table { qam64, qam256 };

struct mcs_entry {
    int qm;                  //!< modulation order: 2, 4, 6, 8
    int itbs;                //!< TBS index; -1 for a retransmission-only MCS
    //! MCS 29..31 (28..31 with 256-QAM): only the modulation is signalled;
    //! the TBS is the one of the TB's first transmission (§7.1.7.2).
    bool retransmission_only() const { return itbs < 0; }
};

//! Table 7.1.7.1-1 (qam64) or 7.1.7.1-1A (qam256) for \p mcs in 0..31.
mcs_entry pdsch_mcs(int mcs, mcs_table table = mcs_table::qam64);

constexpr int MAX_ITBS = 33;
constexpr int MAX_PRB = 110;

/*!
 * TBS of \p itbs (0..33) on \p n_prb (1..110) PRBs for a TB mapped onto
 * \p layers (1..4) layers (§7.1.7.2.2, .4, .5): the table at layers x N_PRB
 * where that column exists (N_PRB <= 55, 36, 27), else the one-layer TBS
 * translated. The translation tables here end at TBS_L1 = 75376 (Release
 * 10): a multi-layer TB of I_TBS 27..33 on more than 55/36/27 PRBs needs
 * Release 12's additions and is refused, naming itbs.
 */
int tbs_of(int itbs, int n_prb, int layers = 1);

//! DCI format 1C's TBS for its I_TBS \p itbs (0..31), Table 7.1.7.2.3-1.
int tbs_format1c(int itbs);

//! The soft-buffer parameters 36.212 §5.1.4.1.2 takes from a UE's category
//! and transmission mode.
struct soft_buffer_config {
    long n_soft;   //!< N_soft, total soft channel bits
    int kc;        //!< K_C
    int k_mimo;    //!< K_MIMO: 2 for TM 3, 4, 8, 9, 10, else 1
    int m_dl_harq; //!< M_DL_HARQ: 8 (FDD)
    int m_limit;   //!< M_limit: 8
};

/*!
 * \p category: UE category 1..12 (36.306 Table 4.1-1: N_soft 250368 for
 * category 1 up to 35982720 for category 8); \p tm: transmission mode 1..10.
 * K_C is 5 for N_soft 35982720, 2 for N_soft 3654144 (categories 6 and 7,
 * which the receiver treats as supporting at most two layers), else 1.
 */
soft_buffer_config soft_buffer_of(int category, int tm);

} // namespace lte
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

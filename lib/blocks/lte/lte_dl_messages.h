/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What lte_dl_decoder posts, as PMTs: a TB's PDU, a subframe's stats dict,
// the status dict (lte_dl_decoder.api.yml lists the keys).
#ifndef INCLUDED_GPURX_BLOCKS_LTE_DL_MESSAGES_H
#define INCLUDED_GPURX_BLOCKS_LTE_DL_MESSAGES_H

#include "lte/receiver/downlink_receiver.h"
#include <pmt/pmt.h>

#include <string>

namespace gr {
namespace gpurx {

//! (metadata dict . u8vector of the bits, empty when not decoded).
pmt::pmt_t tb_pdu(const core::lte::downlink_tb& t);
pmt::pmt_t subframe_dict(const core::lte::subframe_report& r);

struct lte_dl_status {
    std::string state;  //!< searching, found, lost
    std::string reason;
    std::string backend;
    bool have_cell = false;
    core::lte::acquisition_result acq; //!< the cell (found, or the one lost)
    double sample_rate = 0.0;
    int n_rx = 1;
};
pmt::pmt_t status_dict(const lte_dl_status& s);
//! One line: "cell 101: 25 PRB, 2 port(s), normal CP, CFO 12 Hz, SFN 3".
std::string cell_line(const core::lte::acquisition_result& a);

} // namespace gpurx
} // namespace gr

#endif

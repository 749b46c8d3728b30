/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// lte_dl_decoder's parameters to the receiver's options, every bad one
// refused with its name and value (std::invalid_argument: ValueError in
// Python).
#ifndef INCLUDED_GPURX_BLOCKS_LTE_DL_PARAMS_H
#define INCLUDED_GPURX_BLOCKS_LTE_DL_PARAMS_H

#include "lte/receiver/downlink_receiver.h"
#include "lte_dl_decoder_params.h"

#include <string>
#include <vector>

namespace gr {
namespace gpurx {

//! "all" (every_ue) or a comma list of RNTIs 1..65535, decimal or 0x-hex.
void parse_rnti_list(const std::string& rnti, bool& every_ue, std::vector<int>& rntis);

//! Every parameter of make() but pcap, which the block opens itself.
core::lte::downlink_options lte_dl_options_of(const lte_dl_decoder_params& p);

} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Host entry points of the shared channel's CUDA kernels (sch_receive.cu),
// called by its cuda_kernel (sch_cuda_kernel.cc) in this order on one
// stream: descramble, set up the code blocks, dematch and combine, (the
// turbo decoder), assemble.
#ifndef INCLUDED_GPURX_SCH_CUDA_SCH_LAUNCH_H
#define INCLUDED_GPURX_SCH_CUDA_SCH_LAUNCH_H

#include "pipeline/batch_kernel.h"
#include "sch/sch_batch.h"
#include "sch/sch_frame.h"
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace sch {

//! Device tables made once per device: the scrambler's jumps (in constant
//! memory) and x^(32m+24) mod g of both CRCs (m < crc_words).
struct device_tables {
    const uint32_t* crc_a;   //!< x^(32m+24) mod g_CRC24A
    const uint32_t* crc_b;   //!< x^(32m+24) mod g_CRC24B
    const uint32_t* pow32_a; //!< x^(32m) mod g_CRC24A
    int crc_words;
    const uint32_t* x1_group; //!< gold_warp_tables, on the device
    const uint32_t* x2_group;
    const uint32_t* lane_x1;
    const uint32_t* lane_x2;
};
//! Words of device memory upload_tables() fills.
size_t table_words(int crc_words);
//! Uploads the tables into \p words (table_words() of device memory) of
//! the current device.
device_tables upload_tables(uint32_t* words, int crc_words);

struct receive_args {
    const frame_desc* frames; //!< TBs
    const frame_params* tbs;
    int ntb;
    const uint8_t* in;        //!< the batch's input area
    uint8_t* out;             //!< the batch's output area
    frame_result* results;
    uint8_t* scratch;         //!< batch_layout's areas
    batch_layout layout;
    int ncb, single;          //!< code blocks in the batch; of TBs of one block
    int16_t* soft;            //!< soft buffers, soft_llrs each
    size_t soft_llrs;
    device_tables tables;
    int max_g;
};

void launch_descramble(const receive_args& a, int max_G, void* stream);
void launch_cb_setup(const receive_args& a, void* stream);
//! \p max_E: the largest E of the batch's code blocks (sizes the shared copy of their LLRs).
void launch_dematch(const receive_args& a, int max_E, void* stream);
void launch_assemble(const receive_args& a, void* stream);

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

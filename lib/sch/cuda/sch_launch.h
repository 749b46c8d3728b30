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

#include "common/host_device.h"
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
    //! x1's state at every word, 1600 + 32 w (w < 32 GOLD_GROUPS): x1 does
    //! not depend on c_init, so its lane-matrix step is done once here.
    const uint32_t* x1_word;
};
//! Words of device memory upload_tables() fills.
size_t table_words(int crc_words);
//! Uploads the tables into \p words (table_words() of device memory) of
//! the current device.
device_tables upload_tables(uint32_t* words, int crc_words);

/*!
 * Gather tables of code-block shapes (K, F, N_cb, k0 mod N_cb), kept on the
 * device: for each codeword position 3d+i, the first received index e that
 * lands on it (then every e + n), SHAPE_UNSENT when none does, SHAPE_FILLER
 * for a filler bit; n, the non-<NULL> bits of the buffer. A cell meets few
 * shapes, so the dematching of every code block is a table walk.
 */
constexpr int SHAPE_SLOTS = 1024;
constexpr size_t SHAPE_STRIDE = (MAX_CB_LLRS + 15) & ~size_t(15); //!< int16 per table
constexpr int16_t SHAPE_UNSENT = -1, SHAPE_FILLER = -2;
struct shape_key {
    int32_t K, F, ncb, k0;
};
struct shape_tables {
    int16_t* first; //!< SHAPE_SLOTS x SHAPE_STRIDE
    int32_t* n;     //!< SHAPE_SLOTS
};
//! Up to this many shapes built per launch (they travel as kernel arguments).
constexpr int SHAPE_BUILDS = 16;
struct shape_builds {
    shape_key key[SHAPE_BUILDS];
    int32_t slot[SHAPE_BUILDS];
    int count;
};
void launch_build_shapes(const shape_tables& t, const shape_builds& b, void* stream);

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
    shape_tables shapes;
    const int32_t* tb_shapes; //!< per TB: slots of block 0, of K- blocks, of K+ blocks; nullptr: no tables
    float extrinsic_scale = 1.0f; //!< sch_config::extrinsic_scale
};

//! The most received LLRs of a code block the dematching holds in shared
//! memory; larger E (heavy repetition) are read from global memory.
constexpr int MAX_HELD_LLRS = 32 * 1024;
/*!
 * Whether the dematching descrambles TB \p p's LLRs itself, as it loads each
 * code block's E of them into shared memory (the Gold words of its range
 * from the same tables), instead of the descramble kernel writing them out
 * and reading them back: on the downlink, whose code blocks' bits are
 * contiguous, when every block's LLRs fit on chip. The uplink's channel
 * interleaver scatters a block's bits over the TB: it keeps the separate
 * kernel.
 */
GPURX_HD bool descramble_in_dematch(const frame_params& p)
{
    return p.channel != ULSCH && p.E_lo <= MAX_HELD_LLRS && p.E_hi <= MAX_HELD_LLRS;
}

//! Descrambles the TBs that descramble_in_dematch() leaves to it (no launch
//! when there are none).
void launch_descramble(const receive_args& a, int max_G, void* stream);
void launch_cb_setup(const receive_args& a, void* stream);
//! \p max_E: the largest E of the batch's code blocks (sizes the shared copy of their LLRs).
void launch_dematch(const receive_args& a, int max_E, void* stream);
void launch_assemble(const receive_args& a, void* stream);
/*!
 * sch_config::extrinsic_output, after assemble: each TB's G extrinsic LLRs
 * (sch_steps.h extrinsic() and scramble_extrinsic(), the same float
 * arithmetic), to its output at extrinsic_offset(tbs). \p max_G: the
 * largest G of the batch.
 */
void launch_extrinsic(const receive_args& a, int max_G, void* stream);

} // namespace sch
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

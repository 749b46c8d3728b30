/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The IDD receiver's own device steps (idd_steps.cu), between the
// detector's and the decoder's kernels: set-up of a batch, the choice of
// each TB's output after a pass, the copy of the decoder's extrinsics into
// the detector's prior slots. All are copies: they do what the CPU kernel's
// loops do (idd_cpu_kernel.cc), value for value.
#ifndef INCLUDED_GPURX_IDD_CUDA_IDD_LAUNCH_H
#define INCLUDED_GPURX_IDD_CUDA_IDD_LAUNCH_H

#include "idd/idd_batch.h"
#include "idd/idd_frame.h"
#include "pipeline/frame.h"

#include <cstddef>
#include <cstdint>

namespace gr {
namespace gpurx {
namespace core {
namespace idd {

//! A batch on the device (every pointer a device pointer).
struct device_batch {
    const frame_desc* frames;
    const frame_params* params;
    int nframes;
    const uint8_t* in;
    uint8_t* out;
    frame_result* results;
    uint8_t* scratch;
    batch_layout layout;
};

/*!
 * Every TB's detector and decoder records (tb_records()) and done flag (0),
 * and its detector input with zero priors; \p max_words: the most 4-byte
 * words of a TB's detector input (with priors).
 */
void launch_setup(const device_batch& b, size_t max_words, void* stream);
/*!
 * After pass \p pass: each TB not yet done takes the pass's bits and
 * result (frame_result's rules); a TB whose CRC checked is done.
 * \p max_tbs: the batch's largest TB.
 */
void launch_commit(const device_batch& b, int pass, int max_tbs, void* stream);
//! Each TB not done: the decoder's G extrinsics into its prior slots.
void launch_feedback(const device_batch& b, int max_g, void* stream);

} // namespace idd
} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.batch_copy: the copy family on the shared stream driver.
#include "blocks/copy/copy_adapter.h"
#include "blocks/drivers/driver_blocks.h"
#include "batch_copy_params.h"

namespace gr {
namespace gpurx {

batch_copy::sptr make_batch_copy(const batch_copy_params& p)
{
    const core::copy_config cfg = make_copy_config(p.vlen, p.scale);
    return gnuradio::make_block_sptr<stream_block<batch_copy, copy_adapter>>(
        "batch_copy", copy_adapter(cfg), cfg.vlen, p.options);
}

} // namespace gpurx
} // namespace gr

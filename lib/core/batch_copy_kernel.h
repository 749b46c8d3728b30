/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The computation behind gpurx.batch_copy: out = scale * in, frame by frame.
#ifndef INCLUDED_GPURX_CORE_BATCH_COPY_KERNEL_H
#define INCLUDED_GPURX_CORE_BATCH_COPY_KERNEL_H

#include "batch_kernel.h"

namespace gr {
namespace gpurx {
namespace core {

class batch_copy_kernel final : public batch_kernel
{
public:
    //! \p vlen floats per frame. Throws std::invalid_argument for vlen == 0.
    batch_copy_kernel(size_t vlen, float scale);
    size_t frame_bytes() const { return d_vlen * sizeof(float); }
    void run_cpu(const batch_view& batch) override;
    void enqueue_cuda(const batch_view& dev, const frame_desc* host_frames, void* stream) override;

private:
    size_t d_vlen;
    float d_scale;
};

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

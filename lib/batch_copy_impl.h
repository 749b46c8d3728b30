/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_BATCH_COPY_IMPL_H
#define INCLUDED_GPURX_BATCH_COPY_IMPL_H

#include "core/batch_copy_kernel.h"
#include "pipeline_holder.h"
#include <gnuradio/gpurx/batch_copy.h>

namespace gr {
namespace gpurx {

class batch_copy_impl : public batch_copy
{
public:
    batch_copy_impl(unsigned vlen,
                    float scale,
                    unsigned max_batch,
                    unsigned slots,
                    int flush_us,
                    const std::string& backend,
                    int device);

    bool start() override;
    bool stop() override;
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;
    std::string backend() const override;

private:
    core::batch_copy_kernel d_kernel;
    pipeline_holder d_holder;
};

} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_BATCH_COPY_H
#define INCLUDED_GPURX_BATCH_COPY_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <gnuradio/gpurx/pipeline_options.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief Scaled copy of float vectors through the gr-gpurx batching pipeline.
 * \ingroup gpurx
 *
 * \details
 * Each input vector of \p vlen floats is one frame. Frames are gathered into
 * batches as pipeline_options says (on CUDA: copy-in, kernel and copy-out on a
 * stream per slot, from pinned buffers). Output i is scale x input i, in
 * order; the block is 1:1 in items, with a delay of up to slots x max_batch
 * items.
 *
 * It proves the pipeline in a flowgraph and measures it (bench/).
 */
class GPURX_API batch_copy : virtual public gr::block
{
public:
    typedef std::shared_ptr<batch_copy> sptr;

    /*!
     * \param vlen floats per vector (frame), 1..16777216
     * \param scale factor applied to every float, finite
     * \param options batching, backend and GPUs (pipeline_options)
     */
    static sptr make(int vlen, float scale = 1.0f, const pipeline_options& options = pipeline_options());

    //! The backend in use: "cuda" or "cpu".
    virtual std::string backend() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif

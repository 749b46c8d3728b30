/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_BATCH_COPY_H
#define INCLUDED_GPURX_BATCH_COPY_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <string>

namespace gr {
namespace gpurx {

/*!
 * \brief Scaled copy of float vectors through the gr-gpurx batching pipeline.
 * \ingroup gpurx
 *
 * \details
 * Each input vector of \p vlen floats is one frame. Frames are gathered into
 * batches of up to \p max_batch, and up to \p slots batches are in flight at
 * once (on CUDA: copy-in, kernel and copy-out on a stream per slot, from pinned
 * buffers). A partial batch is launched after \p flush_us microseconds, which
 * bounds the latency of a live stream. Output i is scale x input i, in order;
 * the block is 1:1 in items, with a delay of up to slots x max_batch items.
 *
 * It proves the pipeline in a flowgraph and measures it (bench/).
 */
class GPURX_API batch_copy : virtual public gr::block
{
public:
    typedef std::shared_ptr<batch_copy> sptr;

    /*!
     * \param vlen floats per vector (frame), >= 1
     * \param scale factor applied to every float
     * \param max_batch frames per batch, >= 1
     * \param slots batches in flight, 1..64
     * \param flush_us launch a partial batch after this many microseconds (0: at once)
     * \param backend "auto", "cuda" or "cpu"
     * \param device CUDA device ordinal
     */
    static sptr make(unsigned vlen,
                     float scale = 1.0f,
                     unsigned max_batch = 64,
                     unsigned slots = 3,
                     int flush_us = 1000,
                     const std::string& backend = "auto",
                     int device = 0);

    //! The backend in use: "cuda" or "cpu".
    virtual std::string backend() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif

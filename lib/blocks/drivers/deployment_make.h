/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What the generated make() of a block calls (scripts/gen-block-api.py
// writes one per block from its family's description, lib/blocks/<family>/
// *.api.yml). make() fills the family's args struct with its parameters and
// hands it to the deployment's function here, which builds the adapter and
// the block on its driver.
//
// A family's args struct derives from the generated <family>_params (its
// make() parameters, with make()'s defaults) and deployment_args, and
// provides:
//   Adapter adapter(deployment d, const pipeline_options& options) const;
//     validates the parameters (each error names its parameter) and builds
//     the adapter for deployment d;
//   size_t stream_items(const Adapter&) const;  (stream deployment only)
//     the items of one input vector;
//   template <typename Block> void made(const Block&) const;  (optional)
//     what to do once the block exists (log, say);
//   pipeline_options fixed_options() const;  (a family without an options
//     parameter) the options its blocks run on.
#ifndef INCLUDED_GPURX_BLOCKS_DRIVERS_DEPLOYMENT_MAKE_H
#define INCLUDED_GPURX_BLOCKS_DRIVERS_DEPLOYMENT_MAKE_H

#include "blocks/drivers/deployment_args.h"
#include "blocks/drivers/driver_blocks.h"

#include <string>
#include <utility>

namespace gr {
namespace gpurx {

//! A stream block: one vector of stream_items() items in per frame.
template <typename Public, typename Args>
typename Public::sptr make_stream_deployment(const char* name, const Args& a, const pipeline_options& options)
{
    auto adapter = a.adapter(deployment::stream, options);
    const size_t items = a.stream_items(adapter);
    using Adapter = decltype(adapter);
    auto blk = gnuradio::make_block_sptr<stream_block<Public, Adapter>>(name, std::move(adapter), items, options);
    a.made(*blk);
    return blk;
}

//! A tagged-stream block: one packet (length tag \p len_tag_key) per frame.
template <typename Public, typename Args>
typename Public::sptr make_tagged_deployment(const char* name,
                                             const Args& a,
                                             const std::string& len_tag_key,
                                             const pipeline_options& options)
{
    auto adapter = a.adapter(deployment::tagged, options);
    using Adapter = decltype(adapter);
    auto blk =
        gnuradio::make_block_sptr<tagged_block<Public, Adapter>>(name, std::move(adapter), len_tag_key, options);
    a.made(*blk);
    return blk;
}

//! A PDU block: one PDU per frame.
template <typename Public, typename Args>
typename Public::sptr make_pdu_deployment(const char* name, const Args& a, const pipeline_options& options)
{
    auto adapter = a.adapter(deployment::pdu, options);
    using Adapter = decltype(adapter);
    auto blk = gnuradio::make_block_sptr<pdu_block<Public, Adapter>>(name, std::move(adapter), options);
    a.made(*blk);
    return blk;
}

} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// What a family gives the shared block drivers (stream, tagged stream, PDU),
// as gr-fec's generic deployments take a decoder object: how a frame of n
// input items is shaped and checked, its kernels, and how a completed frame
// is described. The drivers do everything else (batching, ordering, tags,
// messages, errors, end of stream, stop and restart).
#ifndef INCLUDED_GPURX_BLOCKS_FRAME_ADAPTER_H
#define INCLUDED_GPURX_BLOCKS_FRAME_ADAPTER_H

#include "pipeline/batch_pipeline.h"
#include "pipeline/implementation.h"
#include <pmt/pmt.h>

#include <array>
#include <cstring>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gr {
namespace gpurx {

//! One frame's shape: its parameter record and sizes. The record and the
//! note are as long as the family's own types: no family sizes another's.
struct frame_shape {
    std::vector<uint8_t> params; //!< the family's kernel record (set_params())
    size_t in_items = 0;  //!< input items of the frame
    size_t out_bytes = 0; //!< output bytes of the frame
    //! What the family keeps about the frame beside its kernel record, for
    //! its frame_admission (the shared channel: the TB's HARQ key, ndi).
    std::vector<uint8_t> note;

    template <typename P>
    void set_params(const P& p)
    {
        params.resize(sizeof(P));
        std::memcpy(params.data(), &p, sizeof(P));
    }
    template <typename P>
    P params_as() const
    {
        return read_as<P>(params, "params");
    }
    template <typename N>
    void set_note(const N& n)
    {
        note.resize(sizeof(N));
        std::memcpy(note.data(), &n, sizeof(N));
    }
    template <typename N>
    N note_as() const
    {
        return read_as<N>(note, "note");
    }

private:
    template <typename T>
    static T read_as(const std::vector<uint8_t>& bytes, const char* what)
    {
        if (bytes.size() != sizeof(T))
            throw std::logic_error(std::string("frame_shape: ") + what + " of " + std::to_string(bytes.size()) +
                                   " bytes read as a type of " + std::to_string(sizeof(T)));
        T t;
        std::memcpy(&t, bytes.data(), sizeof(T));
        return t;
    }
};

class frame_admission; // blocks/frame_admission.h

/*!
 * The stream form's ports. A family whose frame is one input vector needs
 * nothing here (the default: one port, one vector per frame, one output
 * vector per frame). A family whose frame gathers items of several streams
 * (the MIMO detector: a channel matrix per frame, several received vectors
 * per frame, optional a-priori LLRs) declares one port per stream, each with
 * its item size and items per frame, and output items per frame; the stream
 * driver then consumes whole frames across all ports at once and hands the
 * adapter each port's items of the frame (stage_stream()), so no family
 * writes its own multi-input plumbing.
 */
struct stream_port {
    size_t item_bytes = 0;      //!< bytes of one item (a vector) of this port
    size_t items_per_frame = 1; //!< items of this port that one frame takes
};
struct stream_layout {
    std::vector<stream_port> inputs; //!< in port order
    size_t out_items_per_frame = 1;  //!< output items (vectors) one frame makes
};

//! Key/value pairs describing a completed frame: stream tags on its first
//! output item, or entries of its output PDU's metadata.
using frame_meta = std::vector<std::pair<pmt::pmt_t, pmt::pmt_t>>;

class frame_adapter
{
public:
    virtual ~frame_adapter() = default;

    //! The family's per-frame records.
    virtual core::frame_types types() const = 0;
    //! Its kernels for either backend (the implementations chosen).
    virtual core::kernel_factories kernels() const = 0;
    //! The implementations chosen, with what the block logs about them.
    virtual core::implementation_choice implementation() const { return {}; }

    virtual size_t in_item_bytes() const = 0;  //!< e.g. 4 for float LLRs
    virtual size_t out_item_bytes() const = 0; //!< e.g. 1 for unpacked bits
    virtual size_t max_in_items() const = 0;   //!< the largest frame the family takes
    virtual size_t max_out_bytes() const = 0;

    /*!
     * The frame that \p n_items input items make. Returns false, with the
     * reason in \p why, when no frame of the family has that length.
     */
    virtual bool shape(uint64_t n_items, frame_shape& out, std::string& why) const = 0;

    /*!
     * Copy items [first, first + n) of a frame into \p dst (the staging of
     * those items), checking them. A frame may arrive in several pieces.
     * Returns false, with the reason in \p why, when an item is malformed.
     */
    virtual bool stage(const frame_shape& shape,
                       const uint8_t* src,
                       size_t first,
                       size_t n,
                       uint8_t* dst,
                       std::string& why) const = 0;

    //! The stream form's ports for frames of \p shape (see stream_layout).
    virtual stream_layout stream_ports(const frame_shape& shape) const
    {
        return { { { shape.in_items * in_item_bytes(), 1 } }, 1 };
    }

    /*!
     * Stream form: a frame's per-frame parameters from its ports' items
     * (e.g. a noise variance that arrives on its own port), before its
     * staging is opened. \p ports[p] points to the frame's items of port p.
     * Returns false, with the reason, when they make no frame: the frame is
     * then rejected as a malformed one. Default: \p shape as it is.
     */
    virtual bool stream_frame(const uint8_t* const* /*ports*/,
                              frame_shape& /*shape*/,
                              std::string& /*why*/) const
    {
        return true;
    }

    /*!
     * Stream form: stage one frame from its ports' items into \p dst (its
     * whole input area), checking them as stage() does. Default: the single
     * port's items through stage().
     */
    virtual bool stage_stream(const frame_shape& shape,
                              const uint8_t* const* ports,
                              uint8_t* dst,
                              std::string& why) const
    {
        return stage(shape, ports[0], 0, shape.in_items, dst, why);
    }

    /*!
     * Per-frame metadata. A family whose frame needs more than its length
     * (the shared channel: a transport block's size, rv, RNTI, ...) says
     * so here; the drivers then shape each frame with shape_frame(): the PDU
     * driver with the PDU's metadata, the tagged driver with a dict of the
     * tags on the packet's first item (the length tag excluded), which it
     * also puts on the frame's output packet, as the PDU form passes the
     * metadata on. Default: no (shape() alone; no tags passed on).
     */
    virtual bool uses_frame_metadata() const { return false; }
    //! The frame of \p n_items items described by \p meta (a dict); as
    //! shape() otherwise. Called only when uses_frame_metadata().
    virtual bool shape_frame(uint64_t n_items,
                             const pmt::pmt_t& /*meta*/,
                             frame_shape& out,
                             std::string& why) const
    {
        return shape(n_items, out, why);
    }
    //! The family's admission of frames that depend on earlier ones
    //! (blocks/frame_admission.h), or nullptr (the default: none).
    virtual frame_admission* admission() const { return nullptr; }

    //! Tags / PDU metadata for a completed frame (not for rejected ones).
    virtual void describe(const core::completed_frame& frame, frame_meta& meta) const = 0;

    //! The PDU vector type the family takes ("f32vector"), and its items.
    virtual bool pdu_items(const pmt::pmt_t& vec,
                           const uint8_t*& items,
                           size_t& n,
                           std::string& why) const = 0;
    //! A completed frame's output as a PDU vector.
    virtual pmt::pmt_t pdu_output(const core::completed_frame& frame) const = 0;
};

} // namespace gpurx
} // namespace gr

#endif

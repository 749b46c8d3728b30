/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/sch/sch_encoder_adapter.h"
#include "blocks/sch/sch_metadata.h"
#include "sch/sch_encoder_kernel.h"
#include "sch/sch_params.h"

#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpurx {

namespace sch = core::sch;

sch_encoder_adapter sch_encoder_args::adapter(deployment, const pipeline_options&) const
{
    return sch_encoder_adapter(core::sch::parse_channel(channel), max_tbs, max_g);
}

sch_encoder_adapter::sch_encoder_adapter(sch::channel_kind channel, int max_tbs, int max_g)
    : d_channel(channel), d_max_tbs(max_tbs), d_max_g(max_g)
{
    if (max_tbs < 1 || max_tbs > sch::MAX_TBS)
        throw std::invalid_argument("max_tbs=" + std::to_string(max_tbs) + ": must be in 1.." +
                                    std::to_string(sch::MAX_TBS));
    if (max_g < 8 || max_g > (1 << 21))
        throw std::invalid_argument("max_g=" + std::to_string(max_g) + ": must be in 8..2097152");
}

pipeline_options sch_encoder_adapter::options()
{
    // flush_us = 0: each TB is encoded as it arrives; one worker (the
    // caller), so the block starts no threads of its own.
    return pipeline_options(1, 2, 0, "cpu", "0", 1);
}

core::frame_types sch_encoder_adapter::types() const { return sch::encoder_frame_types(); }

core::kernel_factories sch_encoder_adapter::kernels() const { return sch::encoder_kernel_factories(); }

bool sch_encoder_adapter::shape(uint64_t, frame_shape&, std::string& why) const
{
    why = "a transport block needs its metadata (tbs, g, rv, qm, ...), not only its length";
    return false;
}

bool sch_encoder_adapter::shape_frame(uint64_t n, const pmt::pmt_t& meta, frame_shape& out, std::string& why) const
{
    sch::tb_request req;
    if (!tb_request_of(meta, d_channel, -1, req, why))
        return false;
    if (uint64_t(req.tbs) != n) {
        why = "tbs=" + std::to_string(req.tbs) + " in the metadata, but the frame holds " +
              std::to_string(n) + " bits";
        return false;
    }
    if (req.tbs > d_max_tbs) {
        why = "tbs=" + std::to_string(req.tbs) + ": more than max_tbs=" + std::to_string(d_max_tbs);
        return false;
    }
    if (req.g > d_max_g) {
        why = "g=" + std::to_string(req.g) + ": more than max_g=" + std::to_string(d_max_g);
        return false;
    }
    sch::frame_params p;
    try {
        p = sch::frame_params_of(req);
    } catch (const std::invalid_argument& e) {
        why = e.what();
        return false;
    }
    out.set_params(p);
    out.in_items = n;
    out.out_bytes = size_t(req.g);
    return true;
}

bool sch_encoder_adapter::stage(const frame_shape&,
                                const uint8_t* src,
                                size_t first,
                                size_t n,
                                uint8_t* dst,
                                std::string& why) const
{
    // A byte other than 0/1 is no bit (packed bytes?): the TB is not
    // encoded, rather than encoded from guessed bits.
    for (size_t i = 0; i < n; i++)
        if (src[i] > 1) {
            why = "bits: value " + std::to_string(src[i]) + " at index " + std::to_string(first + i) +
                  " is not 0 or 1";
            return false;
        }
    std::memcpy(dst, src, n);
    return true;
}

bool sch_encoder_adapter::pdu_items(const pmt::pmt_t& vec, const uint8_t*& items, size_t& n, std::string& why) const
{
    if (!pmt::is_u8vector(vec)) {
        why = "not a PDU of TB bits (u8vector of 0/1)";
        return false;
    }
    items = pmt::u8vector_elements(vec, n);
    return true;
}

pmt::pmt_t sch_encoder_adapter::pdu_output(const core::completed_frame& f) const
{
    return pmt::init_u8vector(f.out_bytes, f.data);
}

} // namespace gpurx
} // namespace gr

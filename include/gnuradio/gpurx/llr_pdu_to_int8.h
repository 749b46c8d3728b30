/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#ifndef INCLUDED_GPURX_LLR_PDU_TO_INT8_H
#define INCLUDED_GPURX_LLR_PDU_TO_INT8_H

#include <gnuradio/block.h>
#include <gnuradio/gpurx/api.h>
#include <cstdint>

namespace gr {
namespace gpurx {

/*!
 * \brief A PDU of float LLRs to the same metadata with int8 LLRs: the
 * decoders' input "int8" (value = round(8 L), clipped to +-127, the
 * module's one conversion, lib/common/llr_int8.h), as a u8vector of their
 * bytes: a quarter of the bytes to send, and a u8vector costs a worker one
 * copy to deserialize. Other PDUs pass unchanged.
 * \ingroup gpurx
 *
 * Ports: "pdus" in, "pdus" out.
 */
class GPURX_API llr_pdu_to_int8 : virtual public gr::block
{
public:
    typedef std::shared_ptr<llr_pdu_to_int8> sptr;
    static sptr make();
    //! PDUs converted (f32vector in), and passed unchanged (anything else).
    virtual uint64_t converted() const = 0;
    virtual uint64_t passed() const = 0;
};

} // namespace gpurx
} // namespace gr

#endif

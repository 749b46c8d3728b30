/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.llr_pdu_to_int8: the front end's LLR conversion before the wire,
// with the decoders' own quantiser (core::llr_to_int8), so a worker's int8
// input is what an in-process decoder would make of the same floats.
#include "common/llr_int8.h"
#include "llr_pdu_to_int8_params.h"
#include <gnuradio/io_signature.h>

#include <atomic>
#include <vector>

namespace gr {
namespace gpurx {

namespace {

class llr_pdu_to_int8_impl final : public llr_pdu_to_int8
{
public:
    llr_pdu_to_int8_impl()
        : gr::block("llr_pdu_to_int8", gr::io_signature::make(0, 0, 0), gr::io_signature::make(0, 0, 0))
    {
        message_port_register_in(d_port);
        message_port_register_out(d_port);
        set_msg_handler(d_port, [this](const pmt::pmt_t& m) { handle(m); });
    }

    uint64_t converted() const override { return d_converted.load(std::memory_order_relaxed); }
    uint64_t passed() const override { return d_passed.load(std::memory_order_relaxed); }

private:
    void handle(const pmt::pmt_t& msg)
    {
        if (!pmt::is_pair(msg) || !pmt::is_f32vector(pmt::cdr(msg))) {
            d_passed++;
            message_port_pub(d_port, msg);
            return;
        }
        size_t n = 0;
        const float* x = pmt::f32vector_elements(pmt::cdr(msg), n);
        d_bytes.resize(n);
        for (size_t i = 0; i < n; i++)
            d_bytes[i] = uint8_t(core::llr_to_int8(x[i]));
        d_converted++;
        message_port_pub(d_port, pmt::cons(pmt::car(msg), pmt::init_u8vector(n, d_bytes)));
    }

    const pmt::pmt_t d_port = pmt::mp("pdus");
    std::vector<uint8_t> d_bytes;
    std::atomic<uint64_t> d_converted{ 0 }, d_passed{ 0 };
};

} // namespace

llr_pdu_to_int8::sptr make_llr_pdu_to_int8(const llr_pdu_to_int8_params&)
{
    return gnuradio::make_block_sptr<llr_pdu_to_int8_impl>();
}

} // namespace gpurx
} // namespace gr

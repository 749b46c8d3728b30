/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.lte_turbo_encoder_pdu: one PDU of K bits in, its 3K+12 coded bits
// out; a PDU whose length is no LTE K is dropped and reported.
#include "blocks/drivers/bit_bytes.h"
#include "blocks/turbo/lte_turbo_encoders_by_K.h"
#include "lte_turbo_encoder_pdu_params.h"
#include <gnuradio/io_signature.h>
#include <gnuradio/pdu.h>

#include <vector>

namespace gr {
namespace gpurx {

class lte_turbo_encoder_pdu_impl : public lte_turbo_encoder_pdu
{
    lte_turbo_encoders_by_K d_enc;

public:
    lte_turbo_encoder_pdu_impl()
        : gr::block("lte_turbo_encoder_pdu",
                    gr::io_signature::make(0, 0, 0),
                    gr::io_signature::make(0, 0, 0))
    {
        message_port_register_in(msgport_names::pdus());
        message_port_register_out(msgport_names::pdus());
        message_port_register_out(pmt::mp("errors"));
        set_msg_handler(msgport_names::pdus(), [this](const pmt::pmt_t& m) { handle(m); });
    }

private:
    void handle(const pmt::pmt_t& msg)
    {
        size_t n = 0;
        const uint8_t* bits = nullptr;
        const bool u8 = pmt::is_pdu(msg) && pmt::is_u8vector(pmt::cdr(msg));
        if (u8)
            bits = pmt::u8vector_elements(pmt::cdr(msg), n); // nullptr when empty
        if (!u8 || !core::lte_valid_K(int(n))) {
            const std::string why =
                u8 ? "length " + std::to_string(n) +
                         " is not an LTE block size K (36.212 Table 5.1.3-3: 40..6144)"
                   : "not a PDU of u8 bits";
            d_logger->warn("PDU dropped: {}", why);
            message_port_pub(pmt::mp("errors"),
                             pmt::dict_add(pmt::make_dict(), pmt::mp("reason"), pmt::mp(why)));
            return;
        }
        const int K = int(n);
        if (const size_t bad = non_bit_bytes(bits, n)) {
            const std::string why = non_bit_reason(bad, n);
            d_logger->warn("PDU: {}", why);
            message_port_pub(pmt::mp("errors"),
                             pmt::dict_add(pmt::make_dict(), pmt::mp("reason"), pmt::mp(why)));
        }
        std::vector<uint8_t> out(3 * K + 12);
        d_enc[K].encode(bits, out.data());
        message_port_pub(msgport_names::pdus(),
                         pmt::cons(pmt::car(msg), pmt::init_u8vector(out.size(), out)));
    }
};

lte_turbo_encoder_pdu::sptr make_lte_turbo_encoder_pdu(const lte_turbo_encoder_pdu_params&)
{
    return gnuradio::make_block_sptr<lte_turbo_encoder_pdu_impl>();
}

} // namespace gpurx
} // namespace gr

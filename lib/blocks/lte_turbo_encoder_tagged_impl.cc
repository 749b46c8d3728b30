/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/bit_bytes.h"
#include "turbo/lte_turbo_encoder.h"
#include <gnuradio/gpurx/lte_turbo_encoder_tagged.h>
#include <gnuradio/io_signature.h>
#include <gnuradio/pdu.h>

#include <map>
#include <memory>

namespace gr {
namespace gpurx {

namespace {
// Encoders by K, made on first use.
core::lte_turbo_encoder& encoder_for(std::map<int, std::unique_ptr<core::lte_turbo_encoder>>& m, int K)
{
    auto& e = m[K];
    if (!e)
        e = std::make_unique<core::lte_turbo_encoder>(K);
    return *e;
}
} // namespace

class lte_turbo_encoder_tagged_impl : public lte_turbo_encoder_tagged
{
    std::map<int, std::unique_ptr<core::lte_turbo_encoder>> d_enc;

public:
    explicit lte_turbo_encoder_tagged_impl(const std::string& key)
        : gr::tagged_stream_block("lte_turbo_encoder_tagged",
                                  gr::io_signature::make(1, 1, 1),
                                  gr::io_signature::make(1, 1, 1),
                                  key)
    {
        message_port_register_out(pmt::mp("errors"));
    }

    int calculate_output_stream_length(const gr_vector_int& ninput_items) override
    {
        const int K = ninput_items[0];
        return core::lte_valid_K(K) ? 3 * K + 12 : 0;
    }

    int work(int noutput_items,
             gr_vector_int& ninput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override
    {
        const int K = ninput_items[0];
        if (!core::lte_valid_K(K)) {
            d_logger->warn("packet of {} bits dropped: not an LTE block size K", K);
            message_port_pub(pmt::mp("errors"),
                             pmt::dict_add(pmt::make_dict(),
                                           pmt::mp("reason"),
                                           pmt::mp("packet length " + std::to_string(K) +
                                                   " is not an LTE block size K")));
            return 0;
        }
        const auto* bits = static_cast<const uint8_t*>(input_items[0]);
        if (const size_t bad = non_bit_bytes(bits, size_t(K))) {
            const std::string why = non_bit_reason(bad, size_t(K));
            d_logger->warn("packet at input item {}: {}", nitems_read(0), why);
            pmt::pmt_t d = pmt::dict_add(pmt::make_dict(), pmt::mp("reason"), pmt::mp(why));
            d = pmt::dict_add(d, pmt::mp("offset"), pmt::from_uint64(nitems_read(0)));
            message_port_pub(pmt::mp("errors"), d);
        }
        encoder_for(d_enc, K).encode(bits, static_cast<uint8_t*>(output_items[0]));
        return 3 * K + 12;
    }
};

lte_turbo_encoder_tagged::sptr lte_turbo_encoder_tagged::make(const std::string& key)
{
    return gnuradio::make_block_sptr<lte_turbo_encoder_tagged_impl>(key);
}

class lte_turbo_encoder_pdu_impl : public lte_turbo_encoder_pdu
{
    std::map<int, std::unique_ptr<core::lte_turbo_encoder>> d_enc;

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
        encoder_for(d_enc, K).encode(bits, out.data());
        message_port_pub(msgport_names::pdus(),
                         pmt::cons(pmt::car(msg), pmt::init_u8vector(out.size(), out)));
    }
};

lte_turbo_encoder_pdu::sptr lte_turbo_encoder_pdu::make()
{
    return gnuradio::make_block_sptr<lte_turbo_encoder_pdu_impl>();
}

} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "blocks/drivers/packet_length.h"
#include "packet_counter_params.h"
#include <gnuradio/io_signature.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <vector>

namespace gr {
namespace gpurx {

namespace {
double tag_double(const std::vector<gr::tag_t>& tags, const pmt::pmt_t& key, double fallback)
{
    for (const auto& t : tags)
        if (pmt::eqv(t.key, key) && pmt::is_number(t.value))
            return pmt::to_double(t.value);
    return fallback;
}

class packet_counter_impl final : public packet_counter
{
    const pmt::pmt_t d_len_key;
    const pmt::pmt_t d_crc_key = pmt::mp("crc_ok"), d_snr_key = pmt::mp("snr_db"),
                     d_cfo_key = pmt::mp("cfo");
    const pmt::pmt_t d_pdus = pmt::mp("pdus"), d_stats = pmt::mp("stats");

    // The packet being collected.
    std::vector<uint8_t> d_bits;
    size_t d_need = 0;
    bool d_ok = false;
    double d_snr = 0.0, d_cfo = 0.0;

    mutable std::mutex d_mutex; // the getters run on other threads (GUI probes)
    uint64_t d_decoded = 0, d_fail = 0, d_lost = 0, d_payload_bits = 0;
    uint64_t d_fail_since_ok = 0; // CRC failures since the last decoded packet
    bool d_have_seq = false;
    uint32_t d_next_seq = 0;
    double d_snr_sum = 0.0, d_cfo_sum = 0.0;
    uint64_t d_estimates = 0;
    std::chrono::steady_clock::time_point d_first;

    void finish_packet()
    {
        std::lock_guard<std::mutex> l(d_mutex);
        if (d_decoded + d_fail == 0)
            d_first = std::chrono::steady_clock::now();
        if (std::isfinite(d_snr) && std::isfinite(d_cfo)) {
            d_snr_sum += d_snr;
            d_cfo_sum += d_cfo;
            d_estimates++;
        }
        if (!d_ok) {
            d_fail++;
            d_fail_since_ok++;
        } else {
            d_decoded++;
            d_payload_bits += d_bits.size();
            std::vector<uint8_t> bytes(d_bits.size() / 8, 0);
            for (size_t i = 0; i < bytes.size() * 8; i++)
                bytes[i / 8] |= uint8_t((d_bits[i] & 1) << (7 - i % 8));
            if (bytes.size() >= 4) {
                const uint32_t seq = (uint32_t(bytes[0]) << 24) | (uint32_t(bytes[1]) << 16) |
                                     (uint32_t(bytes[2]) << 8) | bytes[3];
                // Lost: packets missing between two decoded sequence numbers
                // that no failed CRC accounts for (a failed packet sits in
                // that gap too and is counted once, as crc_fail). Nothing
                // before the first decoded packet counts: a receiver may
                // start after its sender. A number at or before the last
                // (a duplicate, a restarted sender) counts nothing.
                if (d_have_seq && seq >= d_next_seq) {
                    const uint64_t gap = seq - d_next_seq;
                    d_lost += gap > d_fail_since_ok ? gap - d_fail_since_ok : 0;
                }
                if (!d_have_seq || seq >= d_next_seq)
                    d_next_seq = seq + 1;
                d_have_seq = true;
                d_fail_since_ok = 0;
            }
            message_port_pub(d_pdus, pmt::cons(pmt::PMT_NIL, pmt::init_u8vector(bytes.size(), bytes)));
        }
        pmt::pmt_t s = pmt::make_dict();
        s = pmt::dict_add(s, pmt::mp("decoded"), pmt::from_uint64(d_decoded));
        s = pmt::dict_add(s, pmt::mp("crc_fail"), pmt::from_uint64(d_fail));
        s = pmt::dict_add(s, pmt::mp("lost"), pmt::from_uint64(d_lost));
        s = pmt::dict_add(s, pmt::mp("per"), pmt::from_double(per_locked()));
        s = pmt::dict_add(s, pmt::mp("snr_db"), pmt::from_double(d_snr));
        s = pmt::dict_add(s, pmt::mp("cfo"), pmt::from_double(d_cfo));
        s = pmt::dict_add(s, pmt::mp("goodput_bps"), pmt::from_double(goodput_locked()));
        message_port_pub(d_stats, s);
    }

    double per_locked() const
    {
        const uint64_t all = d_decoded + d_fail + d_lost;
        return all == 0 ? 0.0 : double(d_fail + d_lost) / double(all);
    }
    double goodput_locked() const
    {
        if (d_decoded + d_fail == 0)
            return 0.0;
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - d_first).count();
        return s > 0.0 ? double(d_payload_bits) / s : 0.0;
    }

public:
    explicit packet_counter_impl(const std::string& len_tag_key)
        : gr::sync_block("packet_counter",
                         gr::io_signature::make(1, 1, sizeof(uint8_t)),
                         gr::io_signature::make(0, 0, 0)),
          d_len_key(pmt::mp(len_tag_key))
    {
        message_port_register_out(d_pdus);
        message_port_register_out(d_stats);
    }

    uint64_t decoded() const override
    {
        std::lock_guard<std::mutex> l(d_mutex);
        return d_decoded;
    }
    uint64_t crc_fail() const override
    {
        std::lock_guard<std::mutex> l(d_mutex);
        return d_fail;
    }
    uint64_t lost() const override
    {
        std::lock_guard<std::mutex> l(d_mutex);
        return d_lost;
    }
    double per() const override
    {
        std::lock_guard<std::mutex> l(d_mutex);
        return per_locked();
    }
    double snr_db() const override
    {
        std::lock_guard<std::mutex> l(d_mutex);
        return d_estimates ? d_snr_sum / double(d_estimates) : std::numeric_limits<double>::quiet_NaN();
    }
    double cfo() const override
    {
        std::lock_guard<std::mutex> l(d_mutex);
        return d_estimates ? d_cfo_sum / double(d_estimates) : std::numeric_limits<double>::quiet_NaN();
    }
    double goodput_bps() const override
    {
        std::lock_guard<std::mutex> l(d_mutex);
        return goodput_locked();
    }

    int work(int noutput_items, gr_vector_const_void_star& input_items, gr_vector_void_star&) override
    {
        const auto* in = static_cast<const uint8_t*>(input_items[0]);
        const uint64_t first = nitems_read(0);
        std::vector<gr::tag_t> starts, here;
        get_tags_in_range(starts, 0, first, first + uint64_t(noutput_items), d_len_key);
        size_t s = 0;
        for (int i = 0; i < noutput_items;) {
            const uint64_t abs = first + uint64_t(i);
            while (s < starts.size() && starts[s].offset == abs) {
                if (d_need > 0)
                    d_logger->warn("packet cut short at item {} by the next one: not counted", abs);
                std::string why;
                const long long len = packet_length(d_len_key, starts[s].value, why);
                if (len < 0)
                    d_logger->warn("item {}: {}: packet not counted", abs, why);
                d_need = len < 0 ? 0 : size_t(len);
                d_bits.clear();
                get_tags_in_range(here, 0, abs, abs + 1);
                bool ok = false;
                for (const auto& t : here)
                    if (pmt::eqv(t.key, d_crc_key))
                        ok = pmt::is_true(t.value);
                d_ok = ok;
                d_snr = tag_double(here, d_snr_key, std::numeric_limits<double>::quiet_NaN());
                d_cfo = tag_double(here, d_cfo_key, std::numeric_limits<double>::quiet_NaN());
                s++;
            }
            // Up to the packet's end or the next packet's start.
            const uint64_t next = s < starts.size() ? starts[s].offset : first + uint64_t(noutput_items);
            const size_t n = size_t(std::min<uint64_t>(next - abs, d_need > 0 ? d_need : next - abs));
            if (d_need > 0) {
                d_bits.insert(d_bits.end(), in + i, in + i + n);
                d_need -= n;
                if (d_need == 0)
                    finish_packet();
            }
            i += int(n);
        }
        return noutput_items;
    }
};
} // namespace

packet_counter::sptr make_packet_counter(const packet_counter_params& p)
{
    return gnuradio::make_block_sptr<packet_counter_impl>(p.len_tag_key);
}

} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.mimo_fading_channel: the tapped-delay-line MIMO channel of
// lib/mimo/fading_channel.h on nt input and nr output sample streams, its
// true channel per fading block as PDUs on "H".
//
// The true channel is a message, not a stream port: a stream port of one
// fft_len * nr * nt item per block would be sized by GNU Radio for a few
// such items, and the scheduler gives a block no more output items per call
// than its fullest output has room for - a few samples per call.
#include "mimo_fading_channel_params.h"
#include <gnuradio/io_signature.h>

#include "mimo/fading_channel.h"

#include <algorithm>
#include <mutex>

namespace gr {
namespace gpurx {

namespace {

using core::mimo::fading_channel;

class mimo_fading_channel_impl final : public mimo_fading_channel
{
    fading_channel d_ch;
    mutable std::mutex d_mutex; // setters from other threads
    const pmt::pmt_t d_port = pmt::mp("H");
    const pmt::pmt_t d_tag_key = pmt::mp("fading_block");
    std::vector<const gr_complex*> d_in;
    std::vector<gr_complex*> d_out;

    void publish(const core::mimo::fading_block& fb)
    {
        const auto& c = d_ch.config();
        pmt::pmt_t meta = pmt::make_dict();
        meta = pmt::dict_add(meta, pmt::mp("block"), pmt::from_uint64(fb.index));
        meta = pmt::dict_add(meta, pmt::mp("offset"), pmt::from_uint64(fb.first_sample));
        meta = pmt::dict_add(meta, pmt::mp("nt"), pmt::from_long(c.nt));
        meta = pmt::dict_add(meta, pmt::mp("nr"), pmt::from_long(c.nr));
        meta = pmt::dict_add(meta, pmt::mp("fft_len"), pmt::from_long(c.fft_len));
        meta = pmt::dict_add(meta, pmt::mp("delays"), pmt::init_s32vector(d_ch.profile().delays.size(),
                                                                        d_ch.profile().delays.data()));
        meta = pmt::dict_add(meta, pmt::mp("taps"), pmt::init_c32vector(fb.taps.size(), fb.taps.data()));
        message_port_pub(d_port, pmt::cons(meta, pmt::init_c32vector(fb.freq_response.size(),
                                                                      fb.freq_response.data())));
    }

public:
    explicit mimo_fading_channel_impl(fading_channel&& ch)
        : gr::block("mimo_fading_channel",
                    gr::io_signature::make(ch.config().nt, ch.config().nt, sizeof(gr_complex)),
                    gr::io_signature::make(ch.config().nr, ch.config().nr, sizeof(gr_complex))),
          d_ch(std::move(ch)), d_in(size_t(d_ch.config().nt)), d_out(size_t(d_ch.config().nr))
    {
        message_port_register_out(d_port);
        // Every input's tags to every output, at the same offset (one sample
        // grid): GNU Radio's default for a rate-1 block.
        set_tag_propagation_policy(TPP_ALL_TO_ALL);
    }

    std::vector<int> tap_delays() const override { return d_ch.profile().delays; }
    std::vector<double> tap_powers() const override { return d_ch.profile().powers; }
    int lookahead() const override { return d_ch.lookahead(); }

    float noise_var() const override
    {
        std::lock_guard<std::mutex> l(d_mutex);
        return float(d_ch.config().noise_var);
    }
    void set_noise_var(float n0) override
    {
        std::lock_guard<std::mutex> l(d_mutex);
        d_ch.set_noise_var(n0);
    }
    double cfo() const override
    {
        std::lock_guard<std::mutex> l(d_mutex);
        return d_ch.config().cfo;
    }
    void set_cfo(double cfo) override
    {
        std::lock_guard<std::mutex> l(d_mutex);
        d_ch.set_cfo(cfo);
    }

    void forecast(int noutput_items, gr_vector_int& required) override
    {
        for (auto& r : required)
            r = noutput_items;
    }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        std::vector<core::mimo::fading_block> blocks;
        int m, count;
        {
            std::lock_guard<std::mutex> l(d_mutex);
            // Samples consumed but not output yet: lookahead() once running.
            const int pending = int(d_ch.consumed() - d_ch.produced());
            m = std::min(*std::min_element(ninput_items.begin(), ninput_items.end()),
                         noutput_items + d_ch.lookahead() - pending);
            if (m <= 0)
                return 0;
            for (size_t t = 0; t < d_in.size(); t++)
                d_in[t] = static_cast<const gr_complex*>(input_items[t]);
            for (size_t r = 0; r < d_out.size(); r++)
                d_out[r] = static_cast<gr_complex*>(output_items[r]);
            count = d_ch.process(d_in.data(), m, d_out.data());
            blocks = d_ch.take_new_blocks();
        }
        for (const auto& fb : blocks) {
            for (size_t r = 0; r < d_out.size(); r++)
                add_item_tag(int(r), fb.first_sample, d_tag_key, pmt::from_uint64(fb.index), alias_pmt());
            publish(fb);
        }
        consume_each(m);
        return count;
    }
};

} // namespace

mimo_fading_channel::sptr make_mimo_fading_channel(const mimo_fading_channel_params& p)
{
    core::mimo::fading_channel_config c;
    c.nt = p.nt;
    c.nr = p.nr;
    c.profile = p.profile;
    c.sample_rate = p.sample_rate;
    c.num_taps = p.num_taps;
    c.decay_db = p.decay_db;
    c.block_samples = p.block_samples;
    c.fft_len = p.fft_len;
    c.cfo = p.cfo;
    c.delay = p.delay;
    c.noise_var = p.noise_var;
    c.seed = p.seed;
    fading_channel ch(c); // throws, naming the parameter, before any block exists
    return gnuradio::make_block_sptr<mimo_fading_channel_impl>(std::move(ch));
}

} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.lte_turbo_fec_encoder: the LTE turbo encoder as a gr-fec encoder
// object.
#include "blocks/drivers/bit_bytes.h"
#include "blocks/drivers/size_log_once.h"
#include "turbo/lte_qpp.h"
#include "turbo/lte_turbo_encoder.h"
#include "lte_turbo_fec_encoder_params.h"

#include <algorithm>
#include <memory>

namespace gr {
namespace gpurx {

namespace {

// set_frame_size(): a valid K is taken; anything else is refused, keeping K.
// Logged at info level, as gr-fec's cc_decoder logs its own refusals, but
// once per size (size_log_once): the tagged and async deployments ask for
// every packet's size.
bool take_block_size(unsigned int frame_size,
                     int& K,
                     const gr::logger_ptr& logger,
                     size_log_once& said,
                     const char* who)
{
    if (frame_size <= unsigned(core::lte_max_K) && core::lte_valid_K(int(frame_size))) {
        K = int(frame_size);
        return true;
    }
    said.log(logger,
             frame_size,
             "{}: frame size {} is not an LTE block size (TS 36.212 Table 5.1.3-3); "
             "keeping K={} (said once per size)",
             who,
             frame_size,
             K);
    return false;
}

// fec.async_encoder(packed=True) packs get_output_size() / 8 bytes, rounded
// down, and 3K+12 is 4 bits past a byte boundary for every K (a multiple
// of 8): with pad_to_bytes the object writes 4 zero bits more, so that the
// PDU holds every coded bit.
constexpr int pad_bits = 4;

class lte_turbo_fec_encoder_impl final : public lte_turbo_fec_encoder
{
public:
    lte_turbo_fec_encoder_impl(int K, bool pad_to_bytes)
        : generic_encoder("lte_turbo_fec_encoder"),
          d_enc(std::make_unique<core::lte_turbo_encoder>(K)),
          d_pad(pad_to_bytes ? pad_bits : 0)
    {
    }

    double rate() override { return 3.0; }
    int get_input_size() override { return d_enc->K(); }
    int get_output_size() override { return d_enc->codeword_length() + d_pad; }
    bool set_frame_size(unsigned int frame_size) override
    {
        int K = d_enc->K();
        if (!take_block_size(frame_size, K, d_logger, d_refusals, "lte_turbo_fec_encoder"))
            return false;
        if (K != d_enc->K())
            d_enc = std::make_unique<core::lte_turbo_encoder>(K);
        return true;
    }

    void generic_work(void* in, void* out) override
    {
        const auto* bits = static_cast<const uint8_t*>(in);
        // gr-fec gives an object no way to tag or report: the log only.
        d_non_bits.frame(d_bits_in, non_bit_bytes(bits, size_t(d_enc->K())), d_logger);
        d_bits_in += uint64_t(d_enc->K());
        auto* coded = static_cast<uint8_t*>(out);
        d_enc->encode(bits, coded);
        std::fill_n(coded + d_enc->codeword_length(), d_pad, uint8_t(0));
    }

    int block_size() const override { return d_enc->K(); }

private:
    std::unique_ptr<core::lte_turbo_encoder> d_enc;
    const int d_pad; // zero bits after the codeword: pad_bits or 0
    size_log_once d_refusals;
    non_bit_log d_non_bits{ "frames", "gr-fec gives an encoder object no way to tag them" };
    uint64_t d_bits_in = 0; // bits encoded so far: the "input item" of the log lines
};

} // namespace

lte_turbo_fec_encoder::sptr make_lte_turbo_fec_encoder(const lte_turbo_fec_encoder_params& p)
{
    // core::lte_turbo_encoder names p.K
    return std::make_shared<lte_turbo_fec_encoder_impl>(p.K, p.pad_to_bytes);
}

} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.lte_turbo_fec_encoder: the LTE turbo encoder as a gr-fec encoder
// object.
#include "blocks/drivers/bit_bytes.h"
#include "turbo/lte_qpp.h"
#include "turbo/lte_turbo_encoder.h"
#include <gnuradio/gpurx/lte_turbo_fec_encoder.h>

#include <memory>

namespace gr {
namespace gpurx {

namespace {

// set_frame_size(): a valid K is taken; anything else is refused, keeping K.
// Logged at info level, as gr-fec's cc_decoder logs its own refusals: the
// tagged deployments ask for their MTU (e.g. 12000 bits) once at start.
bool take_block_size(unsigned int frame_size, int& K, const gr::logger_ptr& logger, const char* who)
{
    if (frame_size <= unsigned(core::lte_max_K) && core::lte_valid_K(int(frame_size))) {
        K = int(frame_size);
        return true;
    }
    logger->info("{}: frame size {} is not an LTE block size (TS 36.212 Table 5.1.3-3); "
                 "keeping K={}",
                 who, frame_size, K);
    return false;
}

class lte_turbo_fec_encoder_impl final : public lte_turbo_fec_encoder
{
public:
    explicit lte_turbo_fec_encoder_impl(int K)
        : generic_encoder("lte_turbo_fec_encoder"), d_enc(std::make_unique<core::lte_turbo_encoder>(K))
    {
    }

    double rate() override { return 3.0; }
    int get_input_size() override { return d_enc->K(); }
    int get_output_size() override { return d_enc->codeword_length(); }
    bool set_frame_size(unsigned int frame_size) override
    {
        int K = d_enc->K();
        if (!take_block_size(frame_size, K, d_logger, "lte_turbo_fec_encoder"))
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
        d_enc->encode(bits, static_cast<uint8_t*>(out));
    }

    int block_size() const override { return d_enc->K(); }

private:
    std::unique_ptr<core::lte_turbo_encoder> d_enc;
    non_bit_log d_non_bits{ "frames", "gr-fec gives an encoder object no way to tag them" };
    uint64_t d_bits_in = 0; // bits encoded so far: the "input item" of the log lines
};

} // namespace

lte_turbo_fec_encoder::sptr lte_turbo_fec_encoder::make(int K)
{
    return std::make_shared<lte_turbo_fec_encoder_impl>(K); // core::lte_turbo_encoder names K
}

} // namespace gpurx
} // namespace gr

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.viterbi_fec_decoder: the Viterbi family as a gr-fec decoder object,
// on the same adapter (implementations, checks) as viterbi_decoder, one
// frame per call.
#include "blocks/drivers/fec_frame_runner.h"
#include "blocks/viterbi/viterbi_adapter.h"
#include <gnuradio/gpurx/viterbi_fec_decoder.h>

namespace gr {
namespace gpurx {

namespace {

class viterbi_fec_decoder_impl final : public viterbi_fec_decoder
{
public:
    viterbi_fec_decoder_impl(int frame_bits,
                             const core::viterbi_config& cfg,
                             float llr_scale,
                             const std::string& backend)
        : generic_decoder("viterbi_fec_decoder"),
          d_max_frame_bits(frame_bits),
          d_frame_bits(frame_bits),
          d_n(int(cfg.polynomials.size())),
          d_tail(cfg.code().steps(1) - 1),
          d_scale(llr_scale),
          d_adapter(cfg, core::viterbi::INPUT_SOFT, frame_bits),
          d_runner(d_adapter, backend, d_logger)
    {
    }

    // 1/n, the tail left out as gr-fec's cc_decoder does: its tagged and
    // async deployments then find a terminated frame's length from a packet
    // (round(coded / n) - (K - 1)).
    double rate() override { return 1.0 / d_n; }
    int get_input_size() override
    {
        d_request.input_size_read();
        if (d_request.rejected()) // keeps rate() x input - output = the tail, as gr-fec reads it
            return d_n * (d_request.rejected_bits() + d_tail);
        return int(d_adapter.items_for(d_frame_bits));
    }
    int get_output_size() override
    {
        d_request.output_size_read();
        return d_request.rejected() ? d_request.rejected_bits() : d_frame_bits;
    }
    bool set_frame_size(unsigned int frame_size) override
    {
        const bool tail_off = d_request.begin_request();
        const long long f = fec_frame_request::signed_size(frame_size);
        if (f < 0) {
            d_logger->warn("viterbi_fec_decoder: frame size {} is no frame's: refused, keeping {} "
                           "(gr-fec's async decoder then outputs an empty PDU for an empty one, "
                           "and stops its thread on any other)",
                           fec_frame_request::describe(frame_size), d_frame_bits);
            return false;
        }
        if (f >= min_frame_bits() && f <= d_max_frame_bits) {
            d_frame_bits = int(f);
            return true;
        }
        if (f > d_max_frame_bits && !tail_off) {
            // As gr-fec's cc_decoder: the constructed size is the largest (it
            // bounds the pipeline's staging); larger requests are clamped.
            // (GNU Radio 3.10.5's tagged decoder asks for a terminated
            // frame's size with its K-1 tail steps.)
            d_logger->info("viterbi_fec_decoder: frame size {} is larger than frame_bits={} given "
                           "at construction; using {}",
                           f, d_max_frame_bits, d_max_frame_bits);
            d_frame_bits = d_max_frame_bits;
            return false;
        }
        // A packet whose frame would be shorter than the code takes, or (both
        // sizes read: the async decoder took the tail off) longer than the
        // largest frame: several frames, or one with extra values. Not taken
        // apart, not clamped.
        std::string why = "gr-fec asked for frame size " + std::to_string(f) + ", from a packet of about " +
                          std::to_string(d_n * (f + (tail_off ? d_tail : 0))) + " values; this decoder takes " +
                          std::to_string(min_frame_bits()) + ".." + std::to_string(d_max_frame_bits) +
                          " bits (frame_bits), one frame per packet";
        d_logger->info("viterbi_fec_decoder: {}; a frame of this size comes out as zeros", why);
        d_request.reject(f, (0x7fffffffLL / d_n) - d_tail, std::move(why));
        return true;
    }

    void generic_work(void* in, void* out) override
    {
        d_request.frame_done();
        if (d_request.rejected()) {
            d_runner.reject_frame(d_request.why(), static_cast<uint8_t*>(out),
                                  size_t(d_request.rejected_bits()));
            return;
        }
        d_runner.run(static_cast<const float*>(in),
                     d_adapter.items_for(d_frame_bits),
                     d_scale,
                     static_cast<uint8_t*>(out),
                     size_t(d_frame_bits));
    }

    int frame_bits() const override { return d_frame_bits; }
    float llr_scale() const override { return d_scale; }
    std::string backend() const override { return d_runner.backend_name(); }

private:
    int min_frame_bits() const { return d_adapter.min_frame_bits(); }

    const int d_max_frame_bits;
    int d_frame_bits;
    const int d_n;
    const int d_tail; // the K-1 tail steps of a terminated code, else 0
    const float d_scale;
    const viterbi_adapter d_adapter; // before d_runner, which holds a reference to it
    fec_frame_runner d_runner;
    fec_frame_request d_request;
};

} // namespace

viterbi_fec_decoder::sptr viterbi_fec_decoder::make(int frame_bits,
                                                    int K,
                                                    const std::vector<int>& polys,
                                                    const std::string& termination,
                                                    bool gr_fec_order,
                                                    int chunk,
                                                    float llr_scale,
                                                    const std::string& backend)
{
    // No puncture parameter: gr-fec punctures around the decoder (puncpat).
    const auto cfg = make_viterbi_config(K, polys, termination, chunk, {}, gr_fec_order);
    cfg.code().check_frame_bits(frame_bits); // throws, naming frame_bits
    check_llr_scale(llr_scale);
    return std::make_shared<viterbi_fec_decoder_impl>(frame_bits, cfg, llr_scale, backend);
}

} // namespace gpurx
} // namespace gr

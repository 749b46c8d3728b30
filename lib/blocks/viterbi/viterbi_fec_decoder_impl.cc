/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// gpurx.viterbi_fec_decoder: the Viterbi family as a gr-fec decoder object,
// on the same adapter (implementations, checks) as viterbi_decoder, one
// frame per call.
#include "blocks/drivers/fec_decoder_object.h"
#include "blocks/drivers/size_log_once.h"
#include "blocks/viterbi/viterbi_adapter.h"
#include "viterbi_fec_decoder_params.h"

namespace gr {
namespace gpurx {

namespace {

// The convolutional code's sizes for gr-fec: frames of min..frame_bits bits
// (the constructed size the largest: it bounds the pipeline's staging).
class viterbi_fec_code
{
public:
    static constexpr const char* name = "viterbi_fec_decoder";
    static constexpr const char* frame = "frame";
    using adapter_type = viterbi_adapter;

    viterbi_fec_code(int frame_bits, const core::viterbi_config& cfg)
        : d_max_frame_bits(frame_bits),
          d_frame_bits(frame_bits),
          d_n(int(cfg.polynomials.size())),
          d_tail(cfg.code().steps(1) - 1)
    {
    }

    // 1/n, the tail left out as gr-fec's cc_decoder does: its tagged and
    // async deployments then find a terminated frame's length from a packet
    // (round(coded / n) - (K - 1)).
    double rate() const { return 1.0 / d_n; }
    size_t input_values(const viterbi_adapter& a) const { return a.items_for(d_frame_bits); }
    int output_bits() const { return d_frame_bits; }
    int rejected_input_values(int bits) const { return d_n * (bits + d_tail); }
    std::string kept() const { return std::to_string(d_frame_bits); }
    long long max_reported_bits() const { return (0x7fffffffLL / d_n) - d_tail; }

    fec_size take(long long f, bool tail_off, const viterbi_adapter& a, const gr::logger_ptr& logger, std::string& why)
    {
        if (f >= a.min_frame_bits() && f <= d_max_frame_bits) {
            d_frame_bits = int(f);
            return fec_size::taken;
        }
        if (f > d_max_frame_bits && !tail_off) {
            // As gr-fec's cc_decoder: the constructed size is the largest (it
            // bounds the pipeline's staging); larger requests are clamped.
            // (GNU Radio 3.10.5's tagged decoder asks for a terminated
            // frame's size with its K-1 tail steps.)
            // Once per size: the tagged deployment asks for every packet's.
            d_clamps.log(logger,
                         f,
                         "viterbi_fec_decoder: frame size {} is larger than frame_bits={} given "
                         "at construction; using {} (said once per size)",
                         f,
                         d_max_frame_bits,
                         d_max_frame_bits);
            d_frame_bits = d_max_frame_bits;
            return fec_size::refused;
        }
        // A packet whose frame would be shorter than the code takes, or (both
        // sizes read: the async decoder took the tail off) longer than the
        // largest frame: several frames, or one with extra values. Not taken
        // apart, not clamped.
        why = "gr-fec asked for frame size " + std::to_string(f) + ", from a packet of about " +
              std::to_string(d_n * (f + (tail_off ? d_tail : 0))) + " values; this decoder takes " +
              std::to_string(a.min_frame_bits()) + ".." + std::to_string(d_max_frame_bits) +
              " bits (frame_bits), one frame per packet";
        return fec_size::rejected;
    }

    void decoded(const core::completed_frame&) {}
    void rejected() {}

private:
    const int d_max_frame_bits;
    int d_frame_bits;
    const int d_n;
    const int d_tail; // the K-1 tail steps of a terminated code, else 0
    size_log_once d_clamps;
};

class viterbi_fec_decoder_impl final : public fec_decoder_object<viterbi_fec_decoder, viterbi_fec_code>
{
public:
    viterbi_fec_decoder_impl(int frame_bits,
                             const core::viterbi_config& cfg,
                             float llr_scale,
                             const std::string& backend,
                             fec_soft_input input)
        : generic_decoder("viterbi_fec_decoder"),
          fec_decoder_object(viterbi_fec_code(frame_bits, cfg),
                             viterbi_adapter(cfg, core::viterbi::INPUT_SOFT, frame_bits),
                             llr_scale,
                             backend,
                             input)
    {
    }

    int frame_bits() const override { return d_code.output_bits(); }
};

} // namespace

viterbi_fec_decoder::sptr make_viterbi_fec_decoder(const viterbi_fec_decoder_params& p)
{
    // No puncture parameter: gr-fec punctures around the decoder (puncpat).
    const auto cfg = make_viterbi_config(p.K, p.polys, p.termination, p.chunk, {}, p.gr_fec_order);
    cfg.code().check_frame_bits(p.frame_bits); // throws, naming frame_bits
    check_llr_scale(p.llr_scale);
    const fec_soft_input input = parse_input_conversion(p.input_conversion);
    return std::make_shared<viterbi_fec_decoder_impl>(p.frame_bits, cfg, p.llr_scale, p.backend, input);
}

} // namespace gpurx
} // namespace gr

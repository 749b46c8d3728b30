/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The gr-fec deployment, shared by every family with a gr-fec decoder
// object: gr-fec's size negotiation (fec_frame_request), the refusal of
// sizes that are no frame of the code, and one frame per generic_work()
// through the family's adapter (fec_frame_runner). A family supplies its
// Code: its rate and sizes, which frame sizes it takes, and what it reads
// from a decoded frame.
#ifndef INCLUDED_GPURX_BLOCKS_FEC_DECODER_OBJECT_H
#define INCLUDED_GPURX_BLOCKS_FEC_DECODER_OBJECT_H

#include "blocks/drivers/fec_frame_runner.h"
#include "blocks/drivers/fec_soft_input.h"
#include "blocks/drivers/size_log_once.h"

#include <string>

namespace gr {
namespace gpurx {

//! What a Code makes of a frame size gr-fec asks for (fec_frame_request).
enum class fec_size {
    taken,    //!< the code decodes frames of that size from now on (true)
    refused,  //!< set_frame_size() answers false; the size in use stays
    rejected, //!< no frame of the code: frames come out as zeros (true)
};

/*!
 * A gr-fec decoder object: Public is the family's public interface (a
 * gr::fec::generic_decoder), Code a class that provides
 *
 *   static constexpr const char* name;   // the object's name, for the log
 *   static constexpr const char* frame;  // "codeword" or "frame", for the log
 *   using adapter_type = ...;            // the family's frame_adapter
 *   double rate() const;                 // gr-fec's rate: the tail left out
 *   size_t input_values(const adapter_type&) const; // values of a frame
 *   int output_bits() const;             // bits of a frame
 *   int rejected_input_values(int bits) const; // get_input_size() for a refused size
 *   std::string kept() const;            // the size in use, for the log ("K=40")
 *   fec_size take(long long size, bool tail_off, const adapter_type&,
 *                 const gr::logger_ptr&, std::string& why);
 *   long long max_reported_bits() const; // a refused size reported up to this
 *   void decoded(const core::completed_frame&); // a frame left the pipeline
 *   void rejected();                     // a frame came out as zeros
 *
 * Not final: the family's class adds its own accessors, and, as the most
 * derived class, constructs generic_decoder (a virtual base) with its name.
 */
template <typename Public, typename Code>
class fec_decoder_object : public Public
{
protected:
    fec_decoder_object(Code code,
                       typename Code::adapter_type adapter,
                       float llr_scale,
                       const std::string& backend,
                       fec_soft_input input)
        : d_code(std::move(code)),
          d_scale(llr_scale),
          d_input(input),
          d_adapter(std::move(adapter)),
          d_runner(d_adapter, backend, this->d_logger)
    {
    }

public:
    double rate() override { return d_code.rate(); }

    // What gr-fec's deployments convert the float stream to before the
    // object (fec_soft_input.h): their puncturing needs bytes.
    const char* get_input_conversion() override
    {
        return d_input == fec_soft_input::uchar ? "uchar" : "none";
    }
    float get_shift() override { return d_input == fec_soft_input::uchar ? fec_uchar_shift : 0.0f; }
    int get_input_item_size() override
    {
        return d_input == fec_soft_input::uchar ? int(sizeof(uint8_t)) : int(sizeof(float));
    }

    int get_input_size() override
    {
        d_request.input_size_read();
        if (d_request.rejected()) // keeps rate() x input - output = the tail, as gr-fec reads it
            return d_code.rejected_input_values(d_request.rejected_bits());
        return int(d_code.input_values(d_adapter));
    }
    int get_output_size() override
    {
        d_request.output_size_read();
        return d_request.rejected() ? d_request.rejected_bits() : d_code.output_bits();
    }
    bool set_frame_size(unsigned int frame_size) override
    {
        const bool tail_off = d_request.begin_request();
        const long long f = fec_frame_request::signed_size(frame_size);
        if (f < 0) {
            this->d_logger->warn("{}: frame size {} is no {}'s: refused, keeping {} (gr-fec's async "
                                 "decoder then outputs an empty PDU for an empty one, and stops its "
                                 "thread on any other)",
                                 Code::name, fec_frame_request::describe(frame_size), Code::frame,
                                 d_code.kept());
            return false;
        }
        std::string why;
        switch (d_code.take(f, tail_off, d_adapter, this->d_logger, why)) {
        case fec_size::taken:
            return true;
        case fec_size::refused:
            return false;
        case fec_size::rejected:
            break;
        }
        // Info level, as gr-fec's cc_decoder logs its refusals (the tagged
        // deployments ask for their MTU, e.g. 12000 bits, once at start), and
        // once per size: the tagged and async deployments ask for every
        // packet's size. Each frame decoded at that size is warned about
        // (generic_work()): that one loses data.
        d_refusals.log(this->d_logger,
                       f,
                       "{}: {}; a frame of this size comes out as zeros (said once per size)",
                       Code::name,
                       why);
        d_request.reject(f, d_code.max_reported_bits(), std::move(why));
        return true;
    }

    void generic_work(void* in, void* out) override
    {
        d_request.frame_done();
        if (d_request.rejected()) {
            d_code.rejected();
            d_runner.reject_frame(d_request.why(), static_cast<uint8_t*>(out),
                                  size_t(d_request.rejected_bits()));
            return;
        }
        const size_t n = d_code.input_values(d_adapter);
        const float* values = d_input == fec_soft_input::uchar
                                  ? fec_uchar_to_float(static_cast<const uint8_t*>(in), n, d_from_uchar)
                                  : static_cast<const float*>(in);
        d_runner.run(values,
                     n,
                     d_scale,
                     static_cast<uint8_t*>(out),
                     size_t(d_code.output_bits()),
                     [this](const core::completed_frame& f) { d_code.decoded(f); });
    }

    float llr_scale() const override { return d_scale; }
    std::string backend() const override { return d_runner.backend_name(); }

protected:
    Code d_code;
    const float d_scale;
    const fec_soft_input d_input;
    std::vector<float> d_from_uchar; // a uchar frame's float values
    const typename Code::adapter_type d_adapter; // before d_runner, which holds a reference to it
    fec_frame_runner d_runner;
    fec_frame_request d_request;
    size_log_once d_refusals;
};

} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// Bytes that carry unpacked bits (the turbo encoders, qam_mapper). Each
// byte's low bit is the bit, as in GNU Radio's unpacked-bit blocks
// (unpacked_to_packed takes the low bits). A byte other than 0 and 1 is no
// bit: the blocks still take its low bit, and report it - a "gpurx_error"
// tag or an "errors" message per frame, and a log line at the start of each
// run of such frames and one, with its size, at its end.
#ifndef INCLUDED_GPURX_BLOCKS_BIT_BYTES_H
#define INCLUDED_GPURX_BLOCKS_BIT_BYTES_H

#include <gnuradio/logger.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace gr {
namespace gpurx {

//! Bytes of b[0..n) that are not 0 or 1.
inline size_t non_bit_bytes(const uint8_t* b, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += b[i] > 1;
    return c;
}

//! What a frame with non-bit bytes is told, in its tag or message.
inline std::string non_bit_reason(size_t bad, size_t n)
{
    return std::to_string(bad) + " of the " + std::to_string(n) +
           " input bytes are not 0 or 1: each byte's low bit was taken as its bit";
}

//! Logs runs of frames with non-bit bytes: at a run's start, and with its
//! size at its end (a clean frame, or end()).
class non_bit_log
{
public:
    //! \p frames: what a frame is ("symbols"); \p how: how each is
    //! reported besides the log ("each tagged gpurx_error").
    non_bit_log(const char* frames, const char* how) : d_what(frames), d_how(how) {}

    //! A frame starting at input item \p at, with \p bad non-bit bytes.
    void frame(uint64_t at, size_t bad, const gr::logger_ptr& log)
    {
        if (bad == 0) {
            end(log);
            return;
        }
        if (d_frames == 0) {
            d_start = at;
            log->warn("input item {}: bytes that are not 0 or 1 (unpacked bits) from here on: each "
                      "byte's low bit is taken as its bit ({})",
                      at, d_how);
        }
        d_frames++;
        d_bytes += bad;
    }
    //! Ends a run (a clean frame, or the block's stop()).
    void end(const gr::logger_ptr& log)
    {
        if (d_frames == 0)
            return;
        log->warn("{} {} from input item {} on held {} byte(s) that are not 0 or 1", d_frames, d_what,
                  d_start, d_bytes);
        d_frames = d_bytes = 0;
    }

private:
    const char* d_what;
    const char* d_how;
    uint64_t d_frames = 0, d_bytes = 0, d_start = 0;
};

} // namespace gpurx
} // namespace gr

#endif

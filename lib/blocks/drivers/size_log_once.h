/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// A gr-fec object's set_frame_size() messages, once per size. gr-fec's
// tagged and async deployments call set_frame_size() for every packet, so a
// stream of packets of one size the object refuses would log the same line
// per packet. The sizes remembered are bounded (a deployment can ask for
// any size): past max_sizes distinct ones, a new size's message goes to the
// trace level instead, every time (Debian ships GNU Radio logging debug to stdout).
#ifndef INCLUDED_GPURX_BLOCKS_SIZE_LOG_ONCE_H
#define INCLUDED_GPURX_BLOCKS_SIZE_LOG_ONCE_H

#include <cstddef>
#include <set>

namespace gr {
namespace gpurx {

class size_log_once
{
public:
    enum class level { info, trace, none };

    static constexpr size_t max_sizes = 64;

    //! The level for a message about \p size: info the first time, none after.
    level for_size(long long size)
    {
        if (d_seen.count(size))
            return level::none;
        if (d_seen.size() >= max_sizes)
            return level::trace;
        d_seen.insert(size);
        return level::info;
    }

    //! Logs \p args on \p logger at for_size(\p size)'s level.
    template <typename Logger, typename... Args>
    void log(const Logger& logger, long long size, const Args&... args)
    {
        switch (for_size(size)) {
        case level::info:
            logger->info(args...);
            break;
        case level::trace:
            logger->trace(args...);
            break;
        case level::none:
            break;
        }
    }

private:
    std::set<long long> d_seen;
};

} // namespace gpurx
} // namespace gr

#endif

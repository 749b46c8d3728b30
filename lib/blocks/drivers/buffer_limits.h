/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// GNU Radio 3.10 records the size of each output buffer it allocates as the
// block's max_output_buffer, and when a flowgraph runs again (tb.start()
// after tb.stop() and tb.wait(), or tb.run() twice) that limit takes
// precedence over min_output_buffer: a buffer sized for several frames comes
// back at the default 64 KiB (four 2048-point symbols), and neighbours that
// had frames in flight run by turns. A block that needs its buffers calls
// restore() from check_topology(), which runs before every allocation: the
// limits set before the first run are put back on every output port.
#ifndef INCLUDED_GPURX_BLOCKS_BUFFER_LIMITS_H
#define INCLUDED_GPURX_BLOCKS_BUFFER_LIMITS_H

#include <gnuradio/block.h>
#include <vector>

namespace gr {
namespace gpurx {

class output_buffer_limits
{
public:
    void restore(gr::block& b, int noutputs)
    {
        if (!d_saved) {
            d_limits.assign(size_t(noutputs), -1);
            for (int i = 0; i < noutputs; i++) {
                b.expand_minmax_buffer(i);
                d_limits[size_t(i)] = b.max_output_buffer(i);
            }
            d_saved = true;
            return;
        }
        for (int i = 0; i < noutputs && size_t(i) < d_limits.size(); i++) {
            b.expand_minmax_buffer(i);
            b.set_max_output_buffer(i, d_limits[size_t(i)]);
        }
    }

private:
    std::vector<long> d_limits;
    bool d_saved = false;
};

} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The app's view of 36.213's tables: the library's (lib/lte/tables, tested
// there against the specification and generated captures), limited to what
// gpurx-lte-ber takes (MCS 0..28 of Table 7.1.7.1-1, one layer), with the
// app's option names in its errors.
#include "lte_ber_tables.h"
#include "lte/tables/tables.h"

#include <stdexcept>
#include <string>

namespace gr {
namespace gpurx {
namespace apps {
namespace lte {

mcs_entry pdsch_mcs(int mcs)
{
    if (mcs < 0 || mcs > MAX_MCS)
        throw std::invalid_argument("mcs=" + std::to_string(mcs) + ": must be in 0.." + std::to_string(MAX_MCS) +
                                    " (29..31 carry no TBS)");
    const auto e = core::lte::pdsch_mcs(mcs);
    return { e.qm, e.itbs };
}

int tbs_of(int itbs, int nprb)
{
    if (itbs < 0 || itbs > MAX_ITBS)
        throw std::invalid_argument("itbs=" + std::to_string(itbs) + ": must be in 0.." + std::to_string(MAX_ITBS));
    if (nprb < 1 || nprb > MAX_PRB)
        throw std::invalid_argument("prb=" + std::to_string(nprb) + ": must be in 1.." + std::to_string(MAX_PRB));
    return core::lte::tbs_of(itbs, nprb);
}

} // namespace lte
} // namespace apps
} // namespace gpurx
} // namespace gr

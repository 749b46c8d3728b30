/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "families.h"
#include "copy/copy_kernel.h"
#include "idd/idd_implementations.h"
#include "mimo/mimo_implementations.h"
#include "ofdm/chanest_implementations.h"
#include "sch/sch_implementations.h"
#include "turbo/turbo_implementations.h"
#include "viterbi/viterbi_implementations.h"
#include "viterbi/viterbi_stream_implementations.h"

namespace gr {
namespace gpurx {
namespace core {

std::vector<family_listing> all_families()
{
    return { turbo_listing(), viterbi_listing(), viterbi_stream_listing(), mimo_listing(), sch_listing(),
             idd_listing(), chanest_listing(), copy_listing() };
}

} // namespace core
} // namespace gpurx
} // namespace gr

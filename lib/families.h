/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// The one place that names every family: the module-wide listing of
// implementations, for gpurx-info and the agreement test. A new family adds
// its listing here.
#ifndef INCLUDED_GPURX_FAMILIES_H
#define INCLUDED_GPURX_FAMILIES_H

#include "pipeline/implementation.h"
#include <vector>

namespace gr {
namespace gpurx {
namespace core {

std::vector<family_listing> all_families();

} // namespace core
} // namespace gpurx
} // namespace gr

#endif

/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
// ZMQ endpoints checked where they are given (python/gpurx/scale_out.py
// check_endpoint): ZMQ's own check is loose and its errors name no endpoint.
#ifndef INCLUDED_GPURX_SCALE_OUT_ENDPOINT_H
#define INCLUDED_GPURX_SCALE_OUT_ENDPOINT_H

#include <string>

namespace gr {
namespace gpurx {
namespace scale_out {

extern const char* const endpoint_form;

//! What is wrong with endpoint as a ZMQ endpoint this side binds (bind) or
//! connects to; "" when nothing.
std::string endpoint_problem(const std::string& endpoint, bool bind);

//! std::invalid_argument "<who>: <param> '<endpoint>' is not a ZMQ
//! endpoint: <why> (<form>)" when it is not one.
void check_endpoint(const std::string& who,
                    const std::string& param,
                    const std::string& endpoint,
                    bool bind = false);

} // namespace scale_out
} // namespace gpurx
} // namespace gr

#endif

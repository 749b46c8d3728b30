/*
 * Copyright 2026 gr-gpurx authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <pybind11/pybind11.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

namespace py = pybind11;

// bind_generated_families(): the families described in lib/blocks/*/*.api.yml
// (their bindings are generated into the build tree).
#include "generated_bindings.h"

// BINDING_FUNCTION_PROTOTYPES(
void bind_pipeline_options(py::module& m);
void bind_runtime_info(py::module& m);
// ) END BINDING_FUNCTION_PROTOTYPES

// import_array() returns NULL on newer Pythons, hence the wrapper.
void* init_numpy()
{
    import_array();
    return NULL;
}

PYBIND11_MODULE(gpurx_python, m)
{
    init_numpy();
    // Base block classes must be registered before ours.
    py::module::import("gnuradio.gr");
    // And gr-fec's generic_decoder / generic_encoder, the bases of the
    // gr-fec coder objects.
    py::module::import("gnuradio.fec");

    // BINDING_FUNCTION_CALLS(
    bind_pipeline_options(m);
    bind_runtime_info(m);
    // ) END BINDING_FUNCTION_CALLS
    bind_generated_families(m);
}

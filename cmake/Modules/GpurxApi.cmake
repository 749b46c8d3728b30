# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The public API of the families described once in lib/blocks/*/*.api.yml
# (docs/architecture.md, "Public API: one description per family"):
# scripts/gen-block-api.py writes their public headers, make()s and Python
# bindings into ${GPURX_API_DIR} (the build tree), at configure time and
# again whenever a description or the generator changes. Then:
#   GPURX_API_HEADERS   include/gnuradio/gpurx/*.h (installed, Doxygen)
#   GPURX_API_IMPLS     lib/*_impl.cc (sources of gnuradio-gpurx)
#   GPURX_API_BINDINGS  python/*_python.cc (sources of gpurx_python)
#   target gpurx_api    what every target using them depends on
# Their GRC blocks are committed in grc/; the test api_generated_grc fails
# when those differ from the descriptions.

set(GPURX_API_DIR ${PROJECT_BINARY_DIR}/gpurx_api)
set(GPURX_API_GENERATOR ${PROJECT_SOURCE_DIR}/scripts/gen-block-api.py)
file(GLOB GPURX_API_DESCRIPTIONS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/lib/blocks/*/*.api.yml)
set(GPURX_API_INPUTS ${GPURX_API_GENERATOR} ${GPURX_API_DESCRIPTIONS}
    ${PROJECT_SOURCE_DIR}/lib/blocks/drivers/deployments.yml)
# A new deployment in a description is a new file: configure again.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${GPURX_API_INPUTS})

execute_process(
    COMMAND ${PYTHON_EXECUTABLE} ${GPURX_API_GENERATOR} --list-outputs ${GPURX_API_DIR} ${GPURX_API_DESCRIPTIONS}
    OUTPUT_VARIABLE GPURX_API_OUTPUTS OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "scripts/gen-block-api.py could not read the API descriptions")
endif()
execute_process(
    COMMAND ${PYTHON_EXECUTABLE} ${GPURX_API_GENERATOR} --out ${GPURX_API_DIR} ${GPURX_API_DESCRIPTIONS}
    RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "scripts/gen-block-api.py failed")
endif()

set(GPURX_API_HEADERS "")
set(GPURX_API_IMPLS "")
set(GPURX_API_BINDINGS "")
foreach(f ${GPURX_API_OUTPUTS})
    if(f MATCHES "/include/gnuradio/gpurx/[^/]+\\.h$")
        list(APPEND GPURX_API_HEADERS ${f})
    elseif(f MATCHES "_(impl|make)\\.cc$")
        list(APPEND GPURX_API_IMPLS ${f})
    elseif(f MATCHES "_python\\.cc$")
        list(APPEND GPURX_API_BINDINGS ${f})
    endif()
endforeach()

# The generator writes a file only when its text changes, so an edit
# recompiles what it changed; the stamp says when it last ran.
add_custom_command(
    OUTPUT ${GPURX_API_DIR}/stamp
    BYPRODUCTS ${GPURX_API_OUTPUTS}
    COMMAND ${PYTHON_EXECUTABLE} ${GPURX_API_GENERATOR} --out ${GPURX_API_DIR} ${GPURX_API_DESCRIPTIONS}
    COMMAND ${CMAKE_COMMAND} -E touch ${GPURX_API_DIR}/stamp
    DEPENDS ${GPURX_API_INPUTS}
    COMMENT "Generating the public API of the described families (scripts/gen-block-api.py)")
add_custom_target(gpurx_api DEPENDS ${GPURX_API_DIR}/stamp)

# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# gpurx_cuda_object_via_hopper_ptx(<target> <source>...)
#
# Compiles CUDA sources into an OBJECT library for CMAKE_CUDA_ARCHITECTURES,
# except that Blackwell and later targets (sm_100 and up) get machine code
# assembled from compute_90 PTX instead of their own, and a virtual target of
# 100 or above embeds compute_90 PTX (later GPUs compile it at load, as they
# would their own).
#
# Why: for the fixed-point turbo kernel, NVVM's compute_100/compute_120 PTX
# makes ptxas spill 1.7 KB per thread (0.7 KB after the register diet of the
# same change), while ptxas for sm_100/sm_120 assembles the compute_90 PTX of
# the same source with no spill at all. Nothing in that kernel needs a
# Blackwell PTX feature. Measured per kernel in
# docs/results/ptxas_default_architectures.md.
#
# Values CMake resolves itself ("all", "all-major", "native") are passed on
# unchanged. The caller adds the objects to its library and gives the
# include directories and compile options the sources need.
function(gpurx_cuda_object_via_hopper_ptx target)
    add_library(${target} OBJECT ${ARGN})
    set(own "")
    set(via90 "")
    set(ptx90 OFF)
    foreach(a IN LISTS CMAKE_CUDA_ARCHITECTURES)
        if(a MATCHES "^([0-9]+)([af]?)(-real|-virtual)?$" AND CMAKE_MATCH_1 GREATER_EQUAL 100)
            set(real "sm_${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
            if(CMAKE_MATCH_3 STREQUAL "-real")
                list(APPEND via90 "--generate-code=arch=compute_90,code=[${real}]")
            elseif(CMAKE_MATCH_3 STREQUAL "-virtual")
                set(ptx90 ON)
            else()
                list(APPEND via90 "--generate-code=arch=compute_90,code=[${real}]")
                set(ptx90 ON)
            endif()
        else()
            list(APPEND own "${a}")
        endif()
    endforeach()
    # compute_90 PTX once: not again when the list already embeds it.
    if(ptx90 AND NOT ("90-virtual" IN_LIST own OR "90" IN_LIST own))
        list(APPEND via90 "--generate-code=arch=compute_90,code=[compute_90]")
    endif()
    if(own)
        set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${own}")
    else()
        # Only Blackwell-or-later targets: every code comes from the flags below.
        set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES OFF)
    endif()
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${via90}>)
    if(via90)
        string(REPLACE ";" " " shown "${via90}")
        message(STATUS "gr-gpurx: ${target}: Blackwell code from compute_90 PTX: ${shown}")
    endif()
endfunction()

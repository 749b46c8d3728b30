# Copyright 2026 gr-gpurx authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# gpurx_install_rpath(<target> <install dir of the target, relative to the prefix or absolute>)
#
# Gives an installed binary a RUNPATH of $ORIGIN/<path to GR_LIBRARY_DIR>, so
# that the Python module and the apps find libgnuradio-gpurx in any prefix
# (/usr/local, ~/prefix, a tree carried to another machine) without
# LD_LIBRARY_PATH. Relative to $ORIGIN, the tree stays relocatable. Nothing is
# set when the library goes to a directory the linker searches anyway
# (/usr/lib/x86_64-linux-gnu for a /usr prefix), as Debian's policy asks.
include_guard(GLOBAL)

function(gpurx_install_rpath target install_dir)
    set(libdir "${CMAKE_INSTALL_PREFIX}/${GR_LIBRARY_DIR}")
    foreach(sys IN LISTS CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES CMAKE_PLATFORM_IMPLICIT_LINK_DIRECTORIES)
        get_filename_component(sys "${sys}" REALPATH)
        get_filename_component(lib "${libdir}" REALPATH)
        if(sys STREQUAL lib)
            return()
        endif()
    endforeach()
    if(NOT IS_ABSOLUTE "${install_dir}")
        set(install_dir "${CMAKE_INSTALL_PREFIX}/${install_dir}")
    endif()
    file(RELATIVE_PATH rel "${install_dir}" "${libdir}")
    set_target_properties(${target} PROPERTIES INSTALL_RPATH "$ORIGIN/${rel}")
endfunction()

find_package(PkgConfig)

PKG_CHECK_MODULES(PC_GR_GPURX gnuradio-gpurx)

FIND_PATH(
    GR_GPURX_INCLUDE_DIRS
    NAMES gnuradio/gpurx/api.h
    HINTS $ENV{GPURX_DIR}/include
        ${PC_GPURX_INCLUDEDIR}
    PATHS ${CMAKE_INSTALL_PREFIX}/include
          /usr/local/include
          /usr/include
)

FIND_LIBRARY(
    GR_GPURX_LIBRARIES
    NAMES gnuradio-gpurx
    HINTS $ENV{GPURX_DIR}/lib
        ${PC_GPURX_LIBDIR}
    PATHS ${CMAKE_INSTALL_PREFIX}/lib
          ${CMAKE_INSTALL_PREFIX}/lib64
          /usr/local/lib
          /usr/local/lib64
          /usr/lib
          /usr/lib64
          )

include("${CMAKE_CURRENT_LIST_DIR}/gnuradio-gpurxTarget.cmake")

INCLUDE(FindPackageHandleStandardArgs)
FIND_PACKAGE_HANDLE_STANDARD_ARGS(GR_GPURX DEFAULT_MSG GR_GPURX_LIBRARIES GR_GPURX_INCLUDE_DIRS)
MARK_AS_ADVANCED(GR_GPURX_LIBRARIES GR_GPURX_INCLUDE_DIRS)

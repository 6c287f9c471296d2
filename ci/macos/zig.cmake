# zig.cmake: the CMake toolchain file for cross-building Semaprax and its
# dependencies for macOS on Debian, with Zig 0.11's clang and its bundled
# macOS SDK headers and libSystem stubs (ci/test-macos). SPX_MACOS_ARCH picks
# the architecture: aarch64 (Apple silicon, the default) or x86_64.
# ci/test-macos installs Zig (npm ci of ci/macos/package-lock.json) and writes
# the compiler wrappers this file names into build/macos-tools/bin: each is
# `zig cc -target <arch>-macos` (ar and ranlib: `zig ar`, `zig ranlib`) with
# Zig's caches under build/, since Zig needs a writable cache folder.
# The binaries cannot run on Linux: no test is run (no emulator is set).
set(CMAKE_SYSTEM_NAME Darwin)
if(NOT SPX_MACOS_ARCH)
  set(SPX_MACOS_ARCH aarch64)
endif()
if(SPX_MACOS_ARCH STREQUAL "aarch64")
  set(CMAKE_SYSTEM_PROCESSOR arm64)
elseif(SPX_MACOS_ARCH STREQUAL "x86_64")
  set(CMAKE_SYSTEM_PROCESSOR x86_64)
else()
  message(FATAL_ERROR "SPX_MACOS_ARCH must be aarch64 or x86_64, not '${SPX_MACOS_ARCH}'")
endif()
# try_compile projects read this file again: pass the architecture on.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES SPX_MACOS_ARCH)

get_filename_component(SPX_MACOS_TOOLS "${CMAKE_CURRENT_LIST_DIR}/../../build/macos-tools/bin"
  ABSOLUTE)
set(CMAKE_C_COMPILER ${SPX_MACOS_TOOLS}/${SPX_MACOS_ARCH}-macos-cc)
set(CMAKE_AR ${SPX_MACOS_TOOLS}/zig-ar CACHE FILEPATH "ar for Mach-O archives")
set(CMAKE_RANLIB ${SPX_MACOS_TOOLS}/zig-ranlib CACHE FILEPATH "ranlib")
# Zig brings its own SDK: no Xcode sysroot, no -arch (the target says it).
set(CMAKE_OSX_SYSROOT "" CACHE PATH "")
set(CMAKE_OSX_ARCHITECTURES "" CACHE STRING "")
set(CMAKE_OSX_DEPLOYMENT_TARGET "" CACHE STRING "")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# The cross-built dependencies are found through their pkg-config files
# (PKG_CONFIG_LIBDIR), outside any root path; nothing else of the host's.
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

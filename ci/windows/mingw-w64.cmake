# mingw-w64.cmake: the CMake toolchain file for cross-building Semaprax and its
# dependencies for 64-bit Windows on Debian (gcc-mingw-w64-x86-64). Tests run
# through Wine (ctest's CMAKE_CROSSCOMPILING_EMULATOR, ci/windows/wine-run).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(SPX_MINGW_TRIPLET x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${SPX_MINGW_TRIPLET}-gcc)
set(CMAKE_RC_COMPILER ${SPX_MINGW_TRIPLET}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${SPX_MINGW_TRIPLET})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# BOTH: the cross-built dependencies sit outside the root path, in the
# prefix their pkg-config files (PKG_CONFIG_LIBDIR) name.
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/wine-run)

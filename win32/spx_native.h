/*
 * spx_native.h: the Windows handle types of the held structures
 * (platform/spx_files.h, which the build gives this header instead of
 * posix/'s): a held object is an open HANDLE; a directory and a temp file
 * also keep their "\\?\" UTF-16 path (win32/files.c: the children's paths,
 * and deleting a temp file whose handle is gone).
 */
#ifndef SPX_NATIVE_H
#define SPX_NATIVE_H

#include <windows.h>

typedef HANDLE spx_native_t;
#define SPX_NATIVE_CLOSED INVALID_HANDLE_VALUE

typedef const wchar_t *spx_native_path_t;

/* What a single path component must not contain: the separators, and ':'
 * (which would name an alternate data stream). */
#define SPX_NATIVE_SEPARATORS "/\\:"

#endif /* SPX_NATIVE_H */

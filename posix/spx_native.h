/*
 * spx_native.h: the POSIX handle types of the held structures
 * (platform/spx_files.h, which the build gives this header instead of
 * win32/'s): a held object is an open file descriptor.
 */
#ifndef SPX_NATIVE_H
#define SPX_NATIVE_H

typedef int spx_native_t; /* an open file descriptor */
#define SPX_NATIVE_CLOSED (-1)

/* Descriptors name everything: POSIX keeps no path of its own (NULL). */
typedef const char *spx_native_path_t;

/* What a single path component must not contain. */
#define SPX_NATIVE_SEPARATORS "/"

#endif /* SPX_NATIVE_H */

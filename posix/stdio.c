/*
 * stdio.c: the POSIX side of binary standard streams and program arguments:
 * POSIX never translates line ends, and argv is already the bytes the
 * system gave, so there is nothing to do.
 */
#include "spx_platform.h"

void spx_stdio_binary_mode(void)
{
}

const char *const *spx_arguments_utf8(int argc, const char *const *argv, apr_pool_t *pool)
{
    (void)argc;
    (void)pool;
    return argv;
}

/*
 * stdio.c: the Windows side of binary standard streams: the C runtime opens
 * stdin, stdout and stderr in text mode, which would turn every LF the
 * programs print into CRLF (and drop CR on input); _setmode makes them
 * binary, so the bytes are the same as on POSIX.
 */
#include "spx_platform.h"

#include <fcntl.h>
#include <io.h>
#include <stdio.h>

void spx_stdio_binary_mode(void)
{
    fflush(stdout);
    fflush(stderr);
    (void)_setmode(_fileno(stdin), _O_BINARY);
    (void)_setmode(_fileno(stdout), _O_BINARY);
    (void)_setmode(_fileno(stderr), _O_BINARY);
}

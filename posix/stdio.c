/*
 * stdio.c: the POSIX side of binary standard streams: POSIX never translates
 * line ends, so there is nothing to do.
 */
#include "spx_platform.h"

void spx_stdio_binary_mode(void)
{
}

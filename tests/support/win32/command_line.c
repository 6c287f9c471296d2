/*
 * command_line.c: what arguments a test may give a program it starts, on
 * Windows (spx_process.h): a command line is at most 32,767 UTF-16 units
 * (CreateProcessW), so arguments past that cannot be given at all; and they
 * travel as UTF-16, so bytes that are not UTF-8 cannot be given either.
 * Windows test build.
 */
#include "spx_process.h"

apr_size_t spx_command_line_limit(void)
{
    return 32767;
}

int spx_command_line_takes_bytes(void)
{
    return 0;
}
